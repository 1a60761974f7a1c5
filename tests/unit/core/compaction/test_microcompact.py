"""Tiers 1 and 2 without a summary: the context-management edits asked of Anthropic, the
client-side edit elsewhere, and in a real session time-based clearing after a gap."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from sidecar.core.accounting.tokens import SeedBytes
from sidecar.core.compaction.microcompact import (
    anthropic_context_management,
    client_side_context_edit,
    step_clearing_candidates,
)
from sidecar.core.conversation.messages import CLEARED_TOOL_RESULT, ApiMessage, Message
from sidecar.core.settings import Microcompact, Settings, StepClearing, Thinking, TimeBased
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


# ----- step clearing: old results of finished turns, once, frozen ----------------------------

READS = frozenset({"Read", "Bash"})


def turns_of_reads(turns: int, reads: int, chars: int) -> list[Message]:
    """``turns`` finished turns, each a prompt, ``reads`` Read calls with results of
    ``chars`` characters and a closing answer; then the next prompt."""
    records: list[Message] = []
    n = 0
    for t in range(turns + 1):
        records.append(Message(kind="user", content=[{"type": "text", "text": f"turn {t}"}]))
        if t == turns:
            break
        for _ in range(reads):
            records.append(Message(kind="assistant", message_id=f"msg{n}", content=[
                {"type": "tool_use", "id": f"t{n}", "name": "Read", "input": {}}]))
            records.append(Message(kind="user", content=[
                {"type": "tool_result", "tool_use_id": f"t{n}", "content": "x" * chars}]))
            n += 1
        records.append(Message(kind="assistant", message_id=f"answer{t}",
                               content=[{"type": "text", "text": "Done."}]))
    return records


def test_step_clearing_waits_for_its_trigger_then_clears_old_finished_turns() -> None:
    settings = Settings()
    records = turns_of_reads(3, 4, 40_000)  # 12 results of 10,000 tokens (bytes / 4)
    counter = SeedBytes()
    assert step_clearing_candidates(records, settings, 59_000, None, set(), READS, counter) == []
    ids = step_clearing_candidates(records, settings, 121_000, None, set(), READS, counter)
    # The newest 10,000 tokens of finished turns stay verbatim; everything older goes.
    assert ids == [f"t{n}" for n in range(11)]
    # In a small window the trigger is half the auto-compact point.
    assert step_clearing_candidates(records, settings, 20_000, 40_000, set(), READS, counter)
    # What is cleared already is not cleared twice, and other tools' results stay.
    assert step_clearing_candidates(records, settings, 121_000, None, set(ids), READS,
                                    counter) == []
    assert step_clearing_candidates(records, settings, 121_000, None, set(),
                                    frozenset({"Bash"}), counter) == []
    off = dataclasses.replace(settings, microcompact=Microcompact(
        stepClearing=StepClearing(enabled=False)))
    assert step_clearing_candidates(records, off, 121_000, None, set(), READS, counter) == []


def test_step_clearing_only_as_a_prompt_goes_out() -> None:
    """Mid-turn the step would rewrite the running turn's results too, just cached."""
    records = turns_of_reads(1, 4, 40_000)[:-1]  # no new prompt: the turn is still running
    assert step_clearing_candidates(records, Settings(), 41_000, 40_000, set(), READS,
                                    SeedBytes()) == []
    records = turns_of_reads(3, 4, 40_000)
    records.append(Message(kind="assistant", message_id="next", content=[
        {"type": "tool_use", "id": "t99", "name": "Read", "input": {}}]))
    records.append(Message(kind="user", content=[
        {"type": "tool_result", "tool_use_id": "t99", "content": "x" * 400}]))
    assert step_clearing_candidates(records, Settings(), 121_000, None, set(), READS,
                                    SeedBytes()) == []


def test_step_clearing_only_when_the_saved_reads_pay_for_the_rewrite() -> None:
    """Clearing the older of two results rewrites the newer one (kept, under keepTokens):
    worth it only if the coming turn, as long as the finished ones, reads it often enough to
    pay the rewrite back half again."""
    settings = dataclasses.replace(Settings(), microcompact=Microcompact(
        stepClearing=StepClearing(triggerTokens=1_000, keepTokens=15_000)))
    # turns of 3 requests: 3 x 0.1 x 10,000 saved < 1.5 x 1.15 x 10,000 rewritten
    short_turn = turns_of_reads(1, 2, 40_000)
    assert step_clearing_candidates(short_turn, settings, 21_000, None, set(), READS,
                                    SeedBytes()) == []
    # a turn of 21 requests (18 edits first): 21 x 0.1 x 10,000 saved pays for the rewrite
    edits: list[Message] = []
    for n in range(18):
        edits += [Message(kind="assistant", message_id=f"e{n}", content=[
                      {"type": "tool_use", "id": f"e{n}", "name": "Edit", "input": {}}]),
                  Message(kind="user", content=[
                      {"type": "tool_result", "tool_use_id": f"e{n}", "content": "ok"}])]
    long_turn = [short_turn[0], *edits, *short_turn[1:]]
    assert step_clearing_candidates(long_turn, settings, 21_000, None, set(), READS,
                                    SeedBytes()) == ["t0"]


