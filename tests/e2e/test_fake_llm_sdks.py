"""The official anthropic and openai SDKs, unmodified, against the fake LLM server.

The SDKs are imported once at module level: ``import anthropic`` alone takes about 2.5 s.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import anthropic
import httpx2
import openai
import pytest

from sidecar.fake_llm import DEFAULT_CONTEXT_WINDOW, FakeLLMServer, Reply

MODEL = "claude-sonnet-test"
RICH_REPLY = [
    {"type": "thinking", "thinking": "The user wants the file; read it first."},
    {"type": "text", "text": "Let me read that file for you."},
    {
        "type": "tool_use",
        "id": "toolu_01",
        "name": "Read",
        "input": {"file_path": "/src/app.py", "limit": 40},
    },
]


@pytest.fixture(scope="module")
def shared_server() -> Iterator[FakeLLMServer]:
    # One server and one client per SDK for the module: building an SDK client costs ~0.15 s.
    with FakeLLMServer() as server:
        yield server


@pytest.fixture
def srv(shared_server: FakeLLMServer) -> Iterator[FakeLLMServer]:
    shared_server.reset()
    shared_server.context_window = DEFAULT_CONTEXT_WINDOW
    yield shared_server
    shared_server.reset()


@pytest.fixture(scope="module")
def claude(shared_server: FakeLLMServer) -> Iterator[anthropic.Anthropic]:
    client = anthropic.Anthropic(
        api_key="test-key", base_url=shared_server.url, max_retries=0, timeout=10
    )
    yield client
    client.close()


@pytest.fixture(scope="module")
def gpt(shared_server: FakeLLMServer) -> Iterator[openai.OpenAI]:
    client = openai.OpenAI(
        api_key="test-key", base_url=shared_server.openai_base_url, max_retries=0, timeout=10
    )
    yield client
    client.close()


def ask(text: str) -> list[dict[str, Any]]:
    return [{"role": "user", "content": text}]


# ---------------------------------------------------------------- Anthropic


def test_messages_stream_helper_assembles_thinking_text_and_tool_use(
    srv: FakeLLMServer, claude: anthropic.Anthropic
) -> None:
    srv.queue(Reply(content=RICH_REPLY, chunk_size=7))
    texts: list[str] = []
    with claude.messages.stream(
        model=MODEL, max_tokens=1000, messages=ask("show me app.py")
    ) as stream:
        for event in stream:
            if event.type == "text":
                texts.append(event.text)
        message = stream.get_final_message()
    assert [b.type for b in message.content] == ["thinking", "text", "tool_use"]
    assert message.content[0].thinking == RICH_REPLY[0]["thinking"]
    assert message.content[0].signature
    assert "".join(texts) == "Let me read that file for you."
    assert len(texts) > 1  # really streamed in pieces
    tool = message.content[2]
    assert (tool.id, tool.name, tool.input) == (
        "toolu_01",
        "Read",
        {"file_path": "/src/app.py", "limit": 40},
    )
    assert message.stop_reason == "tool_use"
    assert message.model == MODEL
    recorded = srv.requests[-1]
    assert message.usage.input_tokens == recorded.input_tokens
    assert message.usage.output_tokens == recorded.usage["output_tokens"] > 10


def test_create_stream_true_yields_raw_events_in_order(
    srv: FakeLLMServer, claude: anthropic.Anthropic
) -> None:
    srv.queue(Reply(content=RICH_REPLY))
    events = list(
        claude.messages.create(model=MODEL, max_tokens=100, messages=ask("hi"), stream=True)
    )
    kinds = [e.type for e in events]
    assert kinds[0] == "message_start" and kinds[-2:] == ["message_delta", "message_stop"]
    assert "ping" not in kinds  # the SDK swallows pings
    delta_kinds = {e.delta.type for e in events if e.type == "content_block_delta"}
    assert delta_kinds == {"thinking_delta", "signature_delta", "text_delta", "input_json_delta"}
    start = events[0].message.usage
    assert start.output_tokens == 1 and start.cache_read_input_tokens == 0
    assert events[-2].delta.stop_reason == "tool_use" and events[-2].usage.output_tokens > 1


def test_non_streaming_create_and_count_tokens(
    srv: FakeLLMServer, claude: anthropic.Anthropic
) -> None:
    srv.queue(Reply.text("truncated answ", stop_reason="max_tokens"))
    message = claude.messages.create(model=MODEL, max_tokens=5, messages=ask("explain"))
    assert message.content[0].text == "truncated answ" and message.stop_reason == "max_tokens"
    counted = claude.messages.count_tokens(
        model=MODEL,
        system="You are terse.",
        tools=[{"name": "Read", "description": "read", "input_schema": {"type": "object"}}],
        messages=ask("explain"),
    )
    assert counted.input_tokens == srv.requests[-1].input_tokens > message.usage.input_tokens
    assert srv.pending_replies == 0


def test_prompt_caching_reported_through_the_sdk(
    srv: FakeLLMServer, claude: anthropic.Anthropic
) -> None:
    system = [
        {"type": "text", "text": "Project rules. " * 300, "cache_control": {"type": "ephemeral"}}
    ]
    first = claude.messages.create(model=MODEL, max_tokens=50, system=system, messages=ask("one"))
    second = claude.messages.create(model=MODEL, max_tokens=50, system=system, messages=ask("two"))
    assert first.usage.cache_creation_input_tokens > 500
    assert first.usage.cache_read_input_tokens == 0
    assert second.usage.cache_read_input_tokens == first.usage.cache_creation_input_tokens
    assert second.usage.cache_creation_input_tokens == 0


def test_beta_context_management_is_parsed(srv: FakeLLMServer, claude: anthropic.Anthropic) -> None:
    messages: list[dict[str, Any]] = [{"role": "user", "content": "start"}]
    for i in range(5):
        messages.append(
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": f"t{i}", "name": "Read", "input": {"n": i}}],
            }
        )
        messages.append(
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": f"t{i}", "content": "line\n" * 400}
                ],
            }
        )
    message = claude.beta.messages.create(
        model=MODEL,
        max_tokens=50,
        messages=messages,
        betas=["context-management-2025-06-27"],
        context_management={
            "edits": [
                {
                    "type": "clear_tool_uses_20250919",
                    "trigger": {"type": "input_tokens", "value": 1000},
                    "keep": {"type": "tool_uses", "value": 2},
                }
            ]
        },
    )
    assert message.context_management is not None
    (edit,) = message.context_management.applied_edits
    assert edit.type == "clear_tool_uses_20250919" and edit.cleared_tool_uses == 3
    assert edit.cleared_input_tokens > 0
    recorded = srv.requests[-1]
    assert "context-management-2025-06-27" in recorded.headers["anthropic-beta"]
    assert message.usage.input_tokens == recorded.input_tokens


def test_async_client_streams(srv: FakeLLMServer) -> None:
    async def run() -> Any:
        client = anthropic.AsyncAnthropic(
            api_key="test-key", base_url=srv.url, max_retries=0, timeout=10
        )
        try:
            async with client.messages.stream(
                model=MODEL, max_tokens=100, messages=ask("hi")
            ) as stream:
                return await stream.get_final_message()
        finally:
            await client.close()

    srv.queue(Reply(content=RICH_REPLY))
    message = asyncio.run(run())
    assert [b.type for b in message.content] == ["thinking", "text", "tool_use"]


@pytest.mark.parametrize(
    ("fault", "error_class", "status"),
    [
        ({"fault": "rate_limit", "retry_after": 3}, anthropic.RateLimitError, 429),
        ({"fault": "overloaded"}, anthropic.OverloadedError, 529),
        ({"fault": "server_error"}, anthropic.InternalServerError, 500),
        (
            {"fault": "prompt_too_long", "tokens": 210000, "maximum": 200000},
            anthropic.BadRequestError,
            400,
        ),
    ],
)
@pytest.mark.parametrize("streaming", [False, True])
def test_anthropic_error_faults_raise_the_sdk_classes(
    srv: FakeLLMServer,
    claude: anthropic.Anthropic,
    fault: dict[str, Any],
    error_class: type[anthropic.APIStatusError],
    status: int,
    streaming: bool,
) -> None:
    srv.queue(fault)
    with pytest.raises(error_class) as caught:
        if streaming:
            with claude.messages.stream(model=MODEL, max_tokens=10, messages=ask("hi")) as stream:
                stream.get_final_message()
        else:
            claude.messages.create(model=MODEL, max_tokens=10, messages=ask("hi"))
    error = caught.value
    assert error.status_code == status
    if fault["fault"] == "overloaded":
        assert isinstance(error, anthropic.InternalServerError) and error.type == "overloaded_error"
    if fault["fault"] == "rate_limit":
        assert error.response.headers["retry-after"] == "3"
    if fault["fault"] == "prompt_too_long":
        assert error.api_message == "prompt is too long: 210000 tokens > 200000 maximum"


def test_automatic_prompt_too_long_through_the_sdk(
    srv: FakeLLMServer, claude: anthropic.Anthropic
) -> None:
    srv.context_window = 100
    with pytest.raises(anthropic.BadRequestError) as caught:
        claude.messages.create(model=MODEL, max_tokens=10, messages=ask("many words " * 100))
    assert caught.value.api_message.startswith("prompt is too long: ")
    assert caught.value.api_message.endswith(" tokens > 100 maximum")


def test_cut_stream_raises_mid_stream(srv: FakeLLMServer, claude: anthropic.Anthropic) -> None:
    srv.queue({"fault": "cut_stream", "after_events": 4, "content": RICH_REPLY})
    seen: list[str] = []
    with (
        pytest.raises((httpx2.TransportError, anthropic.APIConnectionError)),
        claude.messages.stream(model=MODEL, max_tokens=10, messages=ask("hi")) as stream,
    ):
        for event in stream:
            seen.append(event.type)
    assert seen and seen[0] == "message_start"
    srv.queue({"fault": "cut_stream"})
    with pytest.raises(anthropic.APIConnectionError):
        claude.messages.create(model=MODEL, max_tokens=10, messages=ask("hi"))


def test_malformed_event_raises(srv: FakeLLMServer, claude: anthropic.Anthropic) -> None:
    srv.queue({"fault": "malformed_event", "after_events": 3})
    # json.JSONDecodeError (a ValueError) from the SDK's SSE decoding
    with (
        pytest.raises(ValueError),
        claude.messages.stream(model=MODEL, max_tokens=10, messages=ask("hi")) as stream,
    ):
        stream.get_final_message()


def test_hang_surfaces_as_timeout(srv: FakeLLMServer, claude: anthropic.Anthropic) -> None:
    srv.queue({"fault": "hang", "seconds": 5})
    with pytest.raises(anthropic.APITimeoutError):
        claude.with_options(timeout=0.3).messages.create(
            model=MODEL, max_tokens=10, messages=ask("hi")
        )


# ---------------------------------------------------------------- OpenAI


def test_openai_stream_with_tool_calls_and_usage(srv: FakeLLMServer, gpt: openai.OpenAI) -> None:
    srv.queue(Reply(content=RICH_REPLY, chunk_size=6))
    stream = gpt.chat.completions.create(
        model="gpt-test",
        messages=ask("show me app.py"),
        tools=[
            {"type": "function", "function": {"name": "Read", "parameters": {"type": "object"}}}
        ],
        stream=True,
        stream_options={"include_usage": True},
    )
    text = ""
    arguments: dict[int, str] = {}
    names: dict[int, str] = {}
    finish = None
    usage = None
    for chunk in stream:
        if chunk.usage is not None:
            usage = chunk.usage
        if not chunk.choices:
            continue
        choice = chunk.choices[0]
        text += choice.delta.content or ""
        for call in choice.delta.tool_calls or []:
            arguments[call.index] = arguments.get(call.index, "") + (call.function.arguments or "")
            if call.function.name:
                names[call.index] = call.function.name
        finish = choice.finish_reason or finish
    assert text == "Let me read that file for you."
    assert names == {0: "Read"}
    assert json.loads(arguments[0]) == {"file_path": "/src/app.py", "limit": 40}
    assert finish == "tool_calls"
    assert usage is not None
    assert usage.prompt_tokens == srv.requests[-1].input_tokens
    assert usage.total_tokens == usage.prompt_tokens + usage.completion_tokens
    assert usage.prompt_tokens_details.cached_tokens == 0
    assert usage.completion_tokens_details.reasoning_tokens > 0


def test_openai_non_streaming_and_prefix_cache(srv: FakeLLMServer, gpt: openai.OpenAI) -> None:
    history = [{"role": "system", "content": "You write careful code. " * 250}]
    first = gpt.chat.completions.create(
        model="gpt-test", messages=history + ask("one"), prompt_cache_key="s1"
    )
    assert first.choices[0].message.content == "Echo: one"
    assert first.choices[0].finish_reason == "stop"
    assert first.usage.prompt_tokens_details.cached_tokens == 0
    second = gpt.chat.completions.create(
        model="gpt-test", messages=history + ask("two"), prompt_cache_key="s1"
    )
    cached = second.usage.prompt_tokens_details.cached_tokens
    assert cached >= 1024 and cached % 128 == 0 and cached <= second.usage.prompt_tokens


def test_openai_async_stream(srv: FakeLLMServer) -> None:
    async def run() -> str:
        client = openai.AsyncOpenAI(
            api_key="test-key", base_url=srv.openai_base_url, max_retries=0, timeout=10
        )
        try:
            text = ""
            stream = await client.chat.completions.create(
                model="gpt-test", messages=ask("async hi"), stream=True
            )
            async for chunk in stream:
                if chunk.choices:
                    text += chunk.choices[0].delta.content or ""
            return text
        finally:
            await client.close()

    assert asyncio.run(run()) == "Echo: async hi"


@pytest.mark.parametrize(
    ("fault", "error_class", "status"),
    [
        ({"fault": "rate_limit", "retry_after": 2}, openai.RateLimitError, 429),
        ({"fault": "overloaded"}, openai.InternalServerError, 503),
        ({"fault": "server_error"}, openai.InternalServerError, 500),
        (
            {"fault": "prompt_too_long", "tokens": 130000, "maximum": 128000},
            openai.BadRequestError,
            400,
        ),
    ],
)
def test_openai_error_faults_raise_the_sdk_classes(
    srv: FakeLLMServer,
    gpt: openai.OpenAI,
    fault: dict[str, Any],
    error_class: type[openai.APIStatusError],
    status: int,
) -> None:
    srv.queue(fault)
    with pytest.raises(error_class) as caught:
        gpt.chat.completions.create(model="gpt-test", messages=ask("hi"), stream=True)
    assert caught.value.status_code == status
    if fault["fault"] == "prompt_too_long":
        assert caught.value.code == "context_length_exceeded"
        assert "maximum context length is 128000 tokens" in caught.value.message


def test_openai_cut_stream_raises(srv: FakeLLMServer, gpt: openai.OpenAI) -> None:
    srv.queue({"fault": "cut_stream", "after_events": 2})
    with pytest.raises((httpx2.TransportError, openai.APIConnectionError)):
        for _ in gpt.chat.completions.create(model="gpt-test", messages=ask("hi"), stream=True):
            pass


# ---------------------------------------------------------------- OpenAI Responses


def said(text: str) -> list[dict[str, Any]]:
    return [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}]


READ_TOOL: Any = {"type": "function", "name": "Read", "parameters": {"type": "object"},
                  "strict": False}


def test_responses_stream_helper_assembles_reasoning_text_and_call(
    srv: FakeLLMServer, gpt: openai.OpenAI
) -> None:
    # The SDK's own stream helper accumulates every event into the final response; it
    # fails on an event that names an item or part it has not seen.
    srv.queue(Reply(content=RICH_REPLY, chunk_size=6))
    texts: list[str] = []
    with gpt.responses.stream(
        model="gpt-5", input=said("show me app.py"), tools=[READ_TOOL], store=False,
        reasoning={"effort": "low", "summary": "auto"}, include=["reasoning.encrypted_content"],
    ) as stream:
        for event in stream:
            if event.type == "response.output_text.delta":
                texts.append(event.delta)
        final = stream.get_final_response()
    assert "".join(texts) == final.output_text == "Let me read that file for you."
    assert len(texts) > 1
    reasoning, _, call = final.output
    assert reasoning.type == "reasoning" and reasoning.encrypted_content
    assert [s.text for s in reasoning.summary] == [RICH_REPLY[0]["thinking"]]
    assert call.type == "function_call" and call.call_id == "toolu_01"
    assert json.loads(call.arguments) == {"file_path": "/src/app.py", "limit": 40}
    assert final.usage is not None and final.usage.input_tokens == srv.requests[-1].input_tokens


def test_responses_create_compact_and_count(srv: FakeLLMServer, gpt: openai.OpenAI) -> None:
    first = gpt.responses.create(model="gpt-5", input=said("one"), store=False)
    assert first.output_text == "Echo: one" and first.status == "completed"
    history = said("one") + [{"role": "assistant", "content": first.output_text}] + said("two")
    counted = gpt.responses.input_tokens.count(model="gpt-5", input=history)
    compacted = gpt.responses.compact(model="gpt-5", input=history)
    assert counted.input_tokens == srv.requests[-1].input_tokens > 0
    assert compacted.object == "response.compaction"
    assert [item.type for item in compacted.output] == ["message", "message", "compaction"]
    # The SDK types the kept messages as the assistant's; they are the user's.
    assert [item.role for item in compacted.output[:2]] == ["user", "user"]


def test_responses_errors_raise_the_sdk_classes(srv: FakeLLMServer, gpt: openai.OpenAI) -> None:
    srv.queue({"fault": "rate_limit", "retry_after": 2})
    with pytest.raises(openai.RateLimitError) as limited:
        gpt.responses.create(model="gpt-5", input="hi")
    assert limited.value.response.headers["retry-after"] == "2"
    srv.context_window = 20
    with pytest.raises(openai.BadRequestError) as overflow:
        gpt.responses.create(model="gpt-5", input="many words " * 40)
    assert overflow.value.code == "context_length_exceeded"
    # Streaming, the same overflow arrives as an error event after the response opened.
    events = list(gpt.responses.create(model="gpt-5", input="many words " * 40, stream=True))
    assert [e.type for e in events] == ["response.created", "response.in_progress", "error"]
    assert events[-1].code == "context_length_exceeded"
