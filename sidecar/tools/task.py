"""Task: hands a task to a subagent with a context window of its own, as Claude Code's Task
tool does; the result the model reads is the subagent's final report and nothing else of
its work. Several Task calls of one answer run at once."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from sidecar.core.ports import ToolContext, ToolOutcome
from sidecar.core.subagents.definitions import BUILT_IN, listing
from sidecar.core.subagents.ports import TASK_TOOL, Subagents, UnknownAgent
from sidecar.tools.base import BaseTool, ToolError

INTRO = (
    "Launch a subagent to handle a complex, multi-step task on its own: searching the code, "
    "researching a question, reading many files. It works in a context window of its own, "
    "and only its final report comes back, so use it when a search or investigation would "
    "otherwise fill this conversation with file contents. Launch several at once (several "
    "Task calls in one answer) when the tasks are independent. The subagent cannot see this "
    "conversation: the prompt must say everything it needs to know, and what it should "
    "report back. Its report is not shown to the user: tell them what matters of it."
    "\n\nAvailable agent types (subagent_type):\n"
)


class TaskTool(BaseTool):
    name = TASK_TOOL
    kind = "think"
    # Task calls of one answer run at once, their results kept in the model's order.
    concurrent: ClassVar[bool] = True
    input_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            "description": {"type": "string",
                            "description": "A short (3-5 word) description of the task"},
            "prompt": {"type": "string", "description": "The task for the agent to perform"},
            "subagent_type": {"type": "string",
                              "description": "The type of specialized agent to use for this task"},
        },
        "required": ["description", "prompt", "subagent_type"],
        "additionalProperties": False,
    }

    def __init__(self) -> None:
        self._subagents: Subagents | None = None

    def bind_subagents(self, subagents: Subagents) -> None:
        self._subagents = subagents

    @property
    def description(self) -> str:  # type: ignore[override]  # names the agents that apply
        agents = self._subagents.agents() if self._subagents is not None else [BUILT_IN]
        return INTRO + listing(agents)

    def title(self, input: dict[str, Any], roots: Sequence[Path] = ()) -> str:
        return f"Task: {input.get('description', '')}".strip().rstrip(":")

    async def invoke(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        if self._subagents is None:
            raise ToolError("Subagents are not available in this session")
        prompt = str(args["prompt"]).strip()
        if not prompt:
            raise ToolError("prompt must not be empty: say what the subagent should do")
        call = getattr(ctx, "current_tool_call", None) or {}
        try:
            report = await self._subagents.run(str(args["subagent_type"]).strip(),
                                               str(args["description"]), prompt,
                                               str(call.get("toolCallId", "")))
        except UnknownAgent as exc:
            raise ToolError(str(exc)) from exc
        raw: dict[str, Any] = {"agentId": report.agent_id, "subagentType": report.agent_type,
               "stopReason": report.stop_reason}
        if report.cost_usd is not None:
            raw["costUsd"] = report.cost_usd
        return ToolOutcome(report.text, raw_output=raw)
