"""The service's MCP side: one manager per workspace folder, linked to each session opened
in it, its status changes sent to those sessions, and the ``/mcp`` text."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from sidecar.contract.updates import mcp_status_update
from sidecar.core.secrets.held_keys import child_environment
from sidecar.core.workspace.trust import UNTRUSTED, Trust
from sidecar.mcp.announce import McpLink
from sidecar.mcp.approval import REJECTED, RESTRICTED, WAITING, Approvals, Asker
from sidecar.mcp.config import CONFIG_FILE, WORKSPACE_SETTINGS, load_configs
from sidecar.mcp.connection import McpLimits
from sidecar.mcp.manager import McpManager

if TYPE_CHECKING:
    from sidecar.contract.results import McpServer
    from sidecar.core.session import Session
    from sidecar.core.settings import Settings

log = logging.getLogger(__name__)


def limits_of(settings: Settings) -> McpLimits:
    cfg = settings.mcp
    return McpLimits(startup_timeout_s=float(cfg.startupTimeoutSeconds),
                     tool_timeout_s=float(cfg.toolTimeoutSeconds), max_restarts=cfg.maxRestarts,
                     max_message_bytes=cfg.maxMessageBytes,
                     max_tool_definition_percent=cfg.maxToolDefinitionPercent,
                     tool_search=cfg.toolSearch)


def _link(session: Session) -> McpLink | None:
    """The session's link to its servers, which only ``McpWorkspaces.link`` gives."""
    link = session.mcp
    return link if isinstance(link, McpLink) else None


