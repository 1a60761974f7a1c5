"""Which paths a workspace watches, and which filesystem events concern them.

Targets are files (CLAUDE.md locations, `.git/HEAD`, `.git/index`, `packed-refs`), which
need not exist yet, and directory trees (`.git/refs`). Files are watched through their
parent directory, non-recursively, so a big workspace costs a handful of inotify watches;
when a parent does not exist yet, its nearest existing ancestor is watched instead and the
creation of the missing directory re-arms the watch.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path


def _abs(path: Path | str) -> Path:
    return Path(os.path.abspath(path))


def _nearest_existing(path: Path) -> Path | None:
    for candidate in (path, *path.parents):
        if candidate.is_dir():
            # inotify needs read access; an unreadable ancestor is skipped, not fatal.
            return candidate if os.access(candidate, os.R_OK | os.X_OK) else None
    return None


@dataclass(frozen=True)
class Roots:
    flat: frozenset[Path]  # watched non-recursively
    trees: frozenset[Path]  # watched recursively


class WatchTargets:
    def __init__(self, paths: Iterable[Path | str]) -> None:
        files: set[Path] = set()
        trees: set[Path] = set()
        for raw in paths:
            path = _abs(raw)
            # Directories (`.git/refs`, the skill folders) are watched whole; decide by
            # disk, with the name as the fallback for a repository whose refs vanished.
            (trees if path.is_dir() or path.name == "refs" else files).add(path)
        self.files = frozenset(files)
        self.trees = frozenset(trees)
        # Directories on the way to a target: their creation or removal changes what exists.
        self.ancestors = frozenset(
            a for t in files | trees for a in t.parents if a != Path(a.anchor)
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, WatchTargets):
            return NotImplemented
        return (self.files, self.trees) == (other.files, other.trees)

    def __hash__(self) -> int:
        return hash((self.files, self.trees))

    def roots(self) -> Roots:
        """Existing directories to watch right now."""
        flat: set[Path | None] = set()
        trees: set[Path] = set()
        for f in self.files:
            flat.add(_nearest_existing(f.parent))
        for t in self.trees:
            if t.is_dir() and os.access(t, os.R_OK | os.X_OK):
                trees.add(t)
            flat.add(_nearest_existing(t.parent))  # also sees the tree itself appear or vanish
        return Roots(frozenset(d for d in flat if d is not None), frozenset(trees))

    def in_tree(self, path: Path) -> bool:
        return any(t in path.parents for t in self.trees)

    def is_target(self, path: Path) -> bool:
        """A change to this path is a change the workspace cares about."""
        if path.name.endswith(".lock"):
            return False  # git's temporary files; the rename that follows is what counts
        return path in self.files or path in self.trees or self.in_tree(path)

    def is_structural(self, path: Path) -> bool:
        """A directory on the way to a target appeared or vanished: watches must be re-armed."""
        return path in self.ancestors or path in self.trees

    def matches(self, path: Path) -> bool:
        return self.is_target(path) or self.is_structural(path)

    def under(self, directory: Path) -> set[Path]:
        """Targets inside a directory that just appeared (their events may predate the watch)."""
        return {t for t in self.files | self.trees if directory in t.parents or t == directory}
