"""Asking the user before a workspace's own MCP server starts, and remembering the answer.

One ``Approvals`` serves every workspace of the sidecar. When a workspace's servers are read,
``holds`` says which may not start yet and why (``sidecar.mcp.trust`` decides from Claude
Code's settings and the remembered answers); the waiting ones are then asked about one at a
time with ``session/request_permission``, in a task of their own, so no session/new and no
turn waits for the answer. Each server is asked about once per sidecar run: a dismissed
question is not asked again (``/mcp approve NAME`` starts it).
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Mapping, Protocol

from sidecar.core.workspace.trust import UNTRUSTED, Trust
from sidecar.mcp.config import ServerConfig
from sidecar.mcp.trust import (
    ApprovalStore,
    Verdict,
    claude_code_verdicts,
    command_line,
    fingerprint,
)

if TYPE_CHECKING:
    from sidecar.mcp.connection import ServerConnection


class ServerSet(Protocol):
    """What asking needs of a workspace's servers (the manager implements it)."""

    cwd: str

    def changed(self) -> None:
        """A server's state changed: tell the sessions."""


log = logging.getLogger(__name__)

WAITING = "waiting for approval"
RESTRICTED = ("not started: the folder is in the editor's Restricted Mode (trust the folder "
              "to start its own servers)")
REJECTED = "not started: rejected for this workspace"
OPTIONS: list[dict[str, str]] = [
    {"optionId": "allow_always", "name": "Yes, and remember for this workspace",
     "kind": "allow_always"},
    {"optionId": "allow_once", "name": "Yes, for now", "kind": "allow_once"},
    {"optionId": "reject_once", "name": "No, not now", "kind": "reject_once"},
    {"optionId": "reject_always", "name": "No, and don't ask again", "kind": "reject_always"},
]
# Who to ask: the question goes through a session of the workspace whose client shows
# permission requests; None when there is none.
Asker = Callable[[str, dict[str, Any], list[dict[str, str]]], Awaitable[str | None]]


def where_from(config: ServerConfig) -> str:
    """The file a workspace server comes from, as the user knows it."""
    return ".mcp.json" if config.source.endswith(".mcp.json") else ".context-sidecar/settings.json"


def question(config: ServerConfig) -> dict[str, Any]:
    """The ``toolCall`` of the request."""
    return {"toolCallId": f"mcp-approval-{uuid.uuid4().hex[:12]}",
            "title": f"Start the MCP server '{config.name}' from {where_from(config)}?",
            "kind": "other", "status": "pending",
            "content": [{"type": "content",
                         "content": {"type": "text", "text": command_line(config)}}],
            "rawInput": {"server": config.name, "source": config.source}}


class Approvals:
    def __init__(self, storage: Callable[[], Path], trust_all: Callable[[], bool],
                 environ: Callable[[], Mapping[str, str]], home: Callable[[], Path],
                 ask: Callable[[str], Asker | None],
                 trust: Callable[[str], Trust] = lambda cwd: UNTRUSTED) -> None:
        self._storage = storage
        self._trust = trust  # the folder's verdict (blocking)
        self._trust_all = trust_all
        self._environ = environ
        self._home = home
        self._ask = ask  # cwd -> how to ask there, or None
        # Answers for this run only, and the servers asked about already:
        # (cwd, name) -> (verdict, fingerprint).
        self.run: dict[tuple[str, str], tuple[Verdict, str]] = {}
        self.asked: set[tuple[str, str, str]] = set()
        # Servers that wait because no client could be asked: (cwd, name).
        self.unasked: set[tuple[str, str]] = set()

    def store(self, cwd: str) -> ApprovalStore:
        return ApprovalStore(self._storage(), cwd)

    def holds(self, cwd: str, servers: list[ServerConfig]) -> dict[str, str]:
        """Each workspace server that may not start yet, with why (blocking: reads files)."""
        own = [c for c in servers if c.workspace and c.error is None]
        if not own:
            return {}
        trust = self._trust(cwd)
        if not trust.trusted and trust.source == "editor":
            return {c.name: RESTRICTED for c in own}  # not even asked about
        if self._trust_all():
            return {}
        claude = claude_code_verdicts(cwd, [c.name for c in own], self._home(), self._environ(),
                                      trust.trusted)
        store = self.store(cwd)
        out: dict[str, str] = {}
        for config in own:
            run = self.run.get((cwd, config.name))
            if run is not None and run[1] == fingerprint(config):
                verdict: Verdict = run[0]
                why = "your answer for this run"
            elif claude[config.name][0] == "rejected":
                verdict, why = claude[config.name]
            else:
                verdict = store.verdict(config)
                why = f"your answer, remembered in {store.path}"
                if verdict == "pending" and claude[config.name][0] == "approved":
                    verdict, why = claude[config.name]
            if verdict == "rejected":
                out[config.name] = f"{REJECTED} ({why})"
            elif verdict == "pending":
                out[config.name] = WAITING
        return out

    async def ask_each(self, manager: ServerSet, waiting: list[ServerConnection]) -> None:
        """Ask about each waiting server in turn (the manager's own task)."""
        for connection in waiting:
            config = connection.config
            key = (manager.cwd, config.name, fingerprint(config))
            if key in self.asked or connection.held != WAITING:
                continue
            asker = self._ask(manager.cwd)
            if asker is None:
                self.unasked.add((manager.cwd, config.name))
                manager.changed()
                continue
            self.asked.add(key)
            self.unasked.discard((manager.cwd, config.name))
            answer = await asker(config.name, question(config), OPTIONS)
            if connection.held != WAITING:
                continue  # decided meanwhile (the client's MCP list): the answer is moot
            if answer is None:
                self.asked.discard(key)
                self.unasked.add((manager.cwd, config.name))
                manager.changed()
                continue
            await self.answer(manager, connection, answer)

    async def answer(self, manager: ServerSet, connection: ServerConnection, option: str) -> None:
        """Act on the user's choice: start, or keep off; remember it as asked."""
        config = connection.config
        verdict: Verdict = "approved" if option.startswith("allow") else \
            "rejected" if option.startswith("reject") else "pending"
        if verdict == "pending":  # dismissed: stays waiting, not asked again this run
            return
        if option.endswith("always"):
            await asyncio.to_thread(self.store(manager.cwd).remember, config, verdict)
        self.run[(manager.cwd, config.name)] = (verdict, fingerprint(config))
        if verdict == "approved":
            connection.release()
        else:
            why = ("your answer, remembered" if option.endswith("always")
                   else "your answer for this run")
            connection.hold(f"{REJECTED} ({why})")
