"""What a running tool may ask of its session: roots, buffers, edits, permission."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from sidecar.core.conversation.tool_record import note_permission
from sidecar.core.permissions.choice import PermissionChoice

if TYPE_CHECKING:
    from sidecar.contract.updates import SessionUpdate
    from sidecar.core.accounting.tokens import TokenLedger
    from sidecar.core.accounting.window import Thresholds
    from sidecar.core.checkpoints.tracker import TurnChanges
    from sidecar.core.conversation.file_state import FileReadState
    from sidecar.core.conversation.messages import Message
    from sidecar.core.permissions.state import SessionPermissions
    from sidecar.core.ports import Editor, Tool
    from sidecar.core.session_resources import Kept, SessionResources
    from sidecar.core.settings import Settings


class SessionIdentity(Protocol):
    session_id: str
    cwd: str


class ToolHost(Protocol):
    """What running tools needs of a session (the session implements it)."""

    @property
    def info(self) -> SessionIdentity: ...

    tools: list[Tool]
    editor: Editor
    file_state: FileReadState
    settings: Settings
    cancel_event: asyncio.Event
    ledger: TokenLedger
    thresholds: Thresholds
    # The permission mode and plan state, and what the user allowed.
    permissions: SessionPermissions
    # What its tools keep between calls.
    resources: SessionResources
    # What its turns change, for rewinding (None: nothing is recorded).
    changes: TurnChanges | None

    @property
    def id(self) -> str: ...

    def results_dir(self) -> Path | None:
        """Where the session's tool outputs too large for its context are saved."""

    async def save_result(self, tool_use_id: str, text: str) -> Path | None:
        """Save one such output whole; its path, or None when it could not be saved."""

    def update(self, payload: SessionUpdate) -> None: ...

    def append(self, message: Message) -> Message: ...

PERMISSION_OPTIONS = [
    {"optionId": "allow_once", "name": "Allow once", "kind": "allow_once"},
    {"optionId": "allow_always", "name": "Always allow in this session", "kind": "allow_always"},
    {"optionId": "reject_once", "name": "Reject", "kind": "reject_once"},
]
EDIT_OPTIONS = [
    {"optionId": "allow_once", "name": "Accept", "kind": "allow_once"},
    {"optionId": "allow_turn", "name": "Accept all edits this turn", "kind": "allow_always"},
    {"optionId": "reject_once", "name": "Reject", "kind": "reject_once"},
]
LEAVE_PLAN_OPTIONS = [
    {"optionId": "accept_edits", "name": "Yes, and accept edits", "kind": "allow_once"},
    {"optionId": "default", "name": "Yes, ask before edits", "kind": "allow_once"},
    {"optionId": "reject_once", "name": "No, keep planning", "kind": "reject_once"},
]


class SessionToolContext:
    def __init__(self, session: ToolHost) -> None:
        self._session = session
        self.roots = [Path(session.info.cwd).resolve()]
        self.file_state = session.file_state
        self.settings = session.settings
        self.cancelled: asyncio.Event = session.cancel_event
        self.current_tool_call: dict[str, Any] = {}
        # Whether the running call must ask the user first (sidecar.core.permissions.modes decides).
        self.must_ask = True
        saved = session.results_dir()
        self.readable: list[Path] = [saved] if saved is not None else []
        # The user's skills: the Skill tool points the model at files beside them.
        self.readable.append(Path.home() / ".claude" / "skills")
        plan = session.permissions.plan_file()
        # The plan file is the sidecar's own: readable and writable outside the workspace,
        # written to the disk directly, never through the editor.
        self.writable: list[Path] = [plan] if plan is not None else []
        if plan is not None:
            self.readable.append(plan.parent)

    @property
    def mode(self) -> str:
        return self._session.permissions.mode

    def plan_file(self) -> Path | None:
        return self.writable[0] if self.writable else None

    def resource(self, kind: type[Kept]) -> Kept:
        return self._session.resources.get(kind)

    def set_mode(self, mode: str) -> None:
        """Leave plan mode for ``mode``; the tool's result tells the model."""
        self._session.permissions.set_mode(mode, tell_model=False)

    async def read_buffer(self, path: Path) -> str | None:
        # Transports whose buffers sit behind a request (ACP fs/read_text_file) read async.
        reader = getattr(self._session.editor, "read_buffer", None)
        if reader is not None:
            return await reader(path)
        return self._session.editor.buffer_text(path)

    async def apply_edit(self, path: Path, new_text: str, label: str) -> bool | None:
        if path in self.writable:
            return None  # the plan file: the tool writes it to the disk itself
        exists = await asyncio.to_thread(path.exists)
        return await self._session.editor.apply_edit(path, new_text, label, exists)

    async def before_change(self, path: Path) -> None:
        if path not in self.writable and self._session.changes is not None:
            await self._session.changes.before_change(path)

    async def after_change(self, path: Path) -> None:
        if path not in self.writable and self._session.changes is not None:
            await self._session.changes.after_change(path)

    async def review_edit(self, path: Path, old_text: str | None, new_text: str) -> PermissionChoice:
        """Ask the user about one edit, shown as a diff; the chosen optionId, or "cancelled".
        "allow_turn" lets the rest of this turn's edits through unasked."""
        tool_call = {
            "toolCallId": self.current_tool_call.get("toolCallId", ""),
            "title": self.current_tool_call.get("title", f"Edit {path}"),
            "kind": "edit",
            "status": "pending",
            "rawInput": self.current_tool_call.get("rawInput", {}),
            "locations": [{"path": str(path)}],
            "content": [{"type": "diff", "path": str(path), "oldText": old_text, "newText": new_text}],
        }
        answer = await self._session.editor.request_permission(self._session.id, tool_call, EDIT_OPTIONS)
        if answer.option_id == "allow_turn":
            self._session.permissions.edits_accepted = True
        note_permission(self._session, tool_call["toolCallId"], answer, EDIT_OPTIONS)
        return answer

    async def ask_to_leave_plan(self, plan: str) -> PermissionChoice:
        """Show the plan and ask whether to leave plan mode; the chosen optionId."""
        tool_call = {
            "toolCallId": self.current_tool_call.get("toolCallId", ""),
            "title": "Leave plan mode?",
            "kind": "switch_mode",
            "status": "pending",
            "rawInput": self.current_tool_call.get("rawInput", {}),
            "content": [{"type": "content", "content": {"type": "text", "text": plan}}],
        }
        answer = await self._session.editor.request_permission(self._session.id, tool_call,
                                                               LEAVE_PLAN_OPTIONS)
        note_permission(self._session, tool_call["toolCallId"], answer, LEAVE_PLAN_OPTIONS)
        return answer

    async def ask_permission(self, tool_name: str, title: str,
                             raw_input: dict[str, Any]) -> PermissionChoice:
        if tool_name in self._session.permissions.allowed_always:
            return PermissionChoice("allow_always")
        tool_call = {
            "toolCallId": self.current_tool_call.get("toolCallId", ""),
            "title": title,
            "kind": self.current_tool_call.get("kind", "execute"),
            "status": "pending",
            "rawInput": raw_input,
        }
        answer = await self._session.editor.request_permission(
            self._session.id, tool_call, PERMISSION_OPTIONS
        )
        if answer.option_id == "allow_always":
            self._session.permissions.allowed_always.add(tool_name)
        # The answer shows on the call's final update, live and when the session is resumed.
        note_permission(self._session, tool_call["toolCallId"], answer, PERMISSION_OPTIONS)
        return answer
