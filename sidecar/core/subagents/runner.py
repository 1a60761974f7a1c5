"""Running a subagent: a session of its own (its messages, window, compaction tiers and
gauge) built the way the service builds sessions, with the agent's system prompt and the
Task call's prompt as its first user message. It runs model turns until it ends its turn;
its last answer is the report the main conversation reads.

Its tools are the read-only ones unless its definition names others, never Task itself.
It asks the user through the main session's editor, in the main session's permission mode,
sharing what the user always allowed. Cancelling the main turn cancels it; what it cost is
added to the main session's cost; its records go to a sidechain transcript of the main
session (``isSidechain``, ``agentId``), where the store can keep one.
"""

from __future__ import annotations

import asyncio
import dataclasses
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from sidecar.core.conversation.file_state import FileReadState
from sidecar.core.conversation.messages import new_uuid
from sidecar.core.permissions.modes import only_looks
from sidecar.core.server_tool_offers import Described, ServerToolOffer, ServerToolPolicy
from sidecar.core.subagents.definitions import AgentDefinition, agent_model, discover_agents
from sidecar.core.subagents.nested_editor import NestedEditor
from sidecar.core.subagents.ports import (
    MEMORY_TOOL,
    TASK_TOOL,
    SidechainStores,
    SubagentReport,
    UnknownAgent,
)
from sidecar.core.todos import TODO_TOOL
from sidecar.core.workspace.prefix import PrefixView

if TYPE_CHECKING:
    from sidecar.core.ports import ModelDescription, Provider, Tool, TranscriptStore
    from sidecar.core.session import Session
    from sidecar.core.settings import Settings

NO_REPORT = "The subagent ended without a report."


@dataclass(frozen=True)
class SubagentParts:
    """What the service builds a subagent's session from, as it builds its own."""

    tools: Callable[[Settings], list[Tool]]
    provider: Callable[[Settings], Provider]
    describe: Callable[[Settings], ModelDescription | None]
    writer: Callable[[], TranscriptStore]
    # Whether the main session's folder is trusted (its own agents apply only then).
    trusted: Callable[[], bool]
    home: Callable[[], Path] = Path.home
    tier_observers: list[Callable[[dict[str, Any]], None]] = field(default_factory=list)


def subagent_tools(tools: list[Tool], agent: AgentDefinition) -> list[Tool]:
    """The tools a subagent gets: those its definition names (``*``: all), else the
    read-only ones; never Task (a subagent starts no subagents)."""
    tools = [t for t in tools if t.name != TASK_TOOL]
    if agent.tools is not None:
        return tools if "*" in agent.tools else [t for t in tools if t.name in agent.tools]
    return [t for t in tools if only_looks(t.kind) and t.name not in (TODO_TOOL, MEMORY_TOOL)]


# The names an agent definition's tool list gives the provider's own tools: Claude Code's
# and the API's.
SERVER_TOOL_NAMES = {"web_search": ("WebSearch", "web_search"),
                     "web_fetch": ("WebFetch", "web_fetch")}


def subagent_server_tools(policy: ServerToolPolicy, agent: AgentDefinition) -> ServerToolPolicy:
    """The provider's tools a subagent gets: its session's, where its definition lists them
    (or lists no tools: these only look)."""
    def allowed(offer: ServerToolOffer) -> bool:
        if agent.tools is None or "*" in agent.tools:
            return True
        return any(name in agent.tools for name in SERVER_TOOL_NAMES.get(offer.tool, (offer.tool,)))

    def offers(settings: Settings, provider: str, described: Described | None) -> list[ServerToolOffer]:
        return [o if not o.offered or allowed(o) else dataclasses.replace(
                    o, offered=False, reason=f"the {agent.name} agent's tools leave it out")
                for o in policy(settings, provider, described)]
    return offers


def final_text(session: Session) -> str:
    """The text of the subagent's last answer."""
    for message in reversed(session.transcript.records):
        if message.kind != "assistant" or message.is_api_error:
            continue
        text = "".join(str(b.get("text", "")) for b in message.content
                       if b.get("type") == "text").strip()
        if text:
            return text
    return NO_REPORT


