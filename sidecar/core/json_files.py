"""A JSON file the sidecar keeps of its own (trusted folders, MCP answers, the models cache,
notices shown), written aside and renamed into place: a reader or a crash never sees half a
file, and a failed write leaves no stray temporary behind."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any


def write_json(path: Path, value: Any, *, indent: int = 2) -> None:
    """Replace ``path`` with ``value`` as JSON; raises OSError when it cannot."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(value, handle, indent=indent)
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
