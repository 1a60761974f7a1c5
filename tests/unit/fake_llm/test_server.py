"""The fake LLM server over raw HTTP: routing, auth, queueing, faults, control API, process mode."""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sidecar.fake_llm import FakeLLMServer, RecordedRequest, Reply

REPO_ROOT = Path(__file__).resolve().parents[3]
KEY = {"x-api-key": "test-key", "anthropic-version": "2023-06-01"}
BEARER = {"authorization": "Bearer test-key", "anthropic-version": "2023-06-01"}


@pytest.fixture
def srv() -> Iterator[FakeLLMServer]:
    with FakeLLMServer() as server:
        yield server


def call(
    server: FakeLLMServer,
    path: str,
    body: Any = None,
    headers: dict[str, str] | None = None,
    method: str = "POST",
) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        payload = json.dumps(body).encode() if body is not None else None
        conn.request(
            method,
            path,
            body=payload,
            headers={"content-type": "application/json", **(headers or {})},
        )
        response = conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        conn.close()


def sse(raw: bytes) -> list[tuple[str | None, str]]:
    events = []
    for frame in raw.decode().split("\n\n"):
        if not frame.strip():
            continue
        name = None
        data = ""
        for line in frame.split("\n"):
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                data = line[6:]
        events.append((name, data))
    return events


def user(text: str) -> dict[str, Any]:
    return {
        "model": "claude-test",
        "max_tokens": 100,
        "messages": [{"role": "user", "content": text}],
    }


def test_start_is_fast_and_urls_are_loopback() -> None:
    started = time.perf_counter()
    server = FakeLLMServer().start()
    elapsed = time.perf_counter() - started
    try:
        assert server.url.startswith("http://127.0.0.1:")
        assert server.openai_base_url == server.url + "/v1"
        # Typically 1-5 ms; the bound only has to catch a start that blocks on tiktoken (~0.5 s)
        # while staying safe on a loaded 2-core machine.
        assert elapsed < 0.25, f"start took {elapsed * 1000:.1f} ms"
    finally:
        server.stop()
    with pytest.raises(RuntimeError):
        _ = server.url


def test_missing_credentials_get_401_for_both_wires(srv: FakeLLMServer) -> None:
    status, _, raw = call(srv, "/v1/messages", user("hi"))
    assert status == 401
    assert json.loads(raw)["error"]["type"] == "authentication_error"
    status, _, raw = call(srv, "/v1/chat/completions", {"model": "g", "messages": []})
    assert status == 401 and "API key" in json.loads(raw)["error"]["message"]
    assert [r.status for r in srv.requests] == [401, 401]


def test_queue_is_fifo_and_requests_are_recorded_without_secrets(srv: FakeLLMServer) -> None:
    srv.queue_many([Reply.text("one"), {"content": [{"type": "text", "text": "two"}]}])
    assert srv.pending_replies == 2
    for expected, headers in (("one", KEY), ("two", BEARER)):
        status, _, raw = call(srv, "/v1/messages", user("hi"), headers)
        assert status == 200
        assert json.loads(raw)["content"][0]["text"] == expected
    recorded = srv.requests
    assert [r.provider for r in recorded] == ["anthropic", "anthropic"]
    assert all("x-api-key" not in r.headers and "authorization" not in r.headers for r in recorded)
    assert recorded[0].body["messages"][0]["content"] == "hi"
    assert recorded[0].input_tokens > 0 and recorded[0].usage is not None


def test_count_tokens_does_not_consume_the_queue_and_accepts_beta_query(srv: FakeLLMServer) -> None:
    srv.queue(Reply.text("kept"))
    counted = {k: v for k, v in user("hello world").items() if k != "max_tokens"}
    status, _, raw = call(srv, "/v1/messages/count_tokens?beta=true", counted, KEY)
    assert status == 200
    # count_tokens takes no max_tokens, and says so as the API does.
    status, _, raw2 = call(srv, "/v1/messages/count_tokens", user("hello world"), KEY)
    assert status == 400
    assert json.loads(raw2)["error"]["message"] == "max_tokens: Extra inputs are not permitted"
    assert json.loads(raw) == {"input_tokens": srv.requests[0].input_tokens}
    assert srv.pending_replies == 1
    _, _, raw = call(srv, "/v1/messages?beta=true", user("x"), KEY)
    assert json.loads(raw)["content"][0]["text"] == "kept"


