"""What a session tells its model of the MCP servers: their instructions and the changes of
their tool set, as attachments, and both again after every compaction.

The rule for the tool set, and why. A request's tools lead the provider's cached prefix
(Anthropic caches tools, then system, then messages; OpenAI's automatic cache matches the
request from its first byte), so any change to the tools array makes the next request write
its whole prefix to the cache again. Deferring the tools to a search avoids it (tools
marked ``defer_loading`` stay out of Anthropic's prefix until its tool search references
them), but costs the model a search before each use of a new tool, so below the share set
for them (next list) the sidecar sends every tool in the array and keeps the changes rare
and named:

- servers connect in the background when a session opens; what is connected by the first
  request is in it from the start;
- a change (a server connecting later, ``notifications/tools/list_changed`` with a different
  list) is taken only where the session takes its other prefix changes (at a turn's start and
  between tool rounds), all changes since the last one together, as one rewrite with the
  named cause ``tools``; the MCP tools follow the built-in ones, so the system prompt and the
  built-in tools' text stay byte-identical;
- a server that crashes and restarts keeps its tools in the set (a call meanwhile is an error
  the model reads): a crash costs no rewrite;
- an ``mcp_tools_delta`` attachment says what was added and removed, appended at the end of
  the conversation, so it changes nothing that was sent before;
- the MCP tools' definitions take at most ``mcp.maxToolDefinitionPercent`` of the context
  window (Claude Code's threshold for deferring them is 10%): a server declaring thousands of
  tools would otherwise fill every request, the compaction's too, and leave the session
  unusable. With ``mcp.toolSearch`` ``auto`` (the default) they are then all deferred to a
  tool search instead (``always``: whatever their size; sidecar.core.turns.deferred_tools
  says what each provider gets); the model is told they are there and how to find them.
  With ``off``, whole servers are kept first, in their configured order; the tools of a
  server that does not fit whole are then taken in its order while they fit; the rest are
  left out, said once to the user (a warning, and the server's status) and to the model.

The cost of a change is one cache write of the prefix instead of a cache read
(``tests/bench/bench_mcp.py`` measures it on the fake), paid once per batch of changes.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from sidecar.core.conversation.messages import Message
from sidecar.core.ports import Tool
from sidecar.core.turns.deferred_tools import NO_DEFERRAL, TOOL_SEARCH, Deferral
from sidecar.mcp.tool import McpTool
from sidecar.tools.tool_search import ToolSearchTool

if TYPE_CHECKING:
    from sidecar.core.accounting.tokens import TokenLedger
    from sidecar.core.turns.tool_offering import ToolOffering
    from sidecar.mcp.manager import McpManager

# What the re-announcement after a compaction may take: this many tokens, and at most this
# share of the window.
REANNOUNCE_TOKENS = 4_000
REANNOUNCE_WINDOW_DIVISOR = 50
DESCRIPTION_CHARS = 200
# How the re-announcement begins (the fake's invariant checker looks for it).
REANNOUNCE_MARK = "MCP servers (re-announced after the summary):"
# How an announcement of a change to the tool set begins.
DELTA_MARK = "The MCP tools changed."
DEFERRED_NOTE = ("Their definitions are not loaded: find the ones you need with the tool "
                 "search tool (a few keywords of the task, or a tool's exact name) before "
                 "calling them.")


class LinkedSession(Protocol):
    tools: list[Tool]
    offering: ToolOffering
    ledger: TokenLedger
    thresholds: Any  # .size: the context window
    editor: Any  # .show_message(level, text)
    info: Any  # .model

    def append(self, message: Message) -> Message: ...

    def tools_changed(self) -> None: ...


def _signature(tool: McpTool) -> str:
    return json.dumps([tool.name, tool.description, tool.input_schema], sort_keys=True)


def definition_text(tool: McpTool) -> str:
    """A tool's definition as a request carries it (what its tokens are counted of)."""
    return json.dumps({"name": tool.name, "description": tool.description,
                       "input_schema": tool.input_schema}, ensure_ascii=False,
                      separators=(",", ":"))


