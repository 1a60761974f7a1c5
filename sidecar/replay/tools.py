"""Tools that answer with what the recording's tools answered; nothing touches the disk.
A Task call whose subagent the recording kept runs a real subagent instead."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, ClassVar

from sidecar.core.ports import Tool, ToolContext, ToolOutcome
from sidecar.replay.script import RecordedResult
from sidecar.tools.base import BaseTool
from sidecar.core.subagents.definitions import GENERAL_PURPOSE
from sidecar.tools.task import TaskTool

BeforeRun = Callable[[str], Awaitable[None]]  # given the tool call's id
MISSING_RESULT = "The recording holds no result for this tool call."


# The tools whose old results Claude Code's microcompact may clear.
CLAUDE_CODE_COMPACTABLE = frozenset({
    "Read", "Bash", "Grep", "Glob", "LS", "WebSearch", "WebFetch", "Edit", "MultiEdit", "Write",
})


class ReplayTool(BaseTool):
    """One recorded tool name; its results are looked up by the tool call's id."""

    input_schema: ClassVar[dict[str, Any]] = {"type": "object", "additionalProperties": True}

    def __init__(
        self,
        name: str,
        results: dict[str, RecordedResult],
        before_run: BeforeRun | None = None,
    ) -> None:
        # Instance attributes shadow the class-level declarations of the tool port.
        self.name = name  # type: ignore[misc]
        self.description = f"Replays the recorded results of {name}."  # type: ignore[misc]
        # Claude Code's own rule for these tools, as its microcompact applies it.
        self.compactable = name in CLAUDE_CODE_COMPACTABLE  # type: ignore[misc]
        self._results = results
        self._before_run = before_run
        self.missing = 0

    async def run(self, input: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        # Inputs are the recorded ones, so they are not validated against a schema.
        call_id = _call_id(ctx)
        if self._before_run is not None:
            # Replayed answers arrive instantly, so background work the engine started after
            # the last answer (a session-memory update) would otherwise race a whole run of
            # calls; the driver lets it finish here, which makes a replay deterministic, and
            # lets the recorded pause before the next answer pass.
            await self._before_run(call_id)
        found = self._results.get(call_id)
        if found is None:
            self.missing += 1
            return ToolOutcome.error(MISSING_RESULT)
        return ToolOutcome(found.content, is_error=found.is_error)


def _call_id(ctx: ToolContext) -> str:
    # The session names the running call on its tool context.
    call = getattr(ctx, "current_tool_call", {}) or {}
    return str(call.get("toolCallId", ""))


class ReplayTask(TaskTool):
    """Task: the real tool (a subagent of the engine's, answered by the recorded subagent)
    for the calls whose subagent the recording kept, the recorded result for the others."""

    def __init__(self, recorded: ReplayTool, with_subagent: set[str]) -> None:
        super().__init__()
        self._recorded = recorded
        self._with_subagent = with_subagent

    @property
    def missing(self) -> int:
        return self._recorded.missing

    async def run(self, input: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        if _call_id(ctx) in self._with_subagent:
            # Early recordings' Task calls name no agent type: theirs was the general one.
            return await super().run({"subagent_type": GENERAL_PURPOSE, **input}, ctx)
        return await self._recorded.run(input, ctx)


def replay_tools(
    names: list[str],
    results: dict[str, RecordedResult],
    before_run: BeforeRun | None = None,
    with_subagent: set[str] | None = None,
) -> list[Tool]:
    """A tool per recorded name; Task runs subagents for the calls in ``with_subagent``."""
    tools: list[Tool] = []
    for name in names:
        tool = ReplayTool(name, results, before_run)
        tools.append(ReplayTask(tool, with_subagent) if with_subagent and name == "Task" else tool)
    return tools
