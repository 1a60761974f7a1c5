"""stream_with_retry: backoff, retry-after, Restarted markers, give-up rules."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from sidecar.core.conversation.messages import ApiMessage, Usage
from sidecar.core.ports import Completed, ModelRequest, ProviderError, TextDelta
from sidecar.core.turns.retry import Restarted, backoff_delay, stream_with_retry

REQUEST = ModelRequest(
    model="m", system=[], messages=[ApiMessage("user", [{"type": "text", "text": "hi"}])]
)
DONE = Completed(
    content=[{"type": "text", "text": "ok"}],
    usage=Usage(1, 0, 0, 1),
    stop_reason="end_turn",
    message_id="m1",
    model="m",
)


def rate_limited(retry_after: float | None = None) -> ProviderError:
    return ProviderError(
        "slow down", status=429, type="rate_limit_error", retry_after=retry_after, retryable=True
    )


class Scripted:
    """A provider whose attempts follow a script: events, then optionally an error."""

    name = "scripted"

    def __init__(self, attempts: list[tuple[list[Any], ProviderError | None]]) -> None:
        self.attempts = list(attempts)
        self.calls = 0
        self.closed = 0

    async def stream(self, request: ModelRequest) -> AsyncIterator[Any]:
        events, error = self.attempts[min(self.calls, len(self.attempts) - 1)]
        self.calls += 1
        try:
            for event in events:
                yield event
            if error is not None:
                raise error
        finally:
            self.closed += 1

    async def count_tokens(self, request: ModelRequest) -> int | None:
        return None

    async def aclose(self) -> None:
        return None


class Recorder:
    def __init__(self) -> None:
        self.sleeps: list[float] = []
        self.retries: list[tuple[int, str, float]] = []

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)

    def on_retry(self, attempt: int, error: ProviderError, delay: float) -> None:
        self.retries.append((attempt, error.type, delay))


async def run(provider: Scripted, rec: Recorder, max_retries: int = 3, **kw: Any) -> list[Any]:
    out: list[Any] = []
    async for event in stream_with_retry(
        provider,
        REQUEST,
        max_retries=max_retries,
        base_delay=0.5,
        max_delay=8.0,
        on_retry=rec.on_retry,
        sleep=rec.sleep,
        rng=lambda: 0.0,
        **kw,
    ):
        out.append(event)
    return out


async def test_success_passes_events_through_untouched() -> None:
    rec = Recorder()
    provider = Scripted([([TextDelta(0, "ok"), DONE], None)])
    assert await run(provider, rec) == [TextDelta(0, "ok"), DONE]
    assert rec.sleeps == [] and provider.calls == 1


async def test_retry_after_is_honoured_then_exponential_backoff() -> None:
    rec = Recorder()
    provider = Scripted(
        [
            ([], rate_limited(retry_after=3)),
            ([], ProviderError("overloaded", status=529, type="overloaded_error", retryable=True)),
            ([], ProviderError("boom", status=500, type="api_error", retryable=True)),
            ([DONE], None),
        ]
    )
    assert await run(provider, rec) == [DONE]
    assert rec.sleeps == [3.0, 1.0, 2.0]
    assert rec.retries == [
        (1, "rate_limit_error", 3.0),
        (2, "overloaded_error", 1.0),
        (3, "api_error", 2.0),
    ]


async def test_partial_answer_is_marked_restarted() -> None:
    rec = Recorder()
    cut = ProviderError("cut", type="stream_interrupted", retryable=True)
    provider = Scripted([([TextDelta(0, "Hel")], cut), ([TextDelta(0, "Hello"), DONE], None)])
    out = await run(provider, rec)
    assert out == [TextDelta(0, "Hel"), Restarted(1, cut), TextDelta(0, "Hello"), DONE]
    assert provider.closed == 2


async def test_no_restarted_marker_when_nothing_was_yielded() -> None:
    rec = Recorder()
    provider = Scripted([([], rate_limited()), ([DONE], None)])
    assert await run(provider, rec) == [DONE]


async def test_gives_up_after_max_retries() -> None:
    rec = Recorder()
    provider = Scripted([([], rate_limited())])
    with pytest.raises(ProviderError) as info:
        await run(provider, rec, max_retries=2)
    assert info.value.type == "rate_limit_error"
    assert provider.calls == 3 and len(rec.sleeps) == 2


async def test_zero_retries_raises_at_once() -> None:
    rec = Recorder()
    with pytest.raises(ProviderError):
        await run(Scripted([([], rate_limited())]), rec, max_retries=0)
    assert rec.sleeps == []


@pytest.mark.parametrize(
    "error",
    [
        ProviderError("bad request", status=400, type="invalid_request_error"),
        # Prompt-too-long is for compaction to solve, never a retry, even if marked retryable.
        ProviderError(
            "prompt is too long: 5 tokens > 4 maximum", status=500, type="api_error", retryable=True
        ),
    ],
)
async def test_non_retryable_and_prompt_too_long_raise_immediately(error: ProviderError) -> None:
    rec = Recorder()
    provider = Scripted([([], error), ([DONE], None)])
    with pytest.raises(ProviderError) as info:
        await run(provider, rec)
    assert info.value is error and provider.calls == 1 and rec.sleeps == []


async def test_async_on_retry_is_awaited() -> None:
    seen: list[int] = []

    async def on_retry(attempt: int, error: ProviderError, delay: float) -> None:
        seen.append(attempt)

    async def no_sleep(seconds: float) -> None:
        return None

    provider = Scripted([([], rate_limited()), ([DONE], None)])
    out = [
        e
        async for e in stream_with_retry(
            provider,
            REQUEST,
            max_retries=1,
            base_delay=0,
            max_delay=0,
            on_retry=on_retry,
            sleep=no_sleep,
        )
    ]
    assert out == [DONE] and seen == [1]


async def test_consumer_stopping_early_closes_the_attempt() -> None:
    provider = Scripted([([TextDelta(0, "a"), TextDelta(0, "b"), DONE], None)])
    stream = stream_with_retry(provider, REQUEST, max_retries=1, base_delay=0, max_delay=0)
    async for _ in stream:
        break
    await stream.aclose()  # type: ignore[attr-defined]
    assert provider.closed == 1


def test_backoff_is_capped_and_jittered() -> None:
    error = rate_limited()
    delays = [
        backoff_delay(n, error, base_delay=0.5, max_delay=4.0, rng=lambda: 1.0) for n in range(1, 7)
    ]
    assert delays == [0.625, 1.25, 2.5, 4.0, 4.0, 4.0]
    assert backoff_delay(1, error, base_delay=0.5, max_delay=4.0, rng=lambda: 0.0) == 0.5
    # A server's retry-after wins but stays within the bound.
    assert (
        backoff_delay(1, rate_limited(2.0), base_delay=0.5, max_delay=4.0, rng=lambda: 1.0) == 2.0
    )
    assert (
        backoff_delay(1, rate_limited(60.0), base_delay=0.5, max_delay=4.0, rng=lambda: 1.0) == 4.0
    )
