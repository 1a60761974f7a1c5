"""Which HTTP and transport failures are transient: the half of error classification the
provider adapters share (each maps its SDK's exceptions through it). The retry policy
itself is the engine's, in ``sidecar.core.turns.retry``."""

from __future__ import annotations

import asyncio
import email.utils
import json
import time
from collections.abc import Mapping

from sidecar.core.ports import ProviderError

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
