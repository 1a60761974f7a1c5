"""JSON-RPC 2.0 in both directions over newline-delimited JSON (ACP's stdio framing).

pygls only speaks Content-Length framing, and the ACP SDK's connection neither routes
``$/cancel_request`` to the running handler nor keeps payloads as plain dicts, so the
transport runs this small peer: every incoming request is its own task (a long
``session/prompt`` never blocks ``session/cancel``), outgoing requests are futures keyed by
id, and notifications are written synchronously, in call order, because the editor port
sends them from synchronous code.
"""

from __future__ import annotations

import asyncio
import json
import logging
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable

from sidecar.acp.lines import LineDecoder, Overlong
from sidecar.contract.errors import (
    INTERNAL_ERROR,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    REQUEST_CANCELLED,
    SidecarError,
)
from sidecar.core.settings import Transport
from sidecar.jsonrpc import (
    Invalid,
    Notification,
    Request,
    Response,
    classify,
    describe,
    error_message,
    judge_unreadable,
    parse,
    short,
)

log = logging.getLogger(__name__)

CANCEL_METHOD = "$/cancel_request"
READ_CHUNK = 64 * 1024

RequestHandler = Callable[[str, Any], Awaitable[Any]]
NotificationHandler = Callable[[str, Any], Awaitable[None]]
# Called with (method, params) of a request the peer asked to cancel; True means the
# handler will wind down by itself (a turn answers stopReason "cancelled"), False means
# the peer task is cancelled outright.
CancelHook = Callable[[str, Any], bool]


_after_answer: ContextVar[list[Callable[[], None]] | None] = ContextVar("acp_after_answer", default=None)


def after_answer(callback: Callable[[], None]) -> None:
    """Run ``callback`` right after the current request's answer is written."""
    callbacks = _after_answer.get()
    if callbacks is None:
        raise RuntimeError("after_answer() outside a request handler")
    callbacks.append(callback)


class MethodNotFound(Exception):
    def __init__(self, method: str) -> None:
        super().__init__(f"Method not found: {method}")
        self.method = method


