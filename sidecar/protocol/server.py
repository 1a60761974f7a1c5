"""The LSP transport: pygls over stdio, handlers adapting to the session service.

Only this package imports pygls and lsprotocol. Custom params arrive as plain dicts (the
converter below keeps them so, instead of pygls' namedtuples that mangle ``_meta``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from concurrent.futures import Future
from pathlib import Path
from typing import Any, Awaitable, Callable, Generator
from urllib.parse import unquote, urlparse

import attrs
from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcRequestCancelled
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer
from pygls.protocol import JsonRPCNotification, JsonRPCRequestMessage, JsonRPCResponseMessage
from pygls.protocol import LanguageServerProtocol, lsp_method

from sidecar import PROTOCOL_VERSION, __version__
from sidecar.providers.registry import PROVIDERS
from sidecar.core.errors import SidecarError, params_object
from sidecar.composition import default_adapters
from sidecar.core.service import SessionService
from sidecar.core.settings import Settings, resolve_settings
from sidecar.protocol import methods as m
from sidecar.protocol.editor_client import LspEditor
from sidecar.protocol.envelope import INTERNAL_ERROR, describe, error_message, short
from sidecar.protocol.logging_setup import setup_logging
from sidecar.protocol.stdio import LspIntake, read_stdio
from sidecar.protocol.warmup import SdkWarmUp

log = logging.getLogger(__name__)
SHUTDOWN_GRACE_SECONDS = 5.0


def _converter() -> Any:
    from lsprotocol import converters

    converter = converters.get_converter()

    def keep_params(obj: dict[str, Any], cls: type) -> Any:
        # JSON-RPC lets a request omit params; keys that are no field are not ours to keep.
        return cls(**{f.name: obj.get(f.name) for f in attrs.fields(cls)})

    for cls in (JsonRPCRequestMessage, JsonRPCNotification, JsonRPCResponseMessage):
        converter.register_structure_hook(cls, keep_params)
    return converter


class SidecarProtocol(LanguageServerProtocol):
    """Adds the sidecar's own capabilities to the initialize result."""

    @lsp_method(types.INITIALIZE)
    def lsp_initialize(self, params: types.InitializeParams) -> Generator[Any, Any, types.InitializeResult]:
        result = yield from super().lsp_initialize(params)
        result.capabilities.experimental = {
            "contextSidecar": {"protocolVersion": PROTOCOL_VERSION, "providers": list(PROVIDERS)}
        }
        return result

    # pygls logs a full traceback for every error answer and drops an answer it cannot
    # encode; a client sending thousands of bad requests must get answers, not a log flood.
    def _send_handler_result(self, future: Future[Any], *, msg_id: Any) -> None:
        self._request_futures.pop(msg_id, None)
        if future.cancelled():
            error = JsonRpcRequestCancelled(f"Request {msg_id!r} was cancelled").to_response_error()
            self._send_response(msg_id, error=error)
            return
        exc = future.exception()
        if exc is None:
            self._send_response(msg_id, result=future.result())
        elif isinstance(exc, JsonRpcException):
            log.info("request %s answered %s: %s", describe(msg_id), exc.code, short(exc.message))
            self._send_response(msg_id, error=exc.to_response_error())
        else:
            _log_failure(f"request {describe(msg_id)}", exc)
            self._send_response(msg_id, error=types.ResponseError(
                code=INTERNAL_ERROR, message=short(f"{type(exc).__name__}: {exc}")))

    def _send_data(self, data: Any) -> None:
        if not data or self.writer is None:
            return
        try:
            body = json.dumps(data, default=self._serialize_message)
        except Exception as exc:  # pygls' fallback encoder raises AttributeError on a set
            if isinstance(data, dict):
                rid, answer = data.get("id"), "result" in data or "error" in data
            else:
                rid, answer = getattr(data, "id", None), hasattr(data, "result") or hasattr(data, "error")
            log.error("message to %s is not JSON: %s", describe(rid), short(str(exc)))
            if rid is None or not answer:
                return
            body = json.dumps(error_message(rid, INTERNAL_ERROR, "the answer could not be encoded"))
        raw = body.encode(self.CHARSET)
        header = f"Content-Length: {len(raw)}\r\nContent-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n"
        try:
            self.writer.write(header.encode("ascii") + raw)
        except (OSError, ValueError) as exc:  # the client closed its end
            log.warning("cannot write to the client: %s", exc)


