"""Going back to a checkpoint: the files its turns changed, and the conversation.

Files: each file any turn from the checkpoint on changed gets the content it had before the
first of them (a file one of them created is deleted), written beside it and renamed over
it, so an interruption leaves it restored or untouched. A file whose content is neither
that nor what the sidecar last left in it was changed by someone else: left alone unless
forced. Only files inside the session's folder are touched, whatever a transcript says.

Conversation: the records from the checkpoint on leave the session's view; a ``rewind``
record chained to the last one kept makes the new branch, in the transcript and for
Claude Code's ``--resume``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sidecar.contract.results import RewindAction, RewoundFile
from sidecar.core.checkpoints.ports import FileHistory, content_id
from sidecar.core.checkpoints.records import CheckpointState, rewind_record
from sidecar.core.checkpoints.tracker import read_bytes
from sidecar.core.conversation.messages import answered_calls
from sidecar.core.json_files import replace_whole

if TYPE_CHECKING:
    from sidecar.core.session import Session


@dataclass
class FilePlan:
    path: Path
    action: RewindAction
    blob: str | None  # what it gets back (None: deleted)
    now: bytes | None  # its content now (None: absent)


def _inside(path: Path, root: Path) -> bool:
    try:
        resolved = path.parent.resolve() / path.name
        return resolved.is_relative_to(root.resolve()) and not path.is_symlink()
    except (OSError, ValueError):
        return False


def plan_files(states: list[CheckpointState], root: Path, force: bool) -> list[FilePlan]:
    """What restoring the files of ``states`` (a checkpoint and those after it) would do
    (blocking: it reads the files)."""
    first: dict[str, str | None] = {}
    expected: dict[str, str | None] = {}
    for state in states:
        for change in state.files.values():
            first.setdefault(change.path, change.blob)
            if change.wrote:
                expected[change.path] = change.last
    plans: list[FilePlan] = []
    for name, blob in first.items():
        path = Path(name)
        if not path.is_absolute() or not _inside(path, root):
            plans.append(FilePlan(path, "conflict", blob, None))
            continue
        now = read_bytes(path)
        current = content_id(now) if now is not None else None
        if current == blob:
            action: RewindAction = "unchanged"
        elif force or (name in expected and expected[name] == current):
            action = "restore" if blob is not None else "delete"
        else:
            action = "conflict"
        plans.append(FilePlan(path, action, blob, now))
    return plans


def _text(data: bytes | None) -> str | None:
    return data.decode("utf-8", errors="replace") if data is not None else None


def preview(plans: list[FilePlan], history: FileHistory) -> list[RewoundFile]:
    """The plans with both sides' text, for a diff (blocking)."""
    out: list[RewoundFile] = []
    for plan in plans:
        wanted = history.get(plan.blob) if plan.blob is not None else None
        out.append({"path": str(plan.path), "action": plan.action,
                    "oldText": _text(plan.now), "newText": _text(wanted)})
    return out


def _temporary_prefix(path: Path) -> str:
    return f".{path.name}.rewind-"


def remove_leftovers(path: Path) -> None:
    """The copies an interrupted rewind left beside ``path`` (a kill between writing one and
    renaming it over the file)."""
    try:
        for stale in path.parent.glob(_temporary_prefix(path) + "*"):
            stale.unlink(missing_ok=True)
    except OSError:
        pass


def write_whole_file(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data``: written beside it, then renamed over it (keeping its
    permissions), so it is never half written."""
    try:
        mode = path.stat().st_mode & 0o7777
    except OSError:
        mode = 0o644
    replace_whole(path, data, mode=mode, prefix=_temporary_prefix(path))


def apply(plans: list[FilePlan], history: FileHistory) -> list[RewoundFile]:
    """Restore or delete each planned file (blocking); conflicts stay as they are."""
    out: list[RewoundFile] = []
    for plan in plans:
        if plan.action != "conflict":
            remove_leftovers(plan.path)
        if plan.action == "restore" and plan.blob is not None:
            write_whole_file(plan.path, history.get(plan.blob))
        elif plan.action == "delete":
            plan.path.unlink(missing_ok=True)
        out.append({"path": str(plan.path), "action": plan.action})
    return out


def rewind_conversation(session: Session, state: CheckpointState, restore: str) -> None:
    """The session's view back to just before the checkpoint's prompt."""
    records = session.transcript.records
    kept = records[:state.index]
    parent = next((m.uuid for m in reversed(kept)), None)
    del records[state.index:]
    session.append(rewind_record(state.checkpoint_id, restore, parent))
    session.rewrite("rewind")
    session.file_state.forget_results()
    session.rebuild_ledger()
    calls = answered_calls(kept)
    session.last_usage = calls[-1].usage if calls else None
    session.persist_state()
