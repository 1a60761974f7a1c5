"""The context tiers around every call of a real session: when auto-compaction fires and
what the next request then carries, API context management server-side and client-side,
the overflow retry on the main call, the circuit breaker, and compaction turned off."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sidecar.contract.errors import CompactionFailed, ContextWindowExceeded
from sidecar.core.compaction.prompts import compact_prompt
from sidecar.core.conversation.messages import CLEARED_TOOL_RESULT
from sidecar.core.ports import ModelRequest, ProviderError
from sidecar.core.settings import ApiContextManagement, AutoCompact
from tests.unit.core.engine_builders import (
    SUMMARY_TEXT,
    Engine,
    RecordingEditor,
    Reply,
    ScriptedProvider,
    build_engine,
    call_kind,
    epoch_of,
    filler,
    request_tokens,
    shell,
    tool_result_contents,
    tool_turns,
)

# tool_turns: 3,000 tokens per round, so on the 40,000 window (auto-compact at 23,000) seven
# turns stay under the threshold and the eighth's tool round passes it.


async def test_auto_compaction_fires_at_its_threshold_and_the_next_request_starts_from_the_summary(
        tmp_path: Path) -> None:
    engine = build_engine(tmp_path)
    auto_at = engine.session.thresholds.auto_compact_at
    assert auto_at == 23_000

    await tool_turns(engine, 7)
    assert engine.session.ledger.used() < auto_at
    question = "and now? " + filler(2_000)
    await engine.prompt(question)  # the first call of this turn would pass the threshold

    assert engine.fired() == ["full"] and engine.boundary_tiers() == ["full"]
    [event] = engine.tiers.events
    assert event["trigger"] == "auto" and event["tokensBefore"] >= auto_at > event["tokensAfter"]
    # Every main request before it stayed under the threshold; none after it is anywhere near.
    kinds = [call_kind(r) for r in engine.provider.requests]
    cut = kinds.index("summary")
    assert kinds.count("summary") == 1
    assert all(t < auto_at for t in map(request_tokens, engine.provider.requests[:cut]))
    after = engine.provider.requests[cut + 1]
    # The ledger rounds each prefix part on its own: its count may differ by a token or two.
    assert abs(request_tokens(after) - event["tokensAfter"]) <= 2
    assert event["tokensAfter"] < auto_at // 4
    assert epoch_of(after)[1] == "compaction" and epoch_of(after)[0] > epoch_of(engine.provider.requests[0])[0]
    # The summary request: the history so far, the new question last, then the compact prompt.
    summary_request = engine.provider.requests[cut]
    assert summary_request.messages[-1].content[-2:] == [
        {"type": "text", "text": question}, {"type": "text", "text": compact_prompt(None)}]
    assert summary_request.max_tokens <= 4_000
    # The next request: the user context, then the summary, which carries the question on
    # (the summary's "continue" instruction, as Claude Code words it).
    assert [m.role for m in after.messages] == ["user"]
    ctx, summary = after.messages[0].content
    assert ctx["text"] == engine.user_context
    assert SUMMARY_TEXT in summary["text"] and str(engine.session.transcript.path()) in summary["text"]
    assert "Continue the last task where it stopped" in summary["text"]
    # The boundary is written down with the numbers the event reports.
    [boundary] = engine.boundaries()
    meta = boundary.extra["compactMetadata"]
    assert meta == {"trigger": "auto", "preTokens": event["tokensBefore"], "tier": "full",
                    "ptlRetries": 0, "backend": "local", "postTokens": event["tokensAfter"]}
    path = engine.session.transcript.path()
    assert path is not None
    on_disk = [json.loads(line) for line in path.read_text().splitlines()]
    assert any(r.get("subtype") == "compact_boundary" for r in on_disk)
    assert any(r.get("isCompactSummary") for r in on_disk)
    # The editor saw it start and finish, and the gauge counts it.
    states = [u["status"] for u in engine.editor.of_kind("compaction_update")]
    assert states == ["in_progress", "completed"]
    assert engine.editor.of_kind("compaction_update")[-1]["tier"] == "full"
    assert engine.session.gauge(bump=False)["compactions"] == {"full": 1}
    engine.assert_clean()


async def test_the_in_progress_update_names_the_tier_that_will_run(tmp_path: Path) -> None:
    engine = build_engine(tmp_path)  # session memory off
    await tool_turns(engine, 8)

    updates = engine.editor.of_kind("compaction_update")
    assert [u["status"] for u in updates] == ["in_progress", "completed"]
    assert [u["tier"] for u in updates] == ["full", "full"]


async def test_an_overflow_on_the_main_call_compacts_once_and_retries(tmp_path: Path) -> None:
    engine = build_engine(tmp_path)
    await tool_turns(engine, 4)
    too_long = ProviderError("prompt is too long: 41000 tokens > 40000 maximum", status=400,
                             type="invalid_request_error")
    engine.provider.main.extend([Reply(error=too_long), Reply("Answered after the compaction.")])

    answer = await engine.prompt("one more question")

    assert answer["stopReason"] == "end_turn"
    kinds = [call_kind(r) for r in engine.provider.requests[-3:]]
    assert kinds == ["main", "summary", "main"]
    refused, summary, retried = engine.provider.requests[-3:]
    assert request_tokens(retried) < request_tokens(refused) // 4
    # The question that overflowed is summarized with the rest, and the retry goes on from it.
    assert summary.messages[-1].content[-2] == {"type": "text", "text": "one more question"}
    assert [m.role for m in retried.messages] == ["user"]
    assert SUMMARY_TEXT in retried.messages[0].content[-1]["text"]
    assert engine.fired() == ["full"] and engine.boundary_tiers() == ["full"]
    assert engine.session.transcript.records[-1].text() == "Answered after the compaction."
    engine.assert_clean()


async def test_an_overflow_is_compacted_for_once_per_turn(tmp_path: Path) -> None:
    engine = build_engine(tmp_path)
    await tool_turns(engine, 2)
    too_long = ProviderError("prompt is too long: 41000 tokens > 40000 maximum", status=400,
                             type="invalid_request_error")
    engine.provider.main.extend([Reply(error=too_long), Reply(error=too_long)])

    with pytest.raises(Exception) as failed:
        await engine.prompt("still too long")

    assert type(failed.value).__name__ == "ProviderFailed"
    assert [call_kind(r) for r in engine.provider.requests[-3:]] == ["main", "summary", "main"]
    assert engine.session.transcript.records[-1].is_api_error


async def test_server_side_context_management_rides_on_every_call(tmp_path: Path) -> None:
    engine = build_engine(tmp_path)
    edit = {"type": "clear_tool_uses_20250919", "cleared_tool_uses": 1, "cleared_input_tokens": 900}
    engine.provider.main.extend([Reply("Looking.", tools=[shell("ls", 900)]),
                                 Reply("Done.", applied_edits=[edit])])

    await engine.prompt("list")
    await engine.compact()  # a forked call carries it too

    expected = {"edits": [{"type": "clear_tool_uses_20250919",
                           "trigger": {"type": "input_tokens", "value": 180_000},
                           "clear_at_least": {"type": "input_tokens", "value": 140_000},
                           "exclude_tools": ["Skill"]}]}
    assert [r.context_management for r in engine.provider.requests] == [expected] * 3
    assert [call_kind(r) for r in engine.provider.requests] == ["main", "main", "summary"]
    server = [e for e in engine.tiers.events if e["tier"] == "api_context_management"]
    # One record later than the prompt alone would be: the checkpoint before it.
    assert server == [{"tier": "api_context_management", "at": 5, "kind": "server", "edits": [edit]}]
    # The server clears what it clears; the engine never edits such a request itself.
    assert all(CLEARED_TOOL_RESULT not in tool_result_contents(r).values()
               for r in engine.provider.requests)
    engine.assert_clean()


def client_side_engine(tmp_path: Path, trigger: int = 4_000, keep: int = 1_500) -> Engine:
    return build_engine(tmp_path, provider=ScriptedProvider(server_context_management=False),
                        apiContextManagement=ApiContextManagement(triggerTokens=trigger,
                                                                  keepTokens=keep))


def cleared_in(request: ModelRequest) -> frozenset[str]:
    return frozenset(tid for tid, text in tool_result_contents(request).items()
                     if text == CLEARED_TOOL_RESULT)


async def test_the_client_side_edit_clears_old_results_in_the_request_only(tmp_path: Path) -> None:
    engine = client_side_engine(tmp_path)
    await tool_turns(engine, 6, tokens=800)

    request = next(r for r in engine.provider.requests if cleared_in(r))
    results = tool_result_contents(request)
    cleared = [tid for tid, text in results.items() if text == CLEARED_TOOL_RESULT]
    assert cleared and len(cleared) < len(results)
    assert request.context_management is None
    assert epoch_of(request)[1] == "context_edit"
    # The oldest go first; what was kept is newer than anything cleared.
    order = list(results)
    assert order[:len(cleared)] == cleared
    # The transcript still holds every result verbatim.
    kept = {b["tool_use_id"]: b["content"] for m in engine.session.transcript.records
            for b in m.tool_results()}
    assert all(kept[tid] != CLEARED_TOOL_RESULT for tid in cleared)
    event = [e for e in engine.tiers.events if e["tier"] == "api_context_management"][-1]
    assert event["kind"] == "client_side" and event["saved"] >= 800 * len(cleared) - 1
    engine.assert_clean()


async def test_the_client_side_edit_bumps_the_epoch_only_when_its_cleared_set_changes(
        tmp_path: Path) -> None:
    # A trigger low enough that even the edited requests stay above it: an edit is made on
    # every call after the first round, sometimes clearing what the previous one cleared.
    engine = client_side_engine(tmp_path, trigger=1_000, keep=500)
    await tool_turns(engine, 6, tokens=800)

    requests = engine.main_requests()
    changes = 0
    for previous, current in zip(requests, requests[1:]):
        moved = epoch_of(current)[0] != epoch_of(previous)[0]
        assert moved == (cleared_in(current) != cleared_in(previous))
        changes += moved
        if moved:
            assert epoch_of(current)[1] == "context_edit"
    # Both cases happened: the rule was exercised each way.
    assert changes >= 2 and len(requests) - 1 - changes >= 2

    # Asked twice for the same request, the edit is the same and the epoch stays.
    session, tiers = engine.session, engine.tiers
    assert session.ledger.used() > 1_000
    first = tiers.prepare_request(session.requests.build())
    again = tiers.prepare_request(session.requests.build())
    assert epoch_of(first)[1] == "context_edit"
    assert again.headers == first.headers and again.messages == first.messages

    engine.assert_clean()


async def test_a_result_the_client_side_edit_cleared_stays_cleared(tmp_path: Path) -> None:
    engine = client_side_engine(tmp_path)
    await tool_turns(engine, 8, tokens=800)

    ever_cleared: set[str] = set()
    for request in engine.main_requests():
        results = tool_result_contents(request)
        now = {tid for tid, text in results.items() if text == CLEARED_TOOL_RESULT}
        assert ever_cleared <= now, f"un-cleared: {sorted(ever_cleared - now)}"
        ever_cleared |= now
    assert ever_cleared


async def test_a_client_side_edit_never_lets_a_request_pass_the_blocking_limit(
        tmp_path: Path) -> None:
    engine = build_engine(tmp_path, window=32_000, maxOutputTokens=8_000,
                          provider=ScriptedProvider(server_context_management=False),
                          autoCompact=AutoCompact(bufferTokens=2_000),
                          apiContextManagement=ApiContextManagement(triggerTokens=18_000,
                                                                    keepTokens=4_500))
    blocking = engine.session.thresholds.blocking_at
    assert (engine.session.thresholds.auto_compact_at, blocking) == (22_000, 23_000)
    await tool_turns(engine, 5)
    # A long prompt passes the trigger (the call goes out edited), then a tool round.
    engine.provider.main.extend([Reply("Running.", tools=[shell("build", 4_700)]), Reply("ok")])
    try:
        await engine.prompt("build it: " + filler(3_000))
    except ContextWindowExceeded:
        pass  # refusing the call is a fine answer too

    assert max(request_tokens(r) for r in engine.main_requests()) <= blocking


async def test_the_breaker_opens_after_three_failed_auto_compactions(tmp_path: Path) -> None:
    engine = build_engine(tmp_path)
    broken = ProviderError("internal error", status=500, type="api_error")
    engine.provider.summary.extend([Reply(error=broken) for _ in range(3)])
    await tool_turns(engine, 8)  # the last one's second call is the first to try
    assert [e["tier"] for e in engine.tiers.events] == ["failed"]

    for question in ("second try?", "third try?"):
        engine.provider.main.append(Reply("ok"))
        await engine.prompt(question)
    gauge = engine.session.gauge(bump=False)
    assert gauge["autoCompact"] == {"enabled": True, "circuitBreaker": "open",
                                    "consecutiveFailures": 3}
    assert any("auto-compact is now off" in text for _, text in engine.editor.messages)

    engine.provider.main.append(Reply("ok"))
    await engine.prompt("and now?")  # past the threshold, but the breaker is open
    assert len(engine.provider.requests_of("summary")) == 3
    assert engine.fired() == ["failed"] * 3 and engine.boundaries() == []
    # Nothing changed: the context is still past the threshold, the requests under blocking.
    assert engine.session.ledger.used() >= (engine.session.thresholds.auto_compact_at or 0) > 0
    engine.assert_clean()

    # A manual compaction still works, and a success closes the breaker again.
    await engine.compact()
    assert engine.session.gauge(bump=False)["autoCompact"]["circuitBreaker"] == "closed"


async def test_manual_compaction_turned_off_refuses_and_asks_nothing(tmp_path: Path) -> None:
    engine = build_engine(tmp_path, manualCompact=False)
    await tool_turns(engine, 1)

    with pytest.raises(CompactionFailed) as direct:
        await engine.compact()
    with pytest.raises(CompactionFailed) as slash:
        await engine.prompt("/compact keep the numbers")

    assert direct.value.data == slash.value.data == {"tier": "full", "reason": "disabled"}
    assert engine.provider.requests_of("summary") == [] and engine.boundaries() == []


async def test_auto_compact_turned_off_blocks_at_the_limit_and_manual_still_works(
        tmp_path: Path) -> None:
    engine = build_engine(tmp_path, autoCompact=AutoCompact(enabled=False))
    blocking = engine.session.thresholds.blocking_at
    assert engine.session.thresholds.auto_compact_at is None
    assert engine.session.gauge(bump=False)["autoCompactAt"] is None

    with pytest.raises(ContextWindowExceeded) as full:
        await tool_turns(engine, 12)

    assert "run /compact" in full.value.message
    assert full.value.data["used"] >= blocking == full.value.data["blockingAt"]
    assert engine.provider.requests_of("summary") == []
    assert max(request_tokens(r) for r in engine.provider.requests) < blocking

    engine.provider.main.clear()  # the refused turn's unplayed replies
    engine.provider.main.append(Reply("Room again."))
    await engine.prompt("/compact")
    await engine.prompt("go on")
    assert engine.boundary_tiers() == ["full"]
    assert engine.tiers.events[-1]["trigger"] == "manual"
    assert engine.session.transcript.records[-1].text() == "Room again."
    engine.assert_clean()


async def test_a_compaction_that_would_not_shrink_changes_nothing(tmp_path: Path) -> None:
    engine = build_engine(tmp_path)
    await tool_turns(engine, 1, tokens=200)
    records = list(engine.session.transcript.records)
    engine.provider.summary.append(Reply(f"<summary>{'very long summary ' * 2_000}</summary>"))

    with pytest.raises(CompactionFailed) as failed:
        await engine.compact()

    assert "does not shrink" in failed.value.data["reason"]
    assert engine.session.transcript.records == records
    assert engine.tiers.events[-1]["tier"] == "failed"
    # A manual failure does not count towards the breaker.
    assert engine.session.gauge(bump=False)["autoCompact"]["consecutiveFailures"] == 0


async def test_a_declined_confirmation_skips_the_compaction(tmp_path: Path) -> None:
    engine = build_engine(tmp_path, editor=RecordingEditor(permission="reject_once"),
                          autoCompact=AutoCompact(confirm=True))
    await tool_turns(engine, 8)

    assert engine.provider.requests_of("summary") == [] and engine.fired() == []
    assert engine.session.ledger.used() >= (engine.session.thresholds.auto_compact_at or 0) > 0
    engine.assert_clean()


async def test_no_request_passes_the_blocking_limit_after_a_compaction(tmp_path: Path) -> None:
    # A store that cannot save a large result keeps it whole: the compaction must cope.
    engine = build_engine(tmp_path, on_disk=False)
    blocking = engine.session.thresholds.blocking_at
    await tool_turns(engine, 3)
    engine.provider.main.extend([Reply("A big one.", tools=[shell("dump", blocking + 1_000)]),
                                 Reply("Read it all.")])

    try:
        await engine.prompt("dump everything")
    except ContextWindowExceeded:
        pass  # refusing the call is a fine answer too

    assert engine.fired() == ["full"]
    assert max(request_tokens(r) for r in engine.main_requests()) <= blocking


async def test_a_summary_that_does_not_shrink_the_gauges_figure_changes_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    engine = build_engine(tmp_path)
    await tool_turns(engine, 3)
    records = list(engine.session.transcript.records)
    # The gauge (what tokensBefore reports) says less than the rebuilt context would hold,
    # though our estimate of the current one says more: no "saved -13 tokens" as completed.
    shown = engine.session.estimate([]) + 50
    monkeypatch.setattr(engine.session.ledger, "used", lambda: shown)

    with pytest.raises(CompactionFailed):
        await engine.compact()

    assert engine.session.transcript.records == records
    compactions = [u for u in engine.editor.updates if u.get("sessionUpdate") == "compaction_update"]
    assert compactions[-1]["status"] == "failed"
