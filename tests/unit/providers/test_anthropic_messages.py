"""Anthropic request shaping and stream assembly, without a server."""

from __future__ import annotations

from typing import Any

import pytest

from sidecar.core.conversation.messages import ApiMessage, Usage
from sidecar.core.models.catalog import ModelInfo
from sidecar.core.ports import (
    ModelRequest,
    ProviderError,
    TextDelta,
    ThinkingDelta,
    ToolInputDelta,
    ToolSpec,
    ToolUseStart,
)
from sidecar.providers.anthropic_messages import (
    CONTEXT_MANAGEMENT_BETA,
    EFFORT_BETA,
    LONG_CONTEXT_BETA,
    AnthropicProvider,
    _Assembly,
    betas_for,
    build_messages_body,
)

EPHEMERAL = {"type": "ephemeral"}
TOOLS = [
    ToolSpec("Read", "Read a file", {"type": "object", "properties": {"path": {"type": "string"}}}),
    ToolSpec("Grep", "Search", {"type": "object", "properties": {"pattern": {"type": "string"}}}),
]


def conversation() -> list[ApiMessage]:
    return [
        ApiMessage("user", [{"type": "text", "text": "read a.py"}]),
        ApiMessage(
            "assistant",
            [
                {"type": "thinking", "thinking": "plan", "signature": "sig_1"},
                {"type": "text", "text": "Reading."},
                {"type": "tool_use", "id": "toolu_1", "name": "Read", "input": {"path": "a.py"}},
            ],
        ),
        ApiMessage(
            "user",
            [
                {"type": "tool_result", "tool_use_id": "toolu_1", "content": "print(1)"},
                {"type": "text", "text": "and explain it"},
            ],
        ),
    ]


def request(**kw: Any) -> ModelRequest:
    base: dict[str, Any] = {
        "model": "claude-sonnet-4-6",
        "system": [
            {"type": "text", "text": "You are terse."},
            {"type": "text", "text": "Context."},
        ],
        "messages": conversation(),
        "tools": list(TOOLS),
    }
    base.update(kw)
    return ModelRequest(**base)


def markers(body: dict[str, Any]) -> list[str]:
    """Where cache_control sits, as readable paths."""
    found = [f"tools[{i}]" for i, t in enumerate(body.get("tools", [])) if "cache_control" in t]
    found += [f"system[{i}]" for i, b in enumerate(body.get("system", [])) if "cache_control" in b]
    for m, message in enumerate(body["messages"]):
        for b, block in enumerate(message["content"]):
            if "cache_control" in block:
                found.append(f"messages[{m}][{b}]")
            if isinstance(block.get("content"), list):
                for p, part in enumerate(block["content"]):
                    if "cache_control" in part:
                        found.append(f"messages[{m}][{b}].content[{p}]")
    return found


def test_three_breakpoints_on_last_tool_system_block_and_latest_message() -> None:
    body = build_messages_body(request())
    assert markers(body) == ["tools[1]", "system[1]", "messages[2][1]"]
    assert body["tools"][1]["cache_control"] == EPHEMERAL
    assert body["messages"][2]["content"][1] == {
        "type": "text",
        "text": "and explain it",
        "cache_control": EPHEMERAL,
    }


def test_an_anchor_is_a_fourth_breakpoint_with_the_hour_and_the_api_takes_it() -> None:
    """The anchor's message and the prefix before it carry the one-hour TTL, the latest
    message five minutes: one-hour breakpoints only before five-minute ones."""
    from sidecar.fake_llm.validation import judge_anthropic

    hour = {"type": "ephemeral", "ttl": "1h"}
    messages = conversation()
    messages[1].content.pop(0)  # a thinking block the fake would check the signature of
    body = build_messages_body(request(cache_anchor=0, messages=messages))
    assert markers(body) == ["tools[1]", "system[1]", "messages[0][0]", "messages[2][1]"]
    assert body["tools"][1]["cache_control"] == hour
    assert body["system"][1]["cache_control"] == hour
    assert body["messages"][0]["content"][0]["cache_control"] == hour
    assert body["messages"][2]["content"][1]["cache_control"] == EPHEMERAL
    headers = {"anthropic-version": "2023-06-01"}
    assert judge_anthropic("/v1/messages", body | {"stream": True}, headers) is None
    # Anchored on the latest message itself: one breakpoint there, with the hour.
    body = build_messages_body(request(cache_anchor=2, messages=messages))
    assert markers(body) == ["tools[1]", "system[1]", "messages[2][1]"]
    assert body["messages"][2]["content"][1]["cache_control"] == hour
    assert judge_anthropic("/v1/messages", body | {"stream": True}, headers) is None
    # An anchor the messages no longer reach is no anchor.
    assert markers(build_messages_body(request(cache_anchor=7))) == \
        ["tools[1]", "system[1]", "messages[2][1]"]