_logged_failures: set[tuple[str, str]] = set()


def _log_failure(what: str, exc: BaseException) -> None:
    """A short line each time; the traceback once per kind and place, so bugs stay findable."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    where = f"{tb.tb_frame.f_code.co_filename}:{tb.tb_lineno}" if tb is not None else "?"
    key = (type(exc).__name__, where)
    first = key not in _logged_failures
    _logged_failures.add(key)
    log.error("%s failed: %s", what, short(f"{type(exc).__name__}: {exc}"), exc_info=exc if first else None)


class SidecarServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("context-sidecar", __version__, protocol_cls=SidecarProtocol,
                         converter_factory=_converter)
        self.editor = LspEditor(self)
        self.service = SessionService(self.editor, Settings(), adapters=default_adapters())
        self.init_settings: dict[str, Any] | None = None
        self.workspace_root: str | None = None
        self.client_sidecar_caps: dict[str, Any] = {}
        self.sdk = SdkWarmUp()
        self.service.sdk_ready = self.sdk.ready

    def report_server_error(self, error: Exception, source: Any) -> None:
        log.warning("%s: %s", getattr(source, "__name__", source), short(str(error)))

    def apply_settings(self, editor_layer: Any) -> None:
        settings, warnings = resolve_settings(self.workspace_root, self.init_settings, editor_layer)
        for warning in warnings:
            self.editor.show_message("warning", f"context-sidecar: {warning}")
        self.service.update_settings(settings)


def _wire(fn: Callable[[dict[str, Any]], Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    async def handler(ls: SidecarServer, params: Any) -> Any:
        try:
            return await fn(params_object(params))
        except SidecarError as exc:
            raise JsonRpcException(message=exc.message, code=exc.code, data=exc.data) from exc

    return handler


def build_server() -> SidecarServer:
    server = SidecarServer()
    svc = server.service

    @server.feature(types.INITIALIZE)
    def on_initialize(ls: SidecarServer, params: types.InitializeParams) -> None:
        options = params.initialization_options
        if isinstance(options, dict):
            ls.init_settings = options.get("settings") if isinstance(options.get("settings"), dict) else None
        folders = params.workspace_folders or []
        if folders:
            ls.workspace_root = unquote(urlparse(folders[0].uri).path)
        elif params.root_uri:
            ls.workspace_root = unquote(urlparse(params.root_uri).path)
        experimental = params.capabilities.experimental
        if isinstance(experimental, dict) and isinstance(experimental.get("contextSidecar"), dict):
            ls.client_sidecar_caps = experimental["contextSidecar"]
        ls.editor.configure(params.capabilities, ls.client_sidecar_caps)
        ls.apply_settings(None)

    @server.feature(types.INITIALIZED)
    async def on_initialized(ls: SidecarServer, params: Any) -> None:
        ls.sdk.start()
        await _pull_configuration(ls)

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def on_config(ls: SidecarServer, params: types.DidChangeConfigurationParams) -> None:
        if ls.editor.supports_configuration:
            await _pull_configuration(ls)
        else:
            settings = params.settings if isinstance(params.settings, dict) else None
            ls.apply_settings(settings.get(m.SECTION) if settings and isinstance(settings.get(m.SECTION), dict) else settings)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def on_watched(ls: SidecarServer, params: types.DidChangeWatchedFilesParams) -> None:
        paths = {Path(unquote(urlparse(c.uri).path)) for c in params.changes}
        svc.feed_client_changes(paths)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def on_change(ls: SidecarServer, params: types.DidChangeTextDocumentParams) -> None:
        path = Path(unquote(urlparse(params.text_document.uri).path))
        try:
            text: str | None = ls.workspace.get_text_document(params.text_document.uri).source
        except Exception:
            text = None
        # With the text, an editor echoing the sidecar's own edit does not count as a change.
        for session in svc.sessions.values():
            session.file_state.mark_stale(path, text)

    async def new(p: dict[str, Any]) -> Any:
        return svc.new_session(p.get("cwd"), p.get("model"), p.get("provider"), p.get("title"))

    async def load(p: dict[str, Any]) -> Any:
        return await svc.load_session(p.get("sessionId"), p.get("cwd", server.workspace_root))

    async def list_(p: dict[str, Any]) -> Any:
        return await asyncio.to_thread(svc.list_sessions, p.get("cwd"))

    async def close(p: dict[str, Any]) -> Any:
        return await svc.close_session(p.get("sessionId"))

    async def delete(p: dict[str, Any]) -> Any:
        return await svc.delete_session(p.get("sessionId"))

    async def prompt(p: dict[str, Any]) -> Any:
        return await svc.prompt(p.get("sessionId"), p.get("prompt"))

    async def set_model(p: dict[str, Any]) -> Any:
        return svc.set_model(p.get("sessionId"), p.get("model"), p.get("provider"))

    async def gauge(p: dict[str, Any]) -> Any:
        return svc.gauge(p.get("sessionId"))

    async def compact(p: dict[str, Any]) -> Any:
        return await svc.compact(p.get("sessionId"), p.get("instructions"),
                                 work_done_token=p.get("workDoneToken"))

    async def context(p: dict[str, Any]) -> Any:
        return await svc.context_view(p.get("sessionId"))

    async def history_list(p: dict[str, Any]) -> Any:
        return await svc.history_list(p.get("limit"), p.get("project"))

    async def history_undo(p: dict[str, Any]) -> Any:
        return await svc.history_undo()

    for method, fn in (
        (m.SESSION_NEW, new), (m.SESSION_LOAD, load), (m.SESSION_LIST, list_),
        (m.SESSION_CLOSE, close), (m.SESSION_DELETE, delete), (m.SESSION_PROMPT, prompt),
        (m.SESSION_SET_MODEL, set_model), (m.GAUGE, gauge), (m.COMPACT, compact),
        (m.CONTEXT, context), (m.HISTORY_LIST, history_list), (m.HISTORY_UNDO, history_undo),
    ):
        server.feature(method)(_wire(fn))

    @server.feature(m.SESSION_CANCEL)
    async def on_cancel(ls: SidecarServer, params: Any) -> None:
        if isinstance(params, dict):
            await svc.cancel(params.get("sessionId"))

    @server.feature(types.SHUTDOWN)
    async def on_shutdown(ls: SidecarServer, params: Any) -> None:
        await svc.shutdown()

    return server


async def _pull_configuration(ls: SidecarServer) -> None:
    if not ls.editor.supports_configuration:
        return
    try:
        result = await ls.workspace_configuration_async(
            types.ConfigurationParams(items=[types.ConfigurationItem(section=m.SECTION)])
        )
    except Exception as exc:  # an editor without the section answers errors or null
        log.info("workspace/configuration failed: %s", exc)
        return
    value = result[0] if isinstance(result, (list, tuple)) and result else None
    if isinstance(value, dict) and value:
        ls.apply_settings(value)


async def serve_stdio(server: SidecarServer) -> int:
    server.protocol.set_writer(StdoutWriter(sys.stdout.buffer))
    intake = LspIntake(server.protocol)
    code = await read_stdio(intake, sys.stdin.buffer,
                            lambda: server.service.settings.transport.maxMessageBytes)
    if not intake.shutdown_seen:
        # The client went away without shutdown: still persist what the sessions hold.
        try:
            await asyncio.wait_for(server.service.shutdown(), SHUTDOWN_GRACE_SECONDS)
        except Exception as exc:
            log.warning("shutdown at end of input failed: %s", short(str(exc)))
    return code


def serve(log_file: str | None = None, log_level: str = "INFO") -> int:
    setup_logging(log_file, log_level)
    server = build_server()
    log.info("context-sidecar %s serving LSP over stdio", __version__)
    try:
        return asyncio.run(serve_stdio(server))
    except KeyboardInterrupt:
        return 0
