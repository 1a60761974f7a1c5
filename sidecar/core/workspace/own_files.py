"""Files the sidecar reads on its own (settings, CLAUDE.md files and their includes, skills,
Claude Code's configuration): read without ever hanging and without leaving where they may
lie.

A cloned repository decides what its files are. A FIFO where a settings file should be
would block an ordinary ``open`` until something writes to it, freezing the server; a
symlink (or a symlinked folder on the way) would carry a file from elsewhere on the disk to
the model. So every such read resolves the path first (symlinks followed), refuses a target
outside the folders it may come from, opens with ``O_NONBLOCK``, refuses what ``fstat`` does
not call a regular file, and reads at most a set number of bytes.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterable
from pathlib import Path

_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_BINARY = getattr(os, "O_BINARY", 0)
DEFAULT_LIMIT = 1 << 20


class RefusedFile(OSError):
    """A file the sidecar does not read: outside its folders, special, or too large."""

    def __init__(self, path: Path | str, why: str) -> None:
        self.why = why
        super().__init__(errno.EPERM, why, os.fspath(path))


def resolved(path: Path | str) -> Path:
    """``path`` with every symlink on the way followed (``realpath``)."""
    return Path(os.path.realpath(os.fspath(path)))


def inside(path: Path, folders: Iterable[Path]) -> bool:
    """Whether the resolved ``path`` lies in one of the resolved ``folders``."""
    real = resolved(path)
    for folder in folders:
        top = resolved(folder)
        if real == top or top in real.parents:
            return True
    return False


def read_own_bytes(path: Path | str, within: Iterable[Path] | None = None,
                   limit: int = DEFAULT_LIMIT) -> bytes:
    """The bytes of the regular file at ``path``, which must resolve inside one of
    ``within`` (any folder when None) and hold at most ``limit`` bytes.

    Raises FileNotFoundError when nothing is there, RefusedFile when the file is not to be
    read, and OSError when it cannot be."""
    real = resolved(path)
    if within is not None:
        folders = list(within)
        if not inside(real, folders):
            raise RefusedFile(path, f"it resolves to {real}, outside "
                                    + ", ".join(str(f) for f in folders))
    fd = os.open(real, os.O_RDONLY | _NONBLOCK | _CLOEXEC | _BINARY)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise RefusedFile(path, "it is not a regular file")
        if st.st_size > limit:
            raise RefusedFile(path, f"it holds {st.st_size} bytes, over {limit}")
        if _NONBLOCK and hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(limit + 1)
    finally:
        os.close(fd)
    if len(data) > limit:
        raise RefusedFile(path, f"it holds over {limit} bytes")
    return data


def read_own_text(path: Path | str, within: Iterable[Path] | None = None,
                  limit: int = DEFAULT_LIMIT) -> str:
    return read_own_bytes(path, within, limit).decode("utf-8", errors="replace")


def is_own_file(path: Path | str, within: Iterable[Path] | None = None) -> bool:
    """Whether ``path`` is a regular file that may be read (a stat, no open)."""
    real = resolved(path)
    if within is not None and not inside(real, within):
        return False
    try:
        return stat.S_ISREG(os.stat(real).st_mode)
    except OSError:
        return False
