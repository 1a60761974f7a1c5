"""Wiring of one workspace: its change stream feeds its prefix store."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from sidecar.watch.sources import ClientWatchSource, WatchfilesSource
from sidecar.watch.stream import ChangeStream

log = logging.getLogger(__name__)


class ChangeSink(Protocol):
    """What the watcher needs of a prefix store."""

    def watch_paths(self) -> list[Path]: ...

    def on_change(self, paths: set[Path]) -> None: ...

    def settle(self) -> None: ...


class WorkspaceWatcher:
    """Dispatches each batch to ``store.on_change`` and keeps the watched set current.

    The store's reading (files, git) runs in a worker thread right after each batch, so a
    session asking for changes rarely has to wait for git.
    """

    def __init__(self, store: ChangeSink, stream: ChangeStream,
                 on_batch: Callable[[set[Path]], None] | None = None) -> None:
        self.store = store
        self.stream = stream
        self.on_batch = on_batch
        self.paths: list[Path] = []
        self.batches = 0
        self._task: asyncio.Task[None] | None = None

    @property
    def client(self) -> ClientWatchSource:
        return self.stream.client

    @property
    def mode(self) -> str:
        return self.stream.mode

    def feed(self, paths: list[Path]) -> None:
        self.stream.client.feed(paths)

    async def start(self) -> None:
        if self._task is not None:
            return
        self.paths = await asyncio.to_thread(self.store.watch_paths)
        self.stream.set_paths(self.paths)
        self.stream.start()
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        await self.stream.stop()
        if self._task is not None:
            try:
                await asyncio.wait_for(self._task, 3.0)
            except (TimeoutError, asyncio.CancelledError):
                self._task.cancel()
            self._task = None

    async def _run(self) -> None:
        async for batch in self.stream:
            self.batches += 1
            try:
                self.store.on_change(batch)
                await asyncio.to_thread(self.store.settle)
                # A changed CLAUDE.md may include new files; watch them too.
                paths = await asyncio.to_thread(self.store.watch_paths)
                if paths != self.paths:
                    self.paths = paths
                    self.stream.set_paths(paths)
            except Exception:
                log.exception("handling changed paths failed")
            if self.on_batch is not None:
                self.on_batch(batch)


def watch_workspace(store: ChangeSink, *, use_watchfiles: bool = True,
                    on_batch: Callable[[set[Path]], None] | None = None) -> WorkspaceWatcher:
    """The default wiring: watchfiles until the editor offers its own watcher."""
    stream = ChangeStream(WatchfilesSource() if use_watchfiles else None, ClientWatchSource())
    return WorkspaceWatcher(store, stream, on_batch)
