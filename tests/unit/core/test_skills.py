"""Skills: Claude Code's SKILL.md format, the listing budget, the post-compact budgets, and
changes on disk as delta records of the workspace's prefix store."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sidecar.core.accounting.tokens import SeedBytes
from sidecar.core.conversation.messages import Message
from sidecar.core.settings import Settings
from sidecar.core.workspace.prefix import PrefixStore
from sidecar.core.workspace.skills import (
    INVOKED_SKILL_MARK,
    build_invoked_skills,
    discover_skills,
    invoked_skill_names,
    listing_text,
    parse_front_matter,
    skill_budgets,
)


def skill(root: Path, folder: str, text: str) -> Path:
    path = root / ".claude" / "skills" / folder / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_front_matter_plain_quoted_and_block_values() -> None:
    fields, body = parse_front_matter(
        "---\nname: pdf\ndescription: >\n  Fill PDF forms\n  and merge them\n"
        "allowed-tools: [Read]\nlicense: 'MIT'\n---\n# PDF\nsteps\n")
    assert fields["name"] == "pdf" and fields["description"] == "Fill PDF forms and merge them"
    assert fields["license"] == "MIT" and body == "# PDF\nsteps\n"
    assert parse_front_matter("no front matter") == ({}, "no front matter")


def test_discovery_prefers_the_workspace_and_falls_back_to_the_folder_name(tmp_path: Path) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    skill(ws, "review", "---\nname: review\ndescription: workspace review\n---\nbody")
    skill(home, "review", "---\nname: review\ndescription: user review\n---\nbody")
    skill(home, "notes", "# Notes\nTake notes.")  # no front matter: folder name, first line
    (ws / ".claude" / "skills" / "empty").mkdir()  # a folder without SKILL.md is no skill
    found = {s.name: s for s in discover_skills(ws, home)}
    assert set(found) == {"review", "notes"}
    assert found["review"].description == "workspace review" and found["review"].source == "workspace"
    assert found["notes"].description == "Notes" and found["notes"].source == "user"
    assert found["notes"].loaded_text().startswith(
        f"Base directory for this skill: {home / '.claude' / 'skills' / 'notes'}\n\n# Notes")


def test_the_listing_keeps_to_its_budget(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    for i in range(40):
        skill(ws, f"s{i:02d}", f"---\nname: s{i:02d}\ndescription: {'long words ' * 40}\n---\nx")
    skills = discover_skills(ws, tmp_path / "home")
    text = listing_text(skills, 2_000)
    assert text is not None and len(text) <= 2_000 + 100
    assert "- s00: long words" in text and text.rstrip().endswith("loads any by name)")
    assert listing_text([], 2_000) is None


def test_invoked_skills_most_recent_first_and_cut_with_a_reload_note(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    skill(ws, "big", "---\nname: big\ndescription: d\n---\n" + "line of the big skill\n" * 500)
    skill(ws, "small", "---\nname: small\ndescription: d\n---\nsmall body")
    records = [
        Message(kind="assistant", content=[{"type": "tool_use", "id": "a", "name": "Skill", "input": {"skill": "small"}}]),
        Message(kind="user", content=[{"type": "tool_result", "tool_use_id": "a", "content": "x"}]),
        Message(kind="assistant", content=[{"type": "tool_use", "id": "b", "name": "Skill", "input": {"skill": "big"}}]),
        Message(kind="user", content=[{"type": "tool_result", "tool_use_id": "b", "content": "x"}]),
        Message(kind="assistant", content=[{"type": "tool_use", "id": "c", "name": "Skill", "input": {"skill": "nope"}}]),
        Message(kind="user", content=[{"type": "tool_result", "tool_use_id": "c", "content": "x", "is_error": True}]),
    ]
    assert invoked_skill_names(records) == ["big", "small"]
    catalog = {s.name: s for s in discover_skills(ws, tmp_path / "home")}
    total, per = skill_budgets(37_000)
    assert (total, per) == (4_625, 925) and skill_budgets(1_000_000) == (25_000, 5_000)
    counter = SeedBytes()
    blocks, kept = build_invoked_skills([catalog["big"], catalog["small"]], total, per, counter)
    assert kept == ["big", "small"]
    big = blocks[0]["text"]
    assert big.startswith(INVOKED_SKILL_MARK + "big\n") and counter.text(big) <= per
    assert big.endswith("call the Skill tool with skill \"big\" to load all of it.]")
    # A total too small for both keeps the most recent.
    assert build_invoked_skills([catalog["big"], catalog["small"]], per + 50, per, counter)[1] == ["big"]


def test_skill_changes_are_delta_records_and_the_prefix_stays(tmp_path: Path) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    ws.mkdir()
    store = PrefixStore(ws, Settings(), home=home)
    view = store.view()
    # Not there yet: watched through a file inside it, so that creating it re-arms.
    root = ws / ".claude" / "skills"
    assert root / "SKILL.md" in store.watch_paths()
    path = skill(ws, "deploy", "---\nname: deploy\ndescription: Deploy to staging\n---\nmake deploy")
    assert root in store.watch_paths()
    store.on_change({path})
    changes, cursor = store.changes_since(view.seq)
    assert [(m.attachment or {}).get("change") for m in changes] == ["added"]
    assert "\"deploy\" (Deploy to staging)" in changes[0].text()
    path.write_text("---\nname: deploy\ndescription: Deploy to production\n---\nmake prod")
    store.on_change({path})
    path.unlink()
    skill(ws, "lint", "---\nname: lint\ndescription: Lint\n---\nruff")
    store.on_change({path, root / "lint" / "SKILL.md"})
    changes, _ = store.changes_since(cursor)
    assert sorted(((m.attachment or {})["name"], (m.attachment or {})["change"]) for m in changes) == [
        ("deploy", "removed"), ("lint", "added")]
    # The session's prefix is what it was: the listing is no part of it.
    assert store.view().system == view.system


async def test_the_skill_tool_is_offered_once_there_are_skills(tmp_path: Path,
                                                               monkeypatch: Any) -> None:
    """Without a skill the Skill tool's definition would be paid for on every request for
    nothing; the first skill brings it, as a named change of the tools."""
    from sidecar.tools.skill import SkillTool
    from tests.unit.core.engine_builders import build_engine, epoch_of

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    engine = build_engine(tmp_path)
    engine.session.tools.append(SkillTool())
    await engine.prompt("hello")
    first = engine.provider.requests[-1]
    assert "Skill" not in [t.name for t in first.tools]
    skill(engine.workspace, "deploy", "---\nname: deploy\ndescription: Deploy\n---\nmake deploy")
    await engine.prompt("again")
    second = engine.provider.requests[-1]
    assert [t.name for t in second.tools][-1] == "Skill"
    assert epoch_of(second)[1] == "tools" and epoch_of(second)[0] > epoch_of(first)[0]
    await engine.prompt("and again")
    assert "Skill" in [t.name for t in engine.provider.requests[-1].tools]
