"""SDK exceptions become classified ProviderErrors (status, type, retry_after, retryable, PTL)."""

from __future__ import annotations

import json
from typing import Any

import anthropic
import httpx2
import openai
import pytest

from sidecar.providers.anthropic_messages import classify_anthropic_error
from sidecar.providers.http_errors import mid_stream, parse_retry_after, transport_error
from sidecar.providers.openai_chat import classify_openai_error

REQUEST = httpx2.Request("POST", "http://127.0.0.1:9/v1/messages")


def response(status: int, body: Any, headers: dict[str, str] | None = None) -> Any:
    return httpx2.Response(
        status, headers=headers or {}, content=json.dumps(body).encode(), request=REQUEST
    )


def anthropic_status(
    status: int, error_type: str, message: str, headers: dict[str, str] | None = None
) -> Any:
    body = {"type": "error", "error": {"type": error_type, "message": message}}
    return anthropic.Anthropic(api_key="k", base_url="http://127.0.0.1:9")._make_status_error(
        f"Error code: {status}", body=body, response=response(status, body, headers)
    )


@pytest.mark.parametrize(
    ("status", "error_type", "retryable"),
    [
        (429, "rate_limit_error", True),
        (529, "overloaded_error", True),
        (500, "api_error", True),
        (503, "api_error", True),
        (400, "invalid_request_error", False),
        (401, "authentication_error", False),
        (403, "permission_error", False),
    ],
)
def test_anthropic_status_errors(status: int, error_type: str, retryable: bool) -> None:
    err = classify_anthropic_error(anthropic_status(status, error_type, "boom"))
    assert (err.status, err.type, err.retryable, err.message) == (
        status,
        error_type,
        retryable,
        "boom",
    )
    assert not err.prompt_too_long


def test_anthropic_retry_after_and_prompt_too_long() -> None:
    err = classify_anthropic_error(
        anthropic_status(429, "rate_limit_error", "slow down", {"retry-after": "7"})
    )
    assert err.retry_after == 7.0
    ptl = classify_anthropic_error(
        anthropic_status(
            400, "invalid_request_error", "prompt is too long: 210000 tokens > 200000 maximum"
        )
    )
    assert (ptl.prompt_too_long, ptl.token_gap, ptl.retryable) == (True, 10_000, False)


def test_anthropic_error_event_inside_a_200_stream() -> None:
    # The SDK raises a status error carrying the 200 response for ``event: error``.
    err = classify_anthropic_error(anthropic_status(200, "overloaded_error", "Overloaded"))
    assert (err.status, err.type, err.retryable) == (None, "overloaded_error", True)
    bad = classify_anthropic_error(anthropic_status(200, "invalid_request_error", "no"))
    assert not bad.retryable


def test_anthropic_transport_errors() -> None:
    timeout = classify_anthropic_error(anthropic.APITimeoutError(request=REQUEST))
    assert (timeout.type, timeout.retryable) == ("timeout", True)
    conn = classify_anthropic_error(anthropic.APIConnectionError(request=REQUEST))
    assert (conn.type, conn.retryable) == ("connection_error", True)
    assert mid_stream(conn, True).type == "stream_interrupted"
    assert mid_stream(conn, False).type == "connection_error"
    cut = classify_anthropic_error(httpx2.RemoteProtocolError("incomplete chunked read"))
    assert (cut.type, cut.retryable) == ("stream_interrupted", True)
    read_timeout = classify_anthropic_error(httpx2.ReadTimeout("slow"))
    assert (read_timeout.type, read_timeout.retryable) == ("timeout", True)
    try:
        json.loads("{broken")
    except json.JSONDecodeError as decode_error:
        malformed = classify_anthropic_error(decode_error)
    assert (malformed.type, malformed.retryable) == ("malformed_event", True)
    other = classify_anthropic_error(RuntimeError("bug"))
    assert not other.retryable


def openai_status(status: int, error: dict[str, Any], headers: dict[str, str] | None = None) -> Any:
    body = {"error": error}
    return openai.OpenAI(api_key="k", base_url="http://127.0.0.1:9/v1")._make_status_error(
        f"Error code: {status}", body=body, response=response(status, body, headers)
    )


def test_openai_status_errors() -> None:
    rate = classify_openai_error(
        openai_status(
            429,
            {"message": "Rate limit reached", "type": "requests", "code": "rate_limit_exceeded"},
            {"retry-after-ms": "1500"},
        )
    )
    assert (rate.status, rate.type, rate.retryable, rate.retry_after) == (
        429,
        "rate_limit_error",
        True,
        1.5,
    )
    busy = classify_openai_error(
        openai_status(503, {"message": "overloaded", "type": "server_error"})
    )
    assert (busy.type, busy.retryable) == ("overloaded_error", True)
    bad = classify_openai_error(
        openai_status(400, {"message": "bad param", "type": "invalid_request_error"})
    )
    assert (bad.type, bad.retryable, bad.prompt_too_long) == ("invalid_request_error", False, False)


def test_openai_context_overflow_forms() -> None:
    ptl = classify_openai_error(
        openai_status(
            400,
            {
                "message": "This model's maximum context length is 128000 tokens. "
                "However, your messages resulted in 130500 tokens.",
                "type": "invalid_request_error",
                "code": "context_length_exceeded",
            },
        )
    )
    assert (ptl.prompt_too_long, ptl.token_gap, ptl.type) == (
        True,
        2_500,
        "context_length_exceeded",
    )
    # A code alone (no recognisable wording) still counts; so does a 413 from a compatible server.
    coded = classify_openai_error(
        openai_status(400, {"message": "nope", "code": "context_length_exceeded"})
    )
    assert coded.prompt_too_long and coded.token_gap is None
    large = classify_openai_error(openai_status(413, {"message": "Payload Too Large"}))
    assert large.prompt_too_long and not large.retryable


def test_openai_error_inside_a_stream() -> None:
    err = classify_openai_error(
        openai.APIError(
            "boom", REQUEST, body={"message": "Overloaded", "type": "server_overloaded"}
        )
    )
    assert (err.status, err.type, err.retryable) == (None, "overloaded_error", True)
    bad = classify_openai_error(
        openai.APIError("x", REQUEST, body={"message": "bad", "type": "invalid_request_error"})
    )
    assert not bad.retryable


def test_openai_connection_errors() -> None:
    assert classify_openai_error(openai.APITimeoutError(request=REQUEST)).type == "timeout"
    conn = classify_openai_error(openai.APIConnectionError(request=REQUEST))
    assert (conn.type, conn.retryable) == ("connection_error", True)


def test_parse_retry_after_forms() -> None:
    assert parse_retry_after({"retry-after": "3"}) == 3.0
    assert parse_retry_after({"retry-after-ms": "250", "retry-after": "9"}) == 0.25
    assert (
        parse_retry_after({"retry-after": "Wed, 21 Oct 2015 07:28:10 GMT"}, now=1445412480.0)
        == 10.0
    )
    assert parse_retry_after({"retry-after": "soon"}) is None
    assert parse_retry_after({}) is None and parse_retry_after(None) is None


def test_transport_error_ignores_unrelated_exceptions() -> None:
    assert transport_error(ValueError("x")) is None
    assert transport_error(httpx2.ConnectError("refused")).type == "connection_error"  # type: ignore[union-attr]
