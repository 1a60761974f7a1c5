"""Bounded retries of a model call, streamed or not.

The SDK clients run with ``max_retries=0``; this module is the only place a call is
repeated, so a retry can be shown to the user (``on_retry``) and a partial answer from a
cut stream can be discarded (``Restarted``) before the next attempt streams again.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from sidecar.core.ports import (
    Completed,
    ModelRequest,
    Provider,
    ProviderError,
    StreamEvent,
    TextDelta,
    ThinkingDelta,
    ToolInputDelta,
)
from sidecar.core.turns.answer_cap import AnswerBudget, AnswerCut, answer_limit

# Error types (ProviderError.type) worth another attempt.
RETRYABLE_TYPES = frozenset(
    {
        "rate_limit_error",
        "overloaded_error",
        "api_error",
        "timeout",
        "timeout_error",
        "connection_error",
        "stream_interrupted",
        "malformed_event",
    }
)


@dataclass(frozen=True)
class Restarted:
    """The attempt that streamed the preceding deltas failed; discard them, a retry follows."""

    attempt: int
    error: ProviderError


OnRetry = Callable[[int, ProviderError, float], Any]
OnThrough = Callable[[int], Any]
Sleep = Callable[[float], Awaitable[Any]]


def plain_reason(error: ProviderError) -> str:
    """Why a call is retried, in words a user reads (with the HTTP status when there is one)."""
    status = f" ({error.status})" if error.status else ""
    words = {
        "overloaded_error": "The provider is overloaded",
        "rate_limit_error": "The provider's rate limit was reached",
        "timeout": "The provider did not answer in time",
        "timeout_error": "The provider did not answer in time",
        "connection_error": "The provider could not be reached",
        "stream_interrupted": "The answer's stream was cut off",
        "malformed_event": "The provider sent a malformed answer",
    }.get(error.type)
    if words is None:
        words = ("The provider is overloaded" if error.status == 529 else
                 "The provider's rate limit was reached" if error.status == 429 else
                 "The provider had a server error")
    return words + status


class RetryReporter:
    """Tells the user of a call's retries: ``retry_update`` before each wait, and a last one
    (``done``) when a retried call went through: its whole answer arrived."""

    def __init__(self, send: Callable[[Any], Any], max_retries: int) -> None:
        self._send = send
        self._max = max_retries

    def on_retry(self, attempt: int, error: ProviderError, delay: float) -> None:
        from sidecar.contract.updates import retry_update

        self._send(retry_update(attempt, self._max, round(delay * 1000), plain_reason(error),
                                error.status))

    def on_through(self, attempt: int) -> None:
        from sidecar.contract.updates import retry_update

        self._send(retry_update(attempt, self._max, 0, "The call went through", None, done=True))


def backoff_delay(
    attempt: int,
    error: ProviderError,
    *,
    base_delay: float,
    max_delay: float,
    rng: Callable[[], float],
) -> float:
    """How long to wait before retry number ``attempt`` (1-based).

    A server's retry-after wins (bounded by ``max_delay``, since the whole point is a bounded
    wait); otherwise exponential backoff with up to 25% jitter so that many clients hit by
    the same outage do not come back in lockstep.
    """
    if error.retry_after is not None:
        return max(0.0, min(error.retry_after, max_delay))
    delay = min(base_delay * (2 ** (attempt - 1)), max_delay)
    return max(0.0, min(delay * (1.0 + 0.25 * rng()), max_delay))


def should_retry(error: ProviderError) -> bool:
    return error.retryable and not error.prompt_too_long


async def stream_with_retry(
    provider: Provider,
    request: ModelRequest,
    *,
    max_retries: int,
    base_delay: float,
    max_delay: float,
    on_retry: OnRetry | None = None,
    on_through: OnThrough | None = None,
    sleep: Sleep = asyncio.sleep,
    rng: Callable[[], float] = random.random,
    max_answer_bytes: int | None = None,
) -> AsyncIterator[StreamEvent | Restarted | AnswerCut]:
    """Re-yield ``provider.stream(request)``, retrying retryable failures up to ``max_retries``.

    Before waiting, ``on_retry(attempt, error, delay)`` is called (it may be a coroutine
    function). When a failed attempt had already yielded events, ``Restarted`` is yielded
    first. A retried attempt has gone through only when its answer is complete: then, just
    before its ``Completed``, ``on_through(attempt)`` is called; an attempt that starts to
    stream can still fail. Non-retryable errors, prompt-too-long errors and the last failure
    are raised.

    With ``max_answer_bytes``, the answer is bounded (``sidecar.core.turns.answer_cap``): the
    delta that reaches ``answer_limit(request.max_tokens, max_answer_bytes)`` is cut to fit,
    the attempt's stream is closed, and ``AnswerCut`` is the last event.
    """
    budget = (AnswerBudget(answer_limit(request.max_tokens, max_answer_bytes))
              if max_answer_bytes is not None else None)
    attempt = 0
    while True:
        produced = False
        if budget is not None:
            budget.reset()
        stream = provider.stream(request)
        try:
            async for event in stream:
                if budget is not None and not isinstance(event, Completed):
                    event = _bounded(event, budget)
                elif isinstance(event, Completed) and attempt and on_through is not None:
                    on_through(attempt)
                produced = True
                yield event
                if budget is not None and budget.cut:
                    yield AnswerCut(budget.limit, budget.used)
                    return
            return
        except ProviderError as error:
            if not should_retry(error) or attempt >= max_retries:
                raise
            attempt += 1
            if produced:
                yield Restarted(attempt, error)
            delay = backoff_delay(
                attempt, error, base_delay=base_delay, max_delay=max_delay, rng=rng
            )
            if on_retry is not None:
                outcome = on_retry(attempt, error, delay)
                if asyncio.iscoroutine(outcome):
                    await outcome
            await sleep(delay)
        finally:
            # Close the attempt's stream now (also when our consumer stops early, or the
            # answer was cut), so its HTTP response is released at once rather than
            # whenever it is collected.
            close = getattr(stream, "aclose", None)
            if close is not None:
                await close()


def _bounded(event: StreamEvent, budget: AnswerBudget) -> StreamEvent:
    """The delta as far as the answer's budget takes it."""
    if isinstance(event, TextDelta):
        text = budget.take(event.text)
        return event if text is event.text else TextDelta(event.index, text)
    if isinstance(event, ThinkingDelta):
        text = budget.take(event.text)
        return event if text is event.text else ThinkingDelta(event.index, text)
    if isinstance(event, ToolInputDelta):
        text = budget.take(event.partial_json)
        return event if text is event.partial_json else ToolInputDelta(event.index, text)
    return event


T = TypeVar("T")


async def call_with_retry(
    call: Callable[[], Awaitable[T]],
    *,
    max_retries: int,
    base_delay: float,
    max_delay: float,
    sleep: Sleep = asyncio.sleep,
    rng: Callable[[], float] = random.random,
) -> T:
    """``await call()``, retrying retryable failures as ``stream_with_retry`` does (a call
    that streams nothing, such as a provider's compaction)."""
    attempt = 0
    while True:
        try:
            return await call()
        except ProviderError as error:
            if not should_retry(error) or attempt >= max_retries:
                raise
            attempt += 1
            await sleep(backoff_delay(attempt, error, base_delay=base_delay,
                                      max_delay=max_delay, rng=rng))
