"""Sources of changed paths: the filesystem itself (watchfiles) or the editor's notifications."""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Protocol

from watchfiles import Change, awatch

from sidecar.watch.targets import Roots, WatchTargets

log = logging.getLogger(__name__)


class ChangeSource(Protocol):
    """Yields batches of changed paths until ``stop`` is set."""

    def batches(self, stop: asyncio.Event) -> AsyncIterator[set[Path]]: ...

    def set_paths(self, paths: Iterable[Path]) -> None: ...


_REARM = "rearm"
_RETARGET = "retarget"
_STOP = "stop"
# A directory vanishing between listing and arming makes the watcher fail to start.
_RETRY_SECONDS = 0.2


def _files_under(directory: Path, targets: WatchTargets, limit: int = 1_000) -> set[Path]:
    found: set[Path] = set()
    for root, _dirs, files in os.walk(directory):
        found.update(p for f in files if targets.is_target(p := Path(root) / f))
        if len(found) >= limit:
            break
    return found


class WatchfilesSource:
    """Watches the target files through watchfiles (inotify on Linux).

    Two `awatch` loops run side by side because recursion is per watcher: the parents of
    the target files non-recursively, `.git/refs` recursively. git replaces HEAD, index and
    refs by renaming a `.lock` file, which arrives as "added"; every kind counts.
    """

    def __init__(self, paths: Iterable[Path] = (), debounce_ms: int = 50,
                 step_ms: int = 10) -> None:
        self.debounce_ms = debounce_ms
        self.step_ms = step_ms
        self._targets = WatchTargets(paths)
        self._queue: asyncio.Queue[object] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.roots = Roots(frozenset(), frozenset())

    @property
    def targets(self) -> WatchTargets:
        return self._targets

    def set_paths(self, paths: Iterable[Path]) -> None:
        targets = WatchTargets(paths)
        if targets == self._targets:
            return
        self._targets = targets
        self._signal(_RETARGET)

    def _signal(self, item: object) -> None:
        if self._queue is None or self._loop is None:
            return
        if self._loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is self._loop:
            self._queue.put_nowait(item)
        else:
            self._loop.call_soon_threadsafe(self._queue.put_nowait, item)

    def _filter(self, change: Change, raw: str) -> bool:
        path = Path(raw)
        if self._targets.is_target(path):
            return True
        # A directory on the way to a target appeared or vanished; a mere metadata
        # change of an existing ancestor does not matter.
        return change != Change.modified and self._targets.is_structural(path)

    async def _pump(self, roots: frozenset[Path], recursive: bool, inner: asyncio.Event,
                    queue: asyncio.Queue[object]) -> None:
        try:
            async for changes in awatch(
                *sorted(roots), watch_filter=self._filter, debounce=self.debounce_ms,
                step=self.step_ms, stop_event=inner, recursive=recursive,
            ):
                queue.put_nowait({Path(p) for _, p in changes})
        except FileNotFoundError as exc:
            log.debug("watch root vanished (%s); re-arming", exc)
            await asyncio.sleep(_RETRY_SECONDS)
            queue.put_nowait(_REARM)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - inotify limits and the like
            log.warning("file watching failed: %s", exc)
            queue.put_nowait(exc)

    async def batches(self, stop: asyncio.Event) -> AsyncIterator[set[Path]]:
        self._loop = asyncio.get_running_loop()
        queue: asyncio.Queue[object] = asyncio.Queue()
        self._queue = queue
        stopper = asyncio.create_task(self._wait_stop(stop, queue))
        inner = asyncio.Event()
        pumps: list[asyncio.Task[None]] = []
        try:
            pumps = self._arm(inner, queue)
            while True:
                item = await queue.get()
                if item == _STOP:
                    return
                if isinstance(item, Exception):
                    raise item
                if item == _RETARGET and pumps and all(not p.done() for p in pumps) \
                        and self._targets.roots() == self.roots:
                    # The same folders: the filter already takes the new targets, and
                    # re-arming would leave a moment in which writes go unseen.
                    continue
                if item in (_REARM, _RETARGET):
                    inner, pumps = await self._rearm(inner, pumps, queue)
                    continue
                assert isinstance(item, set)
                targets = self._targets
                structural = {p for p in item if targets.is_structural(p)}
                batch = {p for p in item if targets.is_target(p)}
                for p in list(batch):
                    if targets.in_tree(p) and p.is_dir():
                        # A new folder under refs (branch "a/b"): its files can be written
                        # before the recursive watch reaches into it.
                        batch |= _files_under(p, targets)
                if structural:
                    # Files may have been written into a new directory before it was
                    # watched, so report everything under it as changed.
                    for d in structural:
                        batch |= {t for t in targets.under(d) if not targets.is_structural(t)}
                    inner, pumps = await self._rearm(inner, pumps, queue)
                if batch:
                    yield batch
        finally:
            stopper.cancel()
            await self._disarm(inner, pumps)
            self._queue = None

    @staticmethod
    async def _wait_stop(stop: asyncio.Event, queue: asyncio.Queue[object]) -> None:
        await stop.wait()
        queue.put_nowait(_STOP)

    def _arm(self, inner: asyncio.Event, queue: asyncio.Queue[object]) -> list[asyncio.Task[None]]:
        self.roots = self._targets.roots()
        pumps = []
        for roots, recursive in ((self.roots.flat, False), (self.roots.trees, True)):
            if roots:
                pumps.append(asyncio.create_task(self._pump(roots, recursive, inner, queue)))
        return pumps

    async def _rearm(self, inner: asyncio.Event, pumps: list[asyncio.Task[None]],
                     queue: asyncio.Queue[object]) -> tuple[asyncio.Event, list[asyncio.Task[None]]]:
        """Watch the current roots, then stop the old watches: an overlap, never a gap.

        A pump's first step creates its notifier, which adds the inotify watches before it
        waits for events; events both watches see arrive twice, in sets, which is harmless.
        """
        new_inner = asyncio.Event()
        new_pumps = self._arm(new_inner, queue)
        await asyncio.sleep(0)
        await self._disarm(inner, pumps)
        return new_inner, new_pumps

    @staticmethod
    async def _disarm(inner: asyncio.Event, pumps: list[asyncio.Task[None]]) -> None:
        inner.set()  # awatch checks it every step and returns
        for task in pumps:
            try:
                await asyncio.wait_for(task, 2.0)
            except (TimeoutError, asyncio.CancelledError):
                task.cancel()
            except Exception as exc:  # noqa: BLE001 - the pump already reported it
                log.debug("watch task ended with %s", exc)


