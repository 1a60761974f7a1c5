"""The global prompt history, ``<storage_dir>/history.jsonl`` (the seed's ``history.ts``).

Prompts are buffered and flushed on a short timer, at ``flush()``/``close()`` and at
interpreter exit. Every flush holds an exclusive lock on a side lock file (``sidecar.host``:
``flock``, or ``msvcrt.locking`` on Windows) and appends whole lines, so editors sharing
the storage directory never lose or interleave entries. A file left ending mid-line by a
crash is sealed with a newline first, so the fragment cannot swallow the next entry.

A flush that fails (full disk, read-only directory) keeps the entries in memory, tells the
user once through ``StorageHealth``, and tries again with the next prompt; ``close`` never
raises and says what it could not save.

Reading walks the file backwards block by block: the newest entries are all anyone needs.
Lines that are not entries (torn, garbage, too deep, non-finite numbers) are skipped and
counted. Called on an event loop's thread, ``list`` reads in a worker thread and waits
at most ``LOOP_WAIT`` for it, so a pathological file never stalls the server.
"""

from __future__ import annotations

import asyncio
import atexit
import builtins
import concurrent.futures
import functools
import json
import logging
import math
import os
import threading
import weakref
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Self

from sidecar import host
from sidecar.core.conversation.messages import Block
from sidecar.core.storage_health import StorageHealth
from sidecar.storage.files import (
    PartialWrite,
    open_append,
    open_fd,
    open_regular,
    seal,
    write_whole,
)
from sidecar.storage.history_entry import HistoryEntry, PastedContent, now_ms
from sidecar.storage.jsonl import BAD, TolerantJson
from sidecar.storage.line_reader import iter_lines_reversed
from sidecar.storage.paste_store import PasteStore
from sidecar.storage.paths import history_path, paste_cache_dir
from sidecar.storage.prompt_pastes import entry_from_prompt

log = logging.getLogger(__name__)

MAX_ITEMS = 100
MAX_PASTED_CONTENT_LENGTH = 1024
FLUSH_DELAY = 0.5  # seconds between a prompt and its write
LOCK_TIMEOUT = 5.0
MAX_FLUSH_RETRIES = 5
TOMBSTONE_KEY = "removed"
# The longest the event loop waits for a history read before answering from what it has.
LOOP_WAIT = 0.05
STORE = "prompt history"


@dataclass(slots=True)
class _Written:
    """Where one of this process's entries landed, so undo can take it back."""

    start: int
    end: int
    line: bytes


@dataclass(slots=True)
class _Mine:
    entry: HistoryEntry  # as stored (redacted)
    written: _Written | None = None


class HistoryLockTimeout(host.LockTimeout):
    pass