def fit_tools(tools: Sequence[McpTool], budget: float,
              cost: Callable[[McpTool], float]) -> tuple[list[McpTool], list[McpTool]]:
    """(offered, left out): the tools whose definitions fit ``budget`` tokens, whole
    servers first in their order, then the tools of the others in their order while they
    fit. The offered keep the order of ``tools``."""
    servers: dict[str, list[McpTool]] = {}
    for tool in tools:
        servers.setdefault(tool.server.config.name, []).append(tool)
    room = budget
    kept: set[int] = set()
    partial: list[list[McpTool]] = []
    for group in servers.values():
        total = sum(cost(t) for t in group)
        if total <= room:
            room -= total
            kept.update(id(t) for t in group)
        else:
            partial.append(group)
    for group in partial:
        for tool in group:
            if cost(tool) <= room:
                room -= cost(tool)
                kept.add(id(tool))
    return ([t for t in tools if id(t) in kept], [t for t in tools if id(t) not in kept])


def left_out_notes(tools: Sequence[McpTool], left_out: Sequence[McpTool], total_tokens: float,
                   budget: int, window: int, percent: int) -> dict[str, str]:
    """Per server with tools left out: what the user reads."""
    out: dict[str, str] = {}
    for server in dict.fromkeys(t.server.config.name for t in left_out):
        count = sum(1 for t in left_out if t.server.config.name == server)
        of = sum(1 for t in tools if t.server.config.name == server)
        out[server] = (f"{count} of its {of} tools are left out of the requests: the MCP tools' "
                       f"definitions ({round(total_tokens):,} tokens) would take more than "
                       f"{percent}% of the {window:,}-token context window ({budget:,} tokens; "
                       "setting mcp.maxToolDefinitionPercent); the model cannot call them")
    return out