def test_default_responder_echoes_or_summarizes(srv: FakeLLMServer) -> None:
    _, _, raw = call(srv, "/v1/messages", user("please   echo this"), KEY)
    assert json.loads(raw)["content"][0]["text"] == "Echo: please echo this"
    body = {
        "model": "m",
        "max_tokens": 10,
        "messages": [
            {"role": "user", "content": "build the parser"},
            {"role": "assistant", "content": "done"},
            {"role": "user", "content": [{"type": "text", "text":
                "Think in <analysis> tags, then write a <summary> of it all."}]},
        ],
    }
    _, _, raw = call(srv, "/v1/messages", body, KEY)
    text = json.loads(raw)["content"][0]["text"]
    assert (
        text.startswith("<analysis>")
        and "</analysis>\n<summary>" in text
        and text.endswith("</summary>")
    )
    assert "3 messages" in text and "build the parser" in text
    # As a model would, it adds only the tags it was asked for.
    body["messages"][-1]["content"][0]["text"] = "Reply with the notes inside <summary> tags."
    _, _, raw = call(srv, "/v1/messages", body, KEY)
    text = json.loads(raw)["content"][0]["text"]
    assert text.startswith("<summary>") and "<analysis>" not in text


def test_responder_is_used_when_the_queue_is_empty(srv: FakeLLMServer) -> None:
    seen: list[RecordedRequest] = []

    def respond(request: RecordedRequest) -> dict[str, Any]:
        seen.append(request)
        return {"content": [{"type": "text", "text": f"saw {request.last_user_text}"}]}

    srv.responder = respond
    _, _, raw = call(srv, "/v1/messages", user("ping"), KEY)
    assert json.loads(raw)["content"][0]["text"] == "saw ping"
    assert seen and seen[0].provider == "anthropic"

    def broken(request: RecordedRequest) -> Reply:
        raise RuntimeError("boom")

    srv.responder = broken
    status, _, raw = call(srv, "/v1/messages", user("ping"), KEY)
    assert status == 500 and "boom" in json.loads(raw)["error"]["message"]


def test_automatic_prompt_too_long_keeps_the_queue(srv: FakeLLMServer) -> None:
    srv.queue(Reply.text("later"))
    srv.context_window = 50
    status, _, raw = call(srv, "/v1/messages", user("word " * 200), KEY)
    assert status == 400
    error = json.loads(raw)["error"]
    tokens = srv.requests[-1].input_tokens
    assert error == {
        "type": "invalid_request_error",
        "message": f"prompt is too long: {tokens} tokens > 50 maximum",
    }
    status, _, raw = call(
        srv,
        "/v1/chat/completions",
        {"model": "g", "messages": [{"role": "user", "content": "word " * 200}]},
        BEARER,
    )
    assert status == 400 and json.loads(raw)["error"]["code"] == "context_length_exceeded"
    assert "maximum context length is 50 tokens" in json.loads(raw)["error"]["message"]
    assert srv.pending_replies == 1
    srv.context_window = 200_000
    _, _, raw = call(srv, "/v1/messages", user("word " * 200), KEY)
    assert json.loads(raw)["content"][0]["text"] == "later"


@pytest.mark.parametrize(
    ("fault", "anthropic_status", "anthropic_type", "openai_status"),
    [
        ({"fault": "rate_limit", "retry_after": 7}, 429, "rate_limit_error", 429),
        ({"fault": "overloaded"}, 529, "overloaded_error", 503),
        ({"fault": "server_error"}, 500, "api_error", 500),
        (
            {"fault": "prompt_too_long", "tokens": 250000, "maximum": 200000},
            400,
            "invalid_request_error",
            400,
        ),
    ],
)
def test_error_faults_on_both_wires(
    srv: FakeLLMServer,
    fault: dict[str, Any],
    anthropic_status: int,
    anthropic_type: str,
    openai_status: int,
) -> None:
    srv.queue(fault)
    status, headers, raw = call(srv, "/v1/messages", user("hi"), KEY)
    assert status == anthropic_status
    error = json.loads(raw)["error"]
    assert error["type"] == anthropic_type
    if fault["fault"] == "rate_limit":
        assert headers["retry-after"] == "7"
    if fault["fault"] == "prompt_too_long":
        assert error["message"] == "prompt is too long: 250000 tokens > 200000 maximum"
    srv.queue(fault)
    status, headers, raw = call(
        srv,
        "/v1/chat/completions",
        {"model": "g", "messages": [{"role": "user", "content": "hi"}]},
        BEARER,
    )
    assert status == openai_status
    assert "message" in json.loads(raw)["error"]
    assert srv.requests[-1].fault == fault["fault"]


