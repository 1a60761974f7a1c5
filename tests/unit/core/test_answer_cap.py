"""A model stream is bounded (stream_with_retry with max_answer_bytes), and a retried call
is announced as through only once its answer is complete."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Any

from sidecar.core.conversation.messages import ApiMessage, Usage
from sidecar.core.ports import (
    Completed,
    ModelRequest,
    ProviderError,
    TextDelta,
    ThinkingDelta,
    ToolInputDelta,
    ToolUseStart,
)
from sidecar.core.turns.answer_cap import AnswerBudget, AnswerCut, answer_limit
from sidecar.core.turns.retry import Restarted, RetryReporter, stream_with_retry

REQUEST = ModelRequest(model="m", system=[], max_tokens=100,
                       messages=[ApiMessage("user", [{"type": "text", "text": "hi"}])])
DONE = Completed(content=[{"type": "text", "text": "ok"}], usage=Usage(1, 0, 0, 1),
                 stop_reason="end_turn", message_id="m1", model="m")


class Endless:
    """A provider whose stream never ends; counts what was pulled and whether it was closed."""

    name = "endless"

    def __init__(self, piece: str = "and so on, ") -> None:
        self.piece = piece
        self.pulled = 0
        self.closed = False

    async def stream(self, request: ModelRequest) -> AsyncIterator[Any]:
        try:
            yield ThinkingDelta(0, "hmm ")
            while True:
                self.pulled += 1
                yield TextDelta(1, self.piece)
        finally:
            self.closed = True


class Scripted:
    name = "scripted"

    def __init__(self, attempts: list[tuple[list[Any], ProviderError | None]]) -> None:
        self.attempts = list(attempts)
        self.calls = 0

    async def stream(self, request: ModelRequest) -> AsyncIterator[Any]:
        events, error = self.attempts[min(self.calls, len(self.attempts) - 1)]
        self.calls += 1
        for event in events:
            yield event
        if error is not None:
            raise error


async def collect(provider: Any, request: ModelRequest = REQUEST, **kw: Any) -> list[Any]:
    async def no_sleep(seconds: float) -> None:
        return None

    kw.setdefault("max_retries", 2)
    return [e async for e in stream_with_retry(provider, request, base_delay=0, max_delay=0,
                                               sleep=no_sleep, **kw)]


def streamed_bytes(events: list[Any]) -> int:
    return sum(len(getattr(e, "text", getattr(e, "partial_json", "")).encode()) for e in events
               if isinstance(e, (TextDelta, ThinkingDelta, ToolInputDelta)))


def test_limit_is_sixteen_bytes_per_output_token_under_the_hard_cap() -> None:
    assert answer_limit(32_000, 1_048_576) == 512_000
    assert answer_limit(128_000, 1_048_576) == 1_048_576
    assert answer_limit(0, 1_000) == 16


def test_budget_cuts_inside_a_multibyte_text_without_breaking_a_character() -> None:
    budget = AnswerBudget(10)
    assert budget.take("abc") == "abc"
    assert budget.take("ééééé") == "ééé"  # 6 of the 7 bytes left; the 4th é would not fit
    assert budget.cut and budget.used == 9
    assert budget.take("more") == ""


async def test_endless_stream_is_stopped_at_the_bound_and_closed() -> None:
    provider = Endless()
    started = time.monotonic()
    events = await collect(provider, max_answer_bytes=1_000_000)
    took = time.monotonic() - started
    limit = answer_limit(REQUEST.max_tokens, 1_000_000)  # 1,600 bytes
    kept = streamed_bytes(events)
    print(f"endless stream: kept {kept} bytes of a {limit}-byte bound after "
          f"{provider.pulled} deltas, stopped in {took * 1000:.1f} ms")
    assert isinstance(events[-1], AnswerCut) and events[-1].limit == limit
    assert kept == events[-1].kept == limit
    assert provider.closed
    assert not any(isinstance(e, Completed) for e in events)


async def test_one_huge_delta_is_cut_to_the_bound() -> None:
    huge = "x" * 10_000_000
    provider = Scripted([([ToolUseStart(0, "t", "Read"), ToolInputDelta(0, '{"a": 1}'),
                           TextDelta(1, huge), DONE], None)])
    events = await collect(provider, max_answer_bytes=4_096)
    kept = streamed_bytes(events)
    print(f"one 10,000,000-byte delta: kept {kept} bytes")
    assert kept == 1_600 and isinstance(events[-1], AnswerCut)
    assert len(events[-2].text) == 1_600 - len('{"a": 1}')


async def test_a_restarted_attempt_gets_the_whole_bound_again() -> None:
    cut = ProviderError("cut", type="stream_interrupted", retryable=True)
    provider = Scripted([([TextDelta(0, "y" * 1_500)], cut), ([TextDelta(0, "z" * 1_500), DONE], None)])
    events = await collect(provider, max_answer_bytes=10_000)
    assert isinstance(events[1], Restarted) and events[-1] == DONE


async def test_without_a_bound_nothing_is_cut() -> None:
    provider = Scripted([([TextDelta(0, "x" * 5_000), DONE], None)])
    events = await collect(provider)
    assert events[-1] == DONE and streamed_bytes(events) == 5_000


async def test_a_retried_call_is_through_only_when_its_answer_is_complete() -> None:
    """The attempt after a retry starts to stream and then fails for good: no ``done``."""
    sent: list[dict[str, Any]] = []
    reporter = RetryReporter(sent.append, 1)
    overloaded = ProviderError("busy", status=529, type="overloaded_error", retryable=True)
    cut = ProviderError("cut", type="stream_interrupted", retryable=True)
    provider = Scripted([([], overloaded), ([TextDelta(0, "partial")], cut)])
    try:
        await collect(provider, max_retries=1, on_retry=reporter.on_retry,
                      on_through=reporter.on_through)
    except ProviderError as err:
        assert err is cut
    else:
        raise AssertionError("the last attempt's failure is raised")
    print(f"retry updates of a call that failed in the end: {sent}")
    assert [u.get("done", False) for u in sent] == [False]


async def test_a_retried_call_that_completes_is_through_just_before_its_completion() -> None:
    order: list[str] = []
    overloaded = ProviderError("busy", status=529, type="overloaded_error", retryable=True)
    provider = Scripted([([], overloaded), ([TextDelta(0, "fine"), DONE], None)])
    async for event in stream_with_retry(provider, REQUEST, max_retries=1, base_delay=0,
                                         max_delay=0, on_through=lambda n: order.append("through")):
        order.append(type(event).__name__)
    assert order == ["TextDelta", "through", "Completed"]
