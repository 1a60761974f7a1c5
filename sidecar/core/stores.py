"""Where the sessions are kept: the transcript writer and the prompt history (made on first
use, and anew when the storage directory moves), the archive of stored sessions, and the
health of all three, said to the user."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any, Callable

from sidecar.core.ports import (
    Adapters,
    Editor,
    PromptHistoryStore,
    SessionArchive,
    TranscriptStore,
)
from sidecar.core.settings import Settings, storage_dir
from sidecar.core.storage_health import StorageHealth

log = logging.getLogger(__name__)


class Stores:
    def __init__(self, adapters: Adapters, settings: Callable[[], Settings], editor: Editor) -> None:
        self._adapters = adapters
        self._settings = settings
        self._editor = editor
        self.health = StorageHealth(self._notice)
        self._writer: TranscriptStore | None = None
        self._history: PromptHistoryStore | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        # Per session id, what its transcript's reading skipped: (torn lines, values).
        self.skipped: dict[str, tuple[int, int]] = {}

    @property
    def directory(self) -> Path:
        return storage_dir(self._settings())

    def writer(self) -> TranscriptStore:
        if self._writer is None:
            self._writer = self._adapters.transcripts(self.directory, self.health)
        return self._writer

    def history(self) -> PromptHistoryStore:
        if self._history is None:
            self._history = self._adapters.history(self.directory, self._settings(), self.health)
        return self._history

    def archive(self) -> SessionArchive:
        return self._adapters.archive(self.directory)

    def moved(self) -> None:
        """The storage directory changed: the next write opens the stores there."""
        self._writer = None
        self._history = None

    def remember_loop(self) -> None:
        """Note the event loop, so a writer's worker thread can reach the editor on it."""
        try:
            self._loop = asyncio.get_running_loop()
        except RuntimeError:
            pass

    def _notice(self, level: str, message: str, status: str) -> None:
        """Storage failures and recoveries, for the user. Writers may call from a worker
        thread (the history's flush timer); the editor is only spoken to on the loop."""
        def say() -> None:
            self._editor.show_message(level, message)
            self._editor.status("error" if level == "error" else "normal", False, status)

        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is not None or self._loop is None or self._loop.is_closed():
            say()
        else:
            self._loop.call_soon_threadsafe(say)

    def view(self, session_id: str) -> dict[str, Any]:
        """The ``storage`` section of sidecar/context."""
        lines, values = self.skipped.get(session_id, (0, 0))
        return {"skippedTranscriptLines": lines, "skippedTranscriptValues": values,
                **self.health.snapshot()}

    async def close(self) -> None:
        """Flush and close what was opened; failures are said, not raised."""
        for store in (self._history, self._writer):
            if store is None:
                continue
            try:
                await asyncio.to_thread(store.close)
            except Exception as exc:
                log.error("storage not closed cleanly: %s", exc)
