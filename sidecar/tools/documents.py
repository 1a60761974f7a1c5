"""The current text of a file as tools see it: the editor's unsaved buffer, else the disk.

Disk reads and writes run in a worker thread, so a slow disk never stalls the server's
other sessions, and only ever touch regular files: opening a FIFO blocks until someone
opens its other end, and a device such as /dev/zero never ends.
"""

from __future__ import annotations

import asyncio
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from sidecar.core.ports import ToolContext
from sidecar.storage.files import NotRegularFile, file_kind, open_fd, write_whole
from sidecar.tools.base import ToolError

# Larger files are not loaded whole; the model is pointed at Grep or the shell instead.
MAX_FILE_BYTES = 10 * 1024 * 1024
BINARY_SNIFF_BYTES = 8192


@dataclass(frozen=True, slots=True)
class Document:
    path: Path
    text: str
    from_buffer: bool
    mtime: float | None  # disk mtime, None when the file exists only in the editor
    lossy: bool = False  # bytes that were not UTF-8 were replaced


def looks_binary(data: bytes) -> bool:
    return b"\x00" in data[:BINARY_SNIFF_BYTES]


def refuse_special(path: Path, st: os.stat_result) -> None:
    """A ToolError for anything but a regular file or a directory (callers decide on those)."""
    if stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode):
        return
    raise ToolError(
        f"{path} is {file_kind(st.st_mode)}, not a regular file; tools only read and write "
        "regular files."
    )


def read_bytes(path: Path, limit: int | None = None) -> bytes:
    """The bytes of the regular file ``path`` (blocking: call it in a worker thread)."""
    try:
        fd = open_fd(path, os.O_RDONLY)
    except NotRegularFile as exc:
        raise ToolError(
            f"{path} is {exc.kind}, not a regular file; tools only read and write regular files."
        ) from None
    with os.fdopen(fd, "rb") as f:
        return f.read() if limit is None else f.read(limit)


def write_text(path: Path, text: str) -> None:
    """Replace the content of ``path`` (created if missing) with ``text``, refusing
    anything but a regular file (blocking: call it in a worker thread)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = open_fd(path, os.O_WRONLY | os.O_CREAT, 0o666)
    except NotRegularFile as exc:
        raise ToolError(
            f"{path} is {exc.kind}, not a regular file; tools only read and write regular files."
        ) from None
    try:
        os.ftruncate(fd, 0)
        write_whole(fd, text.encode("utf-8"))
    finally:
        os.close(fd)


async def load_document(path: Path, ctx: ToolContext, strict: bool = False) -> Document | None:
    """None when the file exists neither in the editor nor on disk.

    ``strict`` refuses text that is not valid UTF-8, because writing it back after a
    lossy decode would corrupt the file.
    """
    buffer = await ctx.read_buffer(path)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    except NotADirectoryError:
        st = None
    if buffer is not None:
        if st is not None:
            refuse_special(path, st)
        return Document(path, buffer, True, st.st_mtime if st else None)
    if st is None:
        return None
    if stat.S_ISDIR(st.st_mode):
        raise ToolError(f"{path} is a directory, not a file; use LS to list it.")
    refuse_special(path, st)
    if st.st_size > MAX_FILE_BYTES:
        raise ToolError(
            f"{path} is too large to load ({st.st_size / 1_048_576:.1f} MB, limit "
            f"{MAX_FILE_BYTES // 1_048_576} MB); search it with Grep instead."
        )
    # The limit guards a file that grew after the stat.
    data = await asyncio.to_thread(read_bytes, path, MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise ToolError(
            f"{path} grew past the load limit ({MAX_FILE_BYTES // 1_048_576} MB) while being "
            "read; search it with Grep instead."
        )
    if looks_binary(data):
        raise ToolError(f"{path} is a binary file; it cannot be shown or edited as text.")
    try:
        return Document(path, data.decode("utf-8"), False, st.st_mtime)
    except UnicodeDecodeError:
        if strict:
            raise ToolError(f"{path} is not UTF-8 text; it cannot be edited safely.") from None
        return Document(path, data.decode("utf-8", "replace"), False, st.st_mtime, lossy=True)
