"""The params of every request and client notification, as the session service takes them.

Field names are snake_case here and camelCase on the wire (``decoding.wire_name``); the
kinds say what the decoder accepts.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sidecar.contract.content import PROMPT, ContentBlock
from sidecar.contract.decoding import (
    ABSOLUTE_PATH,
    MCP_ACTION,
    ARRAY,
    BOOLEAN,
    FILE_EVENTS,
    NONEMPTY_TEXT,
    POSITIVE_INTEGER,
    PROGRESS_TOKEN,
    RESTORE,
    TEXT,
    wire,
)
from sidecar.contract.results import McpServerAction
from sidecar.contract.uris import uri_to_path

# ----- requests ------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class NewSessionParams:
    cwd: str = wire(ABSOLUTE_PATH, required=True)
    model: str | None = wire(TEXT)
    provider: str | None = wire(TEXT)
    title: str | None = wire(TEXT)


@dataclass(frozen=True, kw_only=True)
class TrustWorkspaceParams:
    # The folder the user trusts (over LSP, the workspace root when not given).
    cwd: str = wire(ABSOLUTE_PATH, required=True)


@dataclass(frozen=True, kw_only=True)
class McpActionParams:
    session_id: str = wire(NONEMPTY_TEXT, required=True)
    # A server of the session's workspace, as its McpServer names it.
    server: str = wire(NONEMPTY_TEXT, required=True)
    # approve (remembered for the workspace), reject (remembered), retry.
    action: McpServerAction = wire(MCP_ACTION, required=True)


@dataclass(frozen=True, kw_only=True)
class LoadSessionParams:
    # A stored session's id, or the absolute path of a transcript file.
    session_id: str = wire(NONEMPTY_TEXT, required=True)
    # The workspace, for a transcript that names no usable one.
    cwd: str | None = wire(ABSOLUTE_PATH)


@dataclass(frozen=True, kw_only=True)
class ListSessionsParams:
    cwd: str | None = wire(TEXT)


@dataclass(frozen=True, kw_only=True)
class SessionParams:
    """Params that name a session and nothing else (close, delete, gauge, context, cancel)."""

    session_id: str = wire(NONEMPTY_TEXT, required=True)


@dataclass(frozen=True, kw_only=True)
class PromptParams:
    session_id: str = wire(NONEMPTY_TEXT, required=True)
    prompt: list[ContentBlock] = wire(PROMPT, required=True)


@dataclass(frozen=True, kw_only=True)
class SetModelParams:
    session_id: str = wire(NONEMPTY_TEXT, required=True)
    model: str = wire(NONEMPTY_TEXT, required=True)
    provider: str | None = wire(TEXT)


@dataclass(frozen=True, kw_only=True)
class SetModeParams:
    session_id: str = wire(NONEMPTY_TEXT, required=True)
    # One of the ids in the session's ``modes.availableModes``.
    mode_id: str = wire(NONEMPTY_TEXT, required=True)


@dataclass(frozen=True, kw_only=True)
class SetTitleParams:
    session_id: str = wire(NONEMPTY_TEXT, required=True)
    # What session/list and the clients show; surrounding space is dropped.
    title: str = wire(NONEMPTY_TEXT, required=True)


@dataclass(frozen=True, kw_only=True)
class CompactParams:
    session_id: str = wire(NONEMPTY_TEXT, required=True)
    instructions: str | None = wire(TEXT)
    # The client's work-done progress token (LSP), reported on instead of one of our own.
    work_done_token: str | int | None = wire(PROGRESS_TOKEN)
    # "Summarize from here": keep what came before this checkpoint's prompt verbatim.
    from_checkpoint_id: str | None = wire(NONEMPTY_TEXT)


@dataclass(frozen=True, kw_only=True)
class RewindParams:
    session_id: str = wire(NONEMPTY_TEXT, required=True)
    checkpoint_id: str = wire(NONEMPTY_TEXT, required=True)
    restore: str = wire(RESTORE, required=True)  # both, conversation, code
    preview: bool = wire(BOOLEAN)  # say what would change, change nothing
    force: bool = wire(BOOLEAN)  # restore files someone else changed since, too


@dataclass(frozen=True, kw_only=True)
class ForkParams:
    session_id: str = wire(NONEMPTY_TEXT, required=True)
    checkpoint_id: str | None = wire(NONEMPTY_TEXT)  # None: all of the conversation
    title: str | None = wire(TEXT)


@dataclass(frozen=True, kw_only=True)
class HistoryListParams:
    limit: int | None = wire(POSITIVE_INTEGER)
    project: str | None = wire(TEXT)


@dataclass(frozen=True, kw_only=True)
class NoParams:
    """A request without params (an object, when sent, is ignored)."""


# ----- notifications -------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class DocumentOpenParams:
    uri: str = wire(NONEMPTY_TEXT, required=True)
    text: str = wire(TEXT, required=True)

    @property
    def path(self) -> Path:
        return uri_to_path(self.uri)


@dataclass(frozen=True, kw_only=True)
class DocumentChangeParams:
    uri: str = wire(NONEMPTY_TEXT, required=True)
    # LSP's TextDocumentContentChangeEvent: {text} for the whole text, {range, text} for a part.
    content_changes: list[Any] = wire(ARRAY, required=True)

    @property
    def path(self) -> Path:
        return uri_to_path(self.uri)

    @property
    def whole_text(self) -> str | None:
        """The buffer's text after the change, when the last change sent it whole."""
        last = self.content_changes[-1] if self.content_changes else None
        if isinstance(last, dict) and last.get("range") is None and isinstance(last.get("text"), str):
            return str(last["text"])
        return None


@dataclass(frozen=True, kw_only=True)
class DocumentCloseParams:
    uri: str = wire(NONEMPTY_TEXT, required=True)

    @property
    def path(self) -> Path:
        return uri_to_path(self.uri)


@dataclass(frozen=True, kw_only=True)
class FilesChangedParams:
    # LSP's FileEvent: {uri, type (1 created, 2 changed, 3 deleted)}.
    changes: list[dict[str, Any]] = wire(FILE_EVENTS, required=True)

    @property
    def paths(self) -> set[Path]:
        return {uri_to_path(change["uri"]) for change in self.changes}
