"""Tool outputs too large for the context, saved whole next to the session's transcript.

One file per tool call, named by its id, written once: a file appears whole or not at all
(a temporary file renamed into place), and a second save of the same call keeps the first.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from sidecar.storage.files import write_whole
from sidecar.storage.paths import tool_results_dir

# Tool call ids come from the model; only these characters may name a file.
_SAFE_ID = re.compile(r"^[A-Za-z0-9_-]{1,128}$")


def save_tool_result(storage_dir: Path | str, cwd: str, session_id: str, tool_use_id: str,
                     text: str) -> Path:
    """Write ``text`` to the session's tool-results directory and return the file's path
    (blocking: call it in a worker thread)."""
    if not _SAFE_ID.match(tool_use_id):
        raise ValueError(f"invalid tool call id: {tool_use_id!r}")
    directory = tool_results_dir(storage_dir, cwd, session_id)
    target = directory / f"{tool_use_id}.txt"
    if target.exists():
        return target
    directory.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=directory, prefix=f".{tool_use_id}.", suffix=".tmp")
    try:
        try:
            write_whole(fd, text.encode("utf-8", "surrogatepass"))
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return target
