"""Tiers 1 and 2 without a summary: the context-management edits asked of Anthropic, the
client-side edit elsewhere, and in a real session time-based clearing after a gap."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from sidecar.core.compaction.microcompact import (
    anthropic_context_management,
    client_side_context_edit,
)
from sidecar.core.messages import CLEARED_TOOL_RESULT, ApiMessage
from sidecar.core.settings import Microcompact, Settings, Thinking, TimeBased
from sidecar.core.tokens import SeedBytes
from tests.unit.core.engine_builders import (
    Reply,
    build_engine,
    epoch_of,
    read,
    shell,
    tool_result_contents,
)


def test_no_thinking_edit_without_thinking() -> None:
    edits = anthropic_context_management(Settings())["edits"]  # type: ignore[index]
    assert [e["type"] for e in edits] == ["clear_tool_uses_20250919"]


def test_thinking_edit_first_keeps_all_then_one_after_an_hour_away() -> None:
    settings = dataclasses.replace(Settings(), thinking=Thinking(mode="adaptive"))
    warm = anthropic_context_management(settings, idle_minutes=5)["edits"]  # type: ignore[index]
    assert warm[0] == {"type": "clear_thinking_20251015", "keep": "all"}
    assert warm[1]["type"] == "clear_tool_uses_20250919"
    cold = anthropic_context_management(settings, idle_minutes=61)["edits"]  # type: ignore[index]
    assert cold[0] == {"type": "clear_thinking_20251015",
                       "keep": {"type": "thinking_turns", "value": 1}}


def test_client_side_edit_names_what_it_cleared() -> None:
    settings = Settings()
    messages = [ApiMessage("user", [{"type": "text", "text": "go"}])]
    for i in range(6):
        messages.append(ApiMessage("assistant", [{"type": "tool_use", "id": f"t{i}", "name": "Read",
                                                  "input": {}}]))
        messages.append(ApiMessage("user", [{"type": "tool_result", "tool_use_id": f"t{i}",
                                             "content": "x" * 200_000}]))
    out, saved, edited = client_side_context_edit(messages, 300_000, settings, SeedBytes())
    assert saved > 0 and edited and "t5" not in edited  # the latest results stay
    same = client_side_context_edit(messages, 300_000, settings, SeedBytes())
    assert same[2] == edited  # the same decision for the same input: no needless cache break
    assert client_side_context_edit(messages, 1_000, settings, SeedBytes())[2] == frozenset()


def test_a_loaded_skill_is_never_cleared_by_either_edit() -> None:
    clear = anthropic_context_management(Settings())["edits"][-1]  # type: ignore[index]
    assert clear["exclude_tools"] == ["Skill"]
    messages = [ApiMessage("user", [{"type": "text", "text": "go"}])]
    for i, name in enumerate(["Skill", "Read", "Read", "Read"]):
        messages.append(ApiMessage("assistant", [{"type": "tool_use", "id": f"t{i}", "name": name,
                                                  "input": {}}]))
        messages.append(ApiMessage("user", [{"type": "tool_result", "tool_use_id": f"t{i}",
                                             "content": "x" * 200_000}]))
    _, saved, edited = client_side_context_edit(messages, 300_000, Settings(), SeedBytes())
    assert saved > 0 and "t1" in edited and "t0" not in edited


# ----- time-based clearing in a session ------------------------------------------------------


def cleared_ids(contents: dict[str, str]) -> list[str]:
    return [tid for tid, text in contents.items() if text == CLEARED_TOOL_RESULT]


async def test_after_a_gap_old_results_are_cleared_once_and_stay_cleared(tmp_path: Path) -> None:
    engine = build_engine(tmp_path)
    source = engine.write("notes.md", 400)
    engine.provider.main.extend([
        Reply("Reading.", tools=[read(source)]), Reply("Read."),
        Reply("Listing.", tools=[shell("ls", 500)]), Reply("Listed."),
        Reply("Testing.", tools=[shell("pytest", 500)]), Reply("Tested."),
    ])
    for question in ("read notes", "list", "test"):
        await engine.prompt(question)
    warm = engine.main_requests()[-1]
    used_before = engine.session.ledger.used()

    engine.clock.advance(61)  # the provider's cache has gone cold
    engine.provider.main.append(Reply("Welcome back."))
    await engine.prompt("back again")

    [event] = engine.tiers.events
    assert event["tier"] == "microcompact" and event["kind"] == "time_based"
    assert event["cleared"] == 2 and event["tokensAfter"] < used_before <= event["tokensBefore"]
    [boundary] = [m for m in engine.session.transcript.records
                  if m.subtype == "microcompact_boundary"]
    results = tool_result_contents(engine.main_requests()[-1])
    ids = list(results)
    assert boundary.extra["microcompactMetadata"]["compactedToolIds"] == ids[:2]
    assert cleared_ids(results) == ids[:2]  # the oldest two; keepRecent=1 keeps the last
    assert results[ids[2]] == tool_result_contents(warm)[ids[2]]
    cold = engine.main_requests()[-1]
    assert epoch_of(cold)[1] == "microcompact" and epoch_of(cold)[0] > epoch_of(warm)[0]
    # A re-read must show the file again, not a stub pointing at a cleared result.
    entry = engine.session.file_state.get(source)
    assert entry is not None and not entry.stub_ok
    # The decision is frozen: the next request keeps it and only adds to the conversation.
    engine.provider.main.append(Reply("Sure."))
    await engine.prompt("and then?")
    later = engine.main_requests()[-1]
    assert cleared_ids(tool_result_contents(later)) == ids[:2]
    assert epoch_of(later) == epoch_of(cold)
    assert len(engine.tiers.events) == 1
    engine.assert_clean()


async def test_no_clearing_before_the_gap_or_with_time_based_clearing_off(tmp_path: Path) -> None:
    cases: list[tuple[str, int, dict[str, Any]]] = [
        ("short", 59, {}),
        ("off", 600, {"microcompact": Microcompact(timeBased=TimeBased(enabled=False))})]
    for name, minutes, settings in cases:
        engine = build_engine(tmp_path / name, **settings)
        engine.provider.main.extend([Reply("Listing.", tools=[shell("ls", 300)]), Reply("Listed."),
                                     Reply("Again.", tools=[shell("ls -l", 300)]), Reply("Listed."),
                                     Reply("Hello.")])
        await engine.prompt("list")
        await engine.prompt("list again")
        engine.clock.advance(minutes)
        await engine.prompt("hello")
        assert engine.tiers.events == [], name
        assert cleared_ids(tool_result_contents(engine.main_requests()[-1])) == [], name
        engine.assert_clean()


async def test_after_an_hour_away_the_server_keeps_only_the_last_thinking_turn(
        tmp_path: Path) -> None:
    engine = build_engine(tmp_path, thinking=Thinking(mode="adaptive"))
    await engine.prompt("first")
    engine.clock.advance(61)
    await engine.prompt("second")

    warm, cold = engine.main_requests()
    assert warm.context_management is not None and cold.context_management is not None
    assert warm.context_management["edits"][0] == {"type": "clear_thinking_20251015", "keep": "all"}
    assert cold.context_management["edits"][0] == {
        "type": "clear_thinking_20251015", "keep": {"type": "thinking_turns", "value": 1}}
    engine.assert_clean()
