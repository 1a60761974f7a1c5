"""What the model has seen of each file: the read state behind stubs, edit checks and re-injection.

One entry per file, keyed by the absolute path as the editor names it (no symlink
resolution, so a path from an editor URI and a path from a tool agree). An entry holds
the sha256 of the whole file text as it was when read or written, which makes staleness
exact: a file is stale when its current text hashes differently, or when an editor change
arrived that the session could not compare.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from sidecar.core.accounting.tokens import SeedBytes, TextCounter
from sidecar.core.workspace.own_files import read_own_bytes

# Claude Code keeps at most 100 files in its read state; older entries fall out first.
MAX_ENTRIES = 100

Origin = Literal["read", "edit"]


def text_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def state_key(path: Path | str) -> str:
    """Absolute, lexically normalized path: the same file named the same way everywhere."""
    return os.path.normpath(os.path.abspath(os.fspath(path)))


@dataclass(slots=True)
class FileReadEntry:
    path: Path
    sha256: str
    mtime: float | None  # disk mtime at read time; None when only a buffer existed
    size: int  # bytes of the whole file text
    tokens: int  # estimated tokens of what the model was shown
    read_at: float  # epoch seconds
    offset: int | None  # first line shown (1-based); None for a full view from an edit
    limit: int | None
    origin: Origin
    # A re-read of the same range may be answered with a stub only while the earlier
    # result is still in the model's context.
    stub_ok: bool
    # Set by an editor change that could not be compared against the recorded text.
    stale: bool = False

    def same_range(self, offset: int, limit: int) -> bool:
        return self.offset == offset and self.limit == limit

    def to_json(self) -> dict[str, Any]:
        return {
            "path": str(self.path),
            "tokens": self.tokens,
            "readAt": datetime.fromtimestamp(self.read_at, UTC)
            .isoformat(timespec="milliseconds")
            .replace("+00:00", "Z"),
            "stale": self.stale,
            "offset": self.offset,
            "limit": self.limit,
            "origin": self.origin,
        }


def _disk_mtime(path: Path) -> float | None:
    try:
        return path.stat().st_mtime
    except OSError:
        return None


# Past this a read file is only compared by its size and time.
STALE_CHECK_MAX_BYTES = 64 << 20


class FileReadState:
    """Per-session read state, most recently touched last (LRU eviction from the front)."""

    def __init__(self, counter: TextCounter | None = None, max_entries: int = MAX_ENTRIES) -> None:
        self.counter: TextCounter = counter or SeedBytes()
        self.max_entries = max_entries
        self._entries: OrderedDict[str, FileReadEntry] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, path: object) -> bool:
        return isinstance(path, (str, Path)) and state_key(path) in self._entries

    def get(self, path: Path | str) -> FileReadEntry | None:
        return self._entries.get(state_key(path))

    def _put(self, entry: FileReadEntry) -> None:
        key = state_key(entry.path)
        self._entries.pop(key, None)
        self._entries[key] = entry
        while len(self._entries) > self.max_entries:
            self._entries.popitem(last=False)

    def record_read(
        self,
        path: Path,
        text: str,
        offset: int,
        limit: int,
        shown: str | None = None,
        mtime: float | None = None,
        stub_ok: bool = True,
    ) -> FileReadEntry:
        """Remember a Read of ``path`` whose whole current text is ``text``.

        ``shown`` is what the model received (its tokens are what the read costs);
        ``mtime`` defaults to the file's mtime on disk.
        """
        entry = FileReadEntry(
            path=Path(state_key(path)),
            sha256=text_digest(text),
            mtime=mtime if mtime is not None else _disk_mtime(path),
            size=len(text.encode("utf-8", "surrogatepass")),
            tokens=round(self.counter.text(shown if shown is not None else text)),
            read_at=time.time(),
            offset=offset,
            limit=limit,
            origin="read",
            stub_ok=stub_ok,
        )
        self._put(entry)
        return entry

    def record_write(self, path: Path, text: str, mtime: float | None = None) -> FileReadEntry:
        """Remember the text an Edit or Write produced: the model knows it, so editing
        again needs no re-read, but a later Read must show content (no stub)."""
        entry = FileReadEntry(
            path=Path(state_key(path)),
            sha256=text_digest(text),
            mtime=mtime if mtime is not None else _disk_mtime(path),
            size=len(text.encode("utf-8", "surrogatepass")),
            tokens=round(self.counter.text(text)),
            read_at=time.time(),
            offset=None,
            limit=None,
            origin="edit",
            stub_ok=False,
        )
        self._put(entry)
        return entry

    def is_stale(self, path: Path | str, current_text: str) -> bool:
        """True when the file changed since it was read or written (or was never read)."""
        entry = self.get(path)
        if entry is None:
            return True
        return entry.stale or entry.sha256 != text_digest(current_text)

    def mark_stale(self, path: Path | str, current_text: str | None = None) -> bool:
        """An editor changed the file. With the new text, a change back to what the model
        saw (or the echo of the sidecar's own edit) is not a change. Returns whether the
        entry is now stale."""
        entry = self.get(path)
        if entry is None:
            return False
        if current_text is not None and text_digest(current_text) == entry.sha256:
            return entry.stale
        entry.stale = True
        entry.stub_ok = False
        return True

    def forget_results(self, paths: Iterable[Path | str] | None = None) -> None:
        """Earlier Read results left the context (cleared or compacted): re-reads of these
        files (all when ``paths`` is None) must return content again."""
        if paths is None:
            targets: Iterable[FileReadEntry] = self._entries.values()
        else:
            targets = [e for e in (self.get(p) for p in paths) if e is not None]
        for entry in targets:
            entry.stub_ok = False

    def clear(self) -> None:
        self._entries.clear()

    def recent(self, n: int) -> list[FileReadEntry]:
        """The ``n`` most recently read or written files, newest first."""
        if n <= 0:
            return []
        ordered = sorted(self._entries.values(), key=lambda e: e.read_at, reverse=True)
        return ordered[:n]

    def entries(self) -> list[FileReadEntry]:
        return list(self._entries.values())

    def snapshot(self, check_disk: bool = True) -> list[dict[str, Any]]:
        """The /context view, newest first. With ``check_disk``, a file whose mtime or size
        moved is re-hashed so a change on disk shows as stale too."""
        out: list[dict[str, Any]] = []
        for entry in self.recent(len(self._entries)):
            if check_disk and not entry.stale:
                self._check_disk(entry)
            out.append(entry.to_json())
        return out

    def _check_disk(self, entry: FileReadEntry) -> None:
        try:
            st = entry.path.stat()
        except OSError:
            # Deleted (or never saved) since: the model's view no longer matches disk.
            entry.stale = entry.mtime is not None
            return
        if entry.mtime is not None and st.st_mtime == entry.mtime and st.st_size == entry.size:
            return
        try:
            # Decoded the way the Read tool decodes, so an undecodable byte hashes alike; a
            # file swapped for a FIFO since must not block the check.
            current = read_own_bytes(entry.path, limit=STALE_CHECK_MAX_BYTES).decode("utf-8", "replace")
        except OSError:
            entry.stale = True
            return
        if text_digest(current) != entry.sha256:
            entry.stale = True
            entry.stub_ok = False
