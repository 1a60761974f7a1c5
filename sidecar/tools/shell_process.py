"""A shell command's process, as Bash runs it in the foreground and in the background: started
in a process group of its own (so stopping it reaches whatever it started), its output kept
head and tail within a character budget, and its group stopped with SIGTERM, then SIGKILL
after a grace period.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

from sidecar import host
from sidecar.core import process_groups

# After SIGTERM the group gets this long before SIGKILL.
KILL_GRACE_S = 1.0
READ_CHUNK = 65_536


class OutputCollector:
    """Keeps the first and last ``chars`` characters' worth of bytes and counts the rest."""

    def __init__(self, chars: int) -> None:
        self.chars = max(chars, 1)
        self._room = self.chars * 4  # a character is at most four UTF-8 bytes
        self.head = bytearray()
        self.tail = bytearray()
        self.dropped = 0

    def feed(self, data: bytes) -> None:
        if len(self.head) < self._room:
            take = self._room - len(self.head)
            self.head += data[:take]
            data = data[take:]
        if not data:
            return
        self.tail += data
        if len(self.tail) > 2 * self._room:
            cut = len(self.tail) - self._room
            self.dropped += cut
            del self.tail[:cut]

    async def drain(self, stream: asyncio.StreamReader) -> None:
        while chunk := await stream.read(READ_CHUNK):
            self.feed(chunk)

    def render(self) -> tuple[str, int]:
        """The kept text and how many characters were cut from its middle."""
        head = self.head.decode("utf-8", "replace")
        tail = self.tail.decode("utf-8", "replace")
        if not self.dropped:
            text = (bytes(self.head) + bytes(self.tail)).decode("utf-8", "replace")
            if len(text) <= self.chars:
                return text, 0
            head, tail = text, text
            total = len(text)
        else:
            total = len(head) + self.dropped + len(tail)
        front = self.chars // 2
        back = self.chars - front
        cut = total - front - back
        return f"{head[:front]}\n\n... [{cut} characters of output cut] ...\n\n{tail[-back:]}", cut


async def spawn(command: str, cwd: Path, env: Mapping[str, str]) -> asyncio.subprocess.Process:
    """Start ``command`` in the platform's shell, in a group of its own, stdout and stderr
    interleaved in one pipe and no stdin."""
    return await asyncio.create_subprocess_exec(
        *host.shell_command(command),
        cwd=os.fspath(cwd),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        env=dict(env),
        **process_groups.new_group_options(),  # its own group: stopping it reaches its children
    )


async def stop_group(pgid: int, work: Collection[asyncio.Task[Any]]) -> None:
    """Ask the whole group to stop, then force what is left after a grace period; ``work``
    (reading the output, waiting for the exit) is what "stopped" waits for."""
    for hard in (False, True):
        process_groups.signal_group(pgid, hard)
        _, pending = await asyncio.wait(work, timeout=KILL_GRACE_S)
        if not pending:
            return