def test_anthropic_stream_event_order_and_usage(srv: FakeLLMServer) -> None:
    srv.queue(
        Reply(
            content=[
                {"type": "thinking", "thinking": "hmm " * 5},
                {"type": "text", "text": "abcdefghijklmnopqrstuvwxyz"},
                {"type": "tool_use", "id": "toolu_x", "name": "Read", "input": {"path": "a.py"}},
            ],
            chunk_size=5,
        )
    )
    status, headers, raw = call(srv, "/v1/messages", user("hi") | {"stream": True}, KEY)
    assert status == 200 and headers["content-type"].startswith("text/event-stream")
    events = sse(raw)
    names = [name for name, _ in events]
    assert names[0] == "message_start" and names[-2:] == ["message_delta", "message_stop"]
    assert names[1:3] == ["content_block_start", "ping"]
    datas = [json.loads(d) for _, d in events]
    assert all(d["type"] == n for n, d in zip(names, datas))
    start_usage = datas[0]["message"]["usage"]
    assert start_usage["output_tokens"] == 1 and "cache_read_input_tokens" in start_usage
    deltas = [d["delta"] for d in datas if d["type"] == "content_block_delta"]
    assert (
        "".join(d["text"] for d in deltas if d["type"] == "text_delta")
        == "abcdefghijklmnopqrstuvwxyz"
    )
    assert max(len(d["text"]) for d in deltas if d["type"] == "text_delta") == 5
    assert any(d["type"] == "signature_delta" for d in deltas)
    assert json.loads(
        "".join(d["partial_json"] for d in deltas if d["type"] == "input_json_delta")
    ) == {"path": "a.py"}
    final = datas[-2]
    assert final["delta"]["stop_reason"] == "tool_use"
    assert final["usage"]["output_tokens"] == srv.requests[0].usage["output_tokens"] > 1


def test_openai_stream_chunks_and_include_usage(srv: FakeLLMServer) -> None:
    srv.queue(Reply.tool_use("Read", {"path": "b.py"}, id="call_1", text="Reading."))
    body = {
        "model": "g",
        "stream": True,
        "stream_options": {"include_usage": True},
        "messages": [{"role": "user", "content": "hi"}],
    }
    status, _, raw = call(srv, "/v1/chat/completions", body, BEARER)
    assert status == 200
    events = sse(raw)
    assert all(name is None for name, _ in events)
    assert events[-1][1] == "[DONE]"
    chunks = [json.loads(d) for _, d in events[:-1]]
    assert chunks[0]["choices"][0]["delta"]["role"] == "assistant"
    assert chunks[-1]["choices"] == [] and chunks[-1]["usage"]["total_tokens"] > 0
    assert chunks[-2]["choices"][0]["finish_reason"] == "tool_calls"
    calls = [
        c["choices"][0]["delta"]["tool_calls"][0]
        for c in chunks
        if c["choices"] and c["choices"][0]["delta"].get("tool_calls")
    ]
    assert calls[0]["id"] == "call_1" and calls[0]["function"]["name"] == "Read"
    assert json.loads("".join(c["function"]["arguments"] for c in calls)) == {"path": "b.py"}


def test_cache_figures_flow_into_usage(srv: FakeLLMServer) -> None:
    system = [
        {
            "type": "text",
            "text": "Rules of the house. " * 200,
            "cache_control": {"type": "ephemeral"},
        }
    ]
    body = user("first") | {"system": system}
    _, _, raw = call(srv, "/v1/messages", body, KEY)
    first = json.loads(raw)["usage"]
    assert first["cache_creation_input_tokens"] > 0 and first["cache_read_input_tokens"] == 0
    _, _, raw = call(srv, "/v1/messages", user("second question") | {"system": system}, KEY)
    second = json.loads(raw)["usage"]
    assert second["cache_read_input_tokens"] == first["cache_creation_input_tokens"]
    assert second["cache_creation_input_tokens"] == 0
    srv.advance_clock(301)
    _, _, raw = call(srv, "/v1/messages", body, KEY)
    assert json.loads(raw)["usage"]["cache_read_input_tokens"] == 0


