"""One MCP server, supervised: started in the background, restarted with backoff when it
fails to start or goes away, and given up on after ``maxRestarts`` attempts in a row.

The SDK's transports and ``ClientSession`` live in one task (their anyio task groups must be
left in the task that entered them); tool calls are sent from the calling task and raced
against the connection's end and the tool timeout, so a server that crashes mid-call or never
answers gives the call an error instead of hanging the turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Literal, TextIO

from sidecar.mcp.config import ServerConfig
from sidecar.mcp.stdio import StdioEnd

log = logging.getLogger(__name__)

Status = Literal["starting", "connected", "failed", "stopped"]
# The first wait before a restart; it doubles up to the cap.
BACKOFF_START_S = 0.5
BACKOFF_MAX_S = 30.0
STDERR_TAIL_CHARS = 400


@dataclass(frozen=True)
class McpLimits:
    startup_timeout_s: float
    tool_timeout_s: float
    max_restarts: int
    # One message (a stdio line, an HTTP response or event) past this many bytes is refused.
    max_message_bytes: int = 16_000_000
    # The MCP tools' definitions may take this share (percent) of the context window.
    max_tool_definition_percent: int = 10
    # Whether the definitions past that share are deferred to a tool search: auto, always, off.
    tool_search: str = "auto"


@dataclass(frozen=True)
class ListedTool:
    """A tool as the server lists it."""

    name: str
    description: str
    input_schema: dict[str, Any]
    title: str | None = None
    read_only: bool = False


class CallFailed(Exception):
    """A call that got no result: timed out, the server went away, or it is not connected."""


class ServerConnection:
    def __init__(self, config: ServerConfig, limits: McpLimits, cwd: str,
                 environ: Callable[[], dict[str, str]], on_change: Callable[[], None]) -> None:
        self.config = config
        self.limits = limits
        self.cwd = cwd
        self._environ = environ
        self._on_change = on_change
        # Created to be started at once: "starting" until the first attempt says otherwise.
        self.status: Status = "starting" if config.error is None else "failed"
        self.error: str | None = config.error
        self.tools: list[ListedTool] = []
        self.instructions: str | None = None
        self.connects = 0  # successful connections so far (a restart counts again)
        self.connected_at: float | None = None
        self._session: Any = None
        self._closed = asyncio.Event()
        self._stopping = False
        self._refresh = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        # Not to be started until approved (a workspace's own server): why, for its status.
        self.held: str | None = None
        # Why the current connection's messages ended, when the transport knows better than
        # "the server exited" (a message over the size limit).
        self._end = StdioEnd()

    # ----- life ---------------------------------------------------------------------

    def hold(self, reason: str) -> None:
        """Keep it from starting: listed as failed with ``reason``. A server held after it
        ran (rejected) takes its tools with it: they are no longer offered."""
        self.held = reason
        self.tools = []
        self.instructions = None
        self._set("failed", reason)

    def release(self) -> None:
        """Approved: start it."""
        if self.held is None:
            return
        self.held = None
        self._stopping = False
        if self.config.error is None:
            self._set("starting", None)
            self.start()

    def release_stopped(self) -> None:
        """Start it again after ``stop`` (a retry): its attempts counted from none."""
        if self.held is not None or self.config.error is not None:
            return
        self._stopping = False
        self._set("starting", None)
        self.start()

    def start(self) -> None:
        if self._task is not None or self.held is not None or self._stopping:
            return
        if self.config.error is not None:
            return
        self._task = asyncio.get_running_loop().create_task(self._supervise())

    async def stop(self) -> None:
        self._stopping = True
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(task, 10)
        if self.status != "failed":
            self._set("stopped", None)

    def _set(self, status: Status, error: str | None) -> None:
        changed = (status, error) != (self.status, self.error)
        self.status, self.error = status, error
        if changed:
            self._on_change()

    async def _supervise(self) -> None:
        failures = 0
        delay = BACKOFF_START_S
        while not self._stopping:
            self._set("starting", None)
            stderr = StderrTail()
            try:
                reason = await self._connect_once(stderr)
                failures = 0 if self.connected_at is not None else failures
            except asyncio.CancelledError:
                raise
            except BaseException as exc:  # noqa: BLE001 - anyio wraps failures in groups
                # A message over the limit while starting (a tools/list too large) ends the
                # connection: the transport's reason says why, the SDK's error only that.
                reason = self._end.reason or _describe(exc)
            finally:
                self._session = None
            stderr.close()
            tail = stderr.tail()
            if self._stopping:
                return
            if tail:
                reason = f"{reason}; its last output: {tail}"
            failures += 1
            if failures > self.limits.max_restarts:
                self._set("failed", f"{reason} (gave up after {failures} attempts)")
                return
            self._set("failed", f"{reason}; restarting in {delay:g}s "
                                f"(attempt {failures} of {self.limits.max_restarts})")
            await asyncio.sleep(delay)
            delay = min(delay * 2, BACKOFF_MAX_S)

    async def _connect_once(self, stderr: StderrTail) -> str:
        """Connect, list tools, and wait until the connection ends; returns why it ended."""
        from mcp import ClientSession, types

        self.connected_at = None
        self._closed = asyncio.Event()
        self._end = StdioEnd()
        async with contextlib.AsyncExitStack() as stack:
            read, write = await stack.enter_async_context(self._transport(stderr))
            watched = _WatchedStream(read, self._closed)
            stack.push_async_callback(watched.aclose)
            watched.start()

            async def on_message(message: Any) -> None:
                if isinstance(message, types.ToolListChangedNotification):
                    self._refresh.set()

            session = await stack.enter_async_context(ClientSession(
                watched.stream, write, message_handler=on_message,
                client_info=types.Implementation(name="context-sidecar", version=_version())))
            try:
                init = await asyncio.wait_for(session.initialize(), self.limits.startup_timeout_s)
                listed = await asyncio.wait_for(_list_tools(session),
                                                self.limits.startup_timeout_s)
            except asyncio.TimeoutError:
                if self._end.reason:
                    return self._end.reason
                return (f"no answer to initialize within {self.limits.startup_timeout_s:g}s"
                        if not self._closed.is_set() else "the server exited while starting")
            self.instructions = (init.instructions or "").strip() or None
            self.tools = listed
            self._session = session
            self.connects += 1
            self.connected_at = time.monotonic()
            self._set("connected", None)
            while True:
                refresh = asyncio.ensure_future(self._refresh.wait())
                closed = asyncio.ensure_future(self._closed.wait())
                await asyncio.wait({refresh, closed}, return_when=asyncio.FIRST_COMPLETED)
                refresh.cancel()
                closed.cancel()
                if self._closed.is_set():
                    if self._end.reason:
                        return self._end.reason
                    return "the server exited" if self.config.transport == "stdio" else \
                        "the connection closed"
                self._refresh.clear()
                try:
                    self.tools = await asyncio.wait_for(_list_tools(session),
                                                        self.limits.tool_timeout_s)
                except Exception as exc:
                    log.warning("MCP server %s: tools not listed again: %s", self.config.name, exc)
                    continue
                self._on_change()

    def _transport(self, stderr: StderrTail) -> Any:
        if self.config.transport == "http":
            from mcp.client.streamable_http import streamable_http_client

            from sidecar.mcp.http import bounded_http_client

            limit = self.limits.max_message_bytes
            client = bounded_http_client(dict(self.config.headers), limit)
            return streamable_http_client(self.config.url, http_client=client,
                                          max_sse_event_size=limit)
        from sidecar.mcp.stdio import bounded_stdio_client

        env = {**self._environ(), **dict(self.config.env)}
        return bounded_stdio_client(self.config.command, list(self.config.args), env, self.cwd,
                                    stderr.writer, self.limits.max_message_bytes, self._end)

    # ----- calls ----------------------------------------------------------------------

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> Any:
        """The server's ``CallToolResult``; raises ``CallFailed`` with a sentence for the model."""
        session = self._session
        if session is None:
            state = f": {self.error}" if self.error else ""
            raise CallFailed(f"The MCP server {self.config.name!r} is not connected "
                             f"({self.status}{state}).")
        closed = self._closed
        call = asyncio.ensure_future(session.call_tool(name, arguments))
        lost = asyncio.ensure_future(closed.wait())
        try:
            done, _ = await asyncio.wait({call, lost}, timeout=self.limits.tool_timeout_s,
                                         return_when=asyncio.FIRST_COMPLETED)
        finally:
            lost.cancel()
            if not call.done():
                call.cancel()
                with contextlib.suppress(BaseException):
                    await call
        if call in done:
            try:
                return call.result()
            except Exception as exc:
                if closed.is_set():
                    raise CallFailed(self._lost_message()) from exc
                detail = _describe(exc)
                if "byte limit" in detail and "mcp.maxMessageBytes" not in detail:
                    detail += " (setting mcp.maxMessageBytes)"  # the SDK's bound on an event
                raise CallFailed(f"The MCP server {self.config.name!r} failed the call: "
                                 f"{detail}") from exc
        if closed.is_set():
            raise CallFailed(self._lost_message())
        raise CallFailed(f"The MCP server {self.config.name!r} did not answer within "
                         f"{self.limits.tool_timeout_s:g}s (setting mcp.toolTimeoutSeconds); "
                         "the call was cancelled.")

    def _lost_message(self) -> str:
        if self._end.reason:
            return (f"The MCP server {self.config.name!r} failed the call: {self._end.reason} "
                    "and is being restarted. The call may or may not have taken effect.")
        return (f"The MCP server {self.config.name!r} exited during the call; it is being "
                "restarted. The call may or may not have taken effect.")


