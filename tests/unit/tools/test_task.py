"""The Task tool: its input, its errors, and what its description lists."""

from __future__ import annotations

from pathlib import Path

from sidecar.core.subagents.definitions import BUILT_IN, AgentDefinition
from sidecar.core.subagents.ports import SubagentReport, UnknownAgent
from sidecar.tools.task import TaskTool
from tests.unit.tools.conftest import FakeContext

REVIEWER = AgentDefinition(name="reviewer", description="Reviews a change", prompt="Review.",
                           source="workspace")


class Agents:
    def __init__(self) -> None:
        self.ran: list[tuple[str, str, str, str]] = []

    def agents(self) -> list[AgentDefinition]:
        return [BUILT_IN, REVIEWER]

    async def run(self, agent_type: str, description: str, prompt: str,
                  tool_call_id: str) -> SubagentReport:
        if agent_type not in {a.name for a in self.agents()}:
            raise UnknownAgent(agent_type, [a.name for a in self.agents()])
        self.ran.append((agent_type, description, prompt, tool_call_id))
        return SubagentReport(text="Found it in a.py", agent_id="a1", agent_type=agent_type,
                              stop_reason="end_turn", cost_usd=0.5)


ARGS = {"description": "Find the parser", "prompt": "Where is X parsed?",
        "subagent_type": "general-purpose"}


async def test_the_result_is_the_report_alone(ws: Path) -> None:
    tool, agents = TaskTool(), Agents()
    tool.bind_subagents(agents)
    out = await tool.run(ARGS, FakeContext(roots=[ws]))
    assert not out.is_error and out.content == "Found it in a.py"
    assert out.raw_output["agentId"] == "a1" and out.raw_output["costUsd"] == 0.5
    assert agents.ran == [("general-purpose", "Find the parser", "Where is X parsed?", "")]


async def test_an_unknown_type_is_an_error_naming_the_known_ones(ws: Path) -> None:
    tool = TaskTool()
    tool.bind_subagents(Agents())
    out = await tool.run({**ARGS, "subagent_type": "nope"}, FakeContext(roots=[ws]))
    assert out.is_error
    assert "'nope' not found" in out.text() and "general-purpose, reviewer" in out.text()


async def test_missing_input_and_an_empty_prompt_are_errors(ws: Path) -> None:
    tool = TaskTool()
    tool.bind_subagents(Agents())
    missing = await tool.run({"description": "x", "prompt": "y"}, FakeContext(roots=[ws]))
    assert missing.is_error and "subagent_type" in missing.text()
    empty = await tool.run({**ARGS, "prompt": "  "}, FakeContext(roots=[ws]))
    assert empty.is_error and "prompt" in empty.text()


async def test_without_subagents_it_says_so(ws: Path) -> None:
    out = await TaskTool().run(ARGS, FakeContext(roots=[ws]))
    assert out.is_error and "not available" in out.text()


def test_the_description_lists_the_agents() -> None:
    tool = TaskTool()
    assert "- general-purpose: " in tool.description and "reviewer" not in tool.description
    tool.bind_subagents(Agents())
    assert "- reviewer: Reviews a change" in tool.description
    assert tool.title(ARGS) == "Task: Find the parser"
