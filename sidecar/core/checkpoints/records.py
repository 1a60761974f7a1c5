"""Checkpoints as transcript records, and the checkpoints a conversation's records hold.

A checkpoint is a ``system`` record (``subtype: "checkpoint"``) written before a prompt's
turn, with the gauge's figure then. Before the turn's first change to a file, a
``file_backup`` record names the content kept of it (null: the file did not exist); after
each change, a ``file_write`` record the content it was left with; a shell command that may
have changed files, a ``shell_change`` record. A rewind is a ``rewind`` record whose
``parentUuid`` is the record the conversation goes on from. Being records, they are written
as the conversation is (one line each, crash-safe), come back with a resumed session, and
go with a fork; Claude Code skips system records it does not know.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sidecar.contract.results import Checkpoint
from sidecar.core.conversation.messages import Message

CHECKPOINT = "checkpoint"
FILE_BACKUP = "file_backup"
FILE_WRITE = "file_write"
SHELL_CHANGE = "shell_change"
REWIND = "rewind"
META = "checkpointMetadata"
PROMPT_CHARS = 2_000


def _record(subtype: str, text: str, meta: dict[str, Any]) -> Message:
    return Message(kind="system", subtype=subtype, content=[{"type": "text", "text": text}],
                   extra={META: meta})


def checkpoint_record(checkpoint_id: str, prompt: str, used: int) -> Message:
    return _record(CHECKPOINT, "Checkpoint", {"checkpointId": checkpoint_id,
                                              "prompt": prompt[:PROMPT_CHARS], "used": used})


def backup_record(checkpoint_id: str, path: str, blob: str | None) -> Message:
    return _record(FILE_BACKUP, f"Kept {path}", {"checkpointId": checkpoint_id, "path": path,
                                                 "blob": blob})


def write_record(checkpoint_id: str, path: str, content: str | None) -> Message:
    return _record(FILE_WRITE, f"Changed {path}", {"checkpointId": checkpoint_id, "path": path,
                                                   "content": content})


def shell_record(checkpoint_id: str, command: str) -> Message:
    return _record(SHELL_CHANGE, "Shell command", {"checkpointId": checkpoint_id,
                                                   "command": command})


def rewind_record(checkpoint_id: str, restore: str, parent_uuid: str | None) -> Message:
    marker = _record(REWIND, "Rewound", {"checkpointId": checkpoint_id, "restore": restore})
    marker.parent_uuid = parent_uuid  # null: back to before the first prompt
    return marker


def meta_of(message: Message, subtype: str) -> dict[str, Any] | None:
    """The record's checkpoint metadata when it is a ``subtype`` record."""
    if message.kind != "system" or message.subtype != subtype:
        return None
    meta = message.extra.get(META)
    return meta if isinstance(meta, dict) else None


@dataclass
class FileChange:
    """One file's part in a checkpoint's turn."""

    path: str
    blob: str | None  # the content kept before the turn's first change; None: absent
    last: str | None = None  # the content id the sidecar last left it with; None: absent
    wrote: bool = False  # whether ``last`` is known (a change's record was written)


@dataclass
class CheckpointState:
    checkpoint_id: str
    index: int  # of its record in the records
    prompt: str
    at: str
    used: int
    files: dict[str, FileChange] = field(default_factory=dict)
    commands: list[str] = field(default_factory=list)

    def to_json(self) -> Checkpoint:
        return {"checkpointId": self.checkpoint_id, "prompt": self.prompt, "at": self.at,
                "used": self.used, "commands": list(self.commands),
                "files": [{"path": f.path, "created": f.blob is None}
                          for f in self.files.values()]}


def checkpoints_of(records: list[Message]) -> list[CheckpointState]:
    """The checkpoints of a conversation's records, oldest first, each with what its turn
    changed (records of a checkpoint not in the list are ignored)."""
    found: list[CheckpointState] = []
    by_id: dict[str, CheckpointState] = {}
    for index, message in enumerate(records):
        if message.kind != "system":
            continue
        meta = message.extra.get(META)
        if not isinstance(meta, dict):
            continue
        if message.subtype == CHECKPOINT:
            state = CheckpointState(str(meta.get("checkpointId")), index,
                                    str(meta.get("prompt", "")), message.timestamp,
                                    int(meta.get("used") or 0))
            found.append(state)
            by_id[state.checkpoint_id] = state
            continue
        owner = by_id.get(str(meta.get("checkpointId")))
        if owner is not None:
            _note(owner, message.subtype, meta)
    return found


def _note(state: CheckpointState, subtype: str | None, meta: dict[str, Any]) -> None:
    """One change record of ``state``'s turn."""
    path = str(meta.get("path", ""))
    if subtype == FILE_BACKUP and path not in state.files:
        blob = meta.get("blob")
        state.files[path] = FileChange(path, blob if isinstance(blob, str) else None)
    elif subtype == FILE_WRITE and path in state.files:
        content = meta.get("content")
        state.files[path].last = content if isinstance(content, str) else None
        state.files[path].wrote = True
    elif subtype == SHELL_CHANGE:
        state.commands.append(str(meta.get("command", "")))
