"""The global prompt history, ``<storage_dir>/history.jsonl`` (the seed's ``history.ts``).

Prompts are buffered and flushed on a short timer, at ``flush()``/``close()`` and at
interpreter exit. Every flush holds an exclusive ``flock`` on a side lock file and appends
whole lines, so editors sharing the storage directory never lose or interleave entries.
Reading walks the file backwards block by block: the newest entries are all anyone needs.
"""

from __future__ import annotations

import atexit
import fcntl
import functools
import json
import os
import threading
import time
import weakref
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Self

from sidecar.storage.history_entry import HistoryEntry, PastedContent, now_ms
from sidecar.storage.line_reader import iter_lines_reversed
from sidecar.storage.paste_store import PasteStore
from sidecar.storage.paths import history_path, paste_cache_dir
from sidecar.storage.transcript import write_whole

MAX_ITEMS = 100
MAX_PASTED_CONTENT_LENGTH = 1024
FLUSH_DELAY = 0.5  # seconds between a prompt and its write
LOCK_TIMEOUT = 5.0
MAX_FLUSH_RETRIES = 5
TOMBSTONE_KEY = "removed"


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


class HistoryLockTimeout(OSError):
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
    ) -> None:
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

    def flush(self) -> bool:
        """Write every pending entry now. False when the lock could not be taken in time."""
        with self._flush_lock:
            with self._state_lock:
                batch = list(self._pending)
            if not batch:
                return True
            lines = [self._encode(mine.entry) for mine in batch]
            try:
                with self._locked():
                    fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
                    try:
                        start = os.fstat(fd).st_size  # we hold the lock: this is the end
                        write_whole(fd, b"".join(lines))
                    finally:
                        os.close(fd)
            except HistoryLockTimeout:
                return False
            with self._state_lock:
                for mine, line in zip(batch, lines):
                    mine.written = _Written(start, start + len(line), line)
                    start += len(line)
                flushed = {id(mine) for mine in batch}
                self._pending = [m for m in self._pending if id(m) not in flushed]
            return True

    def close(self) -> None:
        self._closed = True
        with self._state_lock:
            timer, self._timer = self._timer, None
        if timer is not None:
            timer.cancel()
        self.flush()
        atexit.unregister(self._exit_hook)

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
                        self._append_tombstone(mine.entry)
            except HistoryLockTimeout:
                with self._state_lock:
                    self._mine.append(mine)
                return None
            return self._resolved(mine.entry)

    # ------------------------------------------------------------------ reading

    def list(self, limit: int = MAX_ITEMS, project: str | None = None) -> list[HistoryEntry]:
        """Newest first, at most ``min(limit, max_items)``, pasted text resolved."""
        limit = max(0, min(limit, self.max_items))
        out: list[HistoryEntry] = []
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
        for line in iter_lines_reversed(self.path):
            try:
                data = json.loads(line)
            except ValueError:
                continue  # a torn line from a crash mid-write
            if isinstance(data, dict) and isinstance(data.get(TOMBSTONE_KEY), dict):
                removed.add(_tombstone_key(data[TOMBSTONE_KEY]))
                continue
            stored = HistoryEntry.from_json(data)
            if stored is None or stored.key in removed:
                continue
            if project is not None and stored.project != project:
                continue
            out.append(self._resolved(stored))
            if len(out) >= limit:
                break
        return out

    # ------------------------------------------------------------------ internals

    def _encode(self, entry: HistoryEntry) -> bytes:
        pastes: dict[int, PastedContent] = {}
        for pid, paste in entry.pasted_contents.items():
            if paste.type == "image":
                paste = replace(paste, content=None)
            elif paste.content is not None and len(paste.content) > self.max_pasted_content_length:
                paste = replace(paste, content=None, content_hash=self.pastes.put(paste.content))
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

    def _append_tombstone(self, entry: HistoryEntry) -> None:
        record = {
            TOMBSTONE_KEY: {
                "timestamp": entry.timestamp,
                "sessionId": entry.session_id,
                "display": entry.display,
            },
            "timestamp": now_ms(),
        }
        line = (json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            write_whole(fd, line)
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
        if self.flush():
            return
        with self._state_lock:
            self._retries += 1
            give_up = self._retries > MAX_FLUSH_RETRIES
        if not give_up:  # otherwise the next add() or close() tries again
            self._schedule()

    def _locked(self) -> _FileLock:
        return _FileLock(self.lock_path, self.lock_timeout)


class _FileLock:
    """An exclusive ``flock`` on the lock file; the kernel drops it if the process dies."""

    def __init__(self, path: Path, timeout: float) -> None:
        self.path = path
        self.timeout = timeout
        self._fd: int | None = None

    def __enter__(self) -> Self:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    os.close(fd)
                    raise HistoryLockTimeout(f"history lock busy: {self.path}") from None
                time.sleep(0.005)
        self._fd = fd
        return self

    def __exit__(self, *_: object) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None


def _truncate_if_last(path: Path, written: _Written) -> bool:
    """Cut the entry off the end of the file if nothing was appended after it."""
    try:
        with open(path, "r+b") as f:
            size = f.seek(0, os.SEEK_END)
            if size != written.end:
                return False
            f.seek(written.start)
            if f.read(written.end - written.start) != written.line:
                return False
            f.truncate(written.start)
            return True
    except OSError:
        return False


def _tombstone_key(data: dict[str, Any]) -> tuple[Any, ...]:
    timestamp = data.get("timestamp")
    return (
        int(timestamp) if isinstance(timestamp, (int, float)) else None,
        data.get("sessionId"),
        data.get("display"),
    )


def _flush_at_exit(ref: weakref.ReferenceType[PromptHistory]) -> None:
    history = ref()
    if history is not None and not history._closed:
        history.flush()