class StderrTail:
    """A server's stderr, read in a thread and kept to its last lines: what it said before it
    failed goes into the error message, and a chatty server fills no disk."""

    def __init__(self) -> None:
        read_fd, write_fd = os.pipe()
        self.writer: TextIO = os.fdopen(write_fd, "w", encoding="utf-8")
        self._reader = os.fdopen(read_fd, "r", encoding="utf-8", errors="replace")
        self._lines: list[str] = []
        self._thread = threading.Thread(target=self._read, name="mcp-stderr", daemon=True)
        self._thread.start()

    def _read(self) -> None:
        try:
            for line in self._reader:
                if line.strip():
                    self._lines = (self._lines + [line.strip()])[-3:]
        except (OSError, ValueError):
            pass
        finally:
            self._reader.close()

    def close(self) -> None:
        """Our copy of the write end; the reader ends once the server's copy is closed too."""
        with contextlib.suppress(OSError):
            self.writer.close()
        self._thread.join(timeout=0.5)

    def tail(self) -> str:
        return " | ".join(self._lines)[-STDERR_TAIL_CHARS:]


class _WatchedStream:
    """The server's messages passed through, with ``closed`` set when they end: the one
    signal, for every transport, that the server went away."""

    def __init__(self, source: Any, closed: asyncio.Event) -> None:
        import anyio

        self._source = source
        self._closed = closed
        self._send, self.stream = anyio.create_memory_object_stream[Any](0)
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._pump())

    async def _pump(self) -> None:
        try:
            async with self._send:
                async for item in self._source:
                    await self._send.send(item)
        except Exception as exc:  # a broken stream ends the connection like an EOF
            log.debug("MCP stream ended: %s", exc)
        finally:
            self._closed.set()

    async def aclose(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task


async def _list_tools(session: Any) -> list[ListedTool]:
    out: list[ListedTool] = []
    cursor: str | None = None
    from mcp import types

    for _ in range(100):  # pages
        params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
        result = await session.list_tools(params=params)
        for tool in result.tools:
            notes = tool.annotations
            out.append(ListedTool(
                name=tool.name, description=tool.description or "",
                input_schema=dict(tool.input_schema or {"type": "object"}),
                title=tool.title or (notes.title if notes else None),
                read_only=bool(notes and notes.read_only_hint)))
        cursor = result.next_cursor
        if not cursor:
            break
    return out


def _describe(exc: BaseException) -> str:
    """One line for a failure, the innermost cause of an exception group."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    if isinstance(exc, FileNotFoundError):
        return f"cannot start it: {exc.strerror or exc}: {exc.filename}"
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _version() -> str:
    from sidecar import __version__

    return __version__