class PromptHistory:
    def __init__(
        self,
        storage_dir: Path | str,
        *,
        max_items: int = MAX_ITEMS,
        max_pasted_content_length: int = MAX_PASTED_CONTENT_LENGTH,
        flush_delay: float = FLUSH_DELAY,
        lock_timeout: float = LOCK_TIMEOUT,
        enabled: bool = True,  # False honours CLAUDE_CODE_SKIP_PROMPT_HISTORY
        health: StorageHealth | None = None,
    ) -> None:
        self.health = health if health is not None else StorageHealth()
        self.path = history_path(storage_dir)
        self.lock_path = self.path.with_name(self.path.name + ".lock")
        self.pastes = PasteStore(paste_cache_dir(storage_dir))
        self.max_items = max_items
        self.max_pasted_content_length = max_pasted_content_length
        self.flush_delay = flush_delay
        self.lock_timeout = lock_timeout
        self.enabled = enabled
        self._pending: list[_Mine] = []
        self._mine: list[_Mine] = []  # this process's entries, oldest first, for undo
        self._state_lock = threading.Lock()
        self._flush_lock = threading.Lock()  # one flush at a time within the process
        self._timer: threading.Timer | None = None
        self._retries = 0
        self._closed = False
        self._last_error: OSError | None = None
        # One reader thread for lists asked from an event loop, and the last answers it
        # gave, served while a slow read is still going.
        self._reader: concurrent.futures.ThreadPoolExecutor | None = None
        self._answers: dict[tuple[int, str | None], list[HistoryEntry]] = {}
        self._exit_hook = functools.partial(_flush_at_exit, weakref.ref(self))
        atexit.register(self._exit_hook)

    # ------------------------------------------------------------------ writing

    def add(self, entry: HistoryEntry) -> None:
        if not self.enabled or self._closed:
            return
        mine = _Mine(entry.redacted())
        with self._state_lock:
            self._pending.append(mine)
            self._mine.append(mine)
            self._retries = 0
        self._schedule()

    def add_prompt(self, blocks: list[Block], *, project: str, session_id: str) -> None:
        """A submitted prompt, its long pastes, selections and images kept apart."""
        entry = entry_from_prompt(blocks, project=project, session_id=session_id,
                                  paste_limit=self.max_pasted_content_length)
        if entry is not None:
            self.add(entry)

    def flush(self) -> bool:
        """Write every pending entry now. False when the lock could not be taken in time or
        the write failed; the entries then stay pending (and the user was told)."""
        with self._flush_lock:
            with self._state_lock:
                batch = list(self._pending)
            if not batch:
                return True
            try:
                lines = [self._encode(mine.entry) for mine in batch]
                with self._locked():
                    start = self._append(b"".join(lines))
            except HistoryLockTimeout:
                return False
            except OSError as exc:
                self._last_error = exc
                self.health.failed(STORE, exc, len(batch))
                return False
            with self._state_lock:
                for mine, line in zip(batch, lines):
                    mine.written = _Written(start, start + len(line), line)
                    start += len(line)
                flushed = {id(mine) for mine in batch}
                self._pending = [m for m in self._pending if id(m) not in flushed]
                left = len(self._pending)
            self.health.set_pending(STORE, left)
            self.health.recovered(STORE, len(batch))
            return True

    def close(self) -> None:
        """Flush and stop. Never raises: entries that still cannot be written are reported
        as lost, because nothing will try again."""
        self._closed = True
        with self._state_lock:
            timer, self._timer = self._timer, None
        if timer is not None:
            timer.cancel()
        try:
            if not self.flush():
                with self._state_lock:
                    lost = len(self._pending)
                    self._pending.clear()
                if lost:
                    error = self._last_error or OSError("the history lock stayed busy")
                    self.health.failed(STORE, error, lost, final=True)
        except Exception as exc:  # a shutdown must finish whatever the disk does
            log.error("prompt history not closed cleanly: %s", exc)
        atexit.unregister(self._exit_hook)
        if self._reader is not None:
            self._reader.shutdown(wait=False, cancel_futures=True)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def undo(self) -> HistoryEntry | None:
        """Take back this process's most recent entry and return it (None if none left)."""
        with self._flush_lock:
            with self._state_lock:
                if not self._mine:
                    return None
                mine = self._mine.pop()
                if mine.written is None:
                    self._pending = [m for m in self._pending if m is not mine]
                    return self._resolved(mine.entry)
            written = mine.written
            try:
                with self._locked():
                    if not _truncate_if_last(self.path, written):
                        self._append(_tombstone_line(mine.entry))
            except OSError as exc:
                with self._state_lock:
                    self._mine.append(mine)
                if not isinstance(exc, HistoryLockTimeout):
                    self.health.failed(STORE, exc, 0, consequence="the entry was not removed.")
                return None
            return self._resolved(mine.entry)

    # ------------------------------------------------------------------ reading

    def list(self, limit: int = MAX_ITEMS, project: str | None = None) -> builtins.list[HistoryEntry]:
        """Newest first, at most ``min(limit, max_items)``, pasted text resolved.

        On an event loop's thread the file is read in a worker thread; if that takes
        longer than LOOP_WAIT the previous answer for the same question (with the pending
        entries in front) is returned and the read finishes in the background.
        """
        limit = max(0, min(limit, self.max_items))
        if self._closed or not _on_event_loop():
            return self._read(limit, project)
        key = (limit, project)
        if self._reader is None:
            self._reader = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="history-read")
        future = self._reader.submit(self._read, limit, project)
        try:
            return future.result(timeout=LOOP_WAIT)
        except concurrent.futures.TimeoutError:
            log.info("prompt history read slow; answering from the last complete read")
            stale = self._answers.get(key, [])
            with self._state_lock:
                pending = [m.entry for m in reversed(self._pending)]
            fresh = [e for e in pending if project is None or e.project == project]
            seen = {e.key for e in fresh}
            return (fresh + [e for e in stale if e.key not in seen])[:limit]

    def _read(self, limit: int, project: str | None) -> builtins.list[HistoryEntry]:
        out: builtins.list[HistoryEntry] = []
        with self._state_lock:
            pending = [mine.entry for mine in reversed(self._pending)]
        for entry in pending:
            if len(out) >= limit:
                return out
            if project is None or entry.project == project:
                out.append(entry)
        if len(out) >= limit or not self.path.exists():
            return out
        removed: set[tuple[Any, ...]] = set()
        parser = TolerantJson()
        not_entries = 0
        try:
            for line in iter_lines_reversed(self.path):
                data = parser.parse(line)
                if data is BAD:
                    continue
                if isinstance(data, dict) and isinstance(data.get(TOMBSTONE_KEY), dict):
                    removed.add(_tombstone_key(data[TOMBSTONE_KEY]))
                    continue
                stored = HistoryEntry.from_json(data)
                if stored is None:
                    not_entries += 1
                    continue
                if stored.key in removed:
                    continue
                if project is not None and stored.project != project:
                    continue
                out.append(self._resolved(stored))
                if len(out) >= limit:
                    break
        except OSError as exc:  # unreadable or not a regular file: say so, list what we have
            log.warning("prompt history not readable: %s", exc)
        self.health.history_read(parser.bad_lines + not_entries, parser.bad_values)
        self._answers[(limit, project)] = out
        return out

    # ------------------------------------------------------------------ internals

    def _encode(self, entry: HistoryEntry) -> bytes:
        pastes: dict[int, PastedContent] = {}
        for pid, paste in entry.pasted_contents.items():
            if paste.type == "image":
                paste = replace(paste, content=None)
            elif paste.content is not None and len(paste.content) > self.max_pasted_content_length:
                try:
                    paste = replace(paste, content=None, content_hash=self.pastes.put(paste.content))
                    self.health.recovered("paste store", 0)
                except OSError as exc:
                    # The entry keeps the text inline: a longer line, nothing lost.
                    self.health.failed("paste store", exc, 0,
                                       consequence="the pasted text stays inside the history entry.")
            pastes[pid] = paste
        data = replace(entry, pasted_contents=pastes).to_json()
        return (json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n").encode()

    def _resolved(self, entry: HistoryEntry) -> HistoryEntry:
        if not any(p.content is None and p.content_hash for p in entry.pasted_contents.values()):
            return entry
        pastes = {
            pid: replace(p, content=self.pastes.get(p.content_hash))
            if p.content is None and p.content_hash
            else p
            for pid, p in entry.pasted_contents.items()
        }
        return replace(entry, pasted_contents=pastes)

    def _append(self, data: bytes) -> int:
        """Append whole lines under the lock; returns where they start. A failed write is
        cut back off the file, so no half entry is left for the next one to join."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = open_append(self.path)
        try:
            seal(fd, self.path)
            start = os.fstat(fd).st_size  # we hold the lock: this is the end
            try:
                write_whole(fd, data)
            except PartialWrite:
                try:
                    os.ftruncate(fd, start)
                except OSError:
                    pass  # the next append seals the fragment instead
                raise
            return start
        finally:
            os.close(fd)

    def _schedule(self) -> None:
        with self._state_lock:
            if self._timer is not None or self._closed:
                return
            timer = threading.Timer(self.flush_delay, self._on_timer)
            timer.daemon = True
            self._timer = timer
        timer.start()

    def _on_timer(self) -> None:
        with self._state_lock:
            self._timer = None
        try:
            if self.flush():
                return
        except Exception:  # a bug must not kill the timer thread silently
            log.exception("prompt history flush failed")
        with self._state_lock:
            self._retries += 1
            give_up = self._retries > MAX_FLUSH_RETRIES
        if not give_up:  # otherwise the next add() or close() tries again
            self._schedule()

    def _locked(self) -> _FileLock:
        return _FileLock(self.lock_path, self.lock_timeout)


class _FileLock:
    """An exclusive lock on the lock file; the OS drops it if the process dies."""

    def __init__(self, path: Path, timeout: float) -> None:
        self.path = path
        self.timeout = timeout
        self._fd: int | None = None

    def __enter__(self) -> Self:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = open_fd(self.path, os.O_RDWR | os.O_CREAT)
        try:
            host.lock_exclusive(fd, self.timeout, f"history lock {self.path}")
        except host.LockTimeout:
            os.close(fd)
            raise HistoryLockTimeout(f"history lock busy: {self.path}") from None
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd
        return self

    def __exit__(self, *_: object) -> None:
        if self._fd is not None:
            try:
                host.unlock(self._fd)
            finally:
                os.close(self._fd)
                self._fd = None


def _truncate_if_last(path: Path, written: _Written) -> bool:
    """Cut the entry off the end of the file if nothing was appended after it."""
    try:
        fd = open_fd(path, os.O_RDWR)
    except OSError:
        return False
    try:
        size = os.fstat(fd).st_size
        if size != written.end:
            return False
        with open_regular(path) as f:
            f.seek(written.start)
            if f.read(written.end - written.start) != written.line:
                return False
        os.ftruncate(fd, written.start)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


def _tombstone_line(entry: HistoryEntry) -> bytes:
    record = {
        TOMBSTONE_KEY: {
            "timestamp": entry.timestamp,
            "sessionId": entry.session_id,
            "display": entry.display,
        },
        "timestamp": now_ms(),
    }
    return (json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


def _on_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _tombstone_key(data: dict[str, Any]) -> tuple[Any, ...]:
    timestamp = data.get("timestamp")
    finite = isinstance(timestamp, (int, float)) and math.isfinite(timestamp)
    return (
        int(timestamp) if finite and timestamp is not None else None,
        data.get("sessionId"),
        data.get("display"),
    )


def _flush_at_exit(ref: weakref.ReferenceType[PromptHistory]) -> None:
    history = ref()
    if history is not None and not history._closed:
        try:
            history.flush()
        except Exception as exc:  # exiting anyway; the log says what was lost
            log.error("prompt history not flushed at exit: %s", exc)
