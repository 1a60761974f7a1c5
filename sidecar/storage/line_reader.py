"""Reading the head and the tail of append-only JSONL files without reading them whole."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

BLOCK_SIZE = 64 * 1024


def read_head(path: Path, max_bytes: int) -> list[bytes]:
    """The complete lines within the first ``max_bytes`` of the file."""
    with open(path, "rb") as f:
        data = f.read(max_bytes)
    if len(data) == max_bytes and not data.endswith(b"\n"):
        cut = data.rfind(b"\n")
        data = data[: cut + 1] if cut >= 0 else data  # one huge first line: keep what we have
    return [line for line in data.split(b"\n") if line.strip()]


def read_tail(path: Path, max_bytes: int) -> list[bytes]:
    """The lines within the last ``max_bytes`` of the file, oldest first.

    The first line is dropped when the window starts mid-line, so every returned line is
    whole unless the file itself ends with a torn line.
    """
    with open(path, "rb") as f:
        size = f.seek(0, os.SEEK_END)
        start = max(0, size - max_bytes)
        f.seek(start)
        data = f.read()
    lines = data.split(b"\n")
    if start > 0:
        lines = lines[1:]
    return [line for line in lines if line.strip()]


def iter_lines_reversed(path: Path, block_size: int = BLOCK_SIZE) -> Iterator[bytes]:
    """Lines of the file from the last to the first, reading block-wise from the end."""
    with open(path, "rb") as f:
        position = f.seek(0, os.SEEK_END)
        remainder = b""
        while position > 0:
            step = min(block_size, position)
            position -= step
            f.seek(position)
            chunk = f.read(step) + remainder
            lines = chunk.split(b"\n")
            remainder = lines[0]  # may continue in the previous block
            for line in reversed(lines[1:]):
                if line.strip():
                    yield line
        if remainder.strip():
            yield remainder