def test_more_than_four_breakpoints_is_a_400(srv: FakeLLMServer) -> None:
    cc = {"type": "ephemeral"}
    body = user("x") | {
        "system": [{"type": "text", "text": f"s{i}", "cache_control": cc} for i in range(5)]
    }
    status, _, raw = call(srv, "/v1/messages", body, KEY)
    assert status == 400 and "maximum of 4 blocks" in json.loads(raw)["error"]["message"]


def test_context_management_is_reported(srv: FakeLLMServer) -> None:
    messages: list[dict[str, Any]] = [{"role": "user", "content": "go"}]
    for i in range(4):
        messages.append(
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": f"t{i}", "name": "Read", "input": {}}],
            }
        )
        messages.append(
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": f"t{i}", "content": "data " * 300}
                ],
            }
        )
    edits = {
        "edits": [
            {
                "type": "clear_tool_uses_20250919",
                "trigger": {"type": "input_tokens", "value": 500},
                "keep": {"type": "tool_uses", "value": 1},
            }
        ]
    }
    body = {"model": "m", "max_tokens": 10, "messages": messages, "context_management": edits}
    beta = KEY | {"anthropic-beta": "context-management-2025-06-27"}
    count_body = {k: v for k, v in body.items() if k != "max_tokens"}
    _, _, raw = call(srv, "/v1/messages/count_tokens", count_body, beta)
    counted = json.loads(raw)
    assert counted["context_management"]["original_input_tokens"] > counted["input_tokens"]
    # Without its beta header the field does not exist.
    status, _, raw = call(srv, "/v1/messages", body, KEY)
    assert status == 400 and "context_management" in json.loads(raw)["error"]["message"]
    _, _, raw = call(srv, "/v1/messages", body, beta)
    message = json.loads(raw)
    (applied,) = message["context_management"]["applied_edits"]
    assert applied["cleared_tool_uses"] == 3
    assert message["usage"]["input_tokens"] == counted["input_tokens"]
    _, _, raw = call(srv, "/v1/messages", body | {"stream": True}, beta)
    delta = next(json.loads(d) for n, d in sse(raw) if n == "message_delta")
    assert delta["context_management"]["applied_edits"][0]["cleared_tool_uses"] == 3
    status, _, _ = call(
        srv, "/v1/messages", body | {"context_management": {"edits": [{"type": "nope"}]}}, beta
    )
    assert status == 400


def test_stream_faults_over_raw_http(srv: FakeLLMServer) -> None:
    srv.queue({"fault": "malformed_event", "after_events": 2})
    _, _, raw = call(srv, "/v1/messages", user("hi") | {"stream": True}, KEY)
    datas = [d for _, d in sse(raw)]
    with pytest.raises(json.JSONDecodeError):
        json.loads(datas[2])
    json.loads(datas[3])  # the stream goes on after the broken line

    srv.queue({"fault": "cut_stream", "after_events": 2})
    with pytest.raises(http.client.IncompleteRead):
        call(srv, "/v1/messages", user("hi") | {"stream": True}, KEY)

    srv.queue({"fault": "hang", "seconds": 0.2, "after_events": 2})
    started = time.perf_counter()
    with pytest.raises(http.client.IncompleteRead) as partial:
        call(srv, "/v1/messages", user("hi") | {"stream": True}, KEY)
    assert time.perf_counter() - started >= 0.2
    assert b"message_start" in partial.value.partial

    srv.queue({"fault": "hang", "seconds": 0.2})
    started = time.perf_counter()
    with pytest.raises((http.client.RemoteDisconnected, ConnectionError)):
        call(srv, "/v1/messages", user("hi"), KEY)
    assert time.perf_counter() - started >= 0.2


def test_chunk_delay_paces_the_stream(srv: FakeLLMServer) -> None:
    srv.queue(Reply(content=[{"type": "text", "text": "x" * 40}], chunk_size=10, chunk_delay_ms=20))
    started = time.perf_counter()
    call(srv, "/v1/messages", user("hi") | {"stream": True}, KEY)
    assert time.perf_counter() - started >= 0.15


