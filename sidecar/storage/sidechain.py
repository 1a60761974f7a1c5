"""A subagent's transcript: its records in Claude Code's sidechain form (every one with
``isSidechain: true`` and the ``agentId``, its ``sessionId`` the main session's), in a file
of its own beside the main transcript, as Claude Code stores them
(``<sessionId>/subagents/agent-<agentId>.jsonl``). Its large tool outputs are saved with the
main session's."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from sidecar.core.conversation.messages import Message
from sidecar.storage.paths import check_session_id, sidechain_path


class TranscriptWriter(Protocol):
    """What a sidechain needs of the main transcript writer (``storage.transcript``)."""

    storage_dir: Path

    def results_dir(self, session_id: str, cwd: str) -> Path: ...

    def save_result(self, session_id: str, cwd: str, tool_use_id: str, text: str) -> Path: ...

    def append_at(self, path: Path, messages: list[Message], session_id: str, cwd: str,
                  marks: dict[str, Any] | None = None) -> None: ...

    def close_path(self, path: Path) -> None: ...


class SidechainWriter:
    """A transcript store for one subagent; the session id it is handed (the subagent
    session's own) is not the one its records carry."""

    def __init__(self, writer: TranscriptWriter, session_id: str, agent_id: str) -> None:
        self._writer = writer
        self.session_id = check_session_id(session_id)
        self.agent_id = check_session_id(agent_id)
        self._marks = {"isSidechain": True, "agentId": agent_id}

    def path_for(self, session_id: str, cwd: str) -> Path:
        return sidechain_path(self._writer.storage_dir, cwd, self.session_id, self.agent_id)

    def results_dir(self, session_id: str, cwd: str) -> Path:
        return self._writer.results_dir(self.session_id, cwd)

    def save_result(self, session_id: str, cwd: str, tool_use_id: str, text: str) -> Path:
        return self._writer.save_result(self.session_id, cwd, tool_use_id, text)

    def prepare(self, session_id: str, cwd: str) -> None:
        """Nothing to prepare: the file is new, opened at its first record."""

    def append(self, message: Message, session_id: str, cwd: str) -> None:
        self.append_many([message], session_id, cwd)

    def append_many(self, messages: list[Message], session_id: str, cwd: str) -> None:
        self._writer.append_at(self.path_for(session_id, cwd), messages, self.session_id, cwd,
                               self._marks)

    def append_state(self, session_id: str, cwd: str, **state: Any) -> None:
        """A sidechain keeps no session summary: it is listed as part of its session."""

    def close_session(self, session_id: str, cwd: str) -> None:
        self._writer.close_path(self.path_for(session_id, cwd))

    def close(self) -> None:
        """The main writer closes what is still open."""
