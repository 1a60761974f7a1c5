"""The LSP transport's read side: framing, JSON-RPC envelopes and the LSP lifecycle.

It stands in front of pygls' dispatch, which still routes requests to handlers and answers
to the futures of our own requests. Every request with a usable id gets exactly one answer:
a result, or the JSON-RPC / LSP error that says why not.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import os
import threading
from typing import IO, TYPE_CHECKING, Any, Callable

import cattrs
from lsprotocol.types import EXIT, INITIALIZE, METHOD_TO_TYPES, SHUTDOWN, ResponseError

from sidecar.contract.errors import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    SERVER_NOT_INITIALIZED,
)
from sidecar.jsonrpc import (
    Invalid,
    Notification,
    Request,
    Response,
    classify,
    describe,
    error_message,
    judge_unreadable,
    short,
)
from sidecar.lsp.framing import IDLE_SECONDS, Frame, FrameDecoder, Misframed

if TYPE_CHECKING:
    from pygls.protocol import LanguageServerProtocol

log = logging.getLogger(__name__)
READ_CHUNK = 64 * 1024


class BadParams(Exception):
    pass


class LspIntake:
    """Turns decoded frames into pygls calls or error answers."""

    def __init__(self, protocol: LanguageServerProtocol,
                 prepare: Callable[[], object] | None = None) -> None:
        self.protocol = protocol
        # Called once before the first message after initialize is dispatched: the server
        # builds what initialize did not need (its handlers among it) there.
        self._prepare = prepare
        self.initialize_seen = False
        self.shutdown_seen = False
        self.exit_code: int | None = None

    def take(self, event: Frame | Misframed) -> None:
        if isinstance(event, Misframed):
            self._unreadable(judge_unreadable(event.head, event.whole, event.reason))
        elif event.error is not None:
            self._unreadable(judge_unreadable(event.head, False, event.error))
        else:
            self.message(event.value)

    def message(self, value: Any) -> None:
        message = classify(value)
        if isinstance(message, Request):
            self._request(message)
        elif isinstance(message, Notification):
            self._notification(message)
        elif isinstance(message, Response):
            self._response(message)
        else:
            self._invalid(message)

    # ----- kinds ------------------------------------------------------------------------

    def _request(self, req: Request) -> None:
        if _lsp_kind(req.method) == "notification":
            # pygls would run it: "exit" sent with an id would end the process unanswered.
            self._refuse(req, INVALID_REQUEST, f"{short(req.method, 80)} is a notification, not a request")
            return
        if self.shutdown_seen:
            self._refuse(req, INVALID_REQUEST, "the server is shutting down: no request after shutdown")
            return
        if req.method == INITIALIZE:
            if self.initialize_seen:
                self._refuse(req, INVALID_REQUEST, "initialize may only be sent once")
                return
        elif not self.initialize_seen:
            self._refuse(req, SERVER_NOT_INITIALIZED, "the server is not initialized: send initialize first")
            return
        else:
            try:
                self._ready()
            except Exception as exc:
                log.exception("the server could not get ready")
                self._refuse(req, INTERNAL_ERROR, short(f"the server could not start: {type(exc).__name__}: {exc}"))
                return
        if not self._has_handler(req.method):
            self._refuse(req, METHOD_NOT_FOUND, f"Method not found: {short(req.method, 80)}")
            return
        try:
            params = self._typed_params(req.method, req.params, req.id)
        except BadParams as exc:
            self._refuse(req, INVALID_PARAMS, str(exc))
            return
        if req.method == INITIALIZE:
            self.initialize_seen = True
        elif req.method == SHUTDOWN:
            self.shutdown_seen = True
        contextvars.copy_context().run(self.protocol._handle_request, req.id, req.method, params)

    def _notification(self, note: Notification) -> None:
        if _lsp_kind(note.method) == "request":
            log.warning("notification %s dropped: it is a request", describe(method=note.method))
            return
        if note.method == EXIT:
            self.exit_code = 0 if self.shutdown_seen else 1
            return
        if not self.initialize_seen or self.shutdown_seen:
            # LSP: before initialize and after shutdown, notifications are dropped.
            when = "before initialize" if not self.initialize_seen else "after shutdown"
            log.info("notification %s %s dropped", describe(method=note.method), when)
            return
        self._ready()
        try:
            params = self._typed_params(note.method, note.params, None)
        except BadParams as exc:
            log.warning("notification %s dropped: %s", describe(method=note.method), exc)
            return
        contextvars.copy_context().run(self.protocol._handle_notification, note.method, params)

    def _response(self, res: Response) -> None:
        protocol = self.protocol
        if not self._is_ours(res.id):
            log.info("answer to an unknown request %s ignored", describe(res.id))
            return
        result_type = protocol._result_types.pop(res.id, None)
        if res.error is not None:
            err = res.error
            protocol._handle_response(res.id, None, ResponseError(code=err["code"], message=err["message"],
                                                                  data=err.get("data")))
            return
        result = res.result
        if result_type is not None:
            try:
                result = protocol._converter.structure(
                    {"jsonrpc": "2.0", "id": res.id, "result": res.result}, result_type).result
            except Exception as exc:
                self._fail_outgoing(res.id, f"malformed answer: {_why(exc)}")
                return
        protocol._handle_response(res.id, result)

    def _invalid(self, bad: Invalid) -> None:
        log.warning("invalid message: %s", bad.reason)
        if bad.response_id is not None:
            self._fail_outgoing(bad.response_id, f"malformed answer: {bad.reason}")
        if bad.answer:
            self.send(error_message(bad.answer_id, INVALID_REQUEST, bad.reason))

    # ----- helpers ----------------------------------------------------------------------

    def _unreadable(self, verdict: Any) -> None:
        log.warning("unreadable message: %s", verdict.log)
        if verdict.response_id is not None:
            self._fail_outgoing(verdict.response_id, "the answer arrived misframed")
        if verdict.answer is not None:
            self.send(verdict.answer)

    def _refuse(self, req: Request, code: int, message: str) -> None:
        log.warning("request %s refused: %s", describe(req.id, req.method), message)
        self.send(error_message(req.id, code, message))

    def _is_ours(self, rid: Any) -> bool:
        # pygls keeps the client's requests and ours in one table of futures; only ids
        # we sent (each has an entry for its result type) may be settled by an answer.
        return rid in self.protocol._result_types

    def _fail_outgoing(self, rid: Any, why: str) -> None:
        if self._is_ours(rid):
            self.protocol._result_types.pop(rid, None)
            self.protocol._handle_response(rid, None, ResponseError(code=INVALID_REQUEST, message=why))
        else:
            log.info("answer to an unknown request %s ignored", describe(rid))

    def _ready(self) -> None:
        prepare, self._prepare = self._prepare, None
        if prepare is not None:
            try:
                prepare()
            except BaseException:
                self._prepare = prepare  # the next message tries again
                raise

    def _has_handler(self, method: str) -> bool:
        fm = self.protocol.fm
        return method in fm.builtin_features or method in fm.features

    def _typed_params(self, method: str, params: Any, rid: Any) -> Any:
        """LSP's own methods get lsprotocol's types; the sidecar's keep plain JSON."""
        message_type = self.protocol.get_message_type(method)
        if message_type is None:
            return params
        raw: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params}
        if rid is not None:
            raw["id"] = rid
        try:
            return self.protocol._converter.structure(raw, message_type).params
        except Exception as exc:
            raise BadParams(f"invalid params for {short(method, 80)}: {_why(exc)}") from exc

    def send(self, message: dict[str, Any]) -> None:
        self.protocol._send_data(message)


