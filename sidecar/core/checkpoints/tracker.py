"""What a session's turns change, recorded for rewinding: a checkpoint before each prompt's
turn, the content of each file before the turn's first change to it and after every change,
and the shell commands that may have changed files.

The content is kept (``FileHistory``) before its record is written, and both before the
change is made: a crash at any point leaves a change whose old content is kept, or a change
not made. A subagent's edits belong to the turn that started it: it shares its session's.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path

from sidecar.core.checkpoints.ports import FileHistory, content_id
from sidecar.core.checkpoints.records import (
    backup_record,
    checkpoint_record,
    shell_record,
    write_record,
)
from sidecar.core.conversation.messages import Message, new_uuid
from sidecar.core.permissions.readonly_shell import vet

log = logging.getLogger(__name__)


def read_bytes(path: Path) -> bytes | None:
    """A file's content, or None when there is no file (blocking)."""
    try:
        return path.read_bytes()
    except (FileNotFoundError, NotADirectoryError):
        return None


class TurnChanges:
    def __init__(self, append: Callable[[Message], Message], history: FileHistory,
                 cwd: Path) -> None:
        self._append = append
        self.history = history
        self._cwd = cwd
        self.current: str | None = None  # the checkpoint of the running turn
        self._kept: set[Path] = set()  # files kept in it

    def take(self, prompt: str, used: int) -> str:
        """A checkpoint before a prompt's turn: its id."""
        self.current = new_uuid()
        self._kept = set()
        self._append(checkpoint_record(self.current, prompt, used))
        return self.current

    async def before_change(self, path: Path) -> None:
        """Keep ``path``'s content before the turn's first change to it."""
        if self.current is None or path in self._kept:
            return
        try:
            data = await asyncio.to_thread(read_bytes, path)
            blob = await asyncio.to_thread(self.history.put, data) if data is not None else None
        except OSError as exc:
            log.warning("could not keep %s for a rewind: %s", path, exc)
            return
        self._kept.add(path)
        self._append(backup_record(self.current, str(path), blob))

    async def after_change(self, path: Path) -> None:
        """Note what the change left in ``path``: a later difference is someone else's."""
        if self.current is None or path not in self._kept:
            return
        try:
            data = await asyncio.to_thread(read_bytes, path)
        except OSError:
            data = None
        self._append(write_record(self.current, str(path),
                                  content_id(data) if data is not None else None))

    def shell_ran(self, command: str) -> None:
        """A shell command of the turn: listed when it may have changed files."""
        if self.current is None or not command.strip():
            return
        if vet(command, [self._cwd]).action == "allow":
            return  # it only reads
        self._append(shell_record(self.current, command))
