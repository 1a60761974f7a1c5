"""Reading the head and the tail of append-only JSONL files without reading them whole."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from sidecar.storage.files import open_regular

BLOCK_SIZE = 64 * 1024


def read_head(path: Path, max_bytes: int) -> list[bytes]:
    """The complete lines within the first ``max_bytes`` of the file."""
    with open_regular(path) as f:
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
    with open_regular(path) as f:
        size = f.seek(0, os.SEEK_END)
        start = max(0, size - max_bytes)
        f.seek(start)
        data = f.read()
    lines = data.split(b"\n")
    if start > 0:
        lines = lines[1:]
    return [line for line in lines if line.strip()]


def iter_lines_reversed(path: Path, block_size: int = BLOCK_SIZE) -> Iterator[bytes]:
    """Lines of the file from the last to the first, reading block-wise from the end.

    A line longer than a block is gathered as a list of its pieces and joined once, so the
    cost stays linear in the file size: prepending each block to a growing remainder made
    one 30 MB line cost seconds.
    """
    with open_regular(path) as f:
        position = f.seek(0, os.SEEK_END)
        pieces: list[bytes] = []  # the line being gathered, last piece first
        while position > 0:
            step = min(block_size, position)
            position -= step
            f.seek(position)
            block = f.read(step)
            end = len(block)
            cut = block.rfind(b"\n", 0, end)
            while cut >= 0:
                pieces.append(block[cut + 1 : end])
                line = b"".join(reversed(pieces))
                pieces.clear()
                if line.strip():
                    yield line
                end = cut
                cut = block.rfind(b"\n", 0, end)
            pieces.append(block[:end])
        line = b"".join(reversed(pieces))
        if line.strip():
            yield line
