"""The tools a session offers the model: every tool it has, but the Skill tool only once
there are skills to list; without any, its definition would be paid for on every request
for nothing."""

from __future__ import annotations

from pathlib import Path

from sidecar.core.conversation.messages import Message
from sidecar.core.ports import Tool
from sidecar.core.turns.deferred_tools import NO_DEFERRAL, Deferral
from sidecar.core.workspace.skills import SKILL_TOOL


class ToolOffering:
    def __init__(self, tools: list[Tool]) -> None:
        # The session's tools (MCP servers' tools join and leave this very list).
        self.tools = tools
        # Whether the Skill tool is offered yet (there are skills to list).
        self.skills_offered = False
        # The tools whose definitions wait for a tool search (set by the MCP link).
        self.deferral: Deferral = NO_DEFERRAL

    def offered(self) -> list[Tool]:
        return [t for t in self.tools if self.skills_offered or t.name != SKILL_TOOL]

    def names(self) -> set[str]:
        """The names of every tool the session has (offered or not)."""
        return {t.name for t in self.tools}

    def list_skills(self, context: list[Message], cwd: Path, size: int) -> tuple[Message | None, bool]:
        """The skill listing to append, unless ``context`` (the records since the boundary)
        holds one already (a compaction re-injects it) or there are no skills; and whether
        the Skill tool joined the offered tools just now."""
        from sidecar.core.workspace.skills import discover_skills, listing_attachment

        if any((m.attachment or {}).get("type") == "skill_listing" for m in context):
            return None, self._offer_skill_tool()
        listing = listing_attachment(discover_skills(cwd, Path.home()), size)
        if listing is None:
            return None, False
        return listing, self._offer_skill_tool()

    def _offer_skill_tool(self) -> bool:
        if self.skills_offered:
            return False
        self.skills_offered = True
        return True
