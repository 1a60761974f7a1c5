"""The provider adapters, through the official SDKs, against the fake LLM server on 127.0.0.1:
Anthropic Messages, OpenAI Responses (``openai``) and Chat Completions (``openai-compatible``)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from sidecar.core.conversation.messages import ApiMessage, Usage
from sidecar.core.ports import (
    Completed,
    ModelRequest,
    ProviderError,
    TextDelta,
    ThinkingDelta,
    ToolInputDelta,
    ToolSpec,
    ToolUseStart,
)
from sidecar.core.settings import Settings
from sidecar.core.turns.retry import Restarted, stream_with_retry
from sidecar.fake_llm import FakeLLMServer, Reply
from sidecar.providers.anthropic_messages import CONTEXT_MANAGEMENT_BETA, AnthropicProvider
from sidecar.providers.openai_chat import OpenAIChatProvider
from sidecar.providers.openai_responses import OpenAIResponsesProvider
from sidecar.providers.registry import make_provider

KEY = "sk-e2e-not-a-real-key"
ANTHROPIC_MODEL = "claude-sonnet-4-6"
# A model that reasons, for the Responses API (which refuses reasoning settings for others);
# Chat Completions keeps a model that takes max_tokens, as compatible servers send it.
OPENAI_MODEL = "gpt-5"
COMPATIBLE_MODEL = "gpt-4o"
READ = ToolSpec(
    "Read",
    "Read a file from the workspace",
    {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
)
GREP = ToolSpec(
    "Grep",
    "Search the workspace",
    {"type": "object", "properties": {"pattern": {"type": "string"}}},
)
# Long enough for OpenAI's automatic prefix cache (1,024 tokens at least).
LONG_SYSTEM = "You are a careful coding assistant. " + " ".join(
    f"Rule {i}: keep answers short and cite files by path." for i in range(150)
)
SCRIPT = [
    {"type": "thinking", "thinking": "The user wants the file read first."},
    {"type": "text", "text": "Let me read that file for you now."},
    {
        "type": "tool_use",
        "id": "toolu_e2e_1",
        "name": "Read",
        "input": {"path": "src/app.py", "limit": 40},
    },
]


@pytest.fixture(scope="module")
def server() -> Iterator[FakeLLMServer]:
    with FakeLLMServer() as srv:
        yield srv


@pytest.fixture
def srv(server: FakeLLMServer) -> FakeLLMServer:
    server.reset()
    return server


def build(name: str, srv: FakeLLMServer) -> Any:
    if name == "anthropic":
        return AnthropicProvider(KEY, base_url=srv.url)
    if name == "openai":
        return OpenAIResponsesProvider(KEY, base_url=srv.openai_base_url)
    return OpenAIChatProvider(KEY, base_url=srv.openai_base_url, name="openai-compatible")


@pytest.fixture(params=["anthropic", "openai", "openai-compatible"])
async def provider(request: pytest.FixtureRequest, srv: FakeLLMServer) -> AsyncIterator[Any]:
    made = build(request.param, srv)
    yield made
    await made.aclose()


@pytest.fixture
async def responses_provider(srv: FakeLLMServer) -> AsyncIterator[OpenAIResponsesProvider]:
    made = OpenAIResponsesProvider(KEY, base_url=srv.openai_base_url)
    yield made
    await made.aclose()


@pytest.fixture
async def anthropic_provider(srv: FakeLLMServer) -> AsyncIterator[AnthropicProvider]:
    made = AnthropicProvider(KEY, base_url=srv.url)
    yield made
    await made.aclose()


MODELS = {"anthropic": ANTHROPIC_MODEL, "openai": OPENAI_MODEL,
          "openai-compatible": COMPATIBLE_MODEL}


def make_request(provider: Any, **kw: Any) -> ModelRequest:
    base: dict[str, Any] = {
        "model": MODELS[provider.name],
        "system": [{"type": "text", "text": LONG_SYSTEM}],
        "messages": [ApiMessage("user", [{"type": "text", "text": "Please read src/app.py"}])],
        "tools": [READ, GREP],
        "timeout_seconds": 10,
    }
    base.update(kw)
    return ModelRequest(**base)


async def collect(stream: AsyncIterator[Any]) -> list[Any]:
    return [event async for event in stream]


async def test_streamed_text_thinking_and_tool_use(provider: Any, srv: FakeLLMServer) -> None:
    srv.queue(Reply(content=SCRIPT, chunk_size=5))
    events = await collect(provider.stream(make_request(provider, thinking_budget=2_048)))
    done = events[-1]
    assert isinstance(done, Completed) and all(not isinstance(e, Completed) for e in events[:-1])

    thinking = "".join(e.text for e in events if isinstance(e, ThinkingDelta))
    text = "".join(e.text for e in events if isinstance(e, TextDelta))
    assert thinking == SCRIPT[0]["thinking"]
    assert text == SCRIPT[1]["text"]
    assert len([e for e in events if isinstance(e, TextDelta)]) > 3  # really streamed in pieces
    kinds = [type(e).__name__ for e in events]
    # Thinking streams before the text, the text before the tool call.
    assert kinds.index("ThinkingDelta") < kinds.index("TextDelta") < kinds.index("ToolUseStart")
    start = next(e for e in events if isinstance(e, ToolUseStart))
    assert (start.id, start.name) == ("toolu_e2e_1", "Read")
    pieces = "".join(
        e.partial_json for e in events if isinstance(e, ToolInputDelta) and e.index == start.index
    )
    assert json.loads(pieces) == {"path": "src/app.py", "limit": 40}

    assert [b["type"] for b in done.content] == ["thinking", "text", "tool_use"]
    assert done.content[start.index]["input"] == {"path": "src/app.py", "limit": 40}
    assert done.content[1]["text"] == SCRIPT[1]["text"]
    assert done.stop_reason == "tool_use"
    assert done.message_id and done.model
    assert done.usage.output_tokens > 0 and done.usage.prompt_tokens > 0
    if provider.name == "anthropic":
        assert done.content[0]["signature"]  # kept so the block can be sent back
        assert srv.requests[-1].body["thinking"] == {"type": "enabled", "budget_tokens": 2_048}
    if provider.name == "openai":
        # The reasoning item's id and encrypted content, kept so it can be sent back.
        assert done.content[0]["reasoning_id"].startswith("rs_")
        assert done.content[0]["encrypted_content"] and not done.content[0]["signature"]
        assert srv.requests[-1].body["reasoning"] == {"effort": "medium", "summary": "auto"}


async def test_end_turn_and_max_tokens_stop_reasons(provider: Any, srv: FakeLLMServer) -> None:
    srv.queue(Reply.text("All done."))
    srv.queue(Reply(content=[{"type": "text", "text": "cut sho"}], stop_reason="max_tokens"))
    first = (await collect(provider.stream(make_request(provider))))[-1]
    second = (await collect(provider.stream(make_request(provider))))[-1]
    assert (first.stop_reason, first.content) == (
        "end_turn",
        [{"type": "text", "text": "All done."}],
    )
    assert second.stop_reason == "max_tokens"


async def test_second_call_reads_the_prompt_cache(provider: Any, srv: FakeLLMServer) -> None:
    request = make_request(provider, prompt_cache_key="session-1")
    srv.queue(Reply.text("First answer."))
    first = (await collect(provider.stream(request)))[-1]
    follow_up = dataclasses.replace(
        request,
        messages=request.messages
        + [
            ApiMessage("assistant", first.content),
            ApiMessage("user", [{"type": "text", "text": "And now summarise it."}]),
        ],
    )
    srv.queue(Reply.text("Second answer."))
    second = (await collect(provider.stream(follow_up)))[-1]

    assert first.usage.cache_read_input_tokens == 0
    assert second.usage.cache_read_input_tokens > 1_000
    assert second.usage.prompt_tokens > first.usage.prompt_tokens
    if provider.name == "anthropic":
        assert first.usage.cache_creation_input_tokens > 1_000
        assert second.usage.cache_read_input_tokens == first.usage.cache_creation_input_tokens
    else:
        # The fake's OpenAI cache reports no writes; cached tokens are split out of the prompt.
        assert (
            first.usage.cache_creation_input_tokens == second.usage.cache_creation_input_tokens == 0
        )
        recorded = srv.requests[-1].usage
        assert recorded is not None
        if provider.name == "openai":
            prompt, cached = recorded["input_tokens"], recorded["input_tokens_details"]["cached_tokens"]
        else:
            prompt, cached = recorded["prompt_tokens"], recorded["prompt_tokens_details"]["cached_tokens"]
        assert second.usage.input_tokens + second.usage.cache_read_input_tokens == prompt
        assert second.usage.cache_read_input_tokens == cached
        assert srv.requests[-1].body["prompt_cache_key"] == "session-1"


async def test_server_without_usage_gives_all_zero_usage(srv: FakeLLMServer) -> None:
    # A compatible server that ignores stream_options sends no usage chunk at all.
    provider = OpenAIChatProvider(KEY, base_url=srv.openai_base_url, name="openai-compatible")
    try:
        srv.queue(Reply.text("hi"))
        original = provider._sdk_client().chat.completions.create

        async def without_usage(**kw: Any) -> Any:
            kw.pop("stream_options")
            return await original(**kw)

        provider._sdk_client().chat.completions.create = without_usage
        done = (await collect(provider.stream(make_request(provider))))[-1]
    finally:
        await provider.aclose()
    assert done.usage == Usage() and done.usage.is_zero()
    assert (
        "max_tokens" in srv.requests[-1].body
        and "max_completion_tokens" not in srv.requests[-1].body
    )


async def test_anthropic_request_carries_cache_markers_and_context_management(
    anthropic_provider: AnthropicProvider, srv: FakeLLMServer
) -> None:
    management = {
        "edits": [
            {"type": "clear_thinking_20251015", "keep": "all"},
            {
                "type": "clear_tool_uses_20250919",
                "trigger": {"type": "input_tokens", "value": 180_000},
                "clear_at_least": {"type": "input_tokens", "value": 140_000},
                "exclude_tools": ["Skill"],
            },
        ]
    }
    srv.queue(Reply.text("ok"))
    done = (
        await collect(
            anthropic_provider.stream(
                make_request(anthropic_provider, context_management=management,
                             thinking_adaptive=True)
            )
        )
    )[-1]
    recorded = srv.requests[-1]
    body = recorded.body
    assert recorded.headers.get("anthropic-beta") == CONTEXT_MANAGEMENT_BETA
    assert body["thinking"] == {"type": "adaptive"}  # clear_thinking needs thinking on
    assert body["context_management"] == management
    assert body["stream"] is True
    assert body["system"][-1]["cache_control"] == {"type": "ephemeral"}
    assert body["tools"][-1]["cache_control"] == {"type": "ephemeral"}
    assert "cache_control" not in body["tools"][0]
    assert body["messages"][-1]["content"][-1]["cache_control"] == {"type": "ephemeral"}
    text = json.dumps(body)
    assert text.count('"cache_control"') == 3
    assert KEY not in json.dumps(recorded.headers) and KEY not in text
    assert done.applied_edits == []  # nothing to clear below the trigger


async def test_anthropic_applied_edits_are_reported(
    anthropic_provider: AnthropicProvider, srv: FakeLLMServer
) -> None:
    turns: list[ApiMessage] = []
    for i in range(4):
        turns.append(
            ApiMessage(
                "user",
                [{"type": "text", "text": f"step {i}"}]
                if i == 0
                else [
                    {"type": "tool_result", "tool_use_id": f"toolu_{i - 1}", "content": "x " * 300}
                ],
            )
        )
        turns.append(
            ApiMessage(
                "assistant",
                [
                    {
                        "type": "tool_use",
                        "id": f"toolu_{i}",
                        "name": "Read",
                        "input": {"path": f"f{i}"},
                    }
                ],
            )
        )
    turns.append(
        ApiMessage(
            "user", [{"type": "tool_result", "tool_use_id": "toolu_3", "content": "y " * 300}]
        )
    )
    management = {
        "edits": [
            {
                "type": "clear_tool_uses_20250919",
                "trigger": {"type": "input_tokens", "value": 100},
                "keep": {"type": "tool_uses", "value": 1},
            }
        ]
    }
    srv.queue(Reply.text("ok"))
    done = (
        await collect(
            anthropic_provider.stream(
                make_request(anthropic_provider, messages=turns, context_management=management)
            )
        )
    )[-1]
    assert len(done.applied_edits) == 1
    assert done.applied_edits[0]["type"] == "clear_tool_uses_20250919"
    assert done.applied_edits[0]["cleared_tool_uses"] == 3


async def test_anthropic_long_context_goes_by_beta_header(srv: FakeLLMServer) -> None:
    """The 1M window is a beta flag on the request; the model id stays the plain id."""
    from sidecar.core.models.catalog import lookup

    provider = AnthropicProvider(KEY, base_url=srv.url, model_info=lookup("claude-opus-4-6", "anthropic"))
    try:
        srv.queue(Reply.text("ok"))
        await collect(provider.stream(make_request(provider, model="claude-opus-4-6",
                                                   long_context=True)))
    finally:
        await provider.aclose()
    request = srv.requests[-1]
    assert request.body["model"] == "claude-opus-4-6"
    assert "context-1m-2025-08-07" in request.headers.get("anthropic-beta", "")


async def test_chat_completions_request_shape(srv: FakeLLMServer) -> None:
    # Chat Completions as OpenAI itself takes it (max_completion_tokens).
    provider = OpenAIChatProvider(KEY, base_url=srv.openai_base_url)
    messages = [
        ApiMessage("user", [{"type": "text", "text": "read a"}]),
        ApiMessage(
            "assistant",
            [
                {"type": "thinking", "thinking": "private", "signature": "s"},
                {"type": "tool_use", "id": "call_a", "name": "Read", "input": {"path": "a"}},
            ],
        ),
        ApiMessage("user", [{"type": "tool_result", "tool_use_id": "call_a", "content": "A body"}]),
    ]
    try:
        srv.queue(Reply.text("ok"))
        await collect(
            provider.stream(
                make_request(
                    provider,
                    messages=messages,
                    context_management={"edits": []},
                )
            )
        )
    finally:
        await provider.aclose()
    body = srv.requests[-1].body
    assert [m["role"] for m in body["messages"]] == ["system", "user", "assistant", "tool"]
    assert body["messages"][2]["tool_calls"][0]["function"] == {
        "name": "Read",
        "arguments": '{"path": "a"}',
    }
    assert body["messages"][3] == {"role": "tool", "tool_call_id": "call_a", "content": "A body"}
    assert body["tools"][0] == {
        "type": "function",
        "function": {
            "name": "Read",
            "description": READ.description,
            "parameters": READ.input_schema,
        },
    }
    assert body["stream_options"] == {"include_usage": True}
    assert body["max_completion_tokens"] == 8_192
    assert not {"context_management", "thinking", "system"} & set(body)
    assert "private" not in json.dumps(body) and "cache_control" not in json.dumps(body)


async def test_anthropic_count_tokens(
    anthropic_provider: AnthropicProvider, srv: FakeLLMServer
) -> None:
    request = make_request(anthropic_provider)
    counted = await anthropic_provider.count_tokens(request)
    assert srv.requests[-1].path == "/v1/messages/count_tokens"
    srv.queue(Reply.text("ok"))
    done = (await collect(anthropic_provider.stream(request)))[-1]
    assert counted == done.usage.prompt_tokens
    assert "max_tokens" not in srv.requests[0].body


async def test_chat_completions_count_tokens_is_none(srv: FakeLLMServer) -> None:
    provider = OpenAIChatProvider(KEY, base_url=srv.openai_base_url, name="openai-compatible")
    assert await provider.count_tokens(make_request(provider)) is None
    assert srv.requests == []


# ------------------------------------------------------------------ faults

FAULTS = [
    # fault, params, anthropic (status, type), openai (status, type), retryable
    ("rate_limit", {"retry_after": 2}, (429, "rate_limit_error"), (429, "rate_limit_error"), True),
    ("overloaded", {}, (529, "overloaded_error"), (503, "overloaded_error"), True),
    ("server_error", {}, (500, "api_error"), (500, "api_error"), True),
    (
        "cut_stream",
        {"after_events": 4},
        (None, "stream_interrupted"),
        (None, "stream_interrupted"),
        True,
    ),
    (
        "malformed_event",
        {"after_events": 4},
        (None, "malformed_event"),
        (None, "malformed_event"),
        True,
    ),
]


@pytest.mark.parametrize(
    ("fault", "params", "anthropic_expect", "openai_expect", "retryable"),
    FAULTS,
    ids=[f[0] for f in FAULTS],
)
async def test_faults_become_classified_provider_errors(
    provider: Any,
    srv: FakeLLMServer,
    fault: str,
    params: dict[str, Any],
    anthropic_expect: tuple[int | None, str],
    openai_expect: tuple[int | None, str],
    retryable: bool,
) -> None:
    srv.queue(Reply.failure(fault, **params))
    with pytest.raises(ProviderError) as info:
        await collect(provider.stream(make_request(provider)))
    err = info.value
    # Both OpenAI wires answer these faults alike.
    expect = anthropic_expect if provider.name == "anthropic" else openai_expect
    assert (err.status, err.type) == expect
    assert err.retryable is retryable
    assert not err.prompt_too_long
    assert err.retry_after == (2.0 if fault == "rate_limit" else None)
    assert KEY not in err.message


async def test_prompt_too_long_with_token_gap(provider: Any, srv: FakeLLMServer) -> None:
    srv.queue(Reply.failure("prompt_too_long", tokens=215_000, maximum=200_000))
    with pytest.raises(ProviderError) as info:
        await collect(provider.stream(make_request(provider)))
    err = info.value
    assert err.prompt_too_long and not err.retryable
    if provider.name == "openai":
        # The Responses API reports a streamed overflow inside the stream, in words that
        # name no token counts.
        assert (err.status, err.type, err.token_gap) == (None, "context_length_exceeded", None)
    else:
        assert err.status == 400 and err.token_gap == 15_000


async def test_real_overflow_of_the_fake_window(provider: Any, srv: FakeLLMServer) -> None:
    srv.context_window = 500
    try:
        with pytest.raises(ProviderError) as info:
            await collect(provider.stream(make_request(provider)))
    finally:
        srv.context_window = 200_000
    assert info.value.prompt_too_long
    if provider.name != "openai":  # the Responses API's words carry no counts
        assert info.value.token_gap is not None and info.value.token_gap > 0


async def test_hang_times_out(provider: Any, srv: FakeLLMServer) -> None:
    srv.queue(Reply.failure("hang", seconds=3))
    with pytest.raises(ProviderError) as info:
        await collect(provider.stream(make_request(provider, timeout_seconds=0.3)))
    assert (info.value.type, info.value.retryable) == ("timeout", True)


async def test_hang_mid_stream_times_out(provider: Any, srv: FakeLLMServer) -> None:
    srv.queue(Reply.failure("hang", seconds=3, after_events=3))
    events: list[Any] = []
    with pytest.raises(ProviderError) as info:
        async for event in provider.stream(make_request(provider, timeout_seconds=0.3)):
            events.append(event)
    assert info.value.type == "timeout" and info.value.retryable


async def test_connection_refused_is_a_retryable_connection_error() -> None:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    for made in (
        AnthropicProvider(KEY, base_url=f"http://127.0.0.1:{port}"),
        OpenAIResponsesProvider(KEY, base_url=f"http://127.0.0.1:{port}/v1"),
        OpenAIChatProvider(KEY, base_url=f"http://127.0.0.1:{port}/v1", name="openai-compatible"),
    ):
        try:
            with pytest.raises(ProviderError) as info:
                await collect(made.stream(make_request(made)))
        finally:
            await made.aclose()
        assert (info.value.type, info.value.retryable) == ("connection_error", True)


# ------------------------------------------------------------------ retries


class SleepRecorder:
    def __init__(self) -> None:
        self.sleeps: list[float] = []
        self.retries: list[tuple[int, str, float]] = []

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)

    def on_retry(self, attempt: int, error: ProviderError, delay: float) -> None:
        self.retries.append((attempt, error.type, delay))


async def test_retry_recovers_from_rate_limit_honouring_retry_after(
    provider: Any, srv: FakeLLMServer
) -> None:
    rec = SleepRecorder()
    srv.queue(Reply.failure("rate_limit", retry_after=3))
    srv.queue(Reply.text("after the wait"))
    events = await collect(
        stream_with_retry(
            provider,
            make_request(provider),
            max_retries=3,
            base_delay=0.5,
            max_delay=20,
            on_retry=rec.on_retry,
            sleep=rec.sleep,
        )
    )
    assert rec.sleeps == [3.0]
    assert rec.retries == [(1, "rate_limit_error", 3.0)]
    assert not any(isinstance(e, Restarted) for e in events)
    assert events[-1].content == [{"type": "text", "text": "after the wait"}]
    assert len(srv.requests) == 2


async def test_retry_restarts_after_a_cut_stream(provider: Any, srv: FakeLLMServer) -> None:
    rec = SleepRecorder()
    # The Responses wire opens with four events (created, in_progress, the item, its part)
    # before any text; cut after the first text deltas on every wire.
    after = 6 if provider.name == "openai" else 4
    srv.queue(
        Reply.failure(
            "cut_stream",
            after_events=after,
            content=[{"type": "text", "text": "partial answer that breaks"}],
            chunk_size=4,
        )
    )
    srv.queue(Reply.text("the whole answer", chunk_size=4))
    events = await collect(
        stream_with_retry(
            provider,
            make_request(provider),
            max_retries=2,
            base_delay=0.25,
            max_delay=1,
            on_retry=rec.on_retry,
            sleep=rec.sleep,
        )
    )
    marker = next(i for i, e in enumerate(events) if isinstance(e, Restarted))
    assert any(isinstance(e, TextDelta) for e in events[:marker])  # a partial answer was streamed
    assert events[marker].error.type == "stream_interrupted"
    after = "".join(e.text for e in events[marker + 1 :] if isinstance(e, TextDelta))
    assert after == "the whole answer"
    assert isinstance(events[-1], Completed)
    assert len(rec.sleeps) == 1 and 0.25 <= rec.sleeps[0] <= 1


async def test_retry_gives_up_after_max_retries(provider: Any, srv: FakeLLMServer) -> None:
    rec = SleepRecorder()
    for _ in range(3):
        srv.queue(Reply.failure("overloaded"))
    srv.queue(Reply.text("never reached"))
    with pytest.raises(ProviderError) as info:
        await collect(
            stream_with_retry(
                provider,
                make_request(provider),
                max_retries=2,
                base_delay=0.5,
                max_delay=20,
                sleep=rec.sleep,
            )
        )
    assert info.value.type == "overloaded_error"
    assert len(srv.requests) == 3 and len(rec.sleeps) == 2
    assert rec.sleeps[1] > rec.sleeps[0]  # exponential


async def test_prompt_too_long_is_not_retried(provider: Any, srv: FakeLLMServer) -> None:
    rec = SleepRecorder()
    srv.queue(Reply.failure("prompt_too_long", tokens=300_000, maximum=200_000))
    with pytest.raises(ProviderError) as info:
        await collect(
            stream_with_retry(
                provider,
                make_request(provider),
                max_retries=3,
                base_delay=0.5,
                max_delay=20,
                sleep=rec.sleep,
            )
        )
    assert info.value.prompt_too_long and rec.sleeps == [] and len(srv.requests) == 1


# ------------------------------------------------------------------ registry against the fake


async def test_registry_providers_talk_to_the_fake(srv: FakeLLMServer) -> None:
    env = {"ANTHROPIC_API_KEY": KEY, "ANTHROPIC_BASE_URL": srv.url}
    anthropic_provider = make_provider(Settings(model=ANTHROPIC_MODEL), env)
    # Keyless local server: no key variable at all.
    local = make_provider(
        dataclasses.replace(
            Settings(), provider="openai-compatible", model="llama3.3", baseUrl=srv.openai_base_url
        ),
        {},
    )
    openai_provider = make_provider(
        dataclasses.replace(Settings(), provider="openai", model=OPENAI_MODEL),
        {"OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": srv.openai_base_url + "/"},
    )
    try:
        srv.queue(Reply.text("from anthropic"))
        srv.queue(Reply.text("from local"))
        srv.queue(Reply.text("from openai"))
        first = (await collect(anthropic_provider.stream(make_request(anthropic_provider))))[-1]
        second = (await collect(local.stream(make_request(local, model="llama3.3"))))[-1]
        third = (await collect(openai_provider.stream(make_request(openai_provider))))[-1]
    finally:
        await anthropic_provider.aclose()
        await local.aclose()
        await openai_provider.aclose()
    assert first.content[0]["text"] == "from anthropic"
    assert second.content[0]["text"] == "from local"
    assert third.content[0]["text"] == "from openai"
    assert [r.path for r in srv.requests] == ["/v1/messages", "/v1/chat/completions",
                                              "/v1/responses"]
    assert srv.requests[1].status == 200 and "max_tokens" in srv.requests[1].body
    assert srv.requests[2].status == 200 and srv.requests[2].body["store"] is False


# ------------------------------------------------------------------ the Responses API


async def test_responses_request_shape(
    responses_provider: OpenAIResponsesProvider, srv: FakeLLMServer
) -> None:
    messages = [
        ApiMessage("user", [{"type": "text", "text": "read a"}]),
        ApiMessage("assistant", [
            {"type": "thinking", "thinking": "from Claude", "signature": "s"},
            {"type": "text", "text": "Reading a."},
            {"type": "tool_use", "id": "call_a", "name": "Read", "input": {"path": "a"}},
        ]),
        ApiMessage("user", [{"type": "tool_result", "tool_use_id": "call_a", "content": "A body"}]),
    ]
    srv.queue(Reply.text("ok"))
    await collect(responses_provider.stream(make_request(
        responses_provider, messages=messages, context_management={"edits": []},
        prompt_cache_key="s-1", headers={"x-context-sidecar-call": "main"})))
    recorded = srv.requests[-1]
    body = recorded.body
    assert recorded.path == "/v1/responses" and recorded.status == 200
    assert (body["store"], body["stream"], body["instructions"]) == (False, True, LONG_SYSTEM)
    assert [i.get("type") for i in body["input"]] == [
        "message", "message", "function_call", "function_call_output"]
    assert body["input"][2] == {"type": "function_call", "call_id": "call_a", "name": "Read",
                                "arguments": '{"path": "a"}'}
    assert body["input"][3] == {"type": "function_call_output", "call_id": "call_a",
                                "output": "A body"}
    assert body["tools"][0] == {"type": "function", "name": "Read", "description": READ.description,
                                "parameters": READ.input_schema, "strict": False}
    assert body["max_output_tokens"] == 8_192 and body["prompt_cache_key"] == "s-1"
    assert recorded.headers["x-context-sidecar-call"] == "main"
    assert not {"context_management", "thinking", "messages", "reasoning"} & set(body)
    assert "from Claude" not in json.dumps(body) and KEY not in json.dumps(recorded.headers)


async def test_responses_count_tokens_matches_what_the_call_is_counted(
    responses_provider: OpenAIResponsesProvider, srv: FakeLLMServer
) -> None:
    request = make_request(responses_provider, effort="low")
    counted = await responses_provider.count_tokens(request)
    assert srv.requests[-1].path == "/v1/responses/input_tokens"
    srv.queue(Reply.text("ok"))
    done = (await collect(responses_provider.stream(request)))[-1]
    assert counted == done.usage.prompt_tokens == srv.requests[-1].input_tokens


async def test_reasoning_round_trips_through_its_encrypted_content(
    responses_provider: OpenAIResponsesProvider, srv: FakeLLMServer
) -> None:
    srv.queue(Reply(content=SCRIPT))
    request = make_request(responses_provider, effort="high")
    first = (await collect(responses_provider.stream(request)))[-1]
    follow_up = dataclasses.replace(request, messages=request.messages + [
        ApiMessage("assistant", first.content),
        ApiMessage("user", [{"type": "tool_result", "tool_use_id": "toolu_e2e_1", "content": "x"}]),
    ])
    srv.queue(Reply.text("done"))
    second = (await collect(responses_provider.stream(follow_up)))[-1]
    assert second.content == [{"type": "text", "text": "done"}]
    sent = srv.requests[-1].body["input"]
    reasoning = next(i for i in sent if i["type"] == "reasoning")
    # Sent back as it came: the fake refuses encrypted content that changed.
    assert reasoning["encrypted_content"] == first.content[0]["encrypted_content"]
    assert reasoning["id"] == first.content[0]["reasoning_id"]
    assert srv.requests[-1].status == 200 and srv.violations == []


async def test_compact_round_trip(
    responses_provider: OpenAIResponsesProvider, srv: FakeLLMServer
) -> None:
    turns: list[ApiMessage] = [ApiMessage("user", [{"type": "text", "text": "explain the parser"}])]
    for i in range(4):
        turns.append(ApiMessage("assistant", [
            {"type": "tool_use", "id": f"call_{i}", "name": "Read", "input": {"path": f"p{i}.py"}}]))
        turns.append(ApiMessage("user", [
            {"type": "tool_result", "tool_use_id": f"call_{i}", "content": "code line\n" * 400}]))
    turns.append(ApiMessage("assistant", [{"type": "text", "text": "It is a recursive parser."}]))
    turns.append(ApiMessage("user", [{"type": "text", "text": "and the lexer?"}]))
    request = make_request(responses_provider, messages=turns)
    srv.queue(Reply.text("kept for the next turn"))

    compaction = await responses_provider.compact(request, "Keep the file names.")
    recorded = srv.requests[-1]
    assert recorded.path == "/v1/responses/compact" and recorded.status == 200
    assert recorded.body["instructions"].endswith("\n\nKeep the file names.")
    assert srv.pending_replies == 1
    # The user messages, in order, then the compaction item, its content kept verbatim.
    *kept, item = compaction.blocks
    assert kept == [{"type": "text", "text": "explain the parser"},
                    {"type": "text", "text": "and the lexer?"}]
    assert item["type"] == "compaction" and item["encrypted_content"].startswith("fakeenc_")
    assert compaction.summary is None
    assert compaction.usage.prompt_tokens == recorded.input_tokens
    assert compaction.usage.output_tokens > 0

    # Later requests send the compaction in place of what it summarized.
    after = dataclasses.replace(request, messages=[
        ApiMessage("user", compaction.blocks + [{"type": "text", "text": "go on"}])])
    done = (await collect(responses_provider.stream(after)))[-1]
    assert done.content == [{"type": "text", "text": "kept for the next turn"}]
    sent = srv.requests[-1]
    assert sent.status == 200 and sent.refusal is None
    assert {"type": "compaction", "encrypted_content": item["encrypted_content"]} in sent.body["input"]
    assert sent.input_tokens < recorded.input_tokens / 2  # counted as the summary, not the original

    # A changed compaction is refused, as the API refuses what it cannot decrypt.
    forged = {**item, "encrypted_content": item["encrypted_content"][:-1] + (
        "0" if item["encrypted_content"][-1] != "0" else "1")}
    broken = dataclasses.replace(after, messages=[ApiMessage("user", kept + [forged])])
    srv.strict = True
    with pytest.raises(ProviderError) as info:
        await collect(responses_provider.stream(broken))
    assert (info.value.status, info.value.type) == (400, "invalid_request_error")
    assert "could not be verified" in info.value.message
    srv.take_violations()  # the refusal was the point


async def test_compact_refusal_is_a_provider_error(
    responses_provider: OpenAIResponsesProvider, srv: FakeLLMServer
) -> None:
    srv.context_window = 200
    try:
        with pytest.raises(ProviderError) as info:
            await responses_provider.compact(make_request(responses_provider), None)
    finally:
        srv.context_window = 200_000
    assert info.value.prompt_too_long and info.value.status == 400
