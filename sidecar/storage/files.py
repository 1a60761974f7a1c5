"""Opening, writing and sealing storage files without ever hanging on a strange one.

Someone (or a crash, or a hostile workspace) can leave a FIFO, a socket or a device where a
storage file should be. Opening a FIFO blocks until its other end appears, so every open
here passes ``O_NONBLOCK`` and then refuses what ``fstat`` does not call a regular file.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import BinaryIO

_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_BINARY = getattr(os, "O_BINARY", 0)  # Windows: no newline translation
# The one call every storage write goes through; tests replace it to fill the disk.
_os_write = os.write


class NotRegularFile(OSError):
    """A FIFO, socket, device or directory where a regular file was expected."""

    def __init__(self, path: Path | str, mode: int) -> None:
        self.kind = file_kind(mode)
        super().__init__(errno.EINVAL, f"not a regular file but {self.kind}", os.fspath(path))


class PartialWrite(OSError):
    """A write that failed after ``written`` bytes reached the file."""

    def __init__(self, cause: OSError, written: int) -> None:
        super().__init__(cause.errno, cause.strerror or str(cause), cause.filename)
        self.written = written


def file_kind(mode: int) -> str:
    """What a file of ``mode`` is, in words the user knows."""
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISREG(mode):
        return "a regular file"
    return "a special file"


def open_fd(path: Path | str, flags: int, mode: int = 0o600) -> int:
    """``os.open`` that never blocks on a FIFO and only ever returns a regular file."""
    try:
        fd = os.open(path, flags | _NONBLOCK | _CLOEXEC | _BINARY, mode)
    except OSError as exc:
        # A FIFO without a reader refuses a non-blocking writer with ENXIO ("no such
        # device or address"): say what it really is.
        if exc.errno == errno.ENXIO:
            try:
                st_mode = os.stat(path).st_mode
            except OSError:
                raise exc from None
            if not stat.S_ISREG(st_mode):
                raise NotRegularFile(path, st_mode) from None
        raise
    try:
        st_mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(st_mode):
            raise NotRegularFile(path, st_mode)
        if _NONBLOCK and hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def open_regular(path: Path | str) -> BinaryIO:
    """``path`` opened for binary reading (regular files only)."""
    return os.fdopen(open_fd(path, os.O_RDONLY), "rb")


def open_append(path: Path | str) -> int:
    """A descriptor appending to ``path`` (created 0600 if missing; regular files only)."""
    return open_fd(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)


def read_regular(path: Path | str, limit: int | None = None) -> bytes:
    """The bytes of a regular file (at most ``limit``)."""
    with open_regular(path) as f:
        return f.read() if limit is None else f.read(limit)


def write_whole(fd: int, data: bytes) -> None:
    """Write all of ``data``; regular files take it in one call unless the disk is full.

    A failure after some bytes landed raises PartialWrite saying how many, so the caller
    can keep exactly the rest.
    """
    view = memoryview(data)
    done = 0
    while done < len(data):
        try:
            written = _os_write(fd, view[done:])
        except OSError as exc:
            if done:
                raise PartialWrite(exc, done) from exc
            raise
        done += written


def ends_mid_line(path: Path | str) -> bool:
    """Whether ``path`` ends without a newline (a torn last line)."""
    with open_regular(path) as f:
        size = f.seek(0, os.SEEK_END)
        if size == 0:
            return False
        f.seek(size - 1)
        return f.read(1) != b"\n"


def seal(fd: int, path: Path | str) -> bool:
    """End a torn last line with a newline so the next append starts a line of its own.

    ``fd`` appends to ``path``. The torn fragment stays one unparseable line that loaders
    skip and count; without the newline the next whole record would be glued to it and
    lost with it. True when a newline was written.
    """
    if not ends_mid_line(path):
        return False
    write_whole(fd, b"\n")
    return True
