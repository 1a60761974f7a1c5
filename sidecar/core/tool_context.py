"""What a running tool may ask of its session: roots, buffers, edits, permission."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from sidecar.contract.updates import SessionUpdate
    from sidecar.core.file_state import FileReadState
    from sidecar.core.messages import Message
    from sidecar.core.ports import Editor, Tool
    from sidecar.core.settings import Settings
    from sidecar.core.tokens import TokenLedger
    from sidecar.core.window import Thresholds


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
    allowed_always: set[str]
    ledger: TokenLedger
    thresholds: Thresholds

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


class SessionToolContext:
    def __init__(self, session: ToolHost) -> None:
        self._session = session
        self.roots = [Path(session.info.cwd).resolve()]
        self.file_state = session.file_state
        self.settings = session.settings
        self.cancelled: asyncio.Event = session.cancel_event
        self.current_tool_call: dict[str, Any] = {}
        saved = session.results_dir()
        self.readable: list[Path] = [saved] if saved is not None else []
        # The user's skills: the Skill tool points the model at files beside them.
        self.readable.append(Path.home() / ".claude" / "skills")

    async def read_buffer(self, path: Path) -> str | None:
        # Transports whose buffers sit behind a request (ACP fs/read_text_file) read async.
        reader = getattr(self._session.editor, "read_buffer", None)
        if reader is not None:
            return await reader(path)
        return self._session.editor.buffer_text(path)

    async def apply_edit(self, path: Path, new_text: str, label: str) -> bool | None:
        exists = await asyncio.to_thread(path.exists)
        return await self._session.editor.apply_edit(path, new_text, label, exists)

    async def ask_permission(self, tool_name: str, title: str, raw_input: dict[str, Any]) -> str:
        if tool_name in self._session.allowed_always:
            return "allow_always"
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
        if answer == "allow_always":
            self._session.allowed_always.add(tool_name)
        return answer