class SessionSubagents:
    """The subagents of one session: the agents that apply to it, and running them."""

    def __init__(self, parent: Session, parts: SubagentParts) -> None:
        self._parent = parent
        self._parts = parts
        self._agents: list[AgentDefinition] | None = None
        for tool in parent.tools:
            bind = getattr(tool, "bind_subagents", None)
            if callable(bind):
                bind(self)

    def _discover(self) -> list[AgentDefinition]:
        return discover_agents(Path(self._parent.info.cwd), self._parts.home(),
                               self._parts.trusted())

    def agents(self) -> list[AgentDefinition]:
        if self._agents is None:
            self._agents = self._discover()
        return self._agents

    async def _refresh(self) -> list[AgentDefinition]:
        """The agents as the disk has them now; a change is a change of the Task tool's
        description, and so of the tools the main conversation sends."""
        found = await asyncio.to_thread(self._discover)
        changed = self._agents is not None and found != self._agents
        self._agents = found
        if changed:
            self._parent.tools_changed()
        return found

    async def run(self, agent_type: str, description: str, prompt: str,
                  tool_call_id: str) -> SubagentReport:
        agents = await self._refresh()
        agent = next((a for a in agents if a.name == agent_type), None)
        if agent is None:
            raise UnknownAgent(agent_type, [a.name for a in agents])
        agent_id = "a" + new_uuid().replace("-", "")[:16]
        sub = self._session(agent, agent_id, description, tool_call_id)
        follower = asyncio.ensure_future(self._follow_cancel(sub))
        try:
            stop = await sub.run_turn([{"type": "text", "text": prompt}])
        finally:
            follower.cancel()
            self._count_cost(sub)
            await sub.resources.aclose()
            await sub.close_provider()
            if sub.transcript.store is not None:
                sub.transcript.store.close_session(sub.id, sub.info.cwd)
        return SubagentReport(text=final_text(sub), agent_id=agent_id, agent_type=agent.name,
                              stop_reason=stop, cost_usd=sub.cost_usd)

    async def _follow_cancel(self, sub: Session) -> None:
        """The main turn's cancel reaches the subagent."""
        await self._parent.cancel_event.wait()
        sub.cancel_event.set()
        sub.tiers.cancel()

    def _count_cost(self, sub: Session) -> None:
        if sub.cost_usd is not None:
            self._parent.cost_usd = (self._parent.cost_usd or 0.0) + sub.cost_usd
            self._parent.send_usage_update()

    def _session(self, agent: AgentDefinition, agent_id: str, description: str,
                 tool_call_id: str) -> Session:
        from sidecar.core.session import Session, SessionInfo

        parent = self._parent
        base = parent.settings
        model = agent_model(agent, parent.info.provider) or base.subagentModel or parent.info.model
        settings = dataclasses.replace(
            base, model=model, provider=parent.info.provider,
            permissions=dataclasses.replace(base.permissions, defaultMode=parent.permissions.mode))
        info = SessionInfo(session_id=f"agent-{agent_id}", cwd=parent.info.cwd, model=model,
                           provider=parent.info.provider, title=description)
        store = self._parts.writer()
        side = store.sidechain(parent.id, agent_id) if isinstance(store, SidechainStores) else None
        sub = Session(
            info, settings, editor=NestedEditor(parent.editor, parent.id, tool_call_id),
            writer=side, prefix=None, file_state=FileReadState(),
            tools=subagent_tools(self._parts.tools(settings), agent),
            provider_factory=self._parts.provider, describe=self._parts.describe,
            workspace_trust=parent.workspace_trust, mcp=None,
            tier_observers=self._parts.tier_observers,
            server_tools=subagent_server_tools(parent.server_tool_policy, agent))
        # The agent's prompt is its system prompt; the project's rules and the date lead
        # its first message as they lead the main conversation's.
        leading = parent.prefix_view
        sub.prefix_view = PrefixView(
            system=[{"type": "text", "text": system_prompt(agent, parent.info.cwd)}],
            user_text=leading.user_text if leading is not None else "",
            files=list(leading.files) if leading is not None else [], seq=0)
        sub.rebuild_ledger()
        # Its edits belong to the turn that started it.
        sub.changes = parent.changes
        # What the user always allowed holds for the subagent too, and back.
        sub.permissions.allowed_always = parent.permissions.allowed_always
        return sub


def system_prompt(agent: AgentDefinition, cwd: str) -> str:
    return (f"{agent.prompt}\n\nThe workspace is at {cwd}; write paths relative to it."
            f"\nPlatform: {sys.platform}")
