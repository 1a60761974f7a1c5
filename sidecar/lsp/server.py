"""The LSP transport: pygls over stdio, dispatching by the shared route table.

Only this package imports pygls and lsprotocol. Custom params arrive as plain dicts (the
converter below keeps them so, instead of pygls' namedtuples that mangle ``_meta``) and are
decoded by the contract; LSP's own notifications (documents, watched files) arrive typed by
lsprotocol and are restated in the contract's shapes.

Start-up loads what the ``initialize`` answer needs and no more: the session service, its
settings and the route table are built right after that answer is written (or by the first
message that needs them, whichever comes first), and the provider SDKs then load in a thread.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any, Callable, Generator

import attrs
from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcRequestCancelled
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer
from pygls.protocol import (
    JsonRPCNotification,
    JsonRPCRequestMessage,
    JsonRPCResponseMessage,
    LanguageServerProtocol,
    lsp_method,
)

from sidecar import __version__
from sidecar.contract import methods as m
from sidecar.contract.errors import INTERNAL_ERROR, InvalidParams, SidecarError
from sidecar.contract.uris import uri_to_path
from sidecar.contract.version import PROTOCOL_VERSION, PROVIDERS
from sidecar.jsonrpc import describe, error_message, short
from sidecar.logs import open_log_file, setup_logging
from sidecar.lsp.stdio import LspIntake, read_stdio
from sidecar.sdk_warmup import SdkWarmUp

if TYPE_CHECKING:
    from sidecar.core.service import SessionService
    from sidecar.lsp.editor_client import LspEditor
    from sidecar.routes import Route

log = logging.getLogger(__name__)
SHUTDOWN_GRACE_SECONDS = 5.0
# What a message may weigh before the settings are read (Settings().transport's default).
DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024


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
        self.init_settings: dict[str, Any] | None = None
        self.workspace_root: str | None = None
        self.client_sidecar_caps: dict[str, Any] = {}
        # What initialize said, kept for the service, which is built after its answer.
        self.client_caps: types.ClientCapabilities | None = None
        self.editor_trust: dict[str, bool] = {}
        self.initialize_answered = False
        self.sdk = SdkWarmUp()
        self._editor: LspEditor | None = None
        self._service: SessionService | None = None

    @property
    def service(self) -> SessionService:
        if self._service is None:
            self._build_service()
            assert self._service is not None
        return self._service

    @property
    def editor(self) -> LspEditor:
        if self._editor is None:
            self._build_service()
            assert self._editor is not None
        return self._editor

    @property
    def service_built(self) -> bool:
        return self._service is not None

    def _build_service(self) -> None:
        """The engine, its adapters and the route table: loaded on first use, in the order
        initialize used to set them up (editor trust, client capabilities, then settings)."""
        if self._service is not None:
            return
        from sidecar.composition import default_adapters
        from sidecar.core.service import SessionService
        from sidecar.core.settings import Settings
        from sidecar.lsp.editor_client import LspEditor

        editor = LspEditor(self)
        service = SessionService(editor, Settings(), adapters=default_adapters())
        service.sdk_ready = self.sdk.ready
        self._editor, self._service = editor, service
        _register_routes(self)
        for folder, trusted in self.editor_trust.items():
            service.trust.set_editor(folder, trusted)
        if self.client_caps is not None:
            editor.configure(self.client_caps, self.client_sidecar_caps)
        if self.initialize_answered:
            self.apply_settings(None)

    def after_initialize(self) -> None:
        """Run once the initialize answer is written: build the engine, then start the
        SDKs' import in the background, so neither initialize nor the first prompt waits
        for them."""
        open_log_file()
        try:
            self._build_service()
        except Exception as exc:  # the first message that needs the service says why
            _log_failure("building the session service", exc)
            return
        assert self._service is not None
        self.sdk.start(self._service.settings.provider)

    def max_message_bytes(self) -> int:
        if self._service is None:
            return DEFAULT_MAX_MESSAGE_BYTES
        return self._service.settings.transport.maxMessageBytes

    def report_server_error(self, error: Exception, source: Any) -> None:
        log.warning("%s: %s", getattr(source, "__name__", source), short(str(error)))

    def apply_settings(self, editor_layer: Any) -> None:
        from sidecar.core.settings import resolve_settings

        settings, warnings = resolve_settings(self.workspace_root, self.init_settings, editor_layer)
        for warning in warnings:
            self.editor.show_message("warning", f"context-sidecar: {warning}")
        self.service.update_settings(settings)


# Params as LSP clients send them, restated where the contract spells them otherwise.
Shape = Callable[["SidecarServer", dict[str, Any]], dict[str, Any]]


def _load_in_workspace(ls: SidecarServer, p: dict[str, Any]) -> dict[str, Any]:
    """A load (or a trust) names no ``cwd`` over LSP: the workspace root is the folder."""
    return p if "cwd" in p else {**p, "cwd": ls.workspace_root}


SHAPES: dict[str, Shape] = {m.SESSION_LOAD: _load_in_workspace, m.TRUST_WORKSPACE: _load_in_workspace}


def _request(route: Route[Any]) -> Callable[..., Any]:
    shape = SHAPES.get(route.method)

    async def handler(ls: SidecarServer, params: Any) -> Any:
        from sidecar.contract.decoding import params_object

        try:
            raw = params_object(params)
            return await route.serve(ls.service, shape(ls, raw) if shape else raw)
        except SidecarError as exc:
            raise JsonRpcException(message=exc.message, code=exc.code, data=exc.data) from exc

    return handler


def _notify(ls: SidecarServer, method: str, params: Any) -> Any:
    """Make a notification's call now; its awaitable, if any, is for the caller to await.
    Params that do not fit are dropped: a notification is never answered."""
    from sidecar.routes import ROUTES

    route = ROUTES[method]
    try:
        return route.invoke(ls.service, route.decode(params))
    except InvalidParams as exc:
        log.info("%s ignored: %s", method, exc.message)
        return None


def _register_routes(server: SidecarServer) -> None:
    """The contract's requests, served once the service is built. The intake builds it
    before it looks for a handler of anything sent after initialize."""
    from sidecar.routes import REQUESTS

    for route in REQUESTS:
        server.feature(route.method)(_request(route))


def build_server() -> SidecarServer:
    server = SidecarServer()

    @server.feature(types.INITIALIZE)
    def on_initialize(ls: SidecarServer, params: types.InitializeParams) -> None:
        options = params.initialization_options
        if isinstance(options, dict):
            ls.init_settings = options.get("settings") if isinstance(options.get("settings"), dict) else None
        folders = params.workspace_folders or []
        if folders:
            ls.workspace_root = str(uri_to_path(folders[0].uri))
        elif params.root_uri:
            ls.workspace_root = str(uri_to_path(params.root_uri))
        # The editor's own trust verdict (VS Code's Workspace Trust, Neovim's trust
        # database) for every folder it opened.
        trusted = options.get("workspaceTrusted") if isinstance(options, dict) else None
        if isinstance(trusted, bool):
            for folder in [str(uri_to_path(f.uri)) for f in folders] or [ls.workspace_root or ""]:
                if folder:
                    ls.editor_trust[folder] = trusted
        experimental = params.capabilities.experimental
        if isinstance(experimental, dict) and isinstance(experimental.get("contextSidecar"), dict):
            ls.client_sidecar_caps = experimental["contextSidecar"]
        ls.client_caps = params.capabilities
        ls.initialize_answered = True
        # pygls writes the answer when this returns; the engine is built just after.
        try:
            asyncio.get_running_loop().call_soon(ls.after_initialize)
        except RuntimeError:  # no loop (a test calling the handler): the first use builds it
            pass

    @server.feature(types.INITIALIZED)
    async def on_initialized(ls: SidecarServer, params: Any) -> None:
        await _pull_configuration(ls)
        if ls.service_built:  # the editor's own settings may name another provider
            ls.sdk.start(ls.service.settings.provider)

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def on_config(ls: SidecarServer, params: types.DidChangeConfigurationParams) -> None:
        from sidecar.core.settings import SECTION

        if ls.editor.supports_configuration:
            await _pull_configuration(ls)
        else:
            settings = params.settings if isinstance(params.settings, dict) else None
            ls.apply_settings(settings.get(SECTION) if settings and isinstance(settings.get(SECTION), dict) else settings)

    @server.feature(m.SESSION_CANCEL)
    async def on_cancel(ls: SidecarServer, params: Any) -> None:
        from sidecar.routes import settle

        await settle(_notify(ls, m.SESSION_CANCEL, params))

    # pygls keeps the open documents (its workspace) before these run; they pass the text
    # it holds, so both transports tell the service the same things.
    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def on_open(ls: SidecarServer, params: types.DidOpenTextDocumentParams) -> None:
        doc = params.text_document
        _notify(ls, m.DOCUMENT_DID_OPEN, {"uri": doc.uri, "text": doc.text})

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def on_change(ls: SidecarServer, params: types.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        try:
            changes = [{"text": ls.workspace.get_text_document(uri).source}]
        except Exception:  # pygls lost the document: the change still counts, textless
            changes = []
        _notify(ls, m.DOCUMENT_DID_CHANGE, {"uri": uri, "contentChanges": changes})

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def on_close(ls: SidecarServer, params: types.DidCloseTextDocumentParams) -> None:
        _notify(ls, m.DOCUMENT_DID_CLOSE, {"uri": params.text_document.uri})

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def on_watched(ls: SidecarServer, params: types.DidChangeWatchedFilesParams) -> None:
        _notify(ls, m.FILES_DID_CHANGE,
                {"changes": [{"uri": c.uri, "type": int(c.type)} for c in params.changes]})

    @server.feature(types.SHUTDOWN)
    async def on_shutdown(ls: SidecarServer, params: Any) -> None:
        if ls.service_built:
            await ls.service.shutdown()

    return server


async def _pull_configuration(ls: SidecarServer) -> None:
    from sidecar.core.settings import SECTION

    if not ls.editor.supports_configuration:
        return
    try:
        result = await ls.workspace_configuration_async(
            types.ConfigurationParams(items=[types.ConfigurationItem(section=SECTION)])
        )
    except Exception as exc:  # an editor without the section answers errors or null
        log.info("workspace/configuration failed: %s", exc)
        return
    value = result[0] if isinstance(result, (list, tuple)) and result else None
    if isinstance(value, dict) and value:
        ls.apply_settings(value)


async def serve_stdio(server: SidecarServer) -> int:
    server.protocol.set_writer(StdoutWriter(sys.stdout.buffer))
    intake = LspIntake(server.protocol, prepare=lambda: server.service)
    code = await read_stdio(intake, sys.stdin.buffer, server.max_message_bytes)
    if not intake.shutdown_seen and server.service_built:
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