def test_latest_message_breakpoint_is_optional() -> None:
    body = build_messages_body(request(cache_latest_message=False))
    assert markers(body) == ["tools[1]", "system[1]"]


def test_existing_markers_are_replaced_so_the_limit_holds() -> None:
    messages = conversation()
    messages[0] = ApiMessage("user", [{"type": "text", "text": "a", "cache_control": EPHEMERAL}])
    messages[2].content[0]["content"] = [{"type": "text", "text": "x", "cache_control": EPHEMERAL}]
    system = [
        {"type": "text", "text": "s", "cache_control": EPHEMERAL},
        {"type": "text", "text": "t"},
    ]
    body = build_messages_body(request(messages=messages, system=system))
    assert markers(body) == ["tools[1]", "system[1]", "messages[2][1]"]
    assert len(markers(body)) <= 4


def test_request_is_not_mutated() -> None:
    req = request(thinking_budget=2_000)
    before = [m.to_json() for m in req.messages]
    build_messages_body(req)
    assert [m.to_json() for m in req.messages] == before


def test_breakpoint_skips_thinking_at_the_end_of_the_latest_message() -> None:
    messages = [
        ApiMessage("user", [{"type": "text", "text": "hi"}]),
        ApiMessage(
            "assistant",
            [
                {"type": "text", "text": "partial"},
                {"type": "thinking", "thinking": "x", "signature": "s"},
            ],
        ),
    ]
    body = build_messages_body(request(messages=messages, tools=[], system=[]))
    assert markers(body) == ["messages[1][0]"]
    assert "system" not in body and "tools" not in body


def test_thinking_without_signature_is_left_out() -> None:
    messages = conversation()
    messages[1] = ApiMessage(
        "assistant",
        [
            {"type": "thinking", "thinking": "from another provider", "signature": ""},
            {"type": "text", "text": "x"},
        ],
    )
    body = build_messages_body(request(messages=messages))
    assert [b["type"] for b in body["messages"][1]["content"]] == ["text"]


def test_thinking_budget_and_max_tokens() -> None:
    body = build_messages_body(request(thinking_budget=4_000, max_tokens=16_000))
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 4_000}
    assert body["max_tokens"] == 16_000
    # The budget must stay below max_tokens; under the API's minimum it is left off.
    assert build_messages_body(request(thinking_budget=50_000, max_tokens=8_000))["thinking"] == {
        "type": "enabled",
        "budget_tokens": 7_999,
    }
    assert "thinking" not in build_messages_body(request(thinking_budget=500))
    assert "thinking" not in build_messages_body(request())


def test_adaptive_thinking_and_effort() -> None:
    body = build_messages_body(request(thinking_adaptive=True, effort="high"))
    assert body["thinking"] == {"type": "adaptive"}
    assert body["output_config"] == {"effort": "high"}
    assert betas_for(request(), body) == [EFFORT_BETA]


def test_max_tokens_clamped_to_the_model_limit() -> None:
    info = ModelInfo(context_window=200_000, max_output_tokens=4_096)
    assert build_messages_body(request(max_tokens=32_000), info)["max_tokens"] == 4_096


def test_context_management_is_a_typed_field_with_its_beta() -> None:
    management = {
        "edits": [
            {
                "type": "clear_tool_uses_20250919",
                "trigger": {"type": "input_tokens", "value": 180_000},
            }
        ]
    }
    req = request(context_management=management)
    body = build_messages_body(req)
    assert body["context_management"] == management
    assert betas_for(req, body) == [CONTEXT_MANAGEMENT_BETA]
    assert betas_for(request(), build_messages_body(request())) == []


