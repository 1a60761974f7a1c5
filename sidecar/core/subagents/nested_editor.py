"""What a subagent's session says to the editor: only its tool calls and their permission
requests, and those go to the main session, marked with the Task call they belong to
(``_meta.sidecar.parentToolCallId``), so a client never takes them for the main
conversation's own calls. Its answer text, thoughts, gauge and status stay inside: the main
conversation sees its report, as the Task call's result."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

from sidecar.contract.updates import SessionUpdate
from sidecar.core.permissions.choice import PermissionChoice
from sidecar.core.ports import Editor

# The updates of a subagent that reach the client.
FORWARDED = frozenset({"tool_call", "tool_call_update"})


def nested(payload: dict[str, Any], parent_tool_call_id: str) -> dict[str, Any]:
    """``payload`` with ``_meta.sidecar.parentToolCallId`` naming the Task call."""
    meta = dict(payload.get("_meta") or {})
    meta["sidecar"] = {**dict(meta.get("sidecar") or {}), "parentToolCallId": parent_tool_call_id}
    return {**payload, "_meta": meta}


class NestedEditor:
    def __init__(self, editor: Editor, session_id: str, parent_tool_call_id: str) -> None:
        self._editor = editor
        self._session_id = session_id  # the main session's
        self._parent = parent_tool_call_id
        # An editor that cannot show permission requests cannot for a subagent either.
        self.permission_requests = bool(getattr(editor, "permission_requests", True))

    def session_update(self, session_id: str, update: SessionUpdate) -> None:
        if update.get("sessionUpdate") in FORWARDED:
            self._editor.session_update(
                self._session_id, cast(SessionUpdate, nested(dict(update), self._parent)))

    def status(self, kind: str, busy: bool, message: str) -> None:
        """The main turn's status stands for its subagents'."""

    def show_message(self, level: str, text: str) -> None:
        self._editor.show_message(level, f"Subagent: {text}")

    async def request_permission(self, session_id: str, tool_call: dict[str, Any],
                                 options: list[dict[str, str]]) -> PermissionChoice:
        return await self._editor.request_permission(
            self._session_id, nested(tool_call, self._parent), options)

    async def apply_edit(self, path: Path, new_text: str, label: str, exists: bool) -> bool | None:
        return await self._editor.apply_edit(path, new_text, label, exists)

    def buffer_text(self, path: Path) -> str | None:
        return self._editor.buffer_text(path)

    async def read_buffer(self, path: Path) -> str | None:
        reader = getattr(self._editor, "read_buffer", None)
        if reader is not None:
            return cast("str | None", await reader(path))
        return self._editor.buffer_text(path)

    async def progress(self, token: str | None, kind: str, title: str, message: str = "",
                       percentage: int | None = None) -> str | None:
        return None
