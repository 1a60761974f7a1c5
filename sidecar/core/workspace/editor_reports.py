"""What the editor reports of files (buffers opened and changed, files changed on disk),
and the watchers of the workspaces' CLAUDE.md files and git state, one per folder."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping

from sidecar.contract.params import (
    DocumentChangeParams,
    DocumentCloseParams,
    DocumentOpenParams,
    FilesChangedParams,
)
from sidecar.core.ports import WorkspaceWatcher
from sidecar.core.secrets.redacting import redacting_errors

if TYPE_CHECKING:
    from sidecar.core.session import Session
    from sidecar.core.workspace.prefix import PrefixStore

log = logging.getLogger(__name__)


@redacting_errors
class EditorReports:
    def __init__(self, sessions: Mapping[str, Session],
                 watcher: Callable[[PrefixStore], WorkspaceWatcher] | None,
                 environ: Mapping[str, str]) -> None:
        self._sessions = sessions
        self._make_watcher = watcher
        self._environ = environ
        self.watchers: dict[str, WorkspaceWatcher] = {}  # one per workspace folder

    def document_opened(self, p: DocumentOpenParams) -> None:
        """The editor holds ``text`` for the file now: where a session read other text, its
        read is stale (the same text, such as the echo of the sidecar's own edit, is not)."""
        self._buffer_changed(p.path, p.text)

    def document_changed(self, p: DocumentChangeParams) -> None:
        """An edit in the editor; without the whole text (a ranged edit) it always counts."""
        self._buffer_changed(p.path, p.whole_text)

    def document_closed(self, p: DocumentCloseParams) -> None:
        """Nothing a session holds depends on the open buffer: the next read takes the text
        from the disk and compares its digest with the one recorded."""

    def files_changed(self, p: FilesChangedParams) -> None:
        """Changes the editor's file watcher reports join the watchers' own stream."""
        for watcher in self.watchers.values():
            watcher.feed(list(p.paths))

    def _buffer_changed(self, path: Path, text: str | None) -> None:
        for session in self._sessions.values():
            session.file_state.mark_stale(path, text)

    def watch(self, cwd: str, prefix: Any) -> None:
        """Watch the workspace's CLAUDE.md files and git state (one watcher per folder)."""
        make = self._make_watcher
        if cwd in self.watchers or prefix is None or make is None or \
                self._environ.get("CONTEXT_SIDECAR_NO_WATCH"):
            return
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return
        watcher = make(prefix)
        self.watchers[cwd] = watcher
        asyncio.ensure_future(watcher.start())

    async def stop(self) -> None:
        for watcher in self.watchers.values():
            try:
                await watcher.stop()
            except Exception as exc:
                log.debug("watcher stop failed: %s", exc)
