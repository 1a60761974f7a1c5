from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from sidecar.core.permissions.modes import FILE_EDIT_TOOLS
from sidecar.core.ports import ToolOutcome, ToolSpec, tool_specs
from sidecar.core.settings import Settings, Tools
from sidecar.tools.registry import default_tools

CLAUDE_CODE_NAMES = ["Read", "Write", "Edit", "MultiEdit", "Glob", "Grep", "LS", "Bash", "BashOutput",
                     "KillBash", "ExitPlanMode"]
SHELL_TOOLS = ("Bash", "BashOutput", "KillBash")
ACP_KINDS = {"read", "edit", "delete", "move", "search", "execute", "think", "fetch",
             "switch_mode", "other"}


def test_default_tools_follow_claude_code_names() -> None:
    tools = default_tools(Settings())
    assert [t.name for t in tools] == [*CLAUDE_CODE_NAMES, "Skill", "TodoWrite", "Task", "memory"]
    no_shell = default_tools(dataclasses.replace(Settings(), tools=Tools(shell=False)))
    # Without the shell there are no background shells to read or end either.
    assert [t.name for t in no_shell] == [n for n in CLAUDE_CODE_NAMES if n not in SHELL_TOOLS] + ["Skill", "TodoWrite", "Task", "memory"]
    assert all(t.kind in ACP_KINDS for t in tools)
    # Old results of every tool but ExitPlanMode, Skill and TodoWrite may be cleared by
    # microcompact, as in Claude Code: an approval and a task list are no bulky output, and a
    # loaded skill's instructions stay until a compaction re-injects them.
    assert sorted(t.name for t in tools if not t.compactable) == ["ExitPlanMode", "Skill", "TodoWrite"]
    # The names the sidecar knows as file edits are exactly its tools that edit files.
    assert {t.name for t in tools if t.kind == "edit"} == FILE_EDIT_TOOLS


def test_specs_carry_valid_schemas() -> None:
    tools = default_tools(Settings())
    specs = tool_specs(tools)
    assert all(isinstance(s, ToolSpec) for s in specs)
    for spec in specs:
        schema = spec.input_schema
        assert schema["type"] == "object" and spec.description
        assert set(schema.get("required", [])) <= set(schema["properties"])
    by_name = {s.name: s.input_schema for s in specs}
    assert by_name["Edit"]["required"] == ["file_path", "old_string", "new_string"]
    assert "replace_all" in by_name["Edit"]["properties"]
    assert by_name["MultiEdit"]["required"] == ["file_path", "edits"]
    edits = by_name["MultiEdit"]["properties"]["edits"]
    assert edits["type"] == "array" and edits["minItems"] == 1
    assert edits["items"]["required"] == ["old_string", "new_string"]
    assert set(edits["items"]["properties"]) == {"old_string", "new_string", "replace_all"}
    assert {"-i", "-n", "glob", "output_mode"} <= set(by_name["Grep"]["properties"])
    assert by_name["Bash"]["properties"]["run_in_background"]["type"] == "boolean"
    assert by_name["BashOutput"]["required"] == ["bash_id"] and "filter" in by_name["BashOutput"]["properties"]
    assert by_name["KillBash"]["required"] == ["shell_id"]


async def test_titles_and_locations_never_raise_on_junk(ws: Path) -> None:
    for tool in default_tools(Settings()):
        for junk in ({}, {"file_path": 3, "path": [], "pattern": None, "command": {}}):
            assert isinstance(tool.title(junk, [ws]), str)
            assert isinstance(tool.locations(junk, [ws]), list)


async def test_every_tool_survives_garbage_input(ctx: Any) -> None:
    for tool in default_tools(Settings()):
        outcome = await tool.run({"file_path": 1, "pattern": 2, "command": 3, "path": 4}, ctx)
        assert isinstance(outcome, ToolOutcome) and outcome.is_error


def test_outcome_blocks_and_acp_content() -> None:
    ok = ToolOutcome("text")
    assert ok.acp_content() == [{"type": "content", "content": {"type": "text", "text": "text"}}]
    err = ToolOutcome.error("bad")
    assert err.is_error is True and err.raw_output == {"error": "bad"}
    diff = ToolOutcome(
        "x", display=[{"type": "diff", "path": "/a", "oldText": None, "newText": "n"}]
    )
    assert diff.acp_content()[0]["type"] == "diff"
