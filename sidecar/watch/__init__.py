"""Watching what changes a workspace's context: CLAUDE.md files, git state and skills."""

from sidecar.watch.sources import ChangeSource, ClientWatchSource, WatchfilesSource
from sidecar.watch.stream import ChangeStream
from sidecar.watch.targets import WatchTargets
from sidecar.watch.workspace import WorkspaceWatcher, watch_workspace

__all__ = [
    "ChangeSource",
    "ChangeStream",
    "ClientWatchSource",
    "WatchTargets",
    "WatchfilesSource",
    "WorkspaceWatcher",
    "watch_workspace",
]
