"""The Responses API adapter without a server: conversion both ways and stream assembly.

Every body built here is also judged by the fake's validator, which is built from the
openai SDK's own request types (``ResponseCreateParamsStreaming``, ``ResponseCompactParams``,
``InputTokenCountParams``); stream events are parsed into the SDK's own event models
before they are assembled, as the SDK delivers them.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from openai._models import construct_type
from openai.types.responses import CompactedResponse, ResponseStreamEvent

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
from sidecar.fake_llm.validation import judge_responses
from sidecar.providers.openai_chat import IMAGE_IN_TOOL_RESULT_NOTE
from sidecar.providers.openai_responses import OpenAIResponsesProvider
from sidecar.providers.openai_responses_items import (
    ENCRYPTED_CONTENT,
    REASONING_ID,
    build_compact_body,
    build_count_body,
    build_responses_body,
    compacted_blocks,
    convert_input,
)
from sidecar.providers.openai_responses_stream import ResponsesAssembly, usage_from_responses

PNG = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}
READ = ToolSpec("Read", "Read a file", {"type": "object", "properties": {"path": {"type": "string"}}})
REASONING = {"type": "thinking", "thinking": "Read a first.", "signature": "",
             REASONING_ID: "rs_1", ENCRYPTED_CONTENT: "gAAAA-opaque"}


def request(messages: list[ApiMessage], **kw: Any) -> ModelRequest:
    base: dict[str, Any] = {"model": "gpt-5", "system": [{"type": "text", "text": "Be brief."}],
                            "messages": messages, "tools": [READ]}
    return ModelRequest(**{**base, **kw})


def accepted(body: dict[str, Any], path: str = "/v1/responses") -> None:
    found = judge_responses(path, body)
    assert found is None, found.message


# ---------------------------------------------------------------- our messages as input items


def test_a_tool_round_becomes_items_in_the_order_the_api_pairs_them() -> None:
    items = convert_input([
        ApiMessage("user", [{"type": "text", "text": "look"}, PNG]),
        ApiMessage("assistant", [
            {"type": "thinking", "thinking": "from Claude", "signature": "sig"},
            {"type": "redacted_thinking", "data": "zz"},
            REASONING,
            {"type": "text", "text": "Reading "},
            {"type": "text", "text": "both."},
            {"type": "tool_use", "id": "call_a", "name": "Read", "input": {"path": "a"}},
            {"type": "tool_use", "id": "call_b", "name": "Read", "input": {"path": "b"}},
        ]),
        # Results first, as normalization puts them, with a prompt after them.
        ApiMessage("user", [
            {"type": "tool_result", "tool_use_id": "call_a", "content": "A body"},
            {"type": "tool_result", "tool_use_id": "call_b", "is_error": True,
             "content": [{"type": "text", "text": "no such file"}]},
            {"type": "text", "text": "and now?"},
        ]),
    ])
    assert items == [
        {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "look"},
            {"type": "input_image", "image_url": "data:image/png;base64,iVBORw0KGgo=",
             "detail": "auto"}]},
        # Claude's signed thinking and redacted thinking cannot be read by this API.
        {"type": "reasoning", "id": "rs_1", "encrypted_content": "gAAAA-opaque",
         "summary": [{"type": "summary_text", "text": "Read a first."}]},
        {"type": "message", "role": "assistant", "content": "Reading both."},
        {"type": "function_call", "call_id": "call_a", "name": "Read", "arguments": '{"path": "a"}'},
        {"type": "function_call", "call_id": "call_b", "name": "Read", "arguments": '{"path": "b"}'},
        {"type": "function_call_output", "call_id": "call_a", "output": "A body"},
        {"type": "function_call_output", "call_id": "call_b", "output": "Error: no such file"},
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "and now?"}]},
    ]
    accepted({"model": "gpt-5", "input": items, "store": False, "stream": True})


def test_results_go_before_the_users_other_content_and_keep_their_images() -> None:
    items = convert_input([
        ApiMessage("assistant", [{"type": "tool_use", "id": "call_s", "name": "Read", "input": {}}]),
        ApiMessage("user", [
            {"type": "text", "text": "here it is"},
            {"type": "tool_result", "tool_use_id": "call_s",
             "content": [{"type": "text", "text": "a screenshot"}, PNG]},
        ]),
    ])
    assert [i["type"] for i in items] == ["function_call", "function_call_output", "message"]
    output = items[1]["output"]
    assert output[0] == {"type": "input_text", "text": "a screenshot"}
    assert output[1]["type"] == "input_image" and output[1]["image_url"].startswith("data:image/png")
    assert IMAGE_IN_TOOL_RESULT_NOTE not in json.dumps(items)  # no Chat Completions note here
    accepted({"model": "gpt-5", "input": items})


def test_reasoning_without_its_encrypted_form_is_left_out() -> None:
    unstored = {**REASONING}
    del unstored[ENCRYPTED_CONTENT]
    items = convert_input([ApiMessage("assistant", [unstored, {"type": "text", "text": "ok"}])])
    # Sent by id alone it would name an item nothing stored (store is false).
    assert items == [{"type": "message", "role": "assistant", "content": "ok"}]
    empty = {**REASONING, "thinking": ""}
    (item,) = convert_input([ApiMessage("assistant", [empty])])
    assert item["summary"] == [] and item["encrypted_content"] == "gAAAA-opaque"


def test_compaction_blocks_go_back_as_compaction_items_in_place() -> None:
    blocks = [{"type": "text", "text": "first prompt"},
              {"type": "compaction", ENCRYPTED_CONTENT: "enc-summary", "id": "cmp_1"},
              {"type": "text", "text": "go on"}]
    items = convert_input([ApiMessage("user", blocks)])
    assert items == [
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "first prompt"}]},
        {"type": "compaction", "encrypted_content": "enc-summary"},
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "go on"}]},
    ]
    accepted({"model": "gpt-5", "input": items})


def test_another_providers_readable_compaction_goes_as_its_text() -> None:
    # Anthropic's summary is readable: after a switch it reaches this API as text.
    signed = {"type": "compaction", "content": "The user fixed the parser.", "signature": "csig_1"}
    items = convert_input([ApiMessage("assistant", [signed]),
                           ApiMessage("user", [{"type": "text", "text": "go on"}])])
    assert items[0] == {"type": "message", "role": "assistant",
                        "content": "Summary of the earlier conversation:\nThe user fixed the parser."}
    accepted({"model": "gpt-5", "input": items})


# ---------------------------------------------------------------- the body


def test_body_is_stateless_streaming_and_carries_the_settings() -> None:
    req = request([ApiMessage("user", [{"type": "text", "text": "hi"}])],
                  prompt_cache_key="session-7", max_tokens=50_000, headers={"x-label": "main"})
    body = build_responses_body(req, ModelInfo(400_000, 32_000))
    assert body["store"] is False and body["stream"] is True
    assert body["instructions"] == "Be brief."
    assert body["max_output_tokens"] == 32_000  # the model's own limit wins
    assert body["prompt_cache_key"] == "session-7"
    assert body["tools"] == [{"type": "function", "name": "Read", "description": "Read a file",
                              "parameters": READ.input_schema, "strict": False}]
    assert not {"reasoning", "include", "messages", "system", "x-label"} & set(body)
    accepted(body)


@pytest.mark.parametrize(("settings", "effort"), [
    ({"effort": "high"}, "high"),
    ({"thinking_budget": 4_000}, "medium"),
    ({"thinking_adaptive": True, "effort": "xhigh"}, "xhigh"),
])
def test_reasoning_is_asked_for_with_its_encrypted_content(settings: dict[str, Any],
                                                          effort: str) -> None:
    body = build_responses_body(request([ApiMessage("user", [{"type": "text", "text": "hi"}])],
                                        **settings))
    assert body["reasoning"] == {"effort": effort, "summary": "auto"}
    assert body["include"] == ["reasoning.encrypted_content"]
    accepted(body)


def test_output_limit_never_goes_under_the_apis_floor() -> None:
    body = build_responses_body(request([ApiMessage("user", [{"type": "text", "text": "x"}])],
                                        max_tokens=3))
    assert body["max_output_tokens"] == 16
    accepted(body)


def test_count_and_compact_bodies_take_only_their_endpoints_fields() -> None:
    req = request([ApiMessage("user", [{"type": "text", "text": "hi"}])], effort="low",
                  prompt_cache_key="k")
    counted = build_count_body(req)
    assert set(counted) == {"model", "input", "instructions", "tools", "reasoning"}
    accepted(counted, "/v1/responses/input_tokens")
    compact = build_compact_body(req, "  Keep the file names.  ")
    assert set(compact) == {"model", "input", "instructions", "prompt_cache_key"}
    assert compact["instructions"] == "Be brief.\n\nKeep the file names."
    accepted(compact, "/v1/responses/compact")
    assert build_compact_body(dataclasses.replace(req, system=[]), None).get("instructions") is None


# ---------------------------------------------------------------- the stream


def events(*raw: dict[str, Any]) -> list[Any]:
    """Events as the SDK delivers them: parsed into its ResponseStreamEvent models."""
    return [construct_type(type_=ResponseStreamEvent, value={"sequence_number": n, **e})
            for n, e in enumerate(raw)]


RESPONSE = {"id": "resp_1", "object": "response", "created_at": 1, "model": "gpt-5-2025",
            "output": [], "parallel_tool_calls": True, "tool_choice": "auto", "tools": []}
USAGE = {"input_tokens": 2_000, "input_tokens_details": {"cached_tokens": 1_536},
         "output_tokens": 40, "output_tokens_details": {"reasoning_tokens": 12},
         "total_tokens": 2_040}


def assemble(raw: list[dict[str, Any]]) -> tuple[list[Any], Any]:
    state = ResponsesAssembly()
    out: list[Any] = []
    for event in events(*raw):
        out.extend(state.on_event(event))
    assert state.finished
    return out, state.completed()


def completed(**response: Any) -> dict[str, Any]:
    return {"type": "response.completed",
            "response": {**RESPONSE, "status": "completed", "usage": USAGE, **response}}


def test_reasoning_text_and_a_call_assemble_with_their_ids() -> None:
    reasoning = {"type": "reasoning", "id": "rs_9", "summary": []}
    call = {"type": "function_call", "id": "fc_1", "call_id": "call_9", "name": "Read",
            "arguments": ""}
    where = {"output_index": 0, "item_id": "rs_9"}
    out, done = assemble([
        {"type": "response.created", "response": {**RESPONSE, "status": "in_progress"}},
        {"type": "response.output_item.added", "output_index": 0, "item": reasoning},
        {"type": "response.reasoning_summary_text.delta", **where, "summary_index": 0,
         "delta": "**Plan** read"},
        {"type": "response.reasoning_summary_text.delta", **where, "summary_index": 1,
         "delta": "then answer"},
        {"type": "response.output_item.done", "output_index": 0,
         "item": {**reasoning, "encrypted_content": "enc-9",
                  "summary": [{"type": "summary_text", "text": "**Plan** read"},
                              {"type": "summary_text", "text": "then answer"}]}},
        {"type": "response.output_item.added", "output_index": 1,
         "item": {"type": "message", "id": "msg_1", "role": "assistant", "status": "in_progress",
                  "content": []}},
        {"type": "response.output_text.delta", "output_index": 1, "content_index": 0,
         "item_id": "msg_1", "delta": "Reading", "logprobs": []},
        {"type": "response.output_text.delta", "output_index": 1, "content_index": 0,
         "item_id": "msg_1", "delta": " it.", "logprobs": []},
        {"type": "response.output_item.added", "output_index": 2, "item": call},
        {"type": "response.function_call_arguments.delta", "output_index": 2, "item_id": "fc_1",
         "delta": '{"path":'},
        {"type": "response.function_call_arguments.delta", "output_index": 2, "item_id": "fc_1",
         "delta": ' "a.py"}'},
        {"type": "response.output_item.done", "output_index": 2,
         "item": {**call, "arguments": '{"path": "a.py"}'}},
        completed(),
    ])
    assert out == [
        ThinkingDelta(0, "**Plan** read"), ThinkingDelta(0, "\n\nthen answer"),
        TextDelta(1, "Reading"), TextDelta(1, " it."),
        ToolUseStart(2, "call_9", "Read"),
        ToolInputDelta(2, '{"path":'), ToolInputDelta(2, ' "a.py"}'),
    ]
    assert done.content == [
        {"type": "thinking", "thinking": "**Plan** read\n\nthen answer", "signature": "",
         REASONING_ID: "rs_9", ENCRYPTED_CONTENT: "enc-9"},
        {"type": "text", "text": "Reading it."},
        {"type": "tool_use", "id": "call_9", "name": "Read", "input": {"path": "a.py"}},
    ]
    assert (done.stop_reason, done.message_id, done.model) == ("tool_use", "resp_1", "gpt-5-2025")
    assert done.usage == Usage(input_tokens=464, cache_read_input_tokens=1_536, output_tokens=40)
    # What came back goes out again as it came: the reasoning by its id and encrypted
    # content, the call by its call_id.
    items = convert_input([ApiMessage("assistant", done.content)])
    assert items[0] == {"type": "reasoning", "id": "rs_9", "encrypted_content": "enc-9",
                        "summary": [{"type": "summary_text", "text": "**Plan** read\n\nthen answer"}]}
    assert items[2]["call_id"] == "call_9" and json.loads(items[2]["arguments"]) == {"path": "a.py"}


def test_what_only_the_done_items_carry_is_streamed_too() -> None:
    call = {"type": "function_call", "call_id": "call_x", "name": "Read", "arguments": '{"path": "b"}'}
    message = {"type": "message", "id": "msg_2", "role": "assistant", "status": "completed",
               "content": [{"type": "output_text", "text": "Whole text.", "annotations": []}]}
    out, done = assemble([
        {"type": "response.output_item.done", "output_index": 0, "item": message},
        {"type": "response.output_item.done", "output_index": 1, "item": call},
        completed(),
    ])
    assert out == [TextDelta(0, "Whole text."), ToolUseStart(1, "call_x", "Read"),
                   ToolInputDelta(1, '{"path": "b"}')]
    assert done.content[1]["input"] == {"path": "b"}
    # Deltas that disagree with the finished item give way to it.
    _, done = assemble([
        {"type": "response.output_item.added", "output_index": 0, "item": {**call, "arguments": ""}},
        {"type": "response.function_call_arguments.delta", "output_index": 0, "item_id": "fc",
         "delta": '{"path": "WRONG'},
        {"type": "response.output_item.done", "output_index": 0, "item": call},
        completed(),
    ])
    assert done.content[0]["input"] == {"path": "b"}


def test_reasoning_without_summary_is_kept_for_its_encrypted_content() -> None:
    item = {"type": "reasoning", "id": "rs_q", "summary": [], "encrypted_content": "enc-q"}
    out, done = assemble([
        {"type": "response.output_item.added", "output_index": 0,
         "item": {"type": "reasoning", "id": "rs_q", "summary": []}},
        {"type": "response.output_item.done", "output_index": 0, "item": item},
        {"type": "response.output_text.delta", "output_index": 1, "content_index": 0,
         "item_id": "m", "delta": "hi", "logprobs": []},
        completed(),
    ])
    assert out == [TextDelta(1, "hi")]
    assert done.content[0] == {"type": "thinking", "thinking": "", "signature": "",
                               REASONING_ID: "rs_q", ENCRYPTED_CONTENT: "enc-q"}
    assert done.stop_reason == "end_turn"


@pytest.mark.parametrize(("reason", "stop"), [("max_output_tokens", "max_tokens"),
                                              ("content_filter", "refusal")])
def test_an_incomplete_response_says_why_it_stopped(reason: str, stop: str) -> None:
    _, done = assemble([
        {"type": "response.output_text.delta", "output_index": 0, "content_index": 0,
         "item_id": "m", "delta": "cut sho", "logprobs": []},
        {"type": "response.incomplete", "response": {**RESPONSE, "status": "incomplete",
                                                     "incomplete_details": {"reason": reason},
                                                     "usage": USAGE}},
    ])
    assert done.stop_reason == stop and done.content == [{"type": "text", "text": "cut sho"}]


def test_usage_splits_cached_tokens_out_and_no_usage_is_zero() -> None:
    assert usage_from_responses(None) == Usage()
    odd = {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 50}, "output_tokens": 1}
    assert usage_from_responses(odd) == Usage(cache_read_input_tokens=10, output_tokens=1)


@pytest.mark.parametrize(("event", "kind", "retryable", "too_long"), [
    ({"type": "error", "code": "context_length_exceeded", "param": "input",
      "message": "Your input exceeds the context window of this model. Please adjust your input "
                 "and try again."}, "context_length_exceeded", False, True),
    ({"type": "response.failed", "response": {**RESPONSE, "status": "failed", "error": {
        "code": "rate_limit_exceeded", "message": "Rate limit reached. Try again in 2s."}}},
     "rate_limit_error", True, False),
    ({"type": "response.failed", "response": {**RESPONSE, "status": "failed", "error": {
        "code": "server_error", "message": "The server had an error."}}}, "api_error", True, False),
    ({"type": "response.failed", "response": {**RESPONSE, "status": "failed", "error": {
        "code": "invalid_prompt", "message": "Invalid prompt."}}},
     "invalid_request_error", False, False),
])
def test_failures_inside_the_stream_are_classified(event: dict[str, Any], kind: str,
                                                   retryable: bool, too_long: bool) -> None:
    state = ResponsesAssembly()
    (parsed,) = events(event)
    with pytest.raises(ProviderError) as info:
        state.on_event(parsed)
    err = info.value
    assert (err.type, err.retryable, err.prompt_too_long) == (kind, retryable, too_long)
    assert err.token_gap is None  # the API's overflow message names no token counts


def test_malformed_arguments_and_strays_are_retryable_malformed_events() -> None:
    state = ResponsesAssembly()
    with pytest.raises(ProviderError) as stray:
        state.on_event(events({"type": "response.function_call_arguments.delta",
                               "output_index": 4, "item_id": "fc", "delta": "{"})[0])
    assert (stray.value.type, stray.value.retryable) == ("malformed_event", True)
    call = {"type": "function_call", "call_id": "c", "name": "Read", "arguments": "{not json"}
    state = ResponsesAssembly()
    for event in events({"type": "response.output_item.done", "output_index": 0, "item": call},
                        completed()):
        state.on_event(event)
    with pytest.raises(ProviderError) as bad:
        state.completed()
    assert (bad.value.type, bad.value.retryable) == ("malformed_event", True)


# ---------------------------------------------------------------- compacted output


def test_compacted_output_becomes_user_blocks_then_the_compaction_verbatim() -> None:
    raw = {
        "id": "resp_c", "object": "response.compaction", "created_at": 1, "usage": USAGE,
        "output": [
            {"type": "message", "id": "msg_u1", "status": "completed", "role": "user",
             "content": [{"type": "input_text", "text": "first"},
                         {"type": "input_image", "image_url": "data:image/png;base64,AAAA",
                          "detail": "auto"}]},
            {"type": "message", "id": "msg_u2", "status": "completed", "role": "user",
             "content": [{"type": "input_text", "text": "second"}]},
            {"type": "compaction", "id": "cmp_7", "encrypted_content": "enc-ctx=="},
        ],
    }
    # The SDK types this output as assistant output items; read it as the SDK delivers it.
    parsed = construct_type(type_=CompactedResponse, value=raw)
    assert compacted_blocks(parsed.output) == [
        {"type": "text", "text": "first"},
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AAAA"}},
        {"type": "text", "text": "second"},
        {"type": "compaction", ENCRYPTED_CONTENT: "enc-ctx==", "id": "cmp_7"},
    ]


class _Client:
    """Stands in for the SDK client where a test needs the endpoint to misbehave."""

    def __init__(self, answer: Any) -> None:
        self.responses = self
        self.answer = answer
        self.calls: list[dict[str, Any]] = []

    async def compact(self, **kw: Any) -> Any:
        self.calls.append(kw)
        return self.answer


async def test_compact_without_a_compaction_item_is_an_error() -> None:
    provider = OpenAIResponsesProvider("sk-test")
    answer = construct_type(type_=CompactedResponse, value={
        "id": "r", "object": "response.compaction", "created_at": 1, "usage": USAGE,
        "output": [{"type": "message", "id": "m", "status": "completed", "role": "user",
                    "content": [{"type": "input_text", "text": "hi"}]}]})
    provider._client = _Client(answer)
    with pytest.raises(ProviderError) as info:
        await provider.compact(request([ApiMessage("user", [{"type": "text", "text": "hi"}])],
                                       headers={"x-context-sidecar-call": "summary"}), None)
    assert info.value.type == "malformed_event"
    (call,) = provider._client.calls
    assert call["extra_headers"] == {"x-context-sidecar-call": "summary"}
    assert "store" not in call and "tools" not in call
