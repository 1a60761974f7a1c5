"""The stdio transport of an MCP server, bounded, and its processes tied to the sidecar's life.

The SDK's ``stdio_client`` reads a line however long it grows (joining each chunk to the
text so far, so a long line also takes quadratic time): a server that writes 400 MB without
a newline grows the sidecar past that and stays "connected". Here a line is read as bytes
into one buffer, and one longer than ``max_line_bytes`` ends the connection at once with a
``LineTooLong`` reason the supervisor shows (and a pending call fails with it) before the
server is stopped and restarted.

A server started in its own process group does not die with the sidecar: one that ignores
its stdin's end outlives a ``kill -9`` of the sidecar. ``Reaper`` is a small watchdog
process, started with the first stdio server, that holds the read end of a pipe only the
sidecar writes to; when the pipe ends (the sidecar exited, however it exited) it ends the
process groups of the servers still registered: SIGTERM, then SIGKILL two seconds later.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import subprocess
import sys
import threading
from collections.abc import AsyncGenerator
from dataclasses import dataclass
from typing import Any, TextIO

import anyio
import anyio.abc

log = logging.getLogger(__name__)

READ_CHUNK = 1 << 16
# Time for the server to exit after its stdin closes, then after SIGTERM.
EXIT_GRACE_S = 2.0
KILL_GRACE_S = 2.0


class LineTooLong(Exception):
    """The server sent a line longer than the limit."""


@dataclass
class StdioEnd:
    """Why the server's output ended, when it was not a plain exit."""

    reason: str | None = None


def too_long_message(limit: int) -> str:
    return (f"it sent a message larger than {limit:,} bytes (setting mcp.maxMessageBytes); "
            "it was disconnected")


async def _stop(process: anyio.abc.Process, grace: float) -> None:
    """Close its stdin and stdout, wait ``grace``, then end its process group: SIGTERM,
    SIGKILL."""
    for stream in (process.stdin, process.stdout):
        if stream is not None:
            with contextlib.suppress(Exception):
                await stream.aclose()
    if await _exited(process, grace):
        return
    for sig, grace in ((signal.SIGTERM, KILL_GRACE_S), (signal.SIGKILL, KILL_GRACE_S)):
        with contextlib.suppress(OSError):
            os.killpg(process.pid, sig)
        if await _exited(process, grace):
            return
    log.warning("MCP server process %d is still alive after SIGKILL", process.pid)


async def _exited(process: anyio.abc.Process, timeout: float) -> bool:
    with anyio.move_on_after(timeout):
        while process.returncode is None:
            await anyio.sleep(0.02)
        return True
    return False


def _parse(line: bytes) -> Any:
    from mcp import types
    from mcp.shared.message import SessionMessage

    try:
        return SessionMessage(types.jsonrpc_message_adapter.validate_json(line, by_name=False))
    except ValueError as exc:
        log.warning("MCP server sent a line that is no JSON-RPC message: %s", str(exc)[:200])
        return exc


