"""Chat Completions conversion and stream assembly, without a server."""

from __future__ import annotations

import json
from typing import Any

import pytest

from sidecar.core.conversation.messages import NO_CONTENT, ApiMessage, Usage
from sidecar.core.ports import (
    ModelRequest,
    ProviderError,
    TextDelta,
    ThinkingDelta,
    ToolInputDelta,
    ToolSpec,
    ToolUseStart,
)
from sidecar.providers.openai_chat import (
    IMAGE_IN_TOOL_RESULT_NOTE,
    OpenAIChatProvider,
    _Assembly,
    build_chat_body,
    convert_messages,
    convert_tools,
    usage_from_openai,
)

PNG = {
    "type": "image",
    "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="},
}


def test_system_blocks_become_one_system_message() -> None:
    out = convert_messages(
        [
            {"type": "text", "text": "One."},
            {"type": "text", "text": ""},
            {"type": "text", "text": "Two."},
        ],
        [ApiMessage("user", [{"type": "text", "text": "hi"}])],
    )
    assert out == [{"role": "system", "content": "One.\n\nTwo."}, {"role": "user", "content": "hi"}]


def test_tool_round_trip_conversion() -> None:
    messages = [
        ApiMessage("user", [{"type": "text", "text": "look"}, PNG]),
        ApiMessage(
            "assistant",
            [
                {"type": "thinking", "thinking": "secret plan", "signature": "s"},
                {"type": "redacted_thinking", "data": "zz"},
                {"type": "text", "text": "Reading both."},
                {"type": "tool_use", "id": "toolu_a", "name": "Read", "input": {"path": "a.py"}},
                {"type": "tool_use", "id": "toolu_b", "name": "Read", "input": {"path": "b.png"}},
            ],
        ),
        ApiMessage(
            "user",
            [
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_a",
                    "content": [{"type": "text", "text": "print(1)"}],
                },
                {"type": "tool_result", "tool_use_id": "toolu_b", "content": [PNG]},
                {"type": "text", "text": "now explain"},
            ],
        ),
        ApiMessage(
            "assistant", [{"type": "tool_use", "id": "toolu_c", "name": "Grep", "input": {}}]
        ),
        ApiMessage(
            "user",
            [
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_c",
                    "content": "no match",
                    "is_error": True,
                }
            ],
        ),
    ]
    out = convert_messages([], messages)
    assert out[0] == {
        "role": "user",
        "content": [
            {"type": "text", "text": "look"},
            {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
        ],
    }
    assert out[1]["role"] == "assistant"
    assert out[1]["content"] == "Reading both."  # thinking dropped
    assert [c["id"] for c in out[1]["tool_calls"]] == ["toolu_a", "toolu_b"]
    assert out[1]["tool_calls"][0] == {
        "id": "toolu_a",
        "type": "function",
        "function": {"name": "Read", "arguments": json.dumps({"path": "a.py"})},
    }
    # One tool message per result, right after the calls, before the user's own text.
    assert out[2] == {"role": "tool", "tool_call_id": "toolu_a", "content": "print(1)"}
    assert out[3] == {
        "role": "tool",
        "tool_call_id": "toolu_b",
        "content": IMAGE_IN_TOOL_RESULT_NOTE,
    }
    assert out[4] == {"role": "user", "content": "now explain"}
    assert out[5] == {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "toolu_c", "type": "function", "function": {"name": "Grep", "arguments": "{}"}}
        ],
    }
    assert out[6] == {"role": "tool", "tool_call_id": "toolu_c", "content": "Error: no match"}
    assert "secret plan" not in json.dumps(out)


def test_empty_tool_result_and_thinking_only_assistant() -> None:
    out = convert_messages(
        [],
        [
            ApiMessage("assistant", [{"type": "thinking", "thinking": "x", "signature": "s"}]),
            ApiMessage("user", [{"type": "tool_result", "tool_use_id": "t", "content": ""}]),
        ],
    )
    assert out == [{"role": "tool", "tool_call_id": "t", "content": NO_CONTENT}]


