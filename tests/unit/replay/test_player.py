"""The responder playing the recorded model, the hidden-prefix padding, the replay tools."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from sidecar.core.compaction.prompts import compact_prompt, memory_update_prompt
from sidecar.core.conversation.messages import Message, Usage
from sidecar.core.settings import Settings
from sidecar.fake_llm import RecordedRequest
from sidecar.fake_llm.counting import anthropic_units, total_tokens
from sidecar.replay.padding import ReplayPrefix, count_tokens, filler_text, plan_padding
from sidecar.replay.player import END_OF_SCRIPT, ScriptPlayer, is_summary_request
from sidecar.replay.script import RecordedResult, build_script
from sidecar.replay.tools import MISSING_RESULT, ReplayTool

USAGE = Usage(
    input_tokens=1, cache_creation_input_tokens=10, cache_read_input_tokens=1_000, output_tokens=5
)


def request(messages: list[dict[str, Any]]) -> RecordedRequest:
    return RecordedRequest(
        path="/v1/messages",
        provider="anthropic",
        headers={},
        body={"model": "m", "messages": messages},
    )


def user(*blocks: dict[str, Any]) -> dict[str, Any]:
    return {"role": "user", "content": list(blocks)}


def test_summary_requests_are_recognised_by_their_prompt() -> None:
    for prompt in (
        compact_prompt(None),
        compact_prompt("keep the API notes"),
        memory_update_prompt("x"),
    ):
        body = {
            "messages": [
                user({"type": "text", "text": "hi"}),
                user(
                    {"type": "tool_result", "tool_use_id": "t", "content": "r"},
                    {"type": "text", "text": prompt},
                ),
            ]
        }
        assert is_summary_request(body)
    # A user who merely talks about summary tags is a main call.
    assert not is_summary_request(
        {"messages": [user({"type": "text", "text": "use <summary> tags"})]}
    )
    assert not is_summary_request(
        {
            "messages": [
                user({"type": "tool_result", "tool_use_id": "t", "content": compact_prompt(None)})
            ]
        }
    )
    assert not is_summary_request({"messages": []})


class FakeClock:
    def __init__(self) -> None:
        self.advanced: list[float] = []

    def advance_clock(self, seconds: float) -> None:
        self.advanced.append(seconds)


def make_player() -> tuple[ScriptPlayer, FakeClock, ReplayPrefix]:
    records = [
        Message(
            kind="user", content=[{"type": "text", "text": "go"}], timestamp="2026-01-01T00:00:00Z"
        ),
        Message(
            kind="assistant",
            content=[{"type": "tool_use", "id": "t1", "name": "Read", "input": {}}],
            message_id="m1",
            usage=USAGE,
            timestamp="2026-01-01T00:00:10Z",
        ),
        Message(
            kind="user", content=[{"type": "tool_result", "tool_use_id": "t1", "content": "x"}],
            timestamp="2026-01-01T00:09:40Z",
        ),
        Message(
            kind="user",
            content=[{"type": "text", "text": "<system-reminder>r</system-reminder>"}],
            is_meta=True,
        ),
        Message(
            kind="assistant",
            content=[
                {
                    "type": "text",
                    "text": "done",
                }
            ],
            message_id="m2",
            usage=USAGE,
            timestamp="2026-01-01T00:10:10Z",
        ),
        Message(
            kind="user",
            content=[{"type": "text", "text": "again"}],
            timestamp="2026-01-01T02:00:00Z",
        ),
        Message(
            kind="assistant",
            content=[{"type": "text", "text": "ok"}],
            message_id="m3",
            usage=USAGE,
            timestamp="2026-01-01T02:00:05Z",
        ),
    ]
    script = build_script(records)
    clock = FakeClock()
    prefix = ReplayPrefix(Path("/ws"), Settings())
    return ScriptPlayer(script, clock, prefix), clock, prefix  # type: ignore[arg-type]


def test_player_serves_the_turns_answers_in_order_then_says_the_script_ended() -> None:
    player, clock, prefix = make_player()
    player.start_turn(0)
    first = player(request([user({"type": "text", "text": "go"})]))
    assert first.content == [{"type": "tool_use", "id": "t1", "name": "Read", "input": {}}]
    assert first.effective_stop_reason == "tool_use"
    # The meta text recorded after the tool round is released to the session's prefix.
    released, _ = prefix.changes_since(0)
    assert [m.text() for m in released] == ["<system-reminder>r</system-reminder>"]
    summary = player(request([user({"type": "text", "text": compact_prompt(None)})]))
    assert "<summary>" in summary.content[0]["text"]
    second = player(request([user({"type": "text", "text": "go"})]))
    assert second.content == [{"type": "text", "text": "done"}] and second.stop_reason == "end_turn"
    extra = player(request([user({"type": "text", "text": "go"})]))
    assert extra.content[0]["text"] == END_OF_SCRIPT
    assert (player.played, player.fallbacks, player.main_served) == (2, 1, 3)
    # The cache clock followed the recorded ten-minute pause between m1 and m2.
    assert clock.advanced == [580.0]
    kinds = sorted(k for k, _ in player.kinds.values())
    assert kinds == ["main", "main", "main", "summary"]


def test_the_session_clock_and_the_cache_clock_move_together_and_never_back() -> None:
    """Both clocks play the recorded pauses: before a turn's prompt, and while an answer's
    tools run. Measured against each other they agree, so the session sees the gaps its
    prompt cache expires by; the session's clock was once ahead only until the turn's
    first answer, then fell back, which read as a negative gap to the next request."""
    player, clock, _ = make_player()
    player.start_turn(0)
    start = player.clock()
    player(request([user({"type": "text", "text": "go"})]))  # m1 answers with a tool call
    player.elapse()  # its tool runs: the pause until m2's request went out (00:09:40) passes
    assert clock.advanced == [580.0]
    assert player.clock() - start == pytest.approx(580.0, abs=1)
    player(request([user({"type": "text", "text": "go"})]))  # m2: no second advance
    assert clock.advanced == [580.0]
    player.start_turn(1)
    # From m2's request (00:09:40) to the prompt m3 answers (02:00:00): the gap time-based
    # microcompact must see. The clocks stand where each request went out, not where its
    # answer was written, so the fake bills its cache when the API did.
    assert clock.advanced == [580.0, 6_620.0]
    before = player.clock()
    player(request([user({"type": "text", "text": "again"})]))
    assert player.clock() >= before  # no way back once the answer is served
    assert player.offset == pytest.approx(7_200.0)
    assert player.leftover() == 0


def test_filler_has_exactly_the_requested_tokens() -> None:
    for tokens in (1, 7, 500, 12_345):
        assert count_tokens(filler_text(tokens)) == tokens
    assert filler_text(0) == ""


def test_padding_brings_our_prefix_to_the_recorded_hidden_size() -> None:
    first = [{"role": "user", "content": [{"type": "text", "text": "please fix the failing test"}]}]
    system = [{"type": "text", "text": "You are a coding assistant."}]
    tools = [{"name": "Read", "description": "Replays Read.", "input_schema": {"type": "object"}}]
    plan = plan_padding(30_000, first, system, tools)
    messages = total_tokens(anthropic_units({"messages": first}))
    assert plan.recorded_first_messages == messages
    assert plan.hidden == 30_000 - messages
    padded = system + [{"type": "text", "text": filler_text(plan.filler)}]
    body = {"tools": tools, "system": padded, "messages": first}
    # Our first request now counts what the recording's first call counted.
    assert total_tokens(anthropic_units(body)) == 30_000
    assert plan_padding(10, first, system, tools).filler == 0


def test_replay_prefix_is_fixed_and_sized() -> None:
    prefix = ReplayPrefix(Path("/ws"), Settings(), filler_tokens=1_000)
    blocks = prefix.system_blocks()
    assert len(blocks) == 2 and count_tokens(blocks[1]["text"]) == 1_000
    view = prefix.view()
    # No CLAUDE.md from this machine: the user context holds the date only.
    context = view.user_context()
    assert context is not None and "currentDate" in context.text() and "claudeMd" not in context.text()
    assert view.memory_files() == []
    assert prefix.changes_since(0) == ([], 0)


def test_replay_tool_returns_the_recorded_result_by_tool_call_id() -> None:
    settled: list[str] = []

    async def settle(tool_call_id: str) -> None:
        settled.append(tool_call_id)

    results = {
        "t1": RecordedResult([{"type": "text", "text": "contents"}], False),
        "t2": RecordedResult("boom", True),
    }
    tool = ReplayTool("mcp__docs__fetch", results, settle)
    ctx = SimpleNamespace(current_tool_call={"toolCallId": "t1"})
    outcome = asyncio.run(tool.run({"anything": 1}, ctx))  # type: ignore[arg-type]
    assert outcome.content == [{"type": "text", "text": "contents"}] and not outcome.is_error
    ctx.current_tool_call = {"toolCallId": "t2"}
    assert asyncio.run(tool.run({}, ctx)).is_error  # type: ignore[arg-type]
    ctx.current_tool_call = {"toolCallId": "nope"}
    missing = asyncio.run(tool.run({}, ctx))  # type: ignore[arg-type]
    assert missing.is_error and missing.content == MISSING_RESULT
    assert tool.missing == 1 and settled == ["t1", "t2", "nope"]


def test_subagents_running_at_once_age_the_cache_alike_however_their_calls_interleave() -> None:
    """Two Task calls of one answer run their recorded subagents at once. Served in any
    order, a subagent's answer moves the clocks no further than its sibling's next answer,
    so the sibling's first call never finds a cache the other aged past its time (the
    replay's bill changed run to run by a cache write of the whole agent prompt)."""
    from sidecar.replay.script import ReplayScript, ScriptedResponse, Turn
    from sidecar.replay.subagents import RecordedSubagent

    def answer(mid: str, at: float, *blocks: dict[str, Any]) -> ScriptedResponse:
        return ScriptedResponse(mid, list(blocks) or [{"type": "text", "text": mid}], at)

    def agent(task: str, prompt: str, times: list[float]) -> RecordedSubagent:
        return RecordedSubagent(task, "Explore", prompt, None,
                                [answer(f"{task}-{i}", t) for i, t in enumerate(times)],
                                [], {}, [], [])

    tasks = [{"type": "tool_use", "id": f"task_{x}", "name": "Task", "input": {}} for x in "ab"]
    script = ReplayScript([Turn("prompt", responses=[answer("m1", 0.0, *tasks),
                                                     answer("m2", 2_000.0)])], {}, [], [], [])
    a = agent("task_a", "PROMPT-A", [10.0, 900.0, 1_200.0])
    b = agent("task_b", "PROMPT-B", [20.0, 30.0])
    clock = FakeClock()
    player = ScriptPlayer(script, clock, ReplayPrefix(Path("/ws"), Settings()), [a, b])  # type: ignore[arg-type]
    player.start_turn(0)
    player(request([user({"type": "text", "text": "go"})]))  # m1: both Task calls

    def sub(prompt: str, answers: int) -> dict[str, Any]:
        history: list[dict[str, Any]] = [user({"type": "text", "text": prompt})]
        for i in range(answers):
            history += [{"role": "assistant", "content": [{"type": "text", "text": str(i)}]},
                        user({"type": "text", "text": "more"})]
        return request(history)  # type: ignore[return-value]

    # A runs ahead through all three of its answers before B's first call arrives.
    for i in range(3):
        player(sub("PROMPT-A", i))
    assert sum(clock.advanced) == 20.0  # no further than B's first answer
    player(sub("PROMPT-B", 0))
    player(sub("PROMPT-B", 1))
    assert sum(clock.advanced) == 30.0
    player(request([user({"type": "text", "text": "go"})]))  # m2, once both reported
    assert sum(clock.advanced) == 2_000.0
    assert (a.responses[-1].message_id, b.responses[-1].message_id) == ("task_a-2", "task_b-1")


def test_a_scripted_answer_knows_when_its_request_went_out() -> None:
    """The newest prompt, tool result or attachment before an answer is when its request
    went out; an answer with none before it (or only later ones) went out when written."""
    records = [
        Message(kind="user", content=[{"type": "text", "text": "go"}],
                timestamp="2026-01-01T00:00:00Z"),
        Message(kind="assistant", message_id="m1", usage=USAGE, timestamp="2026-01-01T00:00:30Z",
                content=[{"type": "tool_use", "id": "t1", "name": "Read", "input": {}}]),
        Message(kind="user", timestamp="2026-01-01T00:04:50Z",
                content=[{"type": "tool_result", "tool_use_id": "t1", "content": "x"}]),
        Message(kind="assistant", message_id="m2", usage=USAGE, timestamp="2026-01-01T00:05:20Z",
                content=[{"type": "text", "text": "done"}]),
    ]
    first, second = [r for t in build_script(records).turns for r in t.responses]
    assert second.timestamp is not None and second.sent_at is not None
    # Written 5:20 after the first request, sent 4:50 after it: within the cache's five minutes.
    assert second.sent_at - (first.sent_at or 0) == 290.0
    assert second.timestamp - second.sent_at == 30.0
