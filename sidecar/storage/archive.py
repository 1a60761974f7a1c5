"""The stored sessions of a storage folder, as the engine's ``SessionArchive`` port."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from sidecar.storage.session_index import (
    SessionSummary,
    delete_session,
    find_session,
    list_sessions,
    retitle_session,
)
from sidecar.storage.transcript_loader import LoadedTranscript, load_transcript


class TranscriptArchive:
    def __init__(self, storage_dir: Path) -> None:
        self.storage_dir = storage_dir

    def find(self, session_id: str) -> Path | None:
        return find_session(self.storage_dir, session_id)

    def list(self, cwd: str | None) -> Sequence[SessionSummary]:
        return list_sessions(self.storage_dir, cwd)

    def read(self, path: Path) -> LoadedTranscript:
        return load_transcript(path)

    def delete(self, session_id: str) -> bool:
        """Remove the transcript and its side folder; False when there is none."""
        return delete_session(self.storage_dir, session_id)

    def retitle(self, session_id: str, title: str) -> bool:
        """Store a new title for a session; False when there is none."""
        return retitle_session(self.storage_dir, session_id, title)
