"""Glob patterns and the bounded directory walk behind Glob, Grep and LS.

Patterns follow the shell/ripgrep dialect models use: ``*`` and ``?`` stay within one
path component, ``**`` spans components, ``[...]`` classes and ``{a,b}`` alternatives.
The walk never follows directory symlinks, skips version-control and dependency
directories, drops file symlinks that lead outside the workspace, and yields regular files
only: a FIFO, socket or device is never handed to a reader that would block on it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from sidecar.tools.paths import is_inside_roots

# Skipped while walking unless the walk starts inside one or the pattern names it:
# they are huge, generated, and almost never what a search is for.
SKIPPED_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        "node_modules",
        "__pycache__",
        ".venv",
        "venv",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".tox",
    }
)
MAGIC = re.compile(r"[*?\[{]")


def translate(pattern: str) -> str:
    """The regular expression (anchored both ends) matching what ``pattern`` matches."""
    out: list[str] = []
    i, n = 0, len(pattern)
    depth = 0  # open {...} groups
    while i < n:
        c = pattern[i]
        if c == "*":
            if pattern.startswith("**", i):
                at_start = i == 0 or pattern[i - 1] == "/"
                after = i + 2
                if at_start and after < n and pattern[after] == "/":
                    out.append("(?:.*/)?")
                    i = after + 1
                    continue
                out.append(".*")
                i = after
                continue
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            end = pattern.find("]", i + 2 if pattern[i + 1 : i + 2] in ("!", "^", "]") else i + 1)
            if end == -1:
                out.append(re.escape(c))
            else:
                body = pattern[i + 1 : end]
                body = body.replace("\\", "\\\\")
                # A negated class still stays within one path component.
                body = "^/" + body[1:] if body[:1] in ("!", "^") else body
                out.append("[" + body + "]")
                i = end
        elif c == "{":
            depth += 1
            out.append("(?:")
        elif c == "}" and depth:
            depth -= 1
            out.append(")")
        elif c == "," and depth:
            out.append("|")
        elif c == "\\" and i + 1 < n:
            i += 1
            out.append(re.escape(pattern[i]))
        else:
            out.append(re.escape(c))
        i += 1
    out.extend(")" * depth)
    return "(?s:" + "".join(out) + r")\Z"


def compile_glob(pattern: str, ignore_case: bool = False) -> re.Pattern[str]:
    return re.compile(translate(pattern), re.IGNORECASE if ignore_case else 0)


@dataclass(frozen=True)
class FileFilter:
    """A glob applied the ripgrep way: to the relative path when it holds a slash, else
    to the file name."""

    regex: re.Pattern[str]
    on_path: bool

    @classmethod
    def of(cls, pattern: str) -> FileFilter:
        pattern = pattern.strip()
        on_path = "/" in pattern.rstrip("/")
        return cls(compile_glob(pattern.removeprefix("./") if on_path else pattern), on_path)

    def matches(self, rel: str) -> bool:
        return bool(self.regex.match(rel if self.on_path else rel.rsplit("/", 1)[-1]))


def split_base(pattern: str) -> tuple[str, str]:
    """Leading components without glob characters become the base directory, so
    ``src/**/*.py`` walks only ``src`` and ``/abs/dir/*.py`` walks ``/abs/dir``."""
    parts = pattern.split("/")
    fixed: list[str] = []
    for part in parts[:-1]:
        if MAGIC.search(part):
            break
        fixed.append(part)
    rest = "/".join(parts[len(fixed) :])
    base = "/".join(fixed)
    if pattern.startswith("/") and not base:
        base = "/"
    return base, rest


def walk_files(
    base: Path,
    roots: Sequence[Path],
    should_stop: Callable[[], bool],
    keep_dirs: frozenset[str] = frozenset(),
) -> Iterator[tuple[Path, str]]:
    """Every regular file under ``base`` as (absolute path, path relative to base, with
    forward slashes), directories in sorted order."""
    skipped = SKIPPED_DIRS - keep_dirs
    pending = [(os.fspath(base), "")]
    while pending:
        if should_stop():
            return
        directory, rel_dir = pending.pop()
        try:
            with os.scandir(directory) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:
            continue
        subdirs: list[tuple[str, str]] = []
        for entry in entries:
            rel = f"{rel_dir}{entry.name}"
            try:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name not in skipped:
                        subdirs.append((entry.path, rel + "/"))
                    continue
                if not entry.is_file(follow_symlinks=True):
                    continue  # FIFO, socket, device, or a dangling symlink
                if entry.is_symlink() and not is_inside_roots(entry.path, roots):
                    continue
            except OSError:
                continue
            yield Path(entry.path), rel
        # Depth first in sorted order, as os.walk would yield them.
        pending.extend(reversed(subdirs))


def mtime_or_zero(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0
