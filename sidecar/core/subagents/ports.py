"""What the Task tool and the transcript store offer for subagents, as the engine sees them
(the tool in ``sidecar.tools.task``, the sidechain files in ``sidecar.storage``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from sidecar.core.ports import TranscriptStore
from sidecar.core.subagents.definitions import AgentDefinition

TASK_TOOL = "Task"
# The memory tool's name: the main session's notes, which a subagent writes only when its
# definition names the tool.
MEMORY_TOOL = "memory"


@dataclass(frozen=True)
class SubagentReport:
    """What came of one subagent: its final answer (the Task call's whole result)."""

    text: str
    agent_id: str
    agent_type: str
    stop_reason: str
    cost_usd: float | None = None


class UnknownAgent(LookupError):
    """No agent of that name applies here; ``known`` lists the ones that do."""

    def __init__(self, name: str, known: list[str]) -> None:
        super().__init__(f"Agent type {name!r} not found. Available agents: {', '.join(known)}")
        self.known = known


class Subagents(Protocol):
    """A session's subagents: the agents that apply to it, and running one."""

    def agents(self) -> list[AgentDefinition]: ...

    async def run(self, agent_type: str, description: str, prompt: str,
                  tool_call_id: str) -> SubagentReport:
        """Run a subagent to the end of its turn; raises ``UnknownAgent``."""
        ...


@runtime_checkable
class SidechainStores(Protocol):
    """A transcript store that writes a subagent's records as a sidechain of a session."""

    def sidechain(self, session_id: str, agent_id: str) -> TranscriptStore: ...
