"""Bounded retries of a streamed model call, and which failures deserve one.

The SDK clients run with ``max_retries=0``; this module is the only place a call is
repeated, so a retry can be shown to the user (``on_retry``) and a partial answer from a
cut stream can be discarded (``Restarted``) before the next attempt streams again.

The retry policy also decides which failures are transient, so the transport half of the
error classification lives here too: both adapters map their SDK's exceptions through it.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sidecar.providers.base import ModelRequest, Provider, ProviderError, StreamEvent

# 408 request timeout, 409 conflict (lock contention), 429 rate limit, 5xx incl. 529 overloaded.
_RETRYABLE_STATUSES = frozenset({408, 409, 429})
_STATUS_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    408: "timeout",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    502: "api_error",
    503: "overloaded_error",
    504: "timeout",
    529: "overloaded_error",
}
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
Sleep = Callable[[float], Awaitable[Any]]


def status_is_retryable(status: int | None) -> bool:
    return status is not None and (status in _RETRYABLE_STATUSES or status >= 500)


def type_for_status(status: int | None) -> str:
    if status is None:
        return "api_error"
    if status in _STATUS_TYPES:
        return _STATUS_TYPES[status]
    return "api_error" if status >= 500 else "invalid_request_error"


def parse_retry_after(headers: Mapping[str, str] | None, now: float | None = None) -> float | None:
    """Seconds to wait from ``retry-after-ms`` or ``retry-after`` (seconds or an HTTP date)."""
    if not headers:
        return None
    raw_ms = headers.get("retry-after-ms")
    if raw_ms:
        try:
            value = float(raw_ms) / 1000.0
            if value >= 0:
                return value
        except ValueError:
            pass
    raw = headers.get("retry-after")
    if not raw:
        return None
    try:
        value = float(raw)
        return value if value >= 0 else None
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(raw)
    except (TypeError, ValueError):
        return None
    if when is None:
        return None
    return max(when.timestamp() - (now if now is not None else time.time()), 0.0)


def transport_error(err: BaseException) -> ProviderError | None:
    """A ProviderError for failures below the HTTP status level, or None if ``err`` is not one.

    Covers what escapes an SDK while a stream is being read (the SDKs only wrap failures that
    happen before the response headers): read timeouts, dropped connections, truncated
    chunked bodies, and server-sent events whose data is not JSON.
    """
    if isinstance(err, json.JSONDecodeError):
        return ProviderError(
            f"the server sent an event that is not valid JSON: {err}",
            type="malformed_event",
            retryable=True,
        )
    if isinstance(err, asyncio.TimeoutError):
        return ProviderError("the request timed out", type="timeout", retryable=True)
    try:
        import httpx2
    except ImportError:  # the SDKs depend on it; without them nothing here can raise its errors
        return None
    if isinstance(err, httpx2.TimeoutException):
        return ProviderError(
            f"the request timed out ({type(err).__name__})", type="timeout", retryable=True
        )
    if isinstance(err, (httpx2.RemoteProtocolError, httpx2.ReadError, httpx2.CloseError)):
        return ProviderError(
            f"the connection closed mid-response ({type(err).__name__}: {err})",
            type="stream_interrupted",
            retryable=True,
        )
    if isinstance(err, httpx2.DecodingError):
        return ProviderError(
            f"the response could not be decoded: {err}", type="malformed_event", retryable=True
        )
    if isinstance(err, httpx2.TransportError):
        return ProviderError(
            f"connection error ({type(err).__name__}: {err})",
            type="connection_error",
            retryable=True,
        )
    return None


def mid_stream(error: ProviderError, streaming: bool) -> ProviderError:
    """Once the response has begun, a lost connection is a cut stream, not a failed connect."""
    if streaming and error.type == "connection_error":
        return ProviderError(error.message, type="stream_interrupted", retryable=True)
    return error


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
    sleep: Sleep = asyncio.sleep,
    rng: Callable[[], float] = random.random,
) -> AsyncIterator[StreamEvent | Restarted]:
    """Re-yield ``provider.stream(request)``, retrying retryable failures up to ``max_retries``.

    Before waiting, ``on_retry(attempt, error, delay)`` is called (it may be a coroutine
    function). When a failed attempt had already yielded events, ``Restarted`` is yielded
    first. Non-retryable errors, prompt-too-long errors and the last failure are raised.
    """
    attempt = 0
    while True:
        produced = False
        stream = provider.stream(request)
        try:
            async for event in stream:
                produced = True
                yield event
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
            # Close the attempt's stream now (also when our consumer stops early), so its
            # HTTP response is released at once rather than whenever it is collected.
            close = getattr(stream, "aclose", None)
            if close is not None:
                await close()