def test_control_api(srv: FakeLLMServer) -> None:
    status, _, raw = call(
        srv,
        "/_fake/replies",
        {"replies": [{"content": [{"type": "text", "text": "via http"}]}, {"fault": "overloaded"}]},
    )
    assert status == 200 and json.loads(raw) == {"queued": 2, "pending": 2}
    _, _, raw = call(srv, "/v1/messages", user("a"), KEY)
    assert json.loads(raw)["content"][0]["text"] == "via http"
    status, _, _ = call(srv, "/v1/messages", user("b"), KEY)
    assert status == 529
    _, _, raw = call(srv, "/_fake/requests", method="GET")
    recorded = json.loads(raw)["requests"]
    assert [r["status"] for r in recorded] == [200, 529]
    assert recorded[0]["body"]["messages"][0]["content"] == "a"
    _, _, raw = call(srv, "/_fake/config", {"context_window": 5})
    assert json.loads(raw)["context_window"] == 5 and srv.context_window == 5
    status, _, _ = call(srv, "/_fake/replies", {"replies": [{"fault": "no_such_fault"}]})
    assert status == 400
    call(srv, "/_fake/reset", {})
    assert srv.requests == [] and srv.pending_replies == 0


def test_reply_json_round_trip_and_validation() -> None:
    reply = Reply(
        content=[{"type": "text", "text": "t"}],
        stop_reason="max_tokens",
        chunk_size=3,
        usage={"output_tokens": 9},
    )
    assert Reply.from_json(reply.to_json()) == reply
    assert Reply.from_json({"fault": "hang", "seconds": 1}).fault == {"fault": "hang", "seconds": 1}
    assert Reply.tool_use("Read", {}).effective_stop_reason == "tool_use"
    with pytest.raises(ValueError):
        Reply(content=[{"type": "image"}])
    with pytest.raises(ValueError):
        Reply(stop_reason="bored")


def test_wait_for_requests_times_out(srv: FakeLLMServer) -> None:
    with pytest.raises(TimeoutError):
        srv.wait_for_requests(1, timeout=0.05)


def _spawn(*args: str) -> tuple[subprocess.Popen[str], str]:
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT))
    proc = subprocess.Popen(
        [sys.executable, "-m", "sidecar.fake_llm", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd=REPO_ROOT,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    return proc, line


def test_process_mode_prints_url_and_stops_on_stdin_eof() -> None:
    proc, line = _spawn("--context-window", "1234")
    try:
        assert line.startswith("FAKE_LLM_URL=http://127.0.0.1:")
        url = line.strip().split("=", 1)[1]
        conn = http.client.HTTPConnection(
            url.removeprefix("http://").split(":")[0], int(url.rsplit(":", 1)[1]), timeout=5
        )
        conn.request("POST", "/_fake/config", body=b"{}")
        assert json.loads(conn.getresponse().read())["context_window"] == 1234
        conn.close()
        assert proc.stdin is not None
        proc.stdin.close()
        assert proc.wait(timeout=5) == 0
        assert proc.stdout is not None and proc.stdout.read() == ""
    finally:
        if proc.poll() is None:
            proc.kill()


def test_process_mode_stops_on_sigterm() -> None:
    proc, line = _spawn("--ignore-stdin")
    try:
        assert line.startswith("FAKE_LLM_URL=")
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=5) == 0
    finally:
        if proc.poll() is None:
            proc.kill()


def test_usage_override_is_merged_on_both_wires(srv: FakeLLMServer) -> None:
    srv.queue(Reply.text("x", usage={"output_tokens": 4321, "cache_read_input_tokens": 7}))
    _, _, raw = call(srv, "/v1/messages", user("hi"), KEY)
    usage = json.loads(raw)["usage"]
    assert usage["output_tokens"] == 4321 and usage["cache_read_input_tokens"] == 7
    srv.queue(Reply.text("x", usage={"output_tokens": 50, "prompt_tokens": 900}))
    body = {"model": "g", "messages": [{"role": "user", "content": "hi"}]}
    _, _, raw = call(srv, "/v1/chat/completions", body, BEARER)
    usage = json.loads(raw)["usage"]
    assert (usage["prompt_tokens"], usage["completion_tokens"], usage["total_tokens"]) == (
        900,
        50,
        950,
    )