class RemoteError(Exception):
    """The other side answered one of our requests with an error."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.data = data


class PeerClosed(ConnectionError):
    """The other side went away before answering."""


class OutgoingCancelled(Exception):
    """We withdrew one of our own requests (``$/cancel_request`` sent)."""


@dataclass
class _Incoming:
    method: str
    params: Any
    task: asyncio.Task[None] | None = None
    cancelled: bool = False


@dataclass
class _Outgoing:
    method: str
    future: asyncio.Future[Any]
    tag: str | None = None


@dataclass
class JsonRpcPeer:
    reader: asyncio.StreamReader
    write: Callable[[bytes], None]
    on_request: RequestHandler
    on_notification: NotificationHandler
    on_cancel: CancelHook = lambda method, params: False
    max_bytes: Callable[[], int] = lambda: Transport().maxMessageBytes
    _incoming: dict[str, _Incoming] = field(default_factory=dict)
    _outgoing: dict[int, _Outgoing] = field(default_factory=dict)
    _next_id: int = 0
    _tasks: set[asyncio.Task[Any]] = field(default_factory=set)
    closed: bool = False

    # ----- sending ------------------------------------------------------------------

    def _send(self, message: dict[str, Any]) -> None:
        if self.closed:
            return
        # json.dumps escapes newlines inside strings, so one message is exactly one line.
        line = json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n"
        self.write(line.encode("utf-8"))

    def _send_result(self, rid: Any, result: Any) -> None:
        try:
            self._send({"jsonrpc": "2.0", "id": rid, "result": result})
        except (TypeError, ValueError) as exc:  # a result JSON cannot carry still gets an answer
            log.error("answer to %s is not JSON: %s", describe(rid), short(str(exc)))
            self._error(rid, INTERNAL_ERROR, "the answer could not be encoded")

    def notify(self, method: str, params: Any) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    async def request(self, method: str, params: Any, *, tag: str | None = None) -> Any:
        """Send a request and wait for its answer; ``tag`` groups requests for cancellation."""
        if self.closed:
            raise PeerClosed(f"{method}: the client is gone")
        rid = self._next_id
        self._next_id += 1
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._outgoing[rid] = _Outgoing(method, future, tag)
        self._send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        try:
            return await future
        except asyncio.CancelledError:
            # Our side stopped waiting (the turn was cancelled): tell the client so it can
            # close its dialog; ACP requires an answer to the original request anyway.
            if rid in self._outgoing:
                self.notify(CANCEL_METHOD, {"requestId": rid})
            raise
        finally:
            self._outgoing.pop(rid, None)

    def cancel_outgoing(self, tag: str) -> int:
        """Withdraw every pending request of ``tag``; returns how many."""
        count = 0
        for rid, out in list(self._outgoing.items()):
            if out.tag == tag and not out.future.done():
                self.notify(CANCEL_METHOD, {"requestId": rid})
                out.future.set_exception(OutgoingCancelled(out.method))
                count += 1
        return count

    def _error(self, rid: Any, code: int, message: str, data: Any = None) -> None:
        try:
            self._send(error_message(rid, code, message, data))
        except (TypeError, ValueError):
            self._send(error_message(rid, code, message))

    # ----- receiving ----------------------------------------------------------------

    async def run(self) -> None:
        """Read until end of input; then fail whatever still waits on the client."""
        decoder = LineDecoder(self.max_bytes)
        try:
            while True:
                chunk = await self.reader.read(READ_CHUNK)
                for event in decoder.feed(chunk) if chunk else decoder.eof():
                    try:
                        self._take(event)
                    except Exception:  # one message, however odd, never ends the connection
                        log.exception("could not handle an incoming message")
                if not chunk:
                    break
        finally:
            self.closed = True
            for out in self._outgoing.values():
                if not out.future.done():
                    out.future.set_exception(PeerClosed(f"{out.method}: the client is gone"))

    def _take(self, event: Any) -> None:
        if isinstance(event, Overlong):
            reason = f"a line of {event.size} bytes exceeds transport.maxMessageBytes ({self.max_bytes()})"
            self._unreadable(judge_unreadable(event.head, False, reason))
            return
        try:
            value = parse(event.body)
        except ValueError as exc:
            self._unreadable(judge_unreadable(event.body, True, f"invalid JSON: {exc}"))
            return
        self._route(value)

    def _unreadable(self, verdict: Any) -> None:
        log.warning("unreadable message: %s", verdict.log)
        if verdict.answer is not None:
            self._send(verdict.answer)

    def _spawn(self, work: Awaitable[Any], name: str) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(work)
        task.set_name(name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _route(self, value: Any) -> None:
        message = classify(value)
        if isinstance(message, Invalid):
            log.warning("invalid message: %s", message.reason)
            if message.response_id is not None:
                self._fail_outgoing(message.response_id, message.reason)
            if message.answer:
                self._error(message.answer_id, INVALID_REQUEST, message.reason)
        elif isinstance(message, Notification):
            if message.method == CANCEL_METHOD:
                params = message.params
                self._cancel_incoming(params.get("requestId") if isinstance(params, dict) else None)
            else:
                self._spawn(self._notification(message.method, message.params), f"acp:{message.method}")
        elif isinstance(message, Request):
            key = json.dumps(message.id)
            if key in self._incoming:
                self._error(message.id, INVALID_REQUEST, "a request with this id is still running")
                return
            entry = _Incoming(message.method, message.params)
            self._incoming[key] = entry
            entry.task = self._spawn(self._answer(message.id, key, entry), f"acp:{message.method}")
        else:
            self._resolve(message)

    def _resolve(self, message: Response) -> None:
        out = self._outgoing.get(message.id) if isinstance(message.id, int) else None
        if out is None or out.future.done():
            log.info("answer to an unknown request %s ignored", describe(message.id))
            return
        if message.error is not None:
            err = message.error
            out.future.set_exception(RemoteError(err["code"], err["message"], err.get("data")))
        else:
            out.future.set_result(message.result)

    def _fail_outgoing(self, rid: Any, why: str) -> None:
        out = self._outgoing.get(rid) if isinstance(rid, int) and not isinstance(rid, bool) else None
        if out is not None and not out.future.done():
            out.future.set_exception(RemoteError(INVALID_REQUEST, f"malformed answer: {why}"))

    def _cancel_incoming(self, request_id: Any) -> None:
        entry = self._incoming.get(json.dumps(request_id))
        if entry is None or entry.cancelled:
            return
        entry.cancelled = True
        try:
            cooperative = self.on_cancel(entry.method, entry.params)
        except Exception:
            log.exception("cancel hook failed for %s", entry.method)
            cooperative = False
        if not cooperative and entry.task is not None:
            entry.task.cancel()

    async def _notification(self, method: str, params: Any) -> None:
        try:
            await self.on_notification(method, params)
        except Exception:
            log.exception("notification %s failed", method)

    async def _answer(self, rid: Any, key: str, entry: _Incoming) -> None:
        callbacks: list[Callable[[], None]] = []
        _after_answer.set(callbacks)
        try:
            result = await self.on_request(entry.method, entry.params)
        except asyncio.CancelledError:
            if entry.cancelled:
                self._error(rid, REQUEST_CANCELLED, "Request cancelled")
                return
            raise  # the server is shutting down
        except MethodNotFound as exc:
            self._error(rid, METHOD_NOT_FOUND, str(exc), {"method": exc.method})
        except Exception as exc:
            if entry.cancelled:
                # Cancelling work often surfaces as its own failure (a compaction says
                # "cancelled"); the caller asked to cancel, so it gets the cancel code.
                self._error(rid, REQUEST_CANCELLED, "Request cancelled")
            elif isinstance(exc, SidecarError):
                self._error(rid, exc.code, exc.message, exc.data)
            else:
                log.exception("%s failed", entry.method)
                self._error(rid, INTERNAL_ERROR, f"{type(exc).__name__}: {exc}")
        else:
            self._send_result(rid, result)
        finally:
            self._incoming.pop(key, None)
            for callback in callbacks:
                try:
                    callback()
                except Exception:
                    log.exception("after-answer callback of %s failed", entry.method)

    async def close(self) -> None:
        """Stop every handler still running (end of input)."""
        self.closed = True
        tasks = [t for t in self._tasks if not t.done()]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
