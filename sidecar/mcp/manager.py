"""The MCP servers of one workspace folder, shared by its sessions.

``start`` runs in the background when a session opens (never on the start-up path): it reads
the configuration and imports the SDK in a worker thread, then starts every server. Each
status change is told to the listeners (the sessions' ``mcp_status_update``).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
from typing import Any, Callable, Mapping

from sidecar.mcp.approval import WAITING, Approvals
from sidecar.mcp.config import load_configs
from sidecar.mcp.connection import McpLimits, ServerConnection
from sidecar.mcp.names import tool_name
from sidecar.mcp.tool import McpTool
from sidecar.mcp.words import actions, label, state_of

log = logging.getLogger(__name__)


def _import_sdk() -> None:
    import mcp.client.session  # noqa: F401
    import mcp.client.stdio  # noqa: F401
    import mcp.client.streamable_http  # noqa: F401


class McpManager:
    def __init__(self, cwd: str, servers_setting: Mapping[str, Any], limits: McpLimits,
                 result_max_chars: int, environ: Callable[[], dict[str, str]],
                 *, approvals: Approvals | None = None, replaces: bool = False) -> None:
        self.cwd = cwd
        self.approvals = approvals
        self._setting = dict(servers_setting)
        self.limits = limits
        self.result_max_chars = result_max_chars
        self._environ = environ
        self.connections: dict[str, ServerConnection] = {}
        self.warnings: list[str] = []
        self.listeners: list[Callable[[], None]] = []
        self._started: asyncio.Task[None] | None = None
        self._asking: asyncio.Task[None] | None = None
        self._tools: dict[tuple[str, str], McpTool] = {}
        # It replaces a manager whose servers were announced: say so even with none.
        self._replaces = replaces
        # Server -> why some of its tools are not sent (the last session's fitting), and
        # the notes already shown as a warning.
        self.left_out: dict[str, str] = {}
        self.left_out_counts: dict[str, int] = {}  # server -> how many of its tools
        self._warned: set[str] = set()

    def start(self) -> None:
        """Connect in the background (idempotent)."""
        if self._started is None:
            # A fresh context: the servers outlive the request that opened the session, and
            # must not inherit what that request's context holds (ACP holds back the updates
            # of a session/new until its answer is sent: a status sent later would be lost).
            self._started = asyncio.get_running_loop().create_task(
                self._start(), context=contextvars.Context())

    async def _start(self) -> None:
        loaded = await asyncio.to_thread(load_configs, self.cwd, self._setting, self._environ())
        self.warnings = loaded.warnings
        for warning in loaded.warnings:
            log.warning("%s", warning)
        if not loaded.servers:
            if self._replaces:
                self._changed()
            return
        held: dict[str, str] = {}
        if self.approvals is not None:
            held = await asyncio.to_thread(self.approvals.holds, self.cwd, loaded.servers)
        for config in loaded.servers:
            connection = ServerConnection(config, self.limits, self.cwd, self._environ,
                                          self._changed)
            if config.name in held:
                connection.held = held[config.name]
                connection.status, connection.error = "failed", held[config.name]
            self.connections[config.name] = connection
        self._changed()
        await asyncio.to_thread(_import_sdk)
        for connection in self.connections.values():
            connection.start()
        waiting = [c for c in self.connections.values() if c.held == WAITING]
        if waiting and self.approvals is not None:
            # Its own task: an unanswered question holds up nothing else.
            self._asking = asyncio.get_running_loop().create_task(
                self.approvals.ask_each(self, waiting), context=contextvars.Context())

    @property
    def setting(self) -> Mapping[str, Any]:
        """The user's ``mcpServers`` setting it was made with."""
        return self._setting

    async def ready(self) -> None:
        """The configuration has been read and every approved server started (not
        connected)."""
        if self._started is not None:
            await asyncio.shield(self._started)

    def changed(self) -> None:
        """Tell the listeners the servers' state changed."""
        self._changed()

    def _changed(self) -> None:
        for listener in list(self.listeners):
            try:
                listener()
            except Exception:  # a listener's bug must not stop the supervisor
                log.exception("MCP status listener failed")

    def statuses(self) -> list[dict[str, Any]]:
        """``mcpServers`` of sidecar/context and of ``mcp_status_update``."""
        out: list[dict[str, Any]] = []
        tools = self.tools()
        for conn in self.connections.values():
            name = conn.config.name
            names = [t.name for t in tools if t.server is conn]
            offered = len(names) - self.left_out_counts.get(name, 0)
            state = state_of(conn.status, conn.held)
            entry: dict[str, Any] = {
                "name": name, "status": conn.status, "transport": conn.config.transport,
                "tools": names, "state": state, "offered": offered,
                "label": label(state, error=conn.error, tools=len(names), offered=offered),
                "actions": actions(state, can_start=conn.config.error is None),
                "workspace": conn.config.workspace}
            error = "; ".join(e for e in (conn.error, self.left_out.get(name)) if e)
            if error:
                entry["error"] = error
            out.append(entry)
        return out

    def set_left_out(self, notes: dict[str, str], editor: Any = None,
                     counts: Mapping[str, int] | None = None) -> None:
        """The tools a session leaves out of its requests, per server (why, and how many):
        in the statuses, and each note once as a warning."""
        counts = dict(counts or {})
        if notes == self.left_out and counts == self.left_out_counts:
            return
        self.left_out = dict(notes)
        self.left_out_counts = counts
        for server, note in notes.items():
            if note in self._warned:
                continue
            self._warned.add(note)
            log.warning("MCP server %s: %s", server, note)
            if editor is not None:
                try:
                    editor.show_message("warning", f"MCP server {server!r}: {note}.")
                except Exception:
                    log.exception("the warning about MCP tools left out was not shown")
        self._changed()

    def tools(self) -> list[McpTool]:
        """Every server's tools as last listed. A server restarting keeps its tools (a call
        meanwhile is an error the model reads), so a crash does not change the tool set."""
        out: list[McpTool] = []
        seen: set[str] = set()
        for conn in self.connections.values():
            for listed in conn.tools:
                key = (conn.config.name, listed.name)
                tool = self._tools.get(key)
                if tool is None or tool.listed != listed:
                    tool = McpTool(tool_name(conn.config.name, listed.name), conn, listed,
                                   self.result_max_chars)
                    self._tools[key] = tool
                if tool.name in seen:
                    continue  # two names that sanitise alike: the first keeps it
                seen.add(tool.name)
                out.append(tool)
        return out

    def instructions(self) -> dict[str, str]:
        """Each connected server's instructions (from its initialize result)."""
        return {c.config.name: c.instructions for c in self.connections.values()
                if c.instructions and c.connects}

    async def aclose(self) -> None:
        for task in (self._started, self._asking):
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
        await asyncio.gather(*(c.stop() for c in self.connections.values()),
                             return_exceptions=True)
