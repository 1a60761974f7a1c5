"""A small JSON-RPC 2.0 peer over LSP base-protocol framing (``Content-Length`` headers).

Stdlib and the contract only: the terminal client should not pay pygls' import cost, and it
needs no more than requests, notifications and answering the server's own requests.
"""

from __future__ import annotations

import asyncio
import inspect
import itertools
import json
import logging
from typing import Any, Awaitable, Callable

from sidecar.contract.errors import INTERNAL_ERROR, METHOD_NOT_FOUND

log = logging.getLogger(__name__)


Handler = Callable[[Any], Any | Awaitable[Any]]


class RpcError(Exception):
    """An error answer from the peer, or a dropped connection (code None)."""

    def __init__(self, message: str, code: int | None = None, data: Any = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.data = data

    @property
    def fix(self) -> str | None:
        if isinstance(self.data, dict) and isinstance(self.data.get("fix"), str):
            return self.data["fix"]
        return None


class JsonRpcConnection:
    """One framed JSON-RPC conversation over a reader/writer pair."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader = reader
        self._writer = writer
        self._ids = itertools.count(1)
        self._pending: dict[int | str, asyncio.Future[Any]] = {}
        self._notification_handlers: dict[str, Handler] = {}
        self._request_handlers: dict[str, Handler] = {}
        self._reader_task: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self.closed = asyncio.Event()

    # ----- wiring -------------------------------------------------------------------

    def on_notification(self, method: str, handler: Handler) -> None:
        self._notification_handlers[method] = handler

    def on_request(self, method: str, handler: Handler) -> None:
        self._request_handlers[method] = handler

    def start(self) -> None:
        self._reader_task = asyncio.ensure_future(self._read_loop())

    # ----- sending ------------------------------------------------------------------

    def _send(self, message: dict[str, Any]) -> None:
        if self.closed.is_set():
            raise RpcError("the sidecar connection is closed")
        body = json.dumps({"jsonrpc": "2.0", **message}, ensure_ascii=False).encode("utf-8")
        self._writer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    async def request(self, method: str, params: Any = None) -> Any:
        msg_id = next(self._ids)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[msg_id] = future
        try:
            self._send({"id": msg_id, "method": method, "params": params})
            await self._writer.drain()
            return await future
        finally:
            self._pending.pop(msg_id, None)

    def notify(self, method: str, params: Any = None) -> None:
        self._send({"method": method, "params": params})

    async def close(self) -> None:
        self.closed.set()
        try:
            self._writer.close()
        except Exception:  # the pipe may already be gone with the child
            pass
        if self._reader_task is not None:
            self._reader_task.cancel()
        self._fail_pending("the sidecar connection was closed")

    # ----- receiving ----------------------------------------------------------------

    async def _read_message(self) -> dict[str, Any] | None:
        length: int | None = None
        while True:
            line = await self._reader.readline()
            if not line:
                return None
            line = line.strip()
            if not line:
                break
            name, _, value = line.decode("ascii", "replace").partition(":")
            if name.strip().lower() == "content-length":
                length = int(value.strip())
        if length is None:
            raise RpcError("a message arrived without a Content-Length header")
        body = await self._reader.readexactly(length)
        data = json.loads(body.decode("utf-8"))
        return data if isinstance(data, dict) else None

    async def _read_loop(self) -> None:
        try:
            while True:
                try:
                    message = await self._read_message()
                except (asyncio.IncompleteReadError, ConnectionError):
                    break
                except (ValueError, RpcError) as exc:
                    log.warning("unreadable message from the sidecar: %s", exc)
                    continue
                if message is None:
                    break
                self._dispatch(message)
        finally:
            self.closed.set()
            self._fail_pending("the sidecar closed the connection")

    def _fail_pending(self, why: str) -> None:
        for future in list(self._pending.values()):
            if not future.done():
                future.set_exception(RpcError(why))
        self._pending.clear()

    def _dispatch(self, message: dict[str, Any]) -> None:
        method = message.get("method")
        if method is None:
            future = self._pending.get(message.get("id"))  # type: ignore[arg-type]
            if future is None or future.done():
                return
            error = message.get("error")
            if isinstance(error, dict):
                future.set_exception(RpcError(str(error.get("message", "error")),
                                              error.get("code"), error.get("data")))
            else:
                future.set_result(message.get("result"))
            return
        params = message.get("params")
        if "id" in message:
            task = asyncio.ensure_future(self._answer(message["id"], str(method), params))
        else:
            handler = self._notification_handlers.get(str(method))
            if handler is None:
                return
            try:
                result = handler(params)
            except Exception:  # a display bug must not stop the conversation
                log.exception("handler for %s failed", method)
                return
            if not inspect.isawaitable(result):
                return
            task = asyncio.ensure_future(result)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _answer(self, msg_id: Any, method: str, params: Any) -> None:
        handler = self._request_handlers.get(method)
        if handler is None:
            reply: dict[str, Any] = {"id": msg_id, "error": {"code": METHOD_NOT_FOUND,
                                                             "message": f"unsupported method {method}"}}
        else:
            try:
                result = handler(params)
                if inspect.isawaitable(result):
                    result = await result
                reply = {"id": msg_id, "result": result}
            except Exception as exc:
                log.exception("answering %s failed", method)
                reply = {"id": msg_id, "error": {"code": INTERNAL_ERROR, "message": str(exc)}}
        try:
            self._send(reply)
        except RpcError:
            pass