def test_url_images_and_text_documents() -> None:
    out = convert_messages(
        [],
        [
            ApiMessage(
                "user",
                [
                    {
                        "type": "image",
                        "source": {"type": "url", "url": "https://example.test/a.png"},
                    },
                    {"type": "document", "source": {"type": "text", "data": "doc body"}},
                ],
            )
        ],
    )
    assert out[0]["content"] == [
        {"type": "image_url", "image_url": {"url": "https://example.test/a.png"}},
        {"type": "text", "text": "doc body"},
    ]


def test_tools_become_functions() -> None:
    schema = {"type": "object", "properties": {"q": {"type": "string"}}}
    assert convert_tools([ToolSpec("Grep", "Search files", schema)]) == [
        {
            "type": "function",
            "function": {"name": "Grep", "description": "Search files", "parameters": schema},
        }
    ]


def body_for(provider: str, **kw: Any) -> dict[str, Any]:
    req = ModelRequest(
        model="gpt-4o",
        system=[],
        messages=[ApiMessage("user", [{"type": "text", "text": "hi"}])],
        **kw,
    )
    return build_chat_body(req, provider)  # type: ignore[arg-type]


def test_body_flags_per_provider() -> None:
    openai_body = body_for("openai", max_tokens=1000, prompt_cache_key="s-1")
    assert openai_body["max_completion_tokens"] == 1000 and "max_tokens" not in openai_body
    assert openai_body["stream"] is True
    assert openai_body["stream_options"] == {"include_usage": True}
    assert openai_body["prompt_cache_key"] == "s-1"
    compat = body_for("openai-compatible", max_tokens=1000)
    assert compat["max_tokens"] == 1000 and "max_completion_tokens" not in compat
    assert "prompt_cache_key" not in compat and "tools" not in compat
    # Anthropic-only fields never leak into the Chat Completions body.
    odd = body_for("openai", context_management={"edits": []}, thinking_budget=2000)
    assert not {"context_management", "thinking", "output_config"} & set(odd)
    # Thinking on becomes reasoning at the provider's default effort, or the one set.
    assert odd["reasoning_effort"] == "medium"
    assert body_for("openai", effort="high")["reasoning_effort"] == "high"
    assert "reasoning_effort" not in body_for("openai")


def test_usage_normalisation() -> None:
    usage = {
        "prompt_tokens": 2000,
        "completion_tokens": 30,
        "prompt_tokens_details": {"cached_tokens": 1536},
    }
    assert usage_from_openai(usage) == Usage(464, 0, 1536, 30)
    assert usage_from_openai({"prompt_tokens": 5, "completion_tokens": 2}) == Usage(5, 0, 0, 2)
    assert usage_from_openai(None) == Usage()
    assert usage_from_openai(None).is_zero()


def feed(state: _Assembly, deltas: list[dict[str, Any]], finish: str | None = None) -> list[Any]:
    provider = OpenAIChatProvider("k")
    out: list[Any] = []
    for delta in deltas:
        out.extend(provider._on_choice({"delta": delta}, state))
    state.finish_reason = finish
    return out


def test_stream_deltas_assemble_in_order() -> None:
    state = _Assembly()
    out = feed(
        state,
        [
            {"role": "assistant", "content": ""},
            {"reasoning_content": "think"},
            {"reasoning": "ing"},
            {"content": "Hi "},
            {"content": "there"},
            {
                "tool_calls": [
                    {
                        "index": 0,
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "Read", "arguments": ""},
                    }
                ]
            },
            {"tool_calls": [{"index": 0, "function": {"arguments": '{"path"'}}]},
            {
                "tool_calls": [
                    {"index": 1, "id": "call_2", "function": {"name": "Grep", "arguments": "{}"}}
                ]
            },
            {"tool_calls": [{"index": 0, "function": {"arguments": ': "a"}'}}]},
        ],
        "tool_calls",
    )
    assert out == [
        ThinkingDelta(0, "think"),
        ThinkingDelta(0, "ing"),
        TextDelta(1, "Hi "),
        TextDelta(1, "there"),
        ToolUseStart(2, "call_1", "Read"),
        ToolInputDelta(2, '{"path"'),
        ToolUseStart(3, "call_2", "Grep"),
        ToolInputDelta(3, "{}"),
        ToolInputDelta(2, ': "a"}'),
    ]
    done = state.completed()
    assert done.content == [
        {"type": "thinking", "thinking": "thinking", "signature": ""},
        {"type": "text", "text": "Hi there"},
        {"type": "tool_use", "id": "call_1", "name": "Read", "input": {"path": "a"}},
        {"type": "tool_use", "id": "call_2", "name": "Grep", "input": {}},
    ]
    assert done.stop_reason == "tool_use"
    assert done.usage == Usage()