def test_long_context_beta_only_for_models_that_need_it() -> None:
    req = request(long_context=True)
    body = build_messages_body(req)
    needs = ModelInfo(context_window=200_000, max_output_tokens=64_000, supports_1m=True)
    plain = ModelInfo(context_window=200_000, max_output_tokens=64_000)
    assert betas_for(req, body, needs) == [LONG_CONTEXT_BETA]
    assert betas_for(req, body, plain) == []
    assert betas_for(request(), body, needs) == []


def events_for(assembly: _Assembly, events: list[dict[str, Any]]) -> list[Any]:
    provider = AnthropicProvider("k")
    out: list[Any] = []
    for event in events:
        out.extend(provider._on_event(event, assembly))
    return out


def stream_events(tool_json: list[str]) -> list[dict[str, Any]]:
    return [
        {
            "type": "message_start",
            "message": {
                "id": "msg_1",
                "model": "claude-x",
                "usage": {
                    "input_tokens": 10,
                    "cache_creation_input_tokens": 100,
                    "cache_read_input_tokens": 1000,
                    "output_tokens": 1,
                    "cache_creation": {"ephemeral_5m_input_tokens": 70,
                                       "ephemeral_1h_input_tokens": 30},
                },
            },
        },
        {
            "type": "content_block_start",
            "index": 0,
            "content_block": {"type": "thinking", "thinking": ""},
        },
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "thinking_delta", "thinking": "hm"},
        },
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "signature_delta", "signature": "sig"},
        },
        {"type": "content_block_stop", "index": 0},
        {
            "type": "content_block_start",
            "index": 1,
            "content_block": {"type": "redacted_thinking", "data": "xx"},
        },
        {"type": "content_block_stop", "index": 1},
        {"type": "content_block_start", "index": 2, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 2, "delta": {"type": "text_delta", "text": "Hel"}},
        {"type": "content_block_delta", "index": 2, "delta": {"type": "text_delta", "text": "lo"}},
        {"type": "content_block_stop", "index": 2},
        {
            "type": "content_block_start",
            "index": 3,
            "content_block": {"type": "tool_use", "id": "toolu_9", "name": "Read", "input": {}},
        },
        *[
            {
                "type": "content_block_delta",
                "index": 3,
                "delta": {"type": "input_json_delta", "partial_json": p},
            }
            for p in tool_json
        ],
        {"type": "content_block_stop", "index": 3},
        {
            "type": "message_delta",
            "delta": {"stop_reason": "tool_use"},
            "usage": {"output_tokens": 42},
            "context_management": {
                "applied_edits": [{"type": "clear_thinking_20251015", "cleared_thinking_turns": 1}]
            },
        },
        {"type": "message_stop"},
    ]


def test_stream_events_assemble_blocks_usage_and_edits() -> None:
    state = _Assembly()
    out = events_for(state, stream_events(["", '{"pa', 'th": "a.py"}']))
    assert out == [
        ThinkingDelta(0, "hm"),
        TextDelta(2, "Hel"),
        TextDelta(2, "lo"),
        ToolUseStart(3, "toolu_9", "Read"),
        ToolInputDelta(3, '{"pa'),
        ToolInputDelta(3, 'th": "a.py"}'),
    ]
    assert state.stopped
    done = state.completed()
    assert done.content == [
        {"type": "thinking", "thinking": "hm", "signature": "sig"},
        {"type": "redacted_thinking", "data": "xx"},
        {"type": "text", "text": "Hello"},
        {"type": "tool_use", "id": "toolu_9", "name": "Read", "input": {"path": "a.py"}},
    ]
    # The one-hour writes are kept apart: they cost more (the dollars the gauge shows).
    assert done.usage == Usage(10, 100, 1000, 42, cache_creation_1h_tokens=30)
    assert done.stop_reason == "tool_use"
    assert (done.message_id, done.model) == ("msg_1", "claude-x")
    assert done.applied_edits == [{"type": "clear_thinking_20251015", "cleared_thinking_turns": 1}]


