"""What the editor reports of files (buffers opened and changed, files changed on disk),
and the watchers of the workspaces' CLAUDE.md files, git state and MCP configuration, one
per folder."""

from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping

from sidecar.contract.params import (
    DocumentChangeParams,
    DocumentCloseParams,
    DocumentOpenParams,
    FilesChangedParams,
)
from sidecar.core.ports import McpServers, WorkspaceWatcher
from sidecar.core.secrets.redacting import redacting_errors

if TYPE_CHECKING:
    from sidecar.core.session import Session
    from sidecar.core.workspace.prefix import PrefixStore

log = logging.getLogger(__name__)


@redacting_errors
class EditorReports:
    def __init__(self, sessions: Mapping[str, Session],
                 watcher: Callable[[PrefixStore], WorkspaceWatcher] | None,
                 environ: Mapping[str, str], mcp: McpServers | None = None) -> None:
        self._sessions = sessions
        self._mcp = mcp
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
        """Watch the workspace's CLAUDE.md files, git state and MCP configuration files (one
        watcher per folder)."""
        make = self._make_watcher
        if cwd in self.watchers or prefix is None or make is None or \
                self._environ.get("CONTEXT_SIDECAR_NO_WATCH"):
            return
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return
        mcp = self._mcp
        watcher = make(prefix if mcp is None else AlsoMcpFiles(prefix, cwd, mcp))  # type: ignore[arg-type]
        self.watchers[cwd] = watcher
        asyncio.ensure_future(watcher.start())

    async def stop(self) -> None:
        for watcher in self.watchers.values():
            try:
                await watcher.stop()
            except Exception as exc:
                log.debug("watcher stop failed: %s", exc)


class AlsoMcpFiles:
    """A prefix store's watched paths and its changes, plus the workspace's MCP configuration
    files: a change of one of those makes the workspace's servers read it again."""

    def __init__(self, store: Any, cwd: str, mcp: McpServers) -> None:
        self.store = store
        self.cwd = cwd
        self.mcp = mcp
        self.files = [Path(os.path.abspath(p)) for p in mcp.config_files(cwd)]

    def watch_paths(self) -> list[Path]:
        return list(dict.fromkeys([*self.store.watch_paths(), *self.files]))

    def on_change(self, paths: set[Path]) -> None:
        self.store.on_change(paths)
        if any(Path(os.path.abspath(p)) in self.files for p in paths):
            self.mcp.files_changed(self.cwd)

    def settle(self) -> None:
        self.store.settle()