class McpWorkspaces:
    def __init__(self, trust: Callable[[str], Trust] = lambda cwd: UNTRUSTED) -> None:
        self.managers: dict[str, McpManager] = {}
        self._listeners: dict[str, tuple[McpManager, Callable[[], None]]] = {}
        self._sessions: dict[str, Session] = {}
        self._settings: Settings | None = None
        # Re-reading a workspace's configuration after its files changed: one task per
        # folder, run again when they change meanwhile.
        self._reloads: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()
        self.approvals = Approvals(storage=self._storage, trust_all=self._trust_all,
                                   environ=child_environment, home=Path.home, ask=self._asker,
                                   trust=trust)

    # ----- approval of a workspace's own servers ---------------------------------------

    def _storage(self) -> Path:
        from sidecar.core.settings import Settings, storage_dir

        return storage_dir(self._settings or Settings())

    def _trust_all(self) -> bool:
        return bool(self._settings and self._settings.mcp.trustWorkspaceServers)

    @staticmethod
    def _can_ask(session: Session) -> bool:
        return bool(getattr(session.editor, "permission_requests", True))

    def _asker(self, cwd: str) -> Asker | None:
        """Ask through a session of the workspace whose client shows permission requests."""
        session = next((s for s in self._sessions.values()
                        if s.info.cwd == cwd and self._can_ask(s)), None)
        if session is None:
            return None

        async def ask(name: str, tool_call: dict[str, Any], options: list[dict[str, str]]) -> str | None:
            try:
                choice = await session.editor.request_permission(session.id, tool_call, options)
                return choice.option_id
            except Exception as exc:  # the client went away: it stays waiting
                log.warning("asking about the MCP server %s failed: %s", name, exc)
                return None

        return ask

    def link(self, session: Session, *, replaces: bool = False) -> None:
        """Give ``session`` its workspace's servers, connecting them in the background on
        first use; a no-op outside an event loop (nothing can connect there)."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return
        self.unlink(session.id)
        self._sessions[session.id] = session
        self._settings = session.settings
        cwd = session.info.cwd
        manager = self.managers.get(cwd)
        if manager is None:
            manager = McpManager(cwd, session.settings.mcpServers, limits_of(session.settings),
                                 session.settings.mcp.resultMaxChars, child_environment,
                                 approvals=self.approvals, replaces=replaces)
            self.managers[cwd] = manager
        previous = _link(session)
        link = McpLink(manager)
        session.mcp = link
        if previous is not None:
            # What the session's tools array holds now: the next sync replaces or removes it.
            link.sent = dict(previous.sent)
            link.deferral = previous.deferral
            link.instructions = dict(previous.instructions)
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

    # ----- the workspace's configuration files changing ---------------------------------

    def config_files(self, cwd: str) -> list[Path]:
        """Where a workspace configures its servers (watched, existing or not)."""
        return [Path(cwd) / CONFIG_FILE, Path(cwd) / WORKSPACE_SETTINGS]

    def files_changed(self, cwd: str) -> None:
        """The workspace's ``.mcp.json`` (or settings file) was added, changed or removed:
        read it again and, when its servers differ, connect the workspace anew (a new
        server of its own asks for approval; the answers given stand)."""
        if cwd not in self.managers:
            return
        task = self._reloads.get(cwd)
        if task is not None and not task.done():
            self._again.add(cwd)
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._reloads[cwd] = loop.create_task(self._reload(cwd))

    async def _reload(self, cwd: str) -> None:
        while True:
            self._again.discard(cwd)
            try:
                await self._reload_once(cwd)
            except Exception:
                log.exception("reading the MCP servers of %s again failed", cwd)
            if cwd not in self._again:
                return

    async def _reload_once(self, cwd: str) -> None:
        manager = self.managers.get(cwd)
        if manager is None:
            return
        await manager.ready()
        loaded = await asyncio.to_thread(load_configs, cwd, manager.setting, child_environment())
        if self.managers.get(cwd) is not manager:
            return
        if loaded.servers == [c.config for c in manager.connections.values()] and \
                loaded.warnings == manager.warnings:
            return
        log.info("the MCP configuration of %s changed: connecting its servers anew", cwd)
        del self.managers[cwd]
        manager.listeners.clear()
        asyncio.get_running_loop().create_task(manager.aclose())
        sessions = [s for s in self._sessions.values() if s.info.cwd == cwd]
        for session in {id(s): s for s in sessions}.values():
            self.link(session, replaces=True)

    def unlink(self, session_id: str) -> None:
        """Forget a closed session; the last one of a workspace stops its servers."""
        self._sessions.pop(session_id, None)
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
        link = _link(session)
        return link.manager.statuses() if link is not None else []  # type: ignore[return-value]

    def render(self, session: Session) -> str:
        """The ``/mcp`` text: each server, its state, its tools."""
        link = _link(session)
        servers = self.statuses(session)
        warnings = link.manager.warnings if link is not None else []
        if not servers:
            lines = ["No MCP servers are configured. Add them to .mcp.json in the workspace "
                     "(Claude Code's format) or to the mcpServers setting."]
        else:
            lines = ["MCP servers:"]
            offered = {t.name for t in link.offered(session)} if link is not None else set()
            for server in servers:
                tools = server["tools"]
                # Tools left out of the requests (too many definitions) are counted, not listed.
                sent = [n for n in tools if link is None or n in offered]
                lines.append(f"- {server['name']} ({server['transport']}): "
                             f"{server.get('label') or server['status']}")
                if server.get("error") and server.get("state") not in ("waiting", "untrusted"):
                    lines.append(f"  error: {server['error']}")
                if server.get("error"):
                    lines += self._approval_hint(session, server["name"], server["error"])
                lines += [f"  - {name}" for name in sent]
            if link is not None:
                lines.append(f"The model is offered {len(offered)} MCP tool(s) "
                             f"(in its next request).")
        lines += [f"warning: {w}" for w in warnings]
        return "\n".join(lines)

    def _approval_hint(self, session: Session, name: str, error: str) -> list[str]:
        """How to start a workspace server that is held back."""
        if error == WAITING:
            if (session.info.cwd, name) in self.approvals.unasked or not self._can_ask(session):
                why = "this client cannot show permission requests, so it was not asked about"
            else:
                why = "it comes from the workspace, which may run commands of its author's choosing"
            return [f"  {why}. Start it with '/mcp approve {name}' (remembered for this "
                    "workspace), or approve it as in Claude Code (enabledMcpjsonServers in "
                    "~/.claude/settings.json), or trust every workspace's servers with the "
                    "setting mcp.trustWorkspaceServers."]
        if error.startswith(REJECTED):
            return [f"  '/mcp approve {name}' starts it after all."]
        if error == RESTRICTED:
            return ["  The folder is in the editor's Restricted Mode: trust it (in the editor, "
                    "or with /trust) and its servers are judged again."]
        return []

    async def command(self, session: Session, arg: str) -> str:
        """``/mcp approve NAME``, ``/mcp reject NAME`` (answers remembered for the workspace,
        as a permission request's "always" answers are) and ``/mcp retry NAME``."""
        verb, _, name = arg.partition(" ")
        name = name.strip()
        if verb not in ("approve", "reject", "retry") or not name:
            return "Usage: /mcp, /mcp approve NAME, /mcp reject NAME, /mcp retry NAME"
        link = _link(session)
        if link is None or name not in link.manager.connections:
            return f"No MCP server named {name!r} in this workspace."
        return (await self.act(session, name, verb))[1]

    async def act(self, session: Session, name: str, action: str) -> tuple[bool, str]:
        """Approve, reject or retry the server ``name`` of the session's workspace: (done,
        what was done or why not, in words). KeyError when there is no such server."""
        link = _link(session)
        connection = link.manager.connections.get(name) if link is not None else None
        if link is None or connection is None:
            raise KeyError(name)
        await link.manager.ready()
        connection = link.manager.connections.get(name, connection)
        if action == "retry":
            if connection.held is not None:
                return False, f"The MCP server {name!r} is not started: {connection.held}."
            if connection.config.error is not None:
                return False, f"The MCP server {name!r} cannot start: {connection.config.error}"
            await connection.stop()
            connection.release_stopped()
            return True, f"Starting the MCP server {name!r} again."
        if not connection.config.workspace:
            return False, (f"The MCP server {name!r} comes from your mcpServers setting; "
                           "it needs no approval.")
        if connection.held == RESTRICTED:
            return False, (f"The MCP server {name!r} is not used: the folder is not trusted. "
                           "Trust the folder first.")
        option = "allow_always" if action == "approve" else "reject_always"
        await self.approvals.answer(link.manager, connection, option)
        if action == "approve":
            return True, f"Approved the MCP server {name!r} for this workspace; it is starting."
        await connection.stop()
        connection.hold(f"{REJECTED} (your answer, remembered)")
        return True, f"Rejected the MCP server {name!r} for this workspace; it will not be started."

    async def trusted(self, folder: str) -> None:
        """The user trusted ``folder``: the servers of the workspaces in it that were held
        for the editor's Restricted Mode are judged again (started, or asked about as any
        workspace server is)."""
        from sidecar.core.workspace.own_files import inside

        await asyncio.gather(*(self._trusted(cwd, manager) for cwd, manager in list(self.managers.items())
                               if inside(Path(cwd), [Path(folder)])))

    async def _trusted(self, cwd: str, manager: McpManager) -> None:
        await manager.ready()
        held = [c for c in manager.connections.values() if c.held == RESTRICTED]
        if not held:
            return
        verdicts = await asyncio.to_thread(self.approvals.holds, cwd, [c.config for c in held])
        for connection in held:
            why = verdicts.get(connection.config.name)
            if why is None:
                connection.release()
            else:
                connection.hold(why)
        waiting = [c for c in held if c.held == WAITING]
        if waiting:
            await self.approvals.ask_each(manager, waiting)

    async def aclose(self) -> None:
        managers = list(self.managers.values())
        self.managers.clear()
        await asyncio.gather(*(m.aclose() for m in managers), return_exceptions=True)
