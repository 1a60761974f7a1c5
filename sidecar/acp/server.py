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
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

from sidecar import __version__
from sidecar.acp import payloads
from sidecar.acp.config_options import MODEL_OPTION, config_options
from sidecar.acp.editor import AcpEditor, HeldUpdates, current_session
from sidecar.acp.rpc import JsonRpcPeer, MethodNotFound, after_answer
from sidecar.composition import default_adapters
from sidecar.contract import methods as m
from sidecar.contract.decoding import INTEGER, decode, params_object, wire
from sidecar.contract.errors import InvalidParams
from sidecar.contract.params import (
    DocumentChangeParams,
    DocumentCloseParams,
    DocumentOpenParams,
    ForkParams,
    LoadSessionParams,
    NewSessionParams,
    SessionParams,
)
from sidecar.contract.results import ModelList, PromptResult, SessionList, SessionOpened
from sidecar.contract.updates import agent_message_chunk
from sidecar.contract.version import PROVIDERS
from sidecar.core.conversation.messages import new_uuid
from sidecar.core.service import SessionService
from sidecar.core.settings import Settings, resolve_settings
from sidecar.logs import open_log_file, setup_logging
from sidecar.routes import NOTIFICATIONS, REQUESTS, ROUTES, Route, settle
from sidecar.sdk_warmup import SdkWarmUp

log = logging.getLogger(__name__)
# The peer reads in chunks and bounds each line itself; this only caps what the pipe's
# reader buffers before it stops reading.
PIPE_BUFFER = 1024 * 1024

Handler = Callable[[dict[str, Any]], Awaitable[Any]]
# A route's call as ACP frames it: the decoded params and the raw ones, the answer in ACP's shape.
Framing = Callable[[Route[Any], Any, dict[str, Any]], Awaitable[Any]]


@dataclass(frozen=True, kw_only=True)
class InitializeParams:
    """ACP's ``initialize``; the capabilities and client info are read leniently."""

    protocol_version: int = wire(INTEGER, required=True)


