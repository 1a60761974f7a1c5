"""Session memory (tier 3): the kept tail's minimums, maximum and API invariants; and in a
real session, the notes a background call keeps and the compaction they serve with no
summary call."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from types import SimpleNamespace

from sidecar.core.accounting.tokens import SeedBytes, TokenLedger, message_tokens
from sidecar.core.compaction.prompts import memory_template
from sidecar.core.compaction.session_memory import last_safe_cut, plan_memory_compaction, select_tail
from sidecar.core.conversation.messages import Message, tool_result_block
from sidecar.core.ports import ProviderError
from sidecar.core.settings import SessionMemory, Settings
from tests.unit.core.engine_builders import (
    MEMORY_NOTES,
    Engine,
    Reply,
    build_engine,
    call_kind,
    request_tokens,
    shell,
    texts,
    tool_turns,
)


def session_with(settings: Settings) -> SimpleNamespace:
    return SimpleNamespace(settings=settings, ledger=TokenLedger(SeedBytes()),
                           thresholds=SimpleNamespace(auto_compact_at=None))


def turn(i: int, size: int) -> list[Message]:
    return [
        Message(kind="user", content=[{"type": "text", "text": f"question {i} " + "q" * size}]),
        Message(kind="assistant", message_id=f"m{i}", content=[
            {"type": "thinking", "thinking": "hmm"},
            {"type": "tool_use", "id": f"t{i}", "name": "Read", "input": {"file_path": "a"}}]),
        Message(kind="user", content=[tool_result_block(f"t{i}", "r" * size)]),
        Message(kind="assistant", message_id=f"n{i}", content=[{"type": "text", "text": "done " * 10}]),
    ]


def test_tail_reaches_the_minimums_and_never_starts_on_a_result() -> None:
    records = [m for i in range(30) for m in turn(i, 4000)]
    settings = Settings()
    start = select_tail(records, len(records), session_with(settings))
    kept = records[start:]
    assert kept and kept[0].kind == "user" and not kept[0].tool_results()
    uses = {b["id"] for m in kept for b in m.tool_uses()}
    assert {b["tool_use_id"] for m in kept for b in m.tool_results()} <= uses


def test_tail_stops_at_the_maximum() -> None:
    records = [m for i in range(200) for m in turn(i, 4000)]
    settings = Settings()
    start = select_tail(records, len(records), session_with(settings))
    assert 0 < start < len(records)
    assert len(records) - start < 200


def test_empty_tail_at_a_boundary_is_safe() -> None:
    boundary = Message(kind="system", subtype="compact_boundary", content=[])
    records = [boundary]
    assert select_tail(records, 1, session_with(Settings())) == 1


# ----- in a session ----------------------------------------------------------------------

# Small enough for a 40,000 window: the first notes at 4,000 tokens, then every 3,000.
SMALL_MEMORY = SessionMemory(enabled=True, initTokens=4_000, updateTokens=3_000, updateToolCalls=1,
                             startPercent=1, updatePercent=1,
                             minTokens=1_000, maxTokens=6_000, minTextBlockMessages=2)


async def settled_turns(engine: Engine, count: int) -> None:
    """Tool turns, each followed by the memory update it started (as replay settles them)."""
    for i in range(count):
        await tool_turns(engine, 1, start=i)
        await engine.tiers.memory.wait()


async def test_notes_kept_in_the_background_serve_auto_compact_with_no_summary_call(
        tmp_path: Path) -> None:
    engine = build_engine(tmp_path, sessionMemory=SMALL_MEMORY)
    memory = engine.tiers.memory

    await settled_turns(engine, 2)
    [first, *_] = engine.provider.requests_of("memory")
    assert request_tokens(first) >= 4_000  # not before initTokens
    prompt = first.messages[-1].content[-1]["text"]
    assert f"<current_notes_content>\n{memory_template()}" in prompt
    assert memory.path.read_text() == MEMORY_NOTES and memory.state.updates >= 1

    await settled_turns(engine, 6)
    updates = engine.provider.requests_of("memory")
    assert len(updates) >= 3
    assert f"<current_notes_content>\n{MEMORY_NOTES}" in texts(updates[-1])  # notes build on notes

    assert engine.fired() == ["session_memory"] and engine.boundary_tiers() == ["session_memory"]
    assert engine.provider.requests_of("summary") == []
    # The next request starts from the notes, then the most recent messages verbatim.
    cut = next(i for i, r in enumerate(engine.provider.requests) if r.headers["x-context-sidecar-epoch"].endswith(":compaction"))
    after = engine.provider.requests[cut]
    assert call_kind(after) == "main"
    summary = after.messages[0].content[1]["text"]
    assert MEMORY_NOTES in summary and "most recent messages follow verbatim" in summary
    assert len(after.messages) > 1
    kept = [m for m in engine.session.transcript.records if "keptFrom" in m.extra]
    auto_at = engine.session.thresholds.auto_compact_at
    assert auto_at is not None and kept and request_tokens(after) < auto_at // 2
    event = engine.tiers.events[0]
    assert event["trigger"] == "auto" and event["tokensAfter"] < event["tokensBefore"]
    # The update thresholds start again from the smaller context.
    assert memory.state.tokens_at_update < event["tokensBefore"]
    engine.assert_clean()


async def test_without_notes_auto_compact_falls_back_to_a_full_summary(tmp_path: Path) -> None:
    engine = build_engine(tmp_path, sessionMemory=SMALL_MEMORY)
    broken = ProviderError("internal error", status=500, type="api_error")
    engine.provider.memory.extend([Reply(error=broken) for _ in range(20)])

    await settled_turns(engine, 8)  # every update fails; the turns go on regardless

    assert engine.provider.requests_of("memory")
    assert not engine.tiers.memory.path.exists()
    assert engine.fired() == ["full"] and len(engine.provider.requests_of("summary")) == 1
    engine.assert_clean()


async def test_notes_too_large_to_shrink_the_context_give_way_to_a_full_summary(
        tmp_path: Path) -> None:
    engine = build_engine(tmp_path, sessionMemory=SMALL_MEMORY)
    # Twelve sections of 8,000 characters: 24,000 tokens of notes, past auto-compact alone.
    huge = "\n".join(f"# Section {i}\n" + "n" * 7_900 for i in range(12))
    engine.provider.memory.extend([Reply(f"<summary>{huge}</summary>") for _ in range(20)])

    await settled_turns(engine, 8)

    assert engine.tiers.memory.content() is not None
    assert engine.fired() == ["full"] and engine.boundary_tiers() == ["full"]
    assert len(engine.provider.requests_of("summary")) == 1
    engine.assert_clean()


async def test_notes_wait_for_a_share_of_the_auto_compact_point(tmp_path: Path) -> None:
    """Each update re-reads the whole context and writes the notes anew; in a session far
    below the auto-compact point none is written, and near it they come a share of it apart
    rather than every few thousand tokens."""
    engine = build_engine(tmp_path, window=200_000, sessionMemory=SessionMemory(enabled=True))
    auto_at = engine.session.thresholds.auto_compact_at
    assert auto_at is not None
    await settled_turns(engine, 10)  # about 30,000 tokens: far below 60 % of the point
    assert engine.provider.requests_of("memory") == []
    for i in range(10, 60):
        await tool_turns(engine, 1, tokens=3_000, start=i)
        await engine.tiers.memory.wait()
    updates = engine.provider.requests_of("memory")
    assert updates and request_tokens(updates[0]) >= auto_at * 60 // 100
    sizes = [request_tokens(r) for r in updates]
    assert all(b - a >= auto_at * 20 // 100 - 3_500 for a, b in zip(sizes, sizes[1:]))
    # The seed's numbers alone (every 5,000 tokens from 10,000) would have made about 30.
    assert len(updates) <= 4
    engine.assert_clean()


def test_in_a_small_window_the_tail_is_a_share_of_the_auto_compact_point() -> None:
    """A 40K window compacts at 15,000 tokens: the seed's 10,000-token minimum tail would
    land the context a single file read below that point, to compact again a step later."""
    records = [m for i in range(30) for m in turn(i, 4000)]
    session = session_with(Settings())
    session.thresholds = SimpleNamespace(auto_compact_at=15_000)
    start = select_tail(records, len(records), session)
    kept = sum(message_tokens(m, session.ledger.counter) for m in records[start:])
    assert 0 < kept <= 15_000 * 40 // 100
    session.thresholds = SimpleNamespace(auto_compact_at=167_000)  # 200K: the seed's bounds
    start = select_tail(records, len(records), session)
    assert sum(message_tokens(m, session.ledger.counter) for m in records[start:]) >= 10_000 * 3 // 4


# ----- where the notes stop ----------------------------------------------------------------


def test_notes_taken_mid_turn_stop_at_the_last_answered_round() -> None:
    """Notes taken while the model waits for a tool cover every record up to its last
    round of results: a tail kept from there breaks no pair. (They used to count only at
    a turn that ended on text, so in a long turn they covered nothing of it.)"""
    records = [m for i in range(3) for m in turn(i, 100)]
    waiting = Message(kind="assistant", message_id="w", content=[
        {"type": "tool_use", "id": "tw", "name": "Read", "input": {"file_path": "b"}}])
    assert last_safe_cut(records) == records[-1].uuid
    assert last_safe_cut([*records, waiting]) == records[-1].uuid
    results = Message(kind="user", content=[tool_result_block("tw", "b")])
    assert last_safe_cut([*records, waiting, results]) == results.uuid
    assert last_safe_cut([waiting]) is None


LONG_TURN_MEMORY = SessionMemory(enabled=True, initTokens=4_000, updateTokens=3_000,
                                 updateToolCalls=1, startPercent=1, updatePercent=1,
                                 minTokens=1_000, maxTokens=6_000, minTextBlockMessages=1)


async def test_in_a_long_turn_after_short_ones_the_notes_serve_every_compaction(
        tmp_path: Path) -> None:
    """Short turns, then one prompt that runs many tool rounds: each auto-compaction is
    served by the notes (no summary call). Notes taken in the long turn used to leave
    their cut at the last short turn's end, so the tail from there could not make room and
    a full summary ran."""
    engine = build_engine(tmp_path, sessionMemory=LONG_TURN_MEMORY)
    await settled_turns(engine, 2)
    engine.provider.main.extend(
        [Reply(f"Running step {i}.", tools=[shell(f"long{i}", 3_000)]) for i in range(16)]
        + [Reply("All steps are done.")])
    await engine.prompt("run every step")
    await engine.tiers.memory.wait()

    assert engine.fired() and set(engine.fired()) == {"session_memory"}
    assert engine.provider.requests_of("summary") == []
    engine.assert_clean()


async def test_stale_notes_are_brought_up_to_the_last_answer_before_they_serve(
        tmp_path: Path) -> None:
    """Notes written once, long before the compaction, would keep a tail too long to make
    room; one update over what the provider has cached (not the newest results, which the
    tail keeps) lets them serve instead of a full summary."""
    once = dataclasses.replace(LONG_TURN_MEMORY, updateTokens=10_000_000, updatePercent=100)
    engine = build_engine(tmp_path, sessionMemory=once)
    engine.provider.main.extend(
        [Reply(f"Running step {i}.", tools=[shell(f"step{i}", 3_000)]) for i in range(16)]
        + [Reply("All steps are done.")])
    await engine.prompt("run every step")

    assert engine.fired()[0] == "session_memory"
    assert engine.provider.requests_of("summary") == []
    background, refresh, *_ = engine.provider.requests_of("memory")
    # The refresh ends on the last answer: the results it asked for are not in it (the
    # request holds the placeholder any unanswered call gets).
    results = [b for m in refresh.messages for b in m.content if b.get("type") == "tool_result"]
    assert "lorem ipsum" in str(results[-2]["content"])
    assert "lorem ipsum" not in str(results[-1]["content"])
    assert request_tokens(refresh) > request_tokens(background)
    engine.assert_clean()


def test_results_the_model_has_not_answered_stay_in_the_tail_whatever_their_size() -> None:
    """Notes taken just after a large read may cover it, but the model has not seen it:
    the kept tail holds the call and its result even past the tail's maximum (it used to be
    empty, and the model asked for the file again)."""
    records = [m for i in range(3) for m in turn(i, 400)]
    asked = Message(kind="assistant", message_id="big", content=[
        {"type": "tool_use", "id": "tbig", "name": "Read", "input": {"file_path": "big.py"}}])
    result = Message(kind="user", content=[tool_result_block("tbig", "r" * 200_000)])
    records += [asked, result]
    session = session_with(Settings())
    session.thresholds = SimpleNamespace(auto_compact_at=27_000)  # a tail of at most 10,800
    session.transcript = SimpleNamespace(model_view=lambda: records)
    memory = SimpleNamespace(content=lambda: MEMORY_NOTES,
                             state=SimpleNamespace(last_summarized_uuid=result.uuid))
    plan = plan_memory_compaction(session, memory)  # type: ignore[arg-type]
    assert plan is not None
    _, tail = plan
    assert [m.uuid for m in tail] == [asked.uuid, result.uuid]
