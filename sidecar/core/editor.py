"""The editor port: what the session service needs from whoever drives it.

The LSP and ACP transports implement it; tests and the terminal client can too.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol


class Editor(Protocol):
    def session_update(self, session_id: str, update: dict[str, Any]) -> None:
        """Send a ``session/update`` notification."""

    def status(self, kind: str, busy: bool, message: str) -> None:
        """Global state for a status bar (``sidecar/didChangeStatus``)."""

    def show_message(self, level: str, text: str) -> None:
        """A visible message to the user (warning, error, info)."""

    async def request_permission(
        self, session_id: str, tool_call: dict[str, Any], options: list[dict[str, str]]
    ) -> str:
        """An optionId, or "cancelled"; "reject_once" when the editor cannot ask."""

    async def apply_edit(self, path: Path, new_text: str, label: str, exists: bool) -> bool | None:
        """Apply a whole-file change in the editor; None when the editor cannot apply edits."""

    def buffer_text(self, path: Path) -> str | None:
        """The editor's unsaved content of a file, when it has the file open."""

    async def progress(self, token: str | None, kind: str, title: str, message: str = "",
                       percentage: int | None = None) -> str | None:
        """Work-done progress (begin / report / end); returns the token used, if any."""
