"""The composition root: which adapter stands behind each port of the engine.

Both transports, the terminal client and the demo build their session service from
``default_adapters()``; replay replaces the pieces it plays back. Adapters are imported when
first used, so choosing them costs nothing at start-up (the SDKs take seconds to import).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Callable

from sidecar.core.checkpoints.ports import FileHistory
from sidecar.core.ports import (
    Adapters,
    McpServers,
    PromptHistoryStore,
    Provider,
    SessionArchive,
    Tool,
    TranscriptStore,
    WorkspaceWatcher,
)
from sidecar.core.server_tool_offers import Described, ServerToolOffer
from sidecar.core.settings import Settings
from sidecar.core.storage_health import StorageHealth
from sidecar.core.workspace.prefix import PrefixStore, prefix_for
from sidecar.core.workspace.trust import Trust


def provider(settings: Settings, environ: Mapping[str, str]) -> Provider:
    from sidecar.providers.registry import make_provider

    return make_provider(settings, environ)


def tools(settings: Settings) -> list[Tool]:
    from sidecar.tools.registry import default_tools

    return list(default_tools(settings))


def transcripts(storage_dir: Path, health: StorageHealth) -> TranscriptStore:
    from sidecar.storage.transcript import TranscriptWriter

    return TranscriptWriter(storage_dir, health=health)


def history(storage_dir: Path, settings: Settings, health: StorageHealth) -> PromptHistoryStore:
    from sidecar.storage.history import PromptHistory

    h = settings.history
    return PromptHistory(storage_dir, max_items=h.maxItems,
                         max_pasted_content_length=h.maxPastedContentLength, health=health)


def archive(storage_dir: Path) -> SessionArchive:
    from sidecar.storage.archive import TranscriptArchive

    return TranscriptArchive(storage_dir)


def watcher(store: PrefixStore) -> WorkspaceWatcher:
    from sidecar.watch.workspace import watch_workspace

    return watch_workspace(store)


def mcp(trust: Callable[[str], Trust]) -> McpServers:
    from sidecar.mcp.workspaces import McpWorkspaces

    return McpWorkspaces(trust=trust)


def file_history(storage_dir: Path, cwd: str) -> FileHistory:
    from sidecar.storage.file_history import FileHistoryStore

    return FileHistoryStore(storage_dir, cwd)


def server_tools(settings: Settings, provider: str,
                 described: Described | None) -> list[ServerToolOffer]:
    from sidecar.tools.web import web_offers

    return web_offers(settings, provider, described)


def default_adapters() -> Adapters:
    return Adapters(provider=provider, tools=tools, transcripts=transcripts, history=history,
                    archive=archive, prefix=prefix_for, watcher=watcher, mcp=mcp,
                    file_history=file_history, server_tools=server_tools)