def _lsp_kind(method: str) -> str | None:
    """``request`` or ``notification`` for LSP's own methods; None for any other."""
    entry = METHOD_TO_TYPES.get(method)
    if entry is None:
        return None
    return "notification" if entry[1] is None else "request"


def _why(exc: Exception) -> str:
    if isinstance(exc, cattrs.BaseValidationError):
        return short("; ".join(cattrs.transform_error(exc)))
    return short(f"{type(exc).__name__}: {exc}")


def _reader_thread(stream: IO[bytes], loop: asyncio.AbstractEventLoop, queue: asyncio.Queue[bytes]) -> None:
    """Blocking reads of stdin, handed to the loop one chunk at a time.

    A daemon thread: at ``exit`` the process must end even while this read still blocks.
    It reads the file descriptor, not the buffered stream, whose lock a read blocked at
    interpreter shutdown would hold (a fatal error then, not an exit).
    """
    fd = stream.fileno()
    while True:
        try:
            chunk = os.read(fd, READ_CHUNK)
        except (OSError, ValueError):
            chunk = b""
        try:
            # Waiting for the loop to take it keeps at most a few chunks in memory.
            asyncio.run_coroutine_threadsafe(queue.put(chunk), loop).result()
        except (RuntimeError, asyncio.CancelledError):
            return  # the loop is gone
        if not chunk:
            return


async def read_stdio(intake: LspIntake, stream: IO[bytes], max_bytes: Callable[[], int]) -> int:
    """Serve until ``exit`` or end of input; returns the process exit code."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[bytes] = asyncio.Queue(maxsize=4)
    threading.Thread(target=_reader_thread, args=(stream, loop, queue), name="stdin", daemon=True).start()
    decoder = FrameDecoder(max_bytes)
    while intake.exit_code is None:
        try:
            chunk: bytes | None = await asyncio.wait_for(queue.get(), IDLE_SECONDS if decoder.pending else None)
        except asyncio.TimeoutError:
            chunk = None
        if chunk is None:
            events = decoder.idle()
        elif chunk:
            events = decoder.feed(chunk)
        else:
            events = decoder.eof()
        for event in events:
            try:
                intake.take(event)
            except Exception:  # one message, however odd, never ends the server
                log.exception("could not handle an incoming message")
            if intake.exit_code is not None:
                break
        if chunk == b"":
            break
    return intake.exit_code if intake.exit_code is not None else 0