@contextlib.asynccontextmanager
async def bounded_stdio_client(command: str, args: list[str], env: dict[str, str], cwd: str,
                               errlog: TextIO, max_line_bytes: int,
                               end: StdioEnd) -> AsyncGenerator[tuple[Any, Any], None]:
    """Start the server; yield the (read, write) streams ``ClientSession`` takes."""
    from mcp.shared.message import SessionMessage

    process = await anyio.open_process([command, *args], env=env, stderr=errlog, cwd=cwd,
                                       start_new_session=True)
    REAPER.watch(process.pid)
    read_writer, read_stream = anyio.create_memory_object_stream[Any](0)
    write_stream, write_reader = anyio.create_memory_object_stream[SessionMessage](0)

    async def reader() -> None:
        assert process.stdout is not None
        buffer = bytearray()
        async with read_writer:
            try:
                while True:
                    chunk = await process.stdout.receive(READ_CHUNK)
                    start = 0
                    while (newline := chunk.find(b"\n", start)) >= 0:
                        if len(buffer) + newline - start > max_line_bytes:
                            raise LineTooLong
                        buffer += chunk[start:newline]
                        start = newline + 1
                        line, buffer = bytes(buffer), bytearray()
                        if line.strip():
                            await read_writer.send(_parse(line))
                    buffer += chunk[start:]
                    if len(buffer) > max_line_bytes:
                        raise LineTooLong
            except LineTooLong:
                end.reason = too_long_message(max_line_bytes)
                log.warning("MCP server %s: %s", command, end.reason)
            except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError,
                    OSError):
                pass

    async def writer() -> None:
        assert process.stdin is not None
        try:
            async with write_reader:
                async for message in write_reader:
                    data = message.message.model_dump_json(by_alias=True, exclude_unset=True)
                    await process.stdin.send((data + "\n").encode("utf-8"))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            await read_writer.aclose()

    try:
        async with anyio.create_task_group() as group:
            group.start_soon(reader)
            group.start_soon(writer)
            try:
                yield read_stream, write_stream
            finally:
                with anyio.CancelScope(shield=True):
                    write_stream.close()
                    read_stream.close()
                    # A server that broke the limit gets no grace to finish its output.
                    await _stop(process, 0.1 if end.reason else EXIT_GRACE_S)
                group.cancel_scope.cancel()
    finally:
        REAPER.forget(process.pid)
        with contextlib.suppress(Exception):
            await process.aclose()


# ----- the watchdog -----------------------------------------------------------------------

# Run with ``python -I -S -c``: reads "+PID" and "-PID" lines; at the end of its input, ends
# every process group still registered.
_WATCHDOG = r"""
import os, signal, sys, time
for s in (signal.SIGINT, signal.SIGHUP, signal.SIGPIPE):
    signal.signal(s, signal.SIG_IGN)
groups = set()
for line in sys.stdin.buffer:
    line = line.strip()
    try:
        pid = int(line[1:])
    except ValueError:
        continue
    if line[:1] == b"+":
        groups.add(pid)
    elif line[:1] == b"-":
        groups.discard(pid)
def alive(g):
    try:
        os.killpg(g, 0)
        return True
    except OSError:
        return False
for sig in (signal.SIGTERM, signal.SIGKILL):
    for g in list(groups):
        try:
            os.killpg(g, sig)
        except OSError:
            groups.discard(g)
    deadline = time.monotonic() + 2
    while groups and time.monotonic() < deadline:
        groups = {g for g in groups if alive(g)}
        time.sleep(0.05)
"""


class Reaper:
    """The watchdog process, started on first use, shared by every stdio server (and by the
    background shells, ``sidecar.tools.background_shells``)."""

    def __init__(self) -> None:
        self._proc: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()
        self._groups: set[int] = set()

    def _send(self, line: str) -> None:
        with self._lock:
            for _ in range(2):
                if self._proc is None or self._proc.poll() is not None:
                    if not self._spawn():
                        return
                    if line.startswith("-"):
                        return  # a fresh watchdog was told of every group still there
                try:
                    assert self._proc is not None and self._proc.stdin is not None
                    self._proc.stdin.write(line.encode("ascii") + b"\n")
                    self._proc.stdin.flush()
                    return
                except (OSError, ValueError):
                    self._proc = None

    def _spawn(self) -> bool:
        try:
            self._proc = subprocess.Popen(
                [sys.executable, "-I", "-S", "-c", _WATCHDOG], stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        except OSError as exc:
            log.warning("the MCP server watchdog did not start: %s", exc)
            self._proc = None
            return False
        assert self._proc.stdin is not None
        with contextlib.suppress(OSError):
            self._proc.stdin.write(b"".join(b"+%d\n" % g for g in self._groups))
            self._proc.stdin.flush()
        return True

    def watch(self, pid: int) -> None:
        """End this process group when the sidecar ends."""
        self._groups.add(pid)
        self._send(f"+{pid}")

    def forget(self, pid: int) -> None:
        if pid in self._groups:
            self._groups.discard(pid)
            self._send(f"-{pid}")

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None


REAPER = Reaper()
