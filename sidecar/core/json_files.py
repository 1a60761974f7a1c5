"""Files written whole: aside, then renamed into place, so a reader or a crash never sees
half a file and a failed write leaves no stray temporary behind. The JSON files the sidecar
keeps of its own (trusted folders, MCP answers, the models cache, notices shown), the file
contents checkpoints keep, and the files a rewind restores."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any


def write_json(path: Path, value: Any, *, indent: int = 2) -> None:
    """Replace ``path`` with ``value`` as JSON; raises OSError when it cannot."""
    replace_whole(path, json.dumps(value, indent=indent).encode("utf-8"))


def replace_whole(path: Path, data: bytes, *, mode: int = 0o600, prefix: str | None = None) -> None:
    """Replace ``path`` with ``data``, written beside it (named ``prefix`` and a random
    tail, by default ``.<name>.``) with ``mode``, then renamed over it; raises OSError."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=prefix or f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            os.fchmod(handle.fileno(), mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
