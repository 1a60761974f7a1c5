"""Whether a workspace folder is trusted: one answer for everything a repository ships.

A freshly cloned repository can carry hooks (``.claude/settings.json``), MCP servers
(``.mcp.json``) and a settings file; until the user trusts the folder none of them may run a
command, start a server or loosen a permission. Who says a folder is trusted, the first
that speaks winning:

1. the editor, through its own mechanism (VS Code's Workspace Trust, Neovim's trust
   database), as ``initializationOptions.workspaceTrusted``: ``false`` (VS Code's
   Restricted Mode) holds until the user trusts the folder;
2. the user's own answer through the sidecar (``sidecar/trustWorkspace`` or ``/trust``),
   kept in the sidecar's storage (``trusted-folders.json``), never in the repository;
3. Claude Code's trust dialog, accepted for the folder or a parent
   (``hasTrustDialogAccepted`` in ``~/.claude.json``).

Otherwise the folder is untrusted. A verdict holds for the folder and every folder in it.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from sidecar.core.json_files import write_json
from sidecar.core.workspace.claude_config import workspace_trusted as claude_code_trusted
from sidecar.core.workspace.own_files import read_own_bytes, resolved

if TYPE_CHECKING:
    from sidecar.contract.results import WorkspaceTrusted

log = logging.getLogger(__name__)

TrustSource = Literal["editor", "sidecar", "claude-code", "none"]
RECORD_FILE = "trusted-folders.json"


@dataclass(frozen=True)
class Trust:
    trusted: bool
    source: TrustSource

    def why(self) -> str:
        """The verdict in words, for logs and messages."""
        if self.trusted:
            return {"editor": "trusted by the editor", "sidecar": "trusted with /trust",
                    "claude-code": "trusted in Claude Code"}.get(self.source, "trusted")
        if self.source == "editor":
            return "not trusted by the editor (Restricted Mode)"
        return "not trusted (use /trust to trust it)"


UNTRUSTED = Trust(False, "none")


def _nearest(verdicts: Mapping[str, bool], folder: Path) -> bool | None:
    for candidate in (folder, *folder.parents):
        found = verdicts.get(str(candidate))
        if found is not None:
            return found
    return None


class TrustBook:
    """The verdicts of one sidecar process: the editor's, the user's remembered answers and
    Claude Code's record."""

    def __init__(self, storage: Callable[[], Path], home: Callable[[], Path] = Path.home,
                 environ: Callable[[], Mapping[str, str]] = lambda: os.environ) -> None:
        self._storage = storage
        self._home = home
        self._environ = environ
        self._editor: dict[str, bool] = {}  # resolved folder -> the editor's verdict
        self._granted_now: dict[str, bool] = {}  # trusted by the user during this process
        # Told of each folder the user trusts (the MCP servers held for want of trust).
        self.listeners: list[Callable[[str], Awaitable[None]]] = []

    def set_editor(self, folder: str | Path, trusted: bool) -> None:
        """What the editor says of ``folder`` (and the folders in it)."""
        self._editor[str(resolved(folder))] = trusted

    def record_path(self) -> Path:
        return self._storage() / RECORD_FILE

    def _granted(self) -> dict[str, bool]:
        try:
            data = json.loads(read_own_bytes(self.record_path()))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            log.warning("trusted folders not read from %s: %s", self.record_path(), exc)
            return {}
        folders = data.get("folders") if isinstance(data, dict) else None
        return {f: True for f in folders if isinstance(f, str)} if isinstance(folders, list) else {}

    def of(self, cwd: str | Path) -> Trust:
        """The verdict for ``cwd`` (blocking: reads the records)."""
        folder = resolved(cwd)
        if _nearest(self._granted_now, folder):
            return Trust(True, "sidecar")
        editor = _nearest(self._editor, folder)
        if editor is not None:
            return Trust(editor, "editor")
        if _nearest(self._granted(), folder):
            return Trust(True, "sidecar")
        if claude_code_trusted(Path(cwd), self._home(), self._environ()) or (
                folder != Path(cwd) and claude_code_trusted(folder, self._home(), self._environ())):
            return Trust(True, "claude-code")
        return UNTRUSTED

    def grant(self, cwd: str | Path) -> Trust:
        """The user trusts ``cwd``: remembered in the sidecar's storage, and over an
        editor's Restricted Mode for the rest of this process (blocking: writes the record)."""
        folder = str(resolved(cwd))
        self._granted_now[folder] = True
        folders = sorted({*self._granted(), folder})
        path = self.record_path()
        try:
            write_json(path, {"folders": folders})
        except OSError as exc:
            log.warning("cannot remember the trusted folder in %s: %s", path, exc)
        return self.of(folder)


async def trust_folder(book: TrustBook, cwd: str) -> "WorkspaceTrusted":
    """``sidecar/trustWorkspace`` and ``/trust``: the user trusts ``cwd`` from now on."""
    import asyncio

    trust = await asyncio.to_thread(book.grant, cwd)
    folder = str(resolved(cwd))
    for listener in book.listeners:  # in the background: a server's question may wait long
        asyncio.ensure_future(listener(folder))
    return {"trusted": trust.trusted, "cwd": folder}