async def test_step_clearing_in_a_session_is_one_cache_break_then_frozen(
        tmp_path: Path) -> None:
    engine = build_engine(tmp_path, window=200_000, microcompact=Microcompact(
        stepClearing=StepClearing(triggerTokens=15_000, keepTokens=6_000)))
    for name in ("a", "b", "c"):
        engine.write(f"{name}.py", 5_000)
    engine.write("d.py", 2_000)
    for turn in (("a", "b"), ("c", "d")):
        engine.provider.main.extend([
            *[Reply(f"Reading {n}.", tools=[read(engine.workspace / f"{n}.py")]) for n in turn],
            Reply("Read them.")])
        await engine.prompt(f"read {' and '.join(turn)}")
    before = engine.main_requests()[-1]
    assert engine.tiers.events == []  # nothing of a finished turn was worth clearing yet
    engine.provider.main.append(Reply("Sure."))
    await engine.prompt("what did they define?")
    stepped = engine.main_requests()[-1]
    [event] = engine.tiers.events
    assert event["tier"] == "microcompact" and event["kind"] == "step"
    ids = list(tool_result_contents(stepped))
    # a, b and c are cleared; d, the newest, within 6,000 tokens, stays verbatim.
    assert cleared_ids(tool_result_contents(stepped)) == ids[:3]
    assert tool_result_contents(stepped)[ids[3]] == tool_result_contents(before)[ids[3]]
    assert epoch_of(stepped)[1] == "microcompact" and epoch_of(stepped)[0] > epoch_of(before)[0]
    assert event["tokensAfter"] < event["tokensBefore"] - 14_000
    entry = engine.session.file_state.get(engine.workspace / "a.py")
    assert entry is not None and not entry.stub_ok  # a re-read returns the content again
    # Frozen: later requests keep the decision and only grow at the end.
    engine.provider.main.append(Reply("Yes."))
    await engine.prompt("anything else?")
    later = engine.main_requests()[-1]
    assert cleared_ids(tool_result_contents(later)) == ids[:3]
    assert epoch_of(later) == epoch_of(stepped)
    assert len(engine.tiers.events) == 1
    engine.assert_clean()


def test_step_clearing_counts_a_rewrite_from_the_start_past_the_cache_lookback() -> None:
    """Anthropic looks for a cache hit at most 20 blocks before a breakpoint: an edit further
    back than that from the end rewrites the whole conversation, its first prompt included."""
    settings = dataclasses.replace(Settings(), microcompact=Microcompact(
        stepClearing=StepClearing(triggerTokens=1_000, keepTokens=0)))
    prompt = Message(kind="user", content=[{"type": "text", "text": "y" * 80_000}])
    read_ = [Message(kind="assistant", message_id="r", content=[
                 {"type": "tool_use", "id": "t0", "name": "Read", "input": {}}]),
             Message(kind="user", content=[
                 {"type": "tool_result", "tool_use_id": "t0", "content": "x" * 40_000}])]
    edits: list[Message] = []
    for n in range(25):
        edits += [Message(kind="assistant", message_id=f"e{n}", content=[
                      {"type": "tool_use", "id": f"e{n}", "name": "Edit", "input": {}}]),
                  Message(kind="user", content=[
                      {"type": "tool_result", "tool_use_id": f"e{n}", "content": "ok"}])]
    end = [Message(kind="assistant", message_id="a", content=[{"type": "text", "text": "Done."}]),
           Message(kind="user", content=[{"type": "text", "text": "next"}])]

    def step(records: list[Message]) -> list[str]:
        return step_clearing_candidates(records, settings, 31_000, None, set(), READS,
                                        SeedBytes())

    # 27 x 0.1 x 10,000 saved; the read near the end rewrites only what follows it
    assert step([prompt, *edits, *read_, *end]) == ["t0"]
    # 51 blocks after it: the 20,000-token prompt is written again too, and that is dearer
    assert step([prompt, *read_, *edits, *end]) == []
