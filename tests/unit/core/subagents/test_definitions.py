"""Agent definitions: where they are found, which apply, and what their front matter says."""

from __future__ import annotations

from pathlib import Path

from sidecar.core.settings import Settings
from sidecar.core.subagents.definitions import (
    BUILT_IN,
    GENERAL_PURPOSE,
    agent_model,
    discover_agents,
    listing,
)
from sidecar.core.subagents.runner import subagent_tools
from sidecar.tools.registry import default_tools


def write_agent(root: Path, file: str, text: str) -> Path:
    folder = root / ".claude" / "agents"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / file
    path.write_text(text, encoding="utf-8")
    return path


REVIEWER = """---
name: reviewer
description: Reviews a change for bugs
tools: Read, Grep,Glob
model: claude-haiku-4-5
---
You review code. Report every bug you find.
"""


def test_the_built_in_agent_always_exists(tmp_path: Path) -> None:
    agents = discover_agents(tmp_path / "ws", tmp_path / "home", workspace_trusted=True)
    assert [a.name for a in agents] == [GENERAL_PURPOSE]
    assert agents[0].source == "built-in" and agents[0].tools is None and agents[0].prompt


def test_front_matter_gives_name_tools_model_and_prompt(tmp_path: Path) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    write_agent(ws, "review.md", REVIEWER)
    agents = {a.name: a for a in discover_agents(ws, home, workspace_trusted=True)}
    reviewer = agents["reviewer"]
    assert reviewer.description == "Reviews a change for bugs"
    assert reviewer.tools == ("Read", "Grep", "Glob")
    assert reviewer.model == "claude-haiku-4-5"
    assert reviewer.prompt == "You review code. Report every bug you find."
    assert reviewer.source == "workspace"
    assert "- reviewer: Reviews a change for bugs" in listing(list(agents.values()))


def test_a_workspace_agent_applies_only_in_a_trusted_folder(tmp_path: Path) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    write_agent(ws, "review.md", REVIEWER)
    write_agent(home, "mine.md", "---\nname: mine\ndescription: The user's own\n---\nHi.\n")
    untrusted = [a.name for a in discover_agents(ws, home, workspace_trusted=False)]
    assert untrusted == [GENERAL_PURPOSE, "mine"]
    trusted = [a.name for a in discover_agents(ws, home, workspace_trusted=True)]
    assert trusted == [GENERAL_PURPOSE, "mine", "reviewer"]


def test_the_workspace_wins_over_the_user_and_inherit_means_no_model(tmp_path: Path) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    write_agent(ws, "a.md", "---\nname: same\ndescription: workspace one\nmodel: inherit\n---\nW\n")
    write_agent(home, "b.md", "---\nname: same\ndescription: user one\n---\nU\n")
    same = next(a for a in discover_agents(ws, home, True) if a.name == "same")
    assert same.description == "workspace one" and same.model is None and same.tools is None


def test_a_file_without_description_is_no_agent(tmp_path: Path) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    write_agent(ws, "bare.md", "Just a prompt, no front matter.\n")
    assert [a.name for a in discover_agents(ws, home, True)] == [GENERAL_PURPOSE]


def test_a_subagent_gets_read_only_tools_unless_granted_and_never_task(tmp_path: Path) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    write_agent(ws, "review.md", REVIEWER)
    write_agent(ws, "all.md", "---\nname: all\ndescription: everything\ntools: '*'\n---\nX\n")
    write_agent(ws, "writer.md", "---\nname: writer\ndescription: w\ntools: Read, Edit, Task\n---\nX\n")
    agents = {a.name: a for a in discover_agents(ws, home, True)}
    tools = default_tools(Settings())
    assert [t.name for t in subagent_tools(tools, agents[GENERAL_PURPOSE])] == [
        "Read", "Glob", "Grep", "LS", "BashOutput", "Skill"]
    assert [t.name for t in subagent_tools(tools, agents["reviewer"])] == ["Read", "Glob", "Grep"]
    assert [t.name for t in subagent_tools(tools, agents["writer"])] == ["Read", "Edit"]
    every = [t.name for t in subagent_tools(tools, agents["all"])]
    assert "Bash" in every and "Edit" in every and "Task" not in every


def test_a_family_alias_is_the_newest_model_of_that_family_on_anthropic() -> None:
    import dataclasses

    sonnet = dataclasses.replace(BUILT_IN, model="sonnet")
    assert agent_model(sonnet, "anthropic") == "claude-sonnet-5-5"
    assert agent_model(dataclasses.replace(BUILT_IN, model="haiku"), "anthropic") == "claude-haiku-5-5"
    assert agent_model(sonnet, "openai") is None
    assert agent_model(dataclasses.replace(BUILT_IN, model="gpt-4o"), "openai") == "gpt-4o"
    assert agent_model(BUILT_IN, "anthropic") is None