@pytest.mark.parametrize(
    ("finish", "stop"),
    [
        ("stop", "end_turn"),
        ("length", "max_tokens"),
        ("content_filter", "refusal"),
        ("tool_calls", "tool_use"),
        (None, "end_turn"),
    ],
)
def test_finish_reason_map(finish: str | None, stop: str) -> None:
    state = _Assembly()
    feed(state, [{"content": "x"}], finish)
    assert state.completed().stop_reason == stop


def test_calls_without_index_or_with_a_reused_index() -> None:
    state = _Assembly()
    out = feed(
        state,
        [
            # A whole call in one delta without an index (Gemini, Ollama style).
            {
                "tool_calls": [
                    {"id": "c1", "function": {"name": "Read", "arguments": '{"path": "x"}'}}
                ]
            },
            # Index 0 again with a different id: a second call.
            {
                "tool_calls": [
                    {"index": 0, "id": "c2", "function": {"name": "Grep", "arguments": '{"q": 1'}}
                ]
            },
            {"tool_calls": [{"index": 0, "function": {"arguments": "}"}}]},
            # No index, no id: continues the latest call.
            {"tool_calls": [{"function": {"arguments": ""}}]},
        ],
        "stop",  # some servers say "stop" although they called tools
    )
    assert [type(e).__name__ for e in out] == [
        "ToolUseStart",
        "ToolInputDelta",
        "ToolUseStart",
        "ToolInputDelta",
        "ToolInputDelta",
    ]
    done = state.completed()
    assert [(b["id"], b["name"], b["input"]) for b in done.content] == [
        ("c1", "Read", {"path": "x"}),
        ("c2", "Grep", {"q": 1}),
    ]
    assert done.stop_reason == "tool_use"


def test_name_after_arguments_and_missing_id() -> None:
    state = _Assembly()
    out = feed(
        state,
        [
            {"tool_calls": [{"index": 0, "function": {"arguments": '{"a": 1}'}}]},
            {"tool_calls": [{"index": 0, "function": {"name": "Edit"}}]},
        ],
        "tool_calls",
    )
    assert (
        isinstance(out[0], ToolUseStart) and out[0].name == "Edit" and out[0].id.startswith("call_")
    )
    assert out[1] == ToolInputDelta(out[0].index, '{"a": 1}')
    assert state.completed().content[0]["id"] == out[0].id


def test_broken_arguments_are_a_retryable_malformed_event() -> None:
    state = _Assembly()
    feed(
        state,
        [
            {
                "tool_calls": [
                    {"index": 0, "id": "c", "function": {"name": "Read", "arguments": '{"pa'}}
                ]
            }
        ],
        "tool_calls",
    )
    with pytest.raises(ProviderError) as info:
        state.completed()
    assert info.value.type == "malformed_event" and info.value.retryable


def test_keyless_provider_uses_a_placeholder_and_hides_keys() -> None:
    provider = OpenAIChatProvider(
        "", base_url="http://127.0.0.1:11434/v1", name="openai-compatible"
    )
    assert provider._api_key and provider.name == "openai-compatible"
    assert "sk-live-secret" not in repr(OpenAIChatProvider("sk-live-secret"))
