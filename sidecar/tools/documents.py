"""The current text of a file as tools see it: the editor's unsaved buffer, else the disk."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from sidecar.tools.base import ToolContext, ToolError

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
        return Document(path, buffer, True, st.st_mtime if st else None)
    if st is None:
        return None
    if path.is_dir():
        raise ToolError(f"{path} is a directory, not a file; use LS to list it.")
    if st.st_size > MAX_FILE_BYTES:
        raise ToolError(
            f"{path} is too large to load ({st.st_size / 1_048_576:.1f} MB, limit "
            f"{MAX_FILE_BYTES // 1_048_576} MB); search it with Grep instead."
        )
    data = path.read_bytes()
    if looks_binary(data):
        raise ToolError(f"{path} is a binary file; it cannot be shown or edited as text.")
    try:
        return Document(path, data.decode("utf-8"), False, st.st_mtime)
    except UnicodeDecodeError:
        if strict:
            raise ToolError(f"{path} is not UTF-8 text; it cannot be edited safely.") from None
        return Document(path, data.decode("utf-8", "replace"), False, st.st_mtime, lossy=True)
