"""The service's MCP side: one manager per workspace folder, linked to each session opened
in it, its status changes sent to those sessions, and the ``/mcp`` text."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Callable

from sidecar.contract.updates import mcp_status_update
from sidecar.credentials import child_environment
from sidecar.mcp.announce import McpLink
from sidecar.mcp.connection import McpLimits
from sidecar.mcp.manager import McpManager

if TYPE_CHECKING:
    from sidecar.contract.results import McpServer
    from sidecar.core.session import Session
    from sidecar.core.settings import Settings


def limits_of(settings: Settings) -> McpLimits:
    cfg = settings.mcp
    return McpLimits(startup_timeout_s=float(cfg.startupTimeoutSeconds),
                     tool_timeout_s=float(cfg.toolTimeoutSeconds), max_restarts=cfg.maxRestarts)


class McpWorkspaces:
    def __init__(self) -> None:
        self.managers: dict[str, McpManager] = {}
        self._listeners: dict[str, tuple[McpManager, Callable[[], None]]] = {}

    def link(self, session: Session, *, replaces: bool = False) -> None:
        """Give ``session`` its workspace's servers, connecting them in the background on
        first use; a no-op outside an event loop (nothing can connect there)."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return
        self.unlink(session.id)
        cwd = session.info.cwd
        manager = self.managers.get(cwd)
        if manager is None:
            manager = McpManager(cwd, session.settings.mcpServers, limits_of(session.settings),
                                 session.settings.mcp.resultMaxChars, child_environment,
                                 replaces=replaces)
            self.managers[cwd] = manager
        previous = session.mcp
        session.mcp = McpLink(manager)
        if previous is not None:
            # What the session's tools array holds now: the next sync replaces or removes it.
            session.mcp.sent = dict(previous.sent)
            session.mcp.instructions = dict(previous.instructions)
        sid = session.id

        def changed() -> None:
            session.update(mcp_status_update(self.statuses(session)))

        manager.listeners.append(changed)
        self._listeners[sid] = (manager, changed)
        manager.start()

    def reconfigure(self, sessions: list[Session]) -> None:
        """The servers' settings changed: stop every server and connect the sessions'
        workspaces anew; their tool sets follow at their next turn."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        old = list(self.managers.values())
        self.managers.clear()
        for manager in old:
            manager.listeners.clear()
            loop.create_task(manager.aclose())
        for session in {id(s): s for s in sessions}.values():  # a loaded session may have two ids
            self.link(session, replaces=True)

    def unlink(self, session_id: str) -> None:
        """Forget a closed session; the last one of a workspace stops its servers."""
        manager, listener = self._listeners.pop(session_id, (None, None))
        if manager is None:
            return
        if listener in manager.listeners:
            manager.listeners.remove(listener)
        if manager.listeners or self.managers.get(manager.cwd) is not manager:
            return
        del self.managers[manager.cwd]
        try:
            asyncio.get_running_loop().create_task(manager.aclose())
        except RuntimeError:
            pass

    def statuses(self, session: Session) -> list[McpServer]:
        link = session.mcp
        return link.manager.statuses() if link is not None else []  # type: ignore[return-value]

    def render(self, session: Session) -> str:
        """The ``/mcp`` text: each server, its state, its tools."""
        link = session.mcp
        servers = self.statuses(session)
        warnings = link.manager.warnings if link is not None else []
        if not servers:
            lines = ["No MCP servers are configured. Add them to .mcp.json in the workspace "
                     "(Claude Code's format) or to the mcpServers setting."]
        else:
            lines = ["MCP servers:"]
            for server in servers:
                tools = server["tools"]
                lines.append(f"- {server['name']} ({server['transport']}): {server['status']}, "
                             f"{len(tools)} tool{'s' if len(tools) != 1 else ''}")
                if server.get("error"):
                    lines.append(f"  error: {server['error']}")
                lines += [f"  - {name}" for name in tools]
            if link is not None:
                offered = sum(1 for t in session.tools if t.name in link.sent)
                lines.append(f"The model is offered {offered} MCP tool(s); changes since the "
                             "last request reach it with the next one.")
        lines += [f"warning: {w}" for w in warnings]
        return "\n".join(lines)

    async def aclose(self) -> None:
        managers = list(self.managers.values())
        self.managers.clear()
        await asyncio.gather(*(m.aclose() for m in managers), return_exceptions=True)
