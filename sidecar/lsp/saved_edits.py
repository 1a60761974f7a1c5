"""An edit the editor applied reaches the disk, even when the editor left it unsaved.

``workspace/applyEdit`` changes the editor's buffer; an editor that does not save it
(Neovim keeps a modified buffer) leaves the file on disk as it was, so the next shell
command, test run or linter sees the old file. After an accepted edit the sidecar looks at
the disk: the new text there means the editor saved it. Otherwise the sidecar writes the new
text itself, but only when nothing else changed meanwhile:

- the disk still holds what it held before the edit (nobody else wrote the file), and
- the editor's buffer, as last reported, is the new text or the text the edit was computed
  from (its change notification may still be on its way); anything else means the user
  typed since, and the buffer is theirs to save.

The new text was computed from the buffer (``Read`` and ``Edit`` take unsaved text first),
so writing it saves the buffer as it stands after the edit, as the editor's own save would.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Literal

from sidecar.core.workspace.own_files import read_own_bytes
from sidecar.tools.documents import write_text

log = logging.getLogger(__name__)

Landing = Literal["saved", "written", "left"]


@dataclass(frozen=True)
class Before:
    """The file and the buffer just before the edit was sent."""

    disk: str | None  # None: no such file
    buffer: str | None  # None: the editor reported no open buffer


# Past this a file is not compared with the edit (it is no text anyone edits here).
SAVED_EDIT_MAX_BYTES = 64 << 20


def disk_text(path: Path) -> str | None:
    """The file's text, or None when it is missing or unreadable (blocking)."""
    try:
        return read_own_bytes(path, limit=SAVED_EDIT_MAX_BYTES).decode("utf-8", errors="surrogateescape")
    except (OSError, ValueError):
        return None


def landing(before: Before, disk_now: str | None, buffer_now: str | None, new_text: str) -> Landing:
    """What to do after the editor applied an edit: nothing (it is ``saved``), write it
    (``written``), or leave it in the buffer (``left``: someone else changed something)."""
    if disk_now == new_text:
        return "saved"
    # A new file the editor created empty counts as untouched.
    untouched = disk_now == before.disk or (before.disk is None and disk_now in (None, ""))
    if not untouched:
        return "left"
    if buffer_now is not None and buffer_now not in (new_text, before.buffer):
        return "left"
    return "written"


async def land(path: Path, before: Before, new_text: str,
               buffer_now: Callable[[], str | None]) -> Landing:
    """Check the disk after an applied edit and write the new text when it is safe."""
    disk_now = await asyncio.to_thread(disk_text, path)
    verdict = landing(before, disk_now, buffer_now(), new_text)
    if verdict == "written":
        await asyncio.to_thread(write_text, path, new_text)
        log.info("the editor left %s unsaved after the edit; wrote it", path)
    elif verdict == "left":
        log.warning("%s changed outside the edit before it was saved; the edit stays in the "
                    "editor's buffer", path)
    return verdict
