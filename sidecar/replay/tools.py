"""Tools that answer with what the recording's tools answered; nothing touches the disk."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, ClassVar

from sidecar.core.ports import Tool, ToolContext, ToolOutcome
from sidecar.replay.script import RecordedResult
from sidecar.tools.base import BaseTool

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
        before_run: Callable[[], Awaitable[None]] | None = None,
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
        # The session names the running call on its tool context; inputs are the recorded
        # ones, so they are not validated against a schema.
        if self._before_run is not None:
            # Replayed answers arrive instantly, so background work the engine started after
            # the last answer (a session-memory update) would otherwise race a whole run of
            # calls; the driver lets it finish here, which makes a replay deterministic, and
            # lets the recorded pause before the next answer pass.
            await self._before_run()
        call = getattr(ctx, "current_tool_call", {}) or {}
        found = self._results.get(str(call.get("toolCallId", "")))
        if found is None:
            self.missing += 1
            return ToolOutcome.error(MISSING_RESULT)
        return ToolOutcome(found.content, is_error=found.is_error)


def replay_tools(
    names: list[str],
    results: dict[str, RecordedResult],
    before_run: Callable[[], Awaitable[None]] | None = None,
) -> list[Tool]:
    return [ReplayTool(name, results, before_run) for name in names]
