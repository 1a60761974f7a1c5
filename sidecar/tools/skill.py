"""Skill: loads one of the skills the listing named, as Claude Code's Skill tool does."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from sidecar.core.ports import ToolContext, ToolOutcome
from sidecar.core.workspace.skills import SKILL_TOOL, discover_skills
from sidecar.tools.base import BaseTool, ToolError


class SkillTool(BaseTool):
    name = SKILL_TOOL
    kind = "read"
    # Its result is the skill's instructions: clearing it would make the model forget them
    # (after a compaction they come back through the re-injected skills instead).
    compactable = False
    description = (
        "Loads a skill: a set of instructions (and files beside them) for a kind of task. "
        "The available skills are listed in a system reminder. When a task matches a skill's "
        "description, call this tool with the skill's name before doing the task, then follow "
        "the instructions it returns; files the skill mentions are relative to its base "
        "directory. Do not load a skill that is already loaded in this conversation."
    )
    input_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            "skill": {"type": "string", "description": "The skill's name, e.g. \"pdf\""},
            "args": {"type": "string", "description": "Optional arguments for the skill"},
        },
        "required": ["skill"],
        "additionalProperties": False,
    }

    def title(self, input: dict[str, Any], roots: Sequence[Path] = ()) -> str:
        return f"Skill {input.get('skill', '')}".strip()

    async def invoke(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        wanted = str(args["skill"]).strip().lstrip("/")
        cwd = ctx.roots[0] if ctx.roots else Path.cwd()
        skills = await asyncio.to_thread(discover_skills, cwd, Path.home())
        skill = next((s for s in skills if s.name == wanted), None)
        if skill is None:
            known = ", ".join(s.name for s in skills) or "none"
            raise ToolError(f"Unknown skill: {wanted}. Available skills: {known}")
        text = skill.loaded_text()
        extra = str(args.get("args") or "").strip()
        if extra:
            text += f"\n\nARGUMENTS: {extra}"
        return ToolOutcome(text, raw_output={"skill": skill.name, "path": str(skill.path),
                                             "source": skill.source})
