"""Where a request picks the prompt cache up again after an edit far behind its end."""

from __future__ import annotations

from sidecar.core.accounting.cache_resume import ENTRY_LIFETIME, CacheResume
from sidecar.core.conversation.messages import ApiMessage
from sidecar.core.ports import ModelRequest, ToolSpec
from sidecar.fake_llm.validation import judge_anthropic
from sidecar.providers.anthropic_messages import build_messages_body


HEADERS = {"anthropic-version": "2023-06-01"}


def conversation(steps: int, cleared: tuple[int, ...] = ()) -> list[ApiMessage]:
    """A prompt, then ``steps`` tool calls and their results (three blocks each)."""
    out = [ApiMessage("user", [{"type": "text", "text": "read them all"}])]
    for i in range(steps):
        out.append(ApiMessage("assistant", [{"type": "text", "text": f"reading f{i}"},
                                            {"type": "tool_use", "id": f"t{i}", "name": "Read",
                                             "input": {"file_path": f"f{i}.py"}}]))
        text = "cleared" if i in cleared else f"contents of f{i}"
        out.append(ApiMessage("user", [{"type": "tool_result", "tool_use_id": f"t{i}",
                                        "content": text}]))
    return out


def request(steps: int, cleared: tuple[int, ...] = (), anchor: int | None = None) -> ModelRequest:
    return ModelRequest(model="claude-sonnet-4-6", system=[{"type": "text", "text": "sys"}],
                        messages=conversation(steps, cleared), cache_anchor=anchor,
                        tools=[ToolSpec("Read", "Reads a file.", {"type": "object"})])


def test_an_edit_within_the_lookback_needs_no_breakpoint() -> None:
    plans = CacheResume()
    for steps in range(1, 12):
        assert plans.plan(request(steps), now=float(steps)).cache_resume is None
    # The result of step 9 cleared: four blocks behind the end, the latest breakpoint
    # finds the entry before it by the lookback.
    assert plans.plan(request(11, cleared=(9,)), now=12.0).cache_resume is None


def test_an_edit_far_back_resumes_at_the_newest_unchanged_breakpoint() -> None:
    plans = CacheResume()
    for steps in range(1, 12):
        plans.plan(request(steps), now=float(steps))
    # Step 2's result cleared (message 6): the newest entry before it is the one written
    # when message 4 (step 1's result) was the latest, 27 blocks behind the new end.
    planned = plans.plan(request(11, cleared=(2,)), now=12.0)
    assert planned.cache_resume == 4
    # The next request adds a step: its latest breakpoint finds the previous one again.
    assert plans.plan(request(12, cleared=(2,)), now=13.0).cache_resume is None


def test_expired_or_changed_entries_are_not_resumed_at() -> None:
    plans = CacheResume()
    for steps in range(1, 12):
        plans.plan(request(steps), now=float(steps))
    late = 2.0 + ENTRY_LIFETIME + 1
    assert plans.plan(request(11, cleared=(2,)), now=late).cache_resume is None
    # After step 2's result was cleared, step 8's is too (message 18): the entries written
    # before the first clearing still hold step 2's result, the newest one (message 22)
    # step 8's, so the cache resumes where it did, at message 4.
    plans = CacheResume()
    for steps in range(1, 12):
        plans.plan(request(steps), now=float(steps))
    assert plans.plan(request(11, cleared=(2,)), now=12.0).cache_resume == 4
    assert plans.plan(request(12, cleared=(2, 8)), now=13.0).cache_resume == 4


def test_the_breakpoint_takes_the_tools_place_and_the_hour_before_an_anchor() -> None:
    body = build_messages_body(request(11, cleared=(2,)))  # no resume: tools, system, latest
    assert "cache_control" in body["tools"][-1]
    resumed = build_messages_body(ModelRequest(**{**request(11, cleared=(2,)).__dict__,
                                                  "cache_resume": 2}))
    marks = [i for i, m in enumerate(resumed["messages"])
             if any("cache_control" in b for b in m["content"])]
    assert marks == [2, 22]
    assert resumed["messages"][2]["content"][-1]["cache_control"] == {"type": "ephemeral"}
    # With an anchor after it, the API wants the hour on it too (one-hour breakpoints come
    # first); four breakpoints at most, so the tools' one gives way.
    anchored = build_messages_body(ModelRequest(**{**request(11, cleared=(2,), anchor=20).__dict__,
                                                   "cache_resume": 2}))
    assert anchored["messages"][2]["content"][-1]["cache_control"]["ttl"] == "1h"
    placed = sum(1 for m in anchored["messages"] for b in m["content"] if "cache_control" in b)
    placed += sum(1 for b in anchored["system"] if "cache_control" in b)
    assert placed == 4 and "cache_control" not in anchored["tools"][-1]


def test_an_anchor_placed_after_the_edit_leaves_the_resume_point_in_place() -> None:
    """A clearing drops the one-hour anchor behind it, and the anchor may move to the
    newest message in the same request: the resume point before the edit is still needed
    (once skipped whenever an anchor followed it, and the whole conversation was written)."""
    plans = CacheResume()
    for steps in range(1, 12):
        plans.plan(request(steps), now=float(steps))
    assert plans.plan(request(11, cleared=(2,), anchor=22), now=12.0).cache_resume == 4


def test_the_api_rules_take_the_resume_breakpoint_where_it_is_placed() -> None:
    """The fake's checks of the Messages API's documented rules (at most four breakpoints,
    no one-hour breakpoint after a five-minute one) accept the body with the resume point
    before and after an anchor, and refuse the five-minute TTL it would have before one."""
    for anchor in (None, 1, 20):
        body = build_messages_body(ModelRequest(**{**request(11, cleared=(2,),
                                                             anchor=anchor).__dict__,
                                                   "cache_resume": 4}))
        assert judge_anthropic("/v1/messages", body, HEADERS) is None
    body = build_messages_body(ModelRequest(**{**request(11, cleared=(2,), anchor=20).__dict__,
                                               "cache_resume": 4}))
    body["messages"][4]["content"][-1]["cache_control"] = {"type": "ephemeral"}
    assert judge_anthropic("/v1/messages", body, HEADERS) is not None
