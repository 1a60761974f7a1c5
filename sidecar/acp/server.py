"""``context-sidecar serve --acp``: ACP v1 over stdio, on the same session service as LSP.

Standard ACP methods map onto ``SessionService``; the sidecar's extras are ``_sidecar/...``
methods. Settings come from the user file, the workspace file of the session's ``cwd`` and
``CONTEXT_SIDECAR_SETTINGS`` (ACP has no configuration channel).
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from pathlib import Path
from typing import Any, Awaitable, Callable
from urllib.parse import unquote, urlparse

from sidecar import __version__
from sidecar.acp import payloads
from sidecar.acp.editor import AcpEditor, current_session
from sidecar.acp.rpc import JsonRpcPeer, MethodNotFound, after_answer
from sidecar.providers.registry import PROVIDERS
from sidecar.core.errors import InvalidParams, params_object
from sidecar.composition import default_adapters
from sidecar.core.service import SessionService
from sidecar.core.settings import Settings, resolve_settings
from sidecar.protocol.logging_setup import setup_logging
from sidecar.protocol.warmup import SdkWarmUp

log = logging.getLogger(__name__)
# The peer reads in chunks and bounds each line itself; this only caps what the pipe's
# reader buffers before it stops reading.
PIPE_BUFFER = 1024 * 1024

Handler = Callable[[dict[str, Any]], Awaitable[Any]]


def _sidecar_meta(p: dict[str, Any]) -> dict[str, Any]:
    meta = p.get("_meta")
    ours = meta.get("sidecar") if isinstance(meta, dict) else None
    return ours if isinstance(ours, dict) else {}


def _path_of(uri: Any) -> Path | None:
    if not isinstance(uri, str) or not uri:
        return None
    return Path(unquote(urlparse(uri).path)) if uri.startswith("file:") else Path(uri)


class AcpServer:
    def __init__(self, peer: JsonRpcPeer, environ: dict[str, str] | None = None) -> None:
        self.peer = peer
        self.editor = AcpEditor(peer)
        self.service = SessionService(self.editor, Settings(), adapters=default_adapters(),
                                      environ=environ)
        self._settings_cwd: str | None = None
        self.sdk = SdkWarmUp()
        self.service.sdk_ready = self.sdk.ready
        peer.max_bytes = lambda: self.service.settings.transport.maxMessageBytes
        self.requests: dict[str, Handler] = {
            "initialize": self.initialize,
            "authenticate": self.authenticate,
            "session/new": self.new_session,
            "session/load": self.load_session,
            "session/resume": self.resume_session,
            "session/list": self.list_sessions,
            "session/close": self.close_session,
            "session/delete": self.delete_session,
            "session/prompt": self.prompt,
            "session/set_model": self.set_model,
            "_sidecar/set_model": self.set_model,
            "_sidecar/gauge": self.gauge,
            "_sidecar/compact": self.compact,
            "_sidecar/context": self.context,
            "_sidecar/history/list": self.history_list,
            "_sidecar/history/undo": self.history_undo,
        }
        peer.on_request = self.on_request
        peer.on_notification = self.on_notification
        peer.on_cancel = self.on_cancel

    # ----- dispatch -----------------------------------------------------------------

    async def on_request(self, method: str, params: Any) -> Any:
        handler = self.requests.get(method)
        if handler is None:
            raise MethodNotFound(method)
        p = params_object(params)
        if isinstance(p.get("sessionId"), str):
            current_session.set(p["sessionId"])  # this request's task only
        return await handler(p)

    async def on_notification(self, method: str, params: Any) -> None:
        p = params if isinstance(params, dict) else {}
        if method == "session/cancel":
            await self._cancel(p.get("sessionId"))
        elif method == "document/didOpen":
            path = _path_of(p.get("uri"))
            if path is not None and isinstance(p.get("text"), str):
                self.editor.document_opened(path, p["text"])
        elif method == "document/didChange":
            self._document_changed(p)
        elif method == "document/didClose":
            path = _path_of(p.get("uri"))
            if path is not None:
                self.editor.document_closed(path)
        else:
            log.debug("ignored notification %s", method)

    def on_cancel(self, method: str, params: Any) -> bool:
        """``$/cancel_request``: a turn winds down and answers "cancelled"; the rest stop."""
        if method == "session/prompt" and isinstance(params, dict):
            asyncio.ensure_future(self._cancel(params.get("sessionId")))
            return True
        return False

    async def _cancel(self, session_id: Any) -> None:
        if not isinstance(session_id, str):
            return
        # Withdraw our own pending questions first (a permission dialog), so the turn is
        # not left waiting on a client that already considers it over.
        self.peer.cancel_outgoing(session_id)
        await self.service.cancel(session_id)

    def _document_changed(self, p: dict[str, Any]) -> None:
        path = _path_of(p.get("uri"))
        changes = p.get("contentChanges")
        if path is None or not isinstance(changes, list):
            return
        for session in self.service.sessions.values():
            session.file_state.mark_stale(path)
        last = changes[-1] if changes else None
        whole = isinstance(last, dict) and last.get("range") is None and isinstance(last.get("text"), str)
        if whole:
            self.editor.document_opened(path, last["text"])
        else:
            # Ranged edits are not replayed here; the next read asks the client instead.
            self.editor.document_closed(path)

    # ----- settings -----------------------------------------------------------------

    def _settings_for(self, cwd: Any) -> None:
        """Settings of the workspace a session opens in (file and environment layers)."""
        workspace = cwd if isinstance(cwd, str) and os.path.isabs(cwd) else None
        if workspace == self._settings_cwd and self._settings_cwd is not None:
            return
        self._settings_cwd = workspace
        settings, warnings = resolve_settings(workspace)
        for warning in warnings:
            self.editor.show_message("warning", f"context-sidecar: {warning}")
        if settings == self.service.settings:  # dataclass equality: nothing changed
            return
        if settings.storageDir != self.service.settings.storageDir:
            self.service.update_settings(settings)
        else:
            # New sessions take the workspace's settings; open ones keep theirs.
            self.service.settings = settings

    # ----- lifecycle ----------------------------------------------------------------

    async def initialize(self, p: dict[str, Any]) -> Any:
        version = p.get("protocolVersion")
        if not isinstance(version, int) or isinstance(version, bool):
            raise InvalidParams("protocolVersion is required and must be an integer")
        self.editor.configure(p.get("clientCapabilities"))
        self.sdk.start()
        self._settings_for(None)
        self._settings_cwd = None
        info = p.get("clientInfo")
        name = info.get("name") if isinstance(info, dict) else None
        log.info("ACP client %s (protocol %s)", str(name)[:80], version)
        return payloads.initialize_result(list(PROVIDERS))

    async def authenticate(self, p: dict[str, Any]) -> Any:
        return {}  # keys come from the environment; nothing to sign in to

    def _deferred(self) -> list[tuple[str, dict[str, Any]]]:
        """Collect this request's session updates and send them after its answer.

        A client learns a new session's id from the ``session/new`` answer; updates about
        it that arrive first could be dropped as belonging to an unknown session.
        """
        buffer: list[tuple[str, dict[str, Any]]] = []
        self.editor.defer(buffer)

        def flush() -> None:
            for session_id, update in buffer:
                self.editor.send_now(session_id, update)

        after_answer(flush)
        return buffer

    async def new_session(self, p: dict[str, Any]) -> Any:
        extra = _sidecar_meta(p)
        self._settings_for(p.get("cwd"))
        self._deferred()
        answer = self.service.new_session(p.get("cwd"), extra.get("model"), extra.get("provider"),
                                          extra.get("title"))
        current_session.set(answer["sessionId"])
        self.editor.flush_held_messages(answer["sessionId"])
        return payloads.session_opened(answer, with_id=True)

    async def load_session(self, p: dict[str, Any]) -> Any:
        self._settings_for(p.get("cwd"))
        answer = await self.service.load_session(p.get("sessionId"), p.get("cwd"))
        self.editor.flush_held_messages(answer["sessionId"])
        return payloads.session_opened(answer, with_id=False)

    async def resume_session(self, p: dict[str, Any]) -> Any:
        session_id = p.get("sessionId")
        self._settings_for(p.get("cwd"))
        if isinstance(session_id, str):
            self.editor.muted.add(session_id)
        try:
            answer = await self.service.load_session(session_id, p.get("cwd"))
        finally:
            if isinstance(session_id, str):
                self.editor.muted.discard(session_id)
        self.editor.flush_held_messages(answer["sessionId"])
        return payloads.session_opened(answer, with_id=False)

    async def list_sessions(self, p: dict[str, Any]) -> Any:
        answer = await asyncio.to_thread(self.service.list_sessions, p.get("cwd"))
        return payloads.session_list(answer["sessions"], p.get("cursor"))

    async def close_session(self, p: dict[str, Any]) -> Any:
        self.peer.cancel_outgoing(str(p.get("sessionId")))
        return await self.service.close_session(p.get("sessionId"))

    async def delete_session(self, p: dict[str, Any]) -> Any:
        return await self.service.delete_session(p.get("sessionId"))

    # ----- turns and extras ---------------------------------------------------------

    async def prompt(self, p: dict[str, Any]) -> Any:
        return payloads.prompt_result(await self.service.prompt(p.get("sessionId"), p.get("prompt")))

    async def set_model(self, p: dict[str, Any]) -> Any:
        model = p.get("model", p.get("modelId"))
        return self.service.set_model(p.get("sessionId"), model, p.get("provider"))

    async def gauge(self, p: dict[str, Any]) -> Any:
        return self.service.gauge(p.get("sessionId"))

    async def compact(self, p: dict[str, Any]) -> Any:
        return await self.service.compact(p.get("sessionId"), p.get("instructions"))

    async def context(self, p: dict[str, Any]) -> Any:
        return await self.service.context_view(p.get("sessionId"))

    async def history_list(self, p: dict[str, Any]) -> Any:
        return await self.service.history_list(p.get("limit"), p.get("project"))

    async def history_undo(self, p: dict[str, Any]) -> Any:
        return await self.service.history_undo()


async def _stdio() -> tuple[asyncio.StreamReader, Callable[[bytes], None]]:
    """Protocol streams on the real stdin/stdout; fd 1 then points at stderr.

    Anything that prints (a library, a tool's child process inheriting fd 1) lands in the
    log instead of corrupting the protocol stream.
    """
    loop = asyncio.get_running_loop()
    out_fd = os.dup(sys.stdout.fileno())
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    sys.stdout = sys.stderr
    reader = asyncio.StreamReader(limit=PIPE_BUFFER)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    transport, _ = await loop.connect_write_pipe(asyncio.Protocol, os.fdopen(out_fd, "wb", buffering=0))
    return reader, transport.write  # type: ignore[attr-defined]


async def run_acp() -> int:
    reader, write = await _stdio()

    async def unset(*_: Any) -> Any:  # replaced by AcpServer before the first read
        raise MethodNotFound("not ready")

    peer = JsonRpcPeer(reader, write, unset, unset)
    server = AcpServer(peer)
    log.info("context-sidecar %s serving ACP over stdio", __version__)
    try:
        await peer.run()
    finally:
        try:
            await server.service.shutdown()
        except Exception:
            log.exception("shutdown failed")
        await peer.close()
    return 0


def serve_acp(log_file: str | None = None, log_level: str = "INFO") -> int:
    setup_logging(log_file, log_level)
    try:
        return asyncio.run(run_acp())
    except KeyboardInterrupt:
        return 0