def _per_server(tools: Sequence[McpTool]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for tool in tools:
        counts[tool.server.config.name] = counts.get(tool.server.config.name, 0) + 1
    return counts


def _first_line(text: str) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line[:DESCRIPTION_CHARS]


def _instructions_text(server: str, text: str) -> str:
    return f"Instructions from the MCP server {server!r}:\n{text}"


class McpLink:
    """One session's view of its workspace's servers: what it has announced so far."""

    def __init__(self, manager: McpManager) -> None:
        self.manager = manager
        self.sent: dict[str, str] = {}  # tool name -> signature, as the tools array has them
        self.instructions: dict[str, str] = {}  # server -> the text announced
        # The servers' tool set and the budget last fitted: nothing to do while both hold.
        self._fitted: tuple[dict[str, str], int] | None = None
        self._costs: dict[str, float] = {}  # signature -> tokens of the definition
        self.left_out: dict[str, str] = {}  # server -> why some of its tools are not sent
        # The tools deferred to a tool search at the last fit (all of them, or none).
        self.deferral: Deferral = NO_DEFERRAL

    def _budget(self, session: LinkedSession) -> tuple[int, int, int]:
        """(budget in tokens, window, percent)."""
        window = int(getattr(getattr(session, "thresholds", None), "size", 0) or 0)
        percent = self.manager.limits.max_tool_definition_percent
        return (window * percent // 100 if window > 0 else 1 << 62), window, percent

    def _fit(self, session: LinkedSession, current: list[McpTool],
             wanted: dict[str, str], budget: int, window: int,
             percent: int) -> list[McpTool]:
        from sidecar.core.accounting.tokens import prefix_counter

        model = getattr(getattr(session, "info", None), "model", None)
        counter = prefix_counter(session.ledger.counter, model)
        costs: dict[str, float] = {}
        for tool in current:
            signature = wanted[tool.name]
            cost = self._costs.get(signature)
            if cost is None:
                cost = counter.text(definition_text(tool))
            costs[signature] = cost
        self._costs = costs
        total = sum(costs.values())
        mode = self.manager.limits.tool_search
        if current and (mode == "always" or (mode == "auto" and total > budget)):
            self.deferral = Deferral(frozenset(t.name for t in current), round(total))
            offered, left_out = list(current), list[McpTool]()
        else:
            self.deferral = NO_DEFERRAL
            offered, left_out = fit_tools(current, budget, lambda t: costs[wanted[t.name]])
        notes = left_out_notes(current, left_out, total, budget, window, percent)
        counts = _per_server(left_out)
        if notes != self.left_out or counts != self.manager.left_out_counts:
            self.left_out = notes
            self.manager.set_left_out(notes, getattr(session, "editor", None), counts)
        return offered

    def offered(self, session: LinkedSession) -> list[McpTool]:
        """The MCP tools the session's next request offers the model: the servers' tools as
        listed now, fitted to the budget (what ``sync`` puts in the tools array). Not the
        tools array itself, which takes changes only at a turn's start: read before the
        first turn it holds none of the servers connected since the session opened."""
        listed = self.manager.tools()
        every = {t.name: _signature(t) for t in listed}
        budget, window, percent = self._budget(session)
        return self._fit(session, listed, every, budget, window, percent)

    def reannounce(self, ledger: TokenLedger, window: int,
                   loaded: Sequence[str] = ()) -> str | None:
        """What a compaction re-injects (``reannouncement``)."""
        return reannouncement(self, ledger, window, loaded)

    def sync(self, session: LinkedSession) -> None:
        """Take the changes since the last call (see the module's rule)."""
        for server, text in self.manager.instructions().items():
            if self.instructions.get(server) != text:
                self.instructions[server] = text
                session.append(Message(
                    kind="attachment", attachment={"type": "mcp_instructions", "server": server},
                    content=[{"type": "text", "text": _instructions_text(server, text)}],
                    is_meta=True))
        listed = self.manager.tools()
        every = {t.name: _signature(t) for t in listed}
        budget, window, percent = self._budget(session)
        if self._fitted == (every, budget):
            return
        self._fitted = (every, budget)
        current = self._fit(session, listed, every, budget, window, percent)
        wanted = {t.name: every[t.name] for t in current}
        deferral = self.deferral
        if wanted == self.sent and deferral == session.offering.deferral:
            return
        added = [t for t in current if self.sent.get(t.name) != wanted[t.name]]
        removed = sorted(set(self.sent) - set(wanted))
        self.sent = wanted
        kept: list[Tool] = [t for t in session.tools
                            if not isinstance(t, McpTool) and t.name != TOOL_SEARCH]
        search: list[Tool] = [ToolSearchTool(lambda: [
            t for t in session.tools if t.name in session.offering.deferral.names])] \
            if deferral.names else []
        session.tools[:] = kept + list(current) + search
        # Tools deferred now that were loaded before are news to the model like new ones.
        newly = [t for t in current if t.name in deferral.names
                 and (t in added or t.name not in session.offering.deferral.names)]
        session.offering.deferral = deferral
        session.tools_changed()
        lines = [DELTA_MARK]
        if deferral.names:
            if newly:
                lines.append("Now available: " + "; ".join(
                    f"{count} tools of the MCP server {server!r}"
                    for server, count in _per_server(newly).items()) + ". " + DEFERRED_NOTE)
        elif added:
            lines.append("Now available:")
            lines += [f"- {t.name}: {_first_line(t.description)}" for t in added]
        if removed:
            lines.append("No longer available: " + ", ".join(removed))
        for server, note in self.left_out.items():
            lines.append(f"Of the MCP server {server!r}, {note}.")
        session.append(Message(
            kind="attachment",
            attachment={"type": "mcp_tools_delta", "added": [t.name for t in added],
                        "removed": removed},
            content=[{"type": "text", "text": "\n".join(lines)}], is_meta=True))


def reannouncement(link: McpLink, ledger: TokenLedger, window: int,
                   loaded: Sequence[str] = ()) -> str | None:
    """The instructions and the tool set in one text within the budget: whole when it fits,
    else the tools by name only and each server's instructions cut to an equal share. A
    deferred tool a search has loaded (``loaded``) stays offered, so it is named."""
    listed = [t for t in link.manager.tools() if t.name in link.sent]
    tools = [t for t in listed if t.name not in link.deferral.names or t.name in loaded]
    deferred = [t for t in listed if t.name in link.deferral.names and t.name not in loaded]
    instructions = link.manager.instructions()
    if not listed and not instructions:
        return None
    budget = min(REANNOUNCE_TOKENS, window // REANNOUNCE_WINDOW_DIVISOR)

    def build(describe: bool, per_server_chars: int | None) -> str:
        parts = [REANNOUNCE_MARK]
        for server, text in instructions.items():
            body = text if per_server_chars is None else text[:per_server_chars]
            parts.append(_instructions_text(server, body))
        if tools:
            parts.append("MCP tools available:")
            parts += [f"- {t.name}: {_first_line(t.description)}" if describe else f"- {t.name}"
                      for t in tools]
        if deferred:
            parts.append("MCP tools deferred: " + "; ".join(
                f"{count} tools of the MCP server {server!r}"
                for server, count in _per_server(deferred).items()) + ". " + DEFERRED_NOTE)
        return "\n".join(parts)

    text = build(True, None)
    if ledger.counter.text(text) <= budget:
        return text
    names = build(False, 0)
    room = budget - ledger.counter.text(names)
    share = int(room * 3 / max(len(instructions), 1)) if room > 0 else 0  # ~3 chars a token
    text = build(False, share)
    while share > 0 and ledger.counter.text(text) > budget:
        share = share * 3 // 4
        text = build(False, share)
    return text
