"""Newline-delimited framing (ACP's stdio transport), read with a bounded line length.

``asyncio.StreamReader.readline`` drops its buffer on an overlong line and then hands out
the rest of that line as if it were the next message; this decoder skips the whole line,
keeping only its start (to read an id from), and never holds more than the limit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from sidecar.jsonrpc import PEEK_BYTES


@dataclass(frozen=True)
class Line:
    body: bytes


@dataclass(frozen=True)
class Overlong:
    head: bytes
    size: int


class LineDecoder:
    def __init__(self, max_bytes: Callable[[], int]) -> None:
        self._max_bytes = max_bytes
        self._buf = bytearray()
        self._searched = 0
        self._skipping = False
        self._head = b""
        self._size = 0

    def feed(self, data: bytes) -> list[Line | Overlong]:
        self._buf += data
        out: list[Line | Overlong] = []
        buf = self._buf
        while buf:
            if self._skipping:
                nl = buf.find(b"\n")
                if nl < 0:
                    self._size += len(buf)
                    buf.clear()
                    break
                self._size += nl
                del buf[: nl + 1]
                out.append(Overlong(self._head, self._size))
                self._skipping = False
                continue
            limit = self._max_bytes()
            nl = buf.find(b"\n", self._searched)
            if nl < 0:
                if len(buf) > limit:
                    self._head = bytes(buf[:PEEK_BYTES])
                    self._size = len(buf)
                    self._skipping = True
                    buf.clear()
                else:
                    self._searched = len(buf)
                break
            self._searched = 0
            if nl > limit:
                out.append(Overlong(bytes(buf[:PEEK_BYTES]), nl))
            else:
                line = bytes(buf[:nl]).strip()
                if line:
                    out.append(Line(line))
            del buf[: nl + 1]
        return out

    def eof(self) -> list[Line | Overlong]:
        """The input ended: a last line without a newline still counts."""
        if self._skipping:
            self._skipping = False
            return [Overlong(self._head, self._size)]
        line = bytes(self._buf).strip()
        self._buf.clear()
        return [Line(line)] if line else []