class AcpServer:
    def __init__(self, peer: JsonRpcPeer, environ: dict[str, str] | None = None) -> None:
        self.peer = peer
        self.editor = AcpEditor(peer)
        self.service = SessionService(self.editor, Settings(), adapters=default_adapters(),
                                      environ=environ)
        self._settings_cwd: str | None = None
        self._told_untrusted: set[str] = set()  # folders whose withheld parts were said
        self.sdk = SdkWarmUp()
        self.service.sdk_ready = self.sdk.ready
        peer.max_bytes = lambda: self.service.settings.transport.maxMessageBytes
        self.editor.forms.choices = self._choices
        # ACP's own methods, which no route serves.
        self.own: dict[str, Handler] = {
            "initialize": self.initialize,
            "authenticate": self.authenticate,
            "session/resume": self.resume_session,
            "session/set_config_option": self.set_config_option,
        }
        self.routes: dict[str, Route[Any]] = {payloads.acp_method(r.method): r for r in REQUESTS}
        self.routes[payloads.SET_MODEL_EXTENSION] = ROUTES[m.SESSION_SET_MODEL]
        self.routes[payloads.SET_TITLE_EXTENSION] = ROUTES[m.SESSION_SET_TITLE]
        self.routes[payloads.SESSION_FORK] = ROUTES[m.FORK]
        self.notifications = {r.method: r for r in NOTIFICATIONS if r.method in payloads.NOTIFICATIONS}
        # Where ACP differs from the plain call: params spelled its way, settings per
        # workspace, updates held until the answer, the answer's shape.
        self.framing: dict[str, Framing] = {
            m.SESSION_NEW: self._new_session,
            m.SESSION_LOAD: self._load_session,
            m.SESSION_LIST: self._list_sessions,
            m.SESSION_CLOSE: self._close_session,
            m.SESSION_PROMPT: self._prompt,
            m.FORK: self._fork,
        }
        self.params_in: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
            m.SESSION_NEW: payloads.new_session_params,
            m.SESSION_SET_MODEL: payloads.set_model_params,
            m.FORK: payloads.fork_params,
        }
        peer.on_request = self.on_request
        peer.on_notification = self.on_notification
        peer.on_cancel = self.on_cancel

    # ----- dispatch -----------------------------------------------------------------

    async def on_request(self, method: str, params: Any) -> Any:
        own = self.own.get(method)
        route = self.routes.get(method)
        if own is None and route is None:
            raise MethodNotFound(method)
        p = params_object(params)
        if isinstance(p.get("sessionId"), str):
            current_session.set(p["sessionId"])  # this request's task only
        if own is not None:
            return await own(p)
        assert route is not None
        shape = self.params_in.get(route.method)
        typed = route.decode(shape(p) if shape else p)
        framing = self.framing.get(route.method)
        if framing is not None:
            return await framing(route, typed, p)
        return await settle(route.invoke(self.service, typed))

    async def on_notification(self, method: str, params: Any) -> None:
        route = self.notifications.get(method)
        if route is None:
            log.debug("ignored notification %s", method)
            return
        try:
            typed = route.decode(params)
        except InvalidParams as exc:
            log.info("%s ignored: %s", method, exc.message)
            return
        if route.method == m.SESSION_CANCEL:
            await self._cancel(typed)
            return
        self._keep_buffer(typed)
        await settle(route.invoke(self.service, typed))

    def on_cancel(self, method: str, params: Any) -> bool:
        """``$/cancel_request``: a turn winds down and answers "cancelled"; the rest stop."""
        if method == m.SESSION_PROMPT and isinstance(params, dict):
            try:
                typed = decode(SessionParams, params)
            except InvalidParams:
                return True
            asyncio.ensure_future(self._cancel(typed))
            return True
        return False

    async def _cancel(self, p: SessionParams) -> None:
        # Withdraw our own pending questions first (a permission dialog), so the turn is
        # not left waiting on a client that already considers it over.
        self.peer.cancel_outgoing(p.session_id)
        await self.service.cancel(p)

    def _keep_buffer(self, p: Any) -> None:
        """The client's buffers, for file reads: ``document/did*`` keep the copy current."""
        if isinstance(p, DocumentOpenParams):
            self.editor.document_opened(p.path, p.text)
        elif isinstance(p, DocumentChangeParams):
            whole = p.whole_text
            if whole is not None:
                self.editor.document_opened(p.path, whole)
            else:
                # Ranged edits are not replayed here; the next read asks the client instead.
                self.editor.document_closed(p.path)
        elif isinstance(p, DocumentCloseParams):
            self.editor.document_closed(p.path)

    # ----- settings -----------------------------------------------------------------

    def _settings_for(self, cwd: str | None) -> None:
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
        # New sessions take the workspace's settings; open ones keep theirs, unless the
        # storage directory moved (their transcripts follow it).
        moved = settings.storageDir != self.service.settings.storageDir
        self.service.update_settings(settings, open_sessions=moved)

    # ----- lifecycle ----------------------------------------------------------------

    async def initialize(self, p: dict[str, Any]) -> Any:
        version = decode(InitializeParams, p).protocol_version
        self.editor.configure(p.get("clientCapabilities"))
        self._settings_for(None)
        self.sdk.start(self.service.settings.provider)
        self._settings_cwd = None
        info = p.get("clientInfo")
        name = info.get("name") if isinstance(info, dict) else None
        log.info("ACP client %s (protocol %s)", str(name)[:80], version)
        return payloads.initialize_result(list(PROVIDERS))

    async def authenticate(self, p: dict[str, Any]) -> Any:
        return {}  # keys come from the environment; nothing to sign in to

    def _deferred(self) -> HeldUpdates:
        """Collect this request's session updates and send them after its answer.

        A client learns a new session's id from the ``session/new`` answer; updates about
        it that arrive first could be dropped as belonging to an unknown session.
        """
        buffer = HeldUpdates()
        self.editor.defer(buffer)

        def flush() -> None:
            buffer.released = True
            for session_id, update in buffer.items:
                self.editor.send_now(session_id, update)

        after_answer(flush)
        return buffer

    async def _new_session(self, route: Route[Any], p: NewSessionParams, raw: dict[str, Any]) -> Any:
        self._settings_for(p.cwd)
        self._deferred()
        answer: SessionOpened = await settle(route.invoke(self.service, p))
        current_session.set(answer["sessionId"])
        self.editor.flush_held_messages(answer["sessionId"])
        await self._say_withheld(answer["sessionId"], p.cwd)
        return payloads.session_opened(answer, with_id=True, listing=self._choices(answer["sessionId"]))

    async def _say_withheld(self, session_id: str, cwd: str) -> None:
        """ACP has no trust of its own to pass: the user hears once per folder what an
        untrusted one did not get, and how to trust it."""
        from sidecar.core.accounting.context_view import withheld_view

        if cwd in self._told_untrusted:
            return
        trust, _, withheld = await asyncio.to_thread(
            withheld_view, self.service.trust, self.service.settings, cwd)
        if trust.trusted or not withheld:
            return
        self._told_untrusted.add(cwd)
        self.editor.session_update(session_id, agent_message_chunk(
            f"This folder is not trusted, so these are not applied: {'; '.join(withheld)}. "
            "Type /trust to trust it.\n\n", new_uuid()))

    async def _load_session(self, route: Route[Any], p: LoadSessionParams, raw: dict[str, Any]) -> Any:
        self._settings_for(p.cwd)
        answer: SessionOpened = await settle(route.invoke(self.service, p))
        self.editor.flush_held_messages(answer["sessionId"])
        return payloads.session_opened(answer, with_id=False,
                                       listing=self._choices(answer["sessionId"]))

    def _choices(self, session_id: str) -> ModelList | None:
        """What the model option offers: the list ``_sidecar/models`` answers, from memory."""
        session = self.service.sessions.get(session_id)
        return self.service.models.choices(session) if session is not None else None

    async def set_config_option(self, raw: dict[str, Any]) -> Any:
        """``session/set_config_option``: the one option is the model (``/model`` alike)."""
        if raw.get("configId") != MODEL_OPTION:
            raise InvalidParams(f"unknown config option {raw.get('configId')!r}; the only one is "
                                f"{MODEL_OPTION!r}", data={"field": "configId"})
        route = ROUTES[m.SESSION_SET_MODEL]
        p = route.decode({"sessionId": raw.get("sessionId"), "model": raw.get("value")})
        answer = await settle(route.invoke(self.service, p))
        gauge = answer["gauge"]
        return {"configOptions": config_options(gauge["provider"], gauge["model"],
                                                self._choices(p.session_id))}

    async def resume_session(self, raw: dict[str, Any]) -> Any:
        """A load without the transcript's replay."""
        route = ROUTES[m.SESSION_LOAD]
        p: LoadSessionParams = route.decode(raw)
        self.editor.muted.add(p.session_id)
        try:
            return await self._load_session(route, p, raw)
        finally:
            self.editor.muted.discard(p.session_id)

    async def _list_sessions(self, route: Route[Any], p: Any, raw: dict[str, Any]) -> Any:
        answer: SessionList = await settle(route.invoke(self.service, p))
        return payloads.session_list(answer["sessions"], raw.get("cursor"))

    async def _close_session(self, route: Route[Any], p: SessionParams, raw: dict[str, Any]) -> Any:
        self.peer.cancel_outgoing(p.session_id)
        return await settle(route.invoke(self.service, p))

    async def _fork(self, route: Route[Any], p: ForkParams, raw: dict[str, Any]) -> Any:
        """``session/fork`` (and ``_sidecar/fork``): answered as ``session/new`` is."""
        answer: SessionOpened = await settle(route.invoke(self.service, p))
        self.editor.flush_held_messages(answer["sessionId"])
        return payloads.session_opened(answer, with_id=True, listing=self._choices(answer["sessionId"]))

    async def _prompt(self, route: Route[Any], p: Any, raw: dict[str, Any]) -> Any:
        answer: PromptResult = await settle(route.invoke(self.service, p))
        return payloads.prompt_result(answer)


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
    open_log_file()
    try:
        return asyncio.run(run_acp())
    except KeyboardInterrupt:
        return 0

