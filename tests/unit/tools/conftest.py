"""A ToolContext standing in for a session: buffers, applied edits and permission answers
are plain fields the tests set and inspect."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from sidecar.core.conversation.file_state import FileReadState
from sidecar.core.permissions.choice import PermissionChoice
from sidecar.core.secrets.redaction import forget_secrets
from sidecar.core.session_resources import Kept, SessionResources
from sidecar.core.settings import Settings, Tools


@pytest.fixture(autouse=True)
def no_held_keys() -> Iterator[None]:
    """Tool output is redacted of held keys process-wide; a key another test registered
    must not rewrite what these tests compare."""
    forget_secrets()
    yield
    forget_secrets()


@dataclass
class FakeContext:
    roots: list[Path]
    file_state: FileReadState = field(default_factory=FileReadState)
    cancelled: asyncio.Event = field(default_factory=asyncio.Event)
    settings: Settings = field(default_factory=Settings)
    readable: list[Path] = field(default_factory=list)
    buffers: dict[Path, str] = field(default_factory=dict)
    edits: list[tuple[Path, str, str]] = field(default_factory=list)
    apply_ok: bool = True
    permission: str = "allow_once"
    reason: str | None = None  # what the user says with a rejection
    asked: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)
    writable: list[Path] = field(default_factory=list)
    must_ask: bool = True
    reviewed: list[tuple[Path, str | None, str]] = field(default_factory=list)
    # (before|after, path) of each change the edit tools announced (for a rewind).
    changes: list[tuple[str, Path]] = field(default_factory=list)
    # What the tools keep for the session (background shells); a test closes them.
    resources: SessionResources = field(default_factory=SessionResources)

    async def read_buffer(self, path: Path) -> str | None:
        return self.buffers.get(path)

    async def apply_edit(self, path: Path, new_text: str, label: str) -> bool:
        self.edits.append((path, new_text, label))
        if not self.apply_ok:
            return False
        # Like a session without editor applyEdit support: write the file itself.
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(new_text, encoding="utf-8", newline="")
        self.buffers.pop(path, None)
        return True

    async def ask_permission(self, tool_name: str, title: str,
                             raw_input: dict[str, Any]) -> PermissionChoice:
        self.asked.append((tool_name, title, raw_input))
        return PermissionChoice(self.permission, self.reason)

    async def before_change(self, path: Path) -> None:
        self.changes.append(("before", path))

    async def after_change(self, path: Path) -> None:
        self.changes.append(("after", path))

    async def review_edit(self, path: Path, old_text: str | None, new_text: str) -> PermissionChoice:
        self.reviewed.append((path, old_text, new_text))
        return PermissionChoice(self.permission, self.reason)

    def resource(self, kind: type[Kept]) -> Kept:
        return self.resources.get(kind)

    def with_tools(self, **changes: Any) -> FakeContext:
        tools: Tools = dataclasses.replace(self.settings.tools, **changes)
        self.settings = dataclasses.replace(self.settings, tools=tools)
        return self


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    return root


@pytest.fixture
def ctx(ws: Path) -> FakeContext:
    return FakeContext(roots=[ws])