class ClientWatchSource:
    """Changes the editor reports through `workspace/didChangeWatchedFiles`."""

    def __init__(self, paths: Iterable[Path] = ()) -> None:
        self._targets: WatchTargets | None = WatchTargets(paths) if paths else None
        self._queue: asyncio.Queue[set[Path] | None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._early: set[Path] = set()
        self._lock = threading.Lock()

    def set_paths(self, paths: Iterable[Path]) -> None:
        self._targets = WatchTargets(paths)

    def feed(self, paths: Iterable[Path | str]) -> None:
        """Take the paths of one notification; callable from any thread."""
        targets = self._targets
        batch = {Path(os.path.abspath(p)) for p in paths}
        if targets is not None:
            # A created or removed folder stands for the targets inside it.
            batch = {t for p in batch if targets.matches(p)
                     for t in ([p] if targets.is_target(p) else targets.under(p))
                     if not targets.is_structural(t) or targets.is_target(t)}
        if not batch:
            return
        with self._lock:
            queue, loop = self._queue, self._loop
            if queue is None or loop is None:
                self._early |= batch
                return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            queue.put_nowait(batch)
        else:
            loop.call_soon_threadsafe(queue.put_nowait, batch)

    async def batches(self, stop: asyncio.Event) -> AsyncIterator[set[Path]]:
        queue: asyncio.Queue[set[Path] | None] = asyncio.Queue()
        with self._lock:
            self._queue, self._loop = queue, asyncio.get_running_loop()
            early, self._early = self._early, set()
        if early:
            queue.put_nowait(early)

        async def stopper() -> None:
            await stop.wait()
            queue.put_nowait(None)

        task = asyncio.create_task(stopper())
        try:
            while (batch := await queue.get()) is not None:
                yield batch
        finally:
            task.cancel()
            with self._lock:
                self._queue = self._loop = None