def test_tool_use_without_input_gets_an_empty_object() -> None:
    state = _Assembly()
    events_for(state, stream_events([""]))
    assert state.completed().content[3]["input"] == {}


def test_broken_tool_json_is_a_retryable_malformed_event() -> None:
    with pytest.raises(ProviderError) as info:
        events_for(_Assembly(), stream_events(['{"path": ']))
    assert info.value.type == "malformed_event"
    assert info.value.retryable


def test_delta_for_an_unknown_block_is_malformed() -> None:
    with pytest.raises(ProviderError) as info:
        events_for(
            _Assembly(),
            [
                {
                    "type": "content_block_delta",
                    "index": 5,
                    "delta": {"type": "text_delta", "text": "x"},
                }
            ],
        )
    assert info.value.type == "malformed_event"


def test_repr_never_shows_the_key() -> None:
    provider = AnthropicProvider("sk-ant-secret-value", base_url="http://127.0.0.1:1")
    assert "secret" not in repr(provider)


def test_another_providers_encrypted_compaction_is_left_out_and_its_own_kept() -> None:
    openai_summary = {"type": "compaction", "encrypted_content": "enc-for-openai", "id": "cmp_1"}
    signed = {"type": "compaction", "content": "The user fixed the parser.", "signature": "csig_1"}
    body = build_messages_body(request(messages=[
        ApiMessage("user", [{"type": "text", "text": "first prompt"}, openai_summary,
                            {"type": "text", "text": "go on"}])]))
    assert [b["type"] for b in body["messages"][0]["content"]] == ["text", "text"]
    body = build_messages_body(request(messages=[
        ApiMessage("assistant", [signed]), ApiMessage("user", [{"type": "text", "text": "go on"}])]))
    assert body["messages"][0]["content"] == [signed]


def test_server_tools_go_as_their_types_and_their_blocks_in_pairs() -> None:
    """Web search and fetch go as the API's own tool types; an answer's server tool use
    whose result never came is left out (the API refuses it), and an answer left with
    nothing keeps a placeholder; OpenAI's web_search_call never reaches Anthropic."""
    use = {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"query": "q"}}
    result = {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []}
    openai_call = {"type": "web_search_call", "id": "ws_1", "status": "completed",
                   "action": {"type": "search", "query": "q"}}
    request = ModelRequest(model="claude-sonnet-5-5", system=[], tools=TOOLS,
                           server_tools=("web_search", "web_fetch"), messages=[
        ApiMessage("user", [{"type": "text", "text": "a"}]),
        ApiMessage("assistant", [use, result, {"type": "text", "text": "found", "annotations": []}]),
        ApiMessage("user", [{"type": "text", "text": "b"}]),
        ApiMessage("assistant", [dict(use, id="srvtoolu_2"), openai_call]),
        ApiMessage("user", [{"type": "text", "text": "c"}]),
    ])
    body = build_messages_body(request)
    assert [t.get("type") for t in body["tools"]][-2:] == ["web_search_20260318", "web_fetch_20260318"]
    assert "cache_control" in body["tools"][-1]
    assert [b["type"] for b in body["messages"][1]["content"]] == \
        ["server_tool_use", "web_search_tool_result", "text"]
    assert "annotations" not in body["messages"][1]["content"][2]
    assert body["messages"][3]["content"] == [{"type": "text", "text": "(no content)"}]
    assert betas_for(request, body) == []


def test_a_server_tool_use_streams_no_client_call() -> None:
    state = _Assembly()
    out = events_for(state, [
        {"type": "message_start", "message": {"id": "m", "model": "x", "usage": {}}},
        {"type": "content_block_start", "index": 0, "content_block": {
            "type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}}},
        {"type": "content_block_delta", "index": 0,
         "delta": {"type": "input_json_delta", "partial_json": '{"query": "py'}},
        {"type": "content_block_delta", "index": 0,
         "delta": {"type": "input_json_delta", "partial_json": 'thon"}'}},
        {"type": "content_block_stop", "index": 0},
        {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {}},
        {"type": "message_stop"},
    ])
    assert not [e for e in out if isinstance(e, (ToolUseStart, ToolInputDelta))]
    assert state.completed().content == [
        {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"query": "python"}}]
