"""An MCP server's tool as a tool the model may call, asking permission like Bash."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sidecar.core.permissions.choice import refusal
from sidecar.core.ports import ALLOWING, ToolContext, ToolKind, ToolOutcome
from sidecar.mcp.connection import CallFailed, ListedTool
from sidecar.mcp.names import PREFIX, sanitize
from sidecar.mcp.results import convert
from sidecar.tools.base import redact_outcome

if TYPE_CHECKING:
    from sidecar.mcp.connection import ServerConnection

PERMISSION_DENIED = "Permission denied by the user"


class McpTool:
    compactable = True

    def __init__(self, name: str, server: ServerConnection, listed: ListedTool,
                 max_chars: int) -> None:
        self.name = name
        self.server = server
        self.listed = listed
        self.max_chars = max_chars
        self.description = listed.description or f"{listed.name} (MCP server {server.config.name})"
        schema = dict(listed.input_schema)
        schema.setdefault("type", "object")
        self.input_schema = schema
        self.kind: ToolKind = "read" if listed.read_only else "other"

    def title(self, input: dict[str, Any], roots: Sequence[Path] = ()) -> str:
        return f"{self.listed.title or self.listed.name} ({self.server.config.name} MCP)"

    def locations(self, input: dict[str, Any], roots: Sequence[Path] = ()) -> list[dict[str, Any]]:
        return []

    def _allowed(self, ctx: ToolContext) -> bool:
        """Allowed by the ``tools.allow`` setting: the tool's name, or ``mcp__<server>``."""
        allow = ctx.settings.tools.allow
        return self.name in allow or f"{PREFIX}{sanitize(self.server.config.name)}" in allow

    async def run(self, input: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        if not isinstance(input, dict):
            return ToolOutcome.error("Invalid input: expected an object")
        if not self._allowed(ctx):
            answer = await ctx.ask_permission(self.name, self.title(input), input)
            if answer.option_id not in ALLOWING:
                return ToolOutcome.error(refusal(PERMISSION_DENIED, answer), permission=answer.option_id)
        try:
            result = await self.server.call_tool(self.listed.name, input)
        except CallFailed as exc:
            return ToolOutcome.error(str(exc), server=self.server.config.name)
        blocks, is_error = convert(result, self.max_chars)
        return redact_outcome(ToolOutcome(blocks, is_error=is_error,
                                          raw_output={"server": self.server.config.name,
                                                      "tool": self.listed.name}))
