"""Coalescing of streamed text so editors get a few chunks per second, not hundreds."""

from __future__ import annotations

import asyncio
from typing import Callable


class ChunkCoalescer:
    """Buffers text of one kind and flushes it after ``interval`` seconds or on a switch."""

    def __init__(self, emit: Callable[[str, str], None], interval: float = 0.03) -> None:
        self._emit = emit
        self._interval = interval
        self._kind: str | None = None
        self._parts: list[str] = []
        self._handle: asyncio.TimerHandle | None = None
        self._deadline = 0.0

    def add(self, kind: str, text: str) -> None:
        if not text:
            return
        if self._kind is not None and kind != self._kind:
            self.flush()
        self._kind = kind
        self._parts.append(text)
        loop = asyncio.get_running_loop()
        if self._handle is None:
            self._deadline = loop.time() + self._interval
            self._handle = loop.call_later(self._interval, self.flush)
        elif loop.time() >= self._deadline:
            # A burst of buffered events never yields to the loop, so the timer cannot
            # fire: flush inline once the window has passed.
            self.flush()

    def flush(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        if self._parts and self._kind is not None:
            text = "".join(self._parts)
            self._parts = []
            self._emit(self._kind, text)
