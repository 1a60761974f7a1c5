"""One debounced stream of changed paths, merged from the watch sources.

Editors save a file in several steps and git touches HEAD, index and refs in one command,
so changes arrive in bursts. The stream waits for a short quiet spell (bounded by
``max_delay_ms`` so a steady trickle still gets through) and hands out the union.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from pathlib import Path
from typing import Literal

from sidecar.watch.sources import ChangeSource, ClientWatchSource

log = logging.getLogger(__name__)

Mode = Literal["watchfiles", "client", "off"]


class ChangeStream:
    def __init__(
        self,
        watchfiles: ChangeSource | None = None,
        client: ClientWatchSource | None = None,
        *,
        debounce_ms: int = 20,
        max_delay_ms: int = 250,
    ) -> None:
        self.watchfiles = watchfiles
        self.client = client if client is not None else ClientWatchSource()
        self.debounce = debounce_ms / 1000
        self.max_delay = max_delay_ms / 1000
        self.stop_event = asyncio.Event()
        self._fs_stop = asyncio.Event()
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._pending: set[Path] = set()
        self._wake = asyncio.Event()
        self._closed = False
        self._paths: list[Path] = []

    @property
    def mode(self) -> Mode:
        """``watchfiles`` while the sidecar watches the disk itself; ``client`` when only the
        editor's ``didChangeWatchedFiles`` reports changes (watchfiles unavailable)."""
        if self._closed or not self._tasks:
            return "off"
        fs = self._tasks.get("watchfiles")
        return "watchfiles" if fs is not None and not fs.done() else "client"

    def set_paths(self, paths: Iterable[Path]) -> None:
        self._paths = list(paths)
        self.client.set_paths(self._paths)
        if self.watchfiles is not None:
            self.watchfiles.set_paths(self._paths)

    def start(self) -> None:
        """Start pumping the sources; call from the event loop that will iterate."""
        if self._tasks or self._closed:
            return
        self._tasks["client"] = asyncio.create_task(self._pump(self.client, self.stop_event))
        if self.watchfiles is not None:
            self._tasks["watchfiles"] = asyncio.create_task(
                self._pump(self.watchfiles, self._fs_stop))

    async def stop(self) -> None:
        self._closed = True
        self.stop_event.set()
        self._fs_stop.set()
        self._wake.set()
        tasks = list(self._tasks.values())
        if tasks:
            await asyncio.wait(tasks, timeout=3.0)
        for task in tasks:
            task.cancel()

    async def _pump(self, source: ChangeSource, stop: asyncio.Event) -> None:
        try:
            async for batch in source.batches(stop):
                if self._closed:
                    return
                self._pending |= batch
                self._wake.set()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - one broken source must not end the stream
            log.warning("change source %s stopped: %s", type(source).__name__, exc)

    def __aiter__(self) -> ChangeStream:
        return self

    async def __anext__(self) -> set[Path]:
        loop = asyncio.get_running_loop()
        while True:
            if self._closed:
                raise StopAsyncIteration
            if not self._pending:  # a cancelled wait may have left some behind
                await self._wake.wait()
            started = loop.time()
            # Keep collecting while changes keep coming, up to max_delay.
            while not self._closed:
                self._wake.clear()
                left = self.max_delay - (loop.time() - started)
                if left <= 0:
                    break
                try:
                    await asyncio.wait_for(self._wake.wait(), min(self.debounce, left))
                except TimeoutError:
                    break
            self._wake.clear()
            batch, self._pending = self._pending, set()
            if batch:
                return batch
