"""The fake's Responses API over raw HTTP: what it answers, checked against the openai SDK's
own response models, and what it refuses, in the API's 400 shape.

The events, responses and compacted output are validated with the SDK's pydantic models
(``ResponseStreamEvent``, ``Response``, ``ResponseInputMessageItem``, ``ResponseCompactionItem``,
``InputTokenCountResponse``), which is stricter than the SDK itself when it reads a stream.
"""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from typing import Any

import pytest
from openai.types.responses import (
    InputTokenCountResponse,
    Response,
    ResponseCompactionItem,
    ResponseInputMessageItem,
    ResponseStreamEvent,
)
from pydantic import TypeAdapter

from sidecar.fake_llm import FakeLLMServer, Reply
from sidecar.fake_llm.encrypted_content import seal
from tests.unit.fake_llm.test_server import call, sse

BEARER = {"authorization": "Bearer test-key"}
EVENTS: TypeAdapter[Any] = TypeAdapter(ResponseStreamEvent)
RICH = [
    {"type": "thinking", "thinking": "Read the file first."},
    {"type": "text", "text": "Let me read it."},
    {"type": "tool_use", "id": "call_r1", "name": "Read", "input": {"path": "a.py"}},
]
# Long enough for OpenAI's automatic prefix cache (1,024 tokens at least).
LONG = "You are a careful assistant. " + " ".join(f"Rule {i}: cite files." for i in range(250))


@pytest.fixture
def srv() -> Iterator[FakeLLMServer]:
    with FakeLLMServer() as server:
        yield server


def ask(text: str = "hi", **extra: Any) -> dict[str, Any]:
    return {"model": "gpt-5", "store": False,
            "input": [{"type": "message", "role": "user",
                       "content": [{"type": "input_text", "text": text}]}], **extra}


def post(srv: FakeLLMServer, body: dict[str, Any],
         path: str = "/v1/responses") -> tuple[int, Any]:
    status, _, raw = call(srv, path, body, BEARER)
    return status, raw


def stream(srv: FakeLLMServer, body: dict[str, Any]) -> list[dict[str, Any]]:
    status, raw = post(srv, {**body, "stream": True})
    assert status == 200
    out = []
    for name, data in sse(raw):
        event = json.loads(data)
        assert name == event["type"]
        EVENTS.validate_python(event)  # the SDK's own model of each event
        out.append(event)
    return out


def refusal(srv: FakeLLMServer, body: dict[str, Any], path: str = "/v1/responses") -> dict[str, Any]:
    status, raw = post(srv, body, path)
    assert status == 400, raw
    error = json.loads(raw)["error"]
    assert error["type"] == "invalid_request_error"
    assert srv.requests[-1].refusal == error["message"]
    return dict(error)


# ---------------------------------------------------------------- answers


def test_a_streamed_reply_in_the_sdks_event_shapes(srv: FakeLLMServer) -> None:
    srv.queue(Reply(content=RICH, chunk_size=5))
    body = ask("read a.py", reasoning={"effort": "high", "summary": "auto"},
               include=["reasoning.encrypted_content"],
               tools=[{"type": "function", "name": "Read", "parameters": {"type": "object"},
                       "strict": False}])
    events = stream(srv, body)
    kinds = [e["type"] for e in events]
    assert kinds[:2] == ["response.created", "response.in_progress"]
    assert kinds[-1] == "response.completed"
    assert [e["sequence_number"] for e in events] == list(range(len(events)))
    summary = "".join(e["delta"] for e in events
                      if e["type"] == "response.reasoning_summary_text.delta")
    text = "".join(e["delta"] for e in events if e["type"] == "response.output_text.delta")
    arguments = "".join(e["delta"] for e in events
                        if e["type"] == "response.function_call_arguments.delta")
    assert (summary, text) == ("Read the file first.", "Let me read it.")
    assert json.loads(arguments) == {"path": "a.py"}
    done = [e["item"] for e in events if e["type"] == "response.output_item.done"]
    assert [i["type"] for i in done] == ["reasoning", "message", "function_call"]
    assert done[0]["encrypted_content"] and done[2]["call_id"] == "call_r1"
    final = Response.model_validate(events[-1]["response"])
    assert final.status == "completed" and final.usage is not None
    assert final.usage.input_tokens == srv.requests[-1].input_tokens
    assert final.usage.output_tokens_details.reasoning_tokens > 0
    assert final.usage.total_tokens == final.usage.input_tokens + final.usage.output_tokens


def test_reasoning_shows_only_what_the_request_asked_for(srv: FakeLLMServer) -> None:
    srv.queue(Reply(content=RICH[:2]))
    events = stream(srv, ask(reasoning={"effort": "low"}))
    (reasoning,) = [e["item"] for e in events
                    if e["type"] == "response.output_item.done" and e["item"]["type"] == "reasoning"]
    # No summary asked for, no encrypted content included: an item with neither.
    assert reasoning["summary"] == [] and "encrypted_content" not in reasoning
    assert not any(e["type"].startswith("response.reasoning_summary") for e in events)


def test_a_non_streamed_reply_and_an_incomplete_one(srv: FakeLLMServer) -> None:
    srv.queue(Reply.text("All done."))
    srv.queue(Reply.text("cut sho", stop_reason="max_tokens"))
    _, raw = post(srv, ask("finish"))
    first = Response.model_validate_json(raw)
    assert first.status == "completed" and first.output_text == "All done."
    _, raw = post(srv, ask("again", max_output_tokens=16))
    second = Response.model_validate_json(raw)
    assert second.status == "incomplete" and second.incomplete_details is not None
    assert second.incomplete_details.reason == "max_output_tokens"


def test_the_prefix_cache_reports_cached_tokens(srv: FakeLLMServer) -> None:
    body = ask("one", instructions=LONG, prompt_cache_key="s1")
    first = Response.model_validate_json(post(srv, body)[1])
    second = Response.model_validate_json(post(srv, {**body, "input": body["input"] + [
        {"type": "message", "role": "assistant", "content": first.output_text},
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "two"}]},
    ]})[1])
    assert first.usage is not None and second.usage is not None
    assert first.usage.input_tokens_details.cached_tokens == 0
    cached = second.usage.input_tokens_details.cached_tokens
    assert cached >= 1_024 and cached % 128 == 0 and cached <= second.usage.input_tokens


def test_the_default_reply_echoes_the_last_user_message(srv: FakeLLMServer) -> None:
    body = ask("first")
    body["input"] += [{"role": "assistant", "content": "ok"}, {"role": "user", "content": "echo   me"}]
    assert Response.model_validate_json(post(srv, body)[1]).output_text == "Echo: echo me"


# ---------------------------------------------------------------- overflow and faults


def test_an_input_past_the_window_is_answered_as_the_api_does(srv: FakeLLMServer) -> None:
    srv.context_window = 50
    srv.queue(Reply.text("kept for later"))
    body = ask("many words " * 40)
    status, raw = post(srv, body)
    assert status == 400
    error = json.loads(raw)["error"]
    assert (error["code"], error["param"]) == ("context_length_exceeded", "input")
    assert error["message"].startswith("Your input exceeds the context window of this model.")
    # Streaming, the response opens first and the error arrives as an event.
    events = stream(srv, body)
    assert [e["type"] for e in events] == ["response.created", "response.in_progress", "error"]
    assert events[-1]["code"] == "context_length_exceeded"
    assert srv.pending_replies == 1 and srv.requests[-1].fault == "prompt_too_long"


def test_scripted_faults_on_the_responses_wire(srv: FakeLLMServer) -> None:
    srv.queue({"fault": "rate_limit", "retry_after": 4})
    status, headers, raw = call(srv, "/v1/responses", ask(), BEARER)
    assert status == 429 and headers["retry-after"] == "4"
    assert json.loads(raw)["error"]["code"] == "rate_limit_exceeded"
    srv.queue({"fault": "prompt_too_long"})
    events = stream(srv, ask())
    assert events[-1]["type"] == "error" and events[-1]["code"] == "context_length_exceeded"
    srv.queue({"fault": "cut_stream", "after_events": 3, "content": RICH})
    with pytest.raises(http.client.IncompleteRead) as cut:
        call(srv, "/v1/responses", {**ask(), "stream": True}, BEARER)
    assert b"response.created" in cut.value.partial and b"response.completed" not in cut.value.partial
    srv.queue({"fault": "malformed_event", "after_events": 2})
    _, _, raw = call(srv, "/v1/responses", {**ask(), "stream": True}, BEARER)
    datas = [d for _, d in sse(raw)]
    with pytest.raises(json.JSONDecodeError):
        json.loads(datas[2])


# ---------------------------------------------------------------- refusals


def function_round(call_id: str = "call_1", answer: str | None = "call_1") -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = [
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "go"}]},
        {"type": "function_call", "call_id": call_id, "name": "Read", "arguments": "{}"},
    ]
    if answer is not None:
        items.append({"type": "function_call_output", "call_id": answer, "output": "ok"})
    return items


def test_function_calls_and_outputs_pair_by_call_id(srv: FakeLLMServer) -> None:
    post(srv, ask(input=function_round()))
    assert srv.requests[-1].status == 200
    stray = refusal(srv, ask(input=function_round(answer="call_9")))
    assert stray["message"] == "No tool call found for function call output with call_id call_9."
    unanswered = function_round(answer=None) + [
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "?"}]}]
    assert refusal(srv, ask(input=unanswered))["message"] == (
        "No tool output found for function call call_1.")
    assert refusal(srv, ask(input=function_round(answer=None)))["message"] == (
        "No tool output found for function call call_1.")
    twice = function_round() + function_round()[1:]
    assert "already the call_id of input[1]" in refusal(srv, ask(input=twice))["message"]


def test_settings_the_types_cannot_check(srv: FakeLLMServer) -> None:
    assert "Expected a value >= 16, but got 8" in refusal(srv, ask(max_output_tokens=8))["message"]
    assert "[1m]" in refusal(srv, ask(model="gpt-5.4[1m]"))["message"]
    effort = refusal(srv, ask(model="gpt-4o", reasoning={"effort": "high"}))
    assert effort["param"] == "reasoning.effort"
    encrypted = refusal(srv, ask(model="gpt-4.1", include=["reasoning.encrypted_content"]))
    assert encrypted["message"] == "Encrypted content is not supported with this model."
    tool = {"type": "function", "name": "read file", "parameters": {}, "strict": False}
    assert refusal(srv, ask(tools=[tool]))["param"] == "tools[0].name"


def test_what_the_sdk_types_refuse(srv: FakeLLMServer) -> None:
    extra = ask()
    extra["input"][0]["content"][0]["bogus"] = 1
    found = refusal(srv, extra)
    assert found["message"] == ("Invalid value for 'input.0.message.content.0.input_text.bogus': "
                                "Extra inputs are not permitted")
    unknown = refusal(srv, ask(input=[{"type": "cache_edits"}]))
    assert "Input tag 'cache_edits' found using 'type' does not match" in unknown["message"]
    # The SDK's FunctionToolParam requires ``strict`` (it may be null, not absent).
    lax = refusal(srv, ask(tools=[{"type": "function", "name": "Read", "parameters": {}}]))
    assert lax["message"] == "Invalid value for 'tools.0.function.strict': Field required"


def test_parts_must_suit_the_role(srv: FakeLLMServer) -> None:
    body = ask(input=[{"type": "message", "role": "assistant",
                       "content": [{"type": "input_text", "text": "I said"}]}])
    found = refusal(srv, body)
    assert found["message"] == ("Invalid value: 'input_text'. Supported values are: 'output_text' "
                                "and 'refusal'.")


def altered(value: str) -> str:
    """The value with its last character changed, as a client that mangles it would."""
    return value[:-1] + ("0" if value[-1] != "0" else "1")


def test_reasoning_comes_back_encrypted_unchanged_and_before_its_output(
        srv: FakeLLMServer) -> None:
    srv.queue(Reply(content=RICH))
    body = ask(reasoning={"effort": "low", "summary": "auto"},
               include=["reasoning.encrypted_content"])
    given = json.loads(post(srv, body)[1])["output"]
    # The output items go back verbatim, as the API's guide passes ``response.output``.
    back = ask(input=body["input"] + given + [
        {"type": "function_call_output", "call_id": "call_r1", "output": "file"}])
    post(srv, back)
    assert srv.requests[-1].status == 200, srv.requests[-1].refusal

    tampered = json.loads(json.dumps(back))
    tampered["input"][1]["encrypted_content"] = altered(given[0]["encrypted_content"])
    assert refusal(srv, tampered)["message"] == (
        "The encrypted content for item input[1] could not be verified.")
    unsent = json.loads(json.dumps(back))
    del unsent["input"][1]["encrypted_content"]
    found = refusal(srv, unsent)["message"]
    assert found.startswith(f"Item with id '{given[0]['id']}' not found. Items are not persisted")
    alone = ask(input=[*body["input"], given[0]])
    assert refusal(srv, alone)["message"].endswith(
        "of type 'reasoning' was provided without its required following item.")


def test_compaction_content_is_checked_like_reasoning(srv: FakeLLMServer) -> None:
    forged = seal({"kind": "reasoning", "text": "not a compaction"})
    found = refusal(srv, ask(input=[{"type": "compaction", "encrypted_content": forged}]))
    assert "could not be verified" in found["message"]
    # Content from a real service cannot be checked here: it is accepted.
    post(srv, ask(input=[{"type": "compaction", "encrypted_content": "gAAAAA-real"}]))
    assert srv.requests[-1].status == 200


# ---------------------------------------------------------------- compact and count


def conversation(turns: int) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for i in range(turns):
        items += [
            {"type": "message", "role": "user",
             "content": [{"type": "input_text", "text": f"question {i}"}]},
            {"type": "function_call", "call_id": f"call_{i}", "name": "Read",
             "arguments": json.dumps({"path": f"f{i}.py"})},
            {"type": "function_call_output", "call_id": f"call_{i}", "output": "line\n" * 300},
            {"type": "message", "role": "assistant", "content": f"answer {i}"},
        ]
    return items


def as_input(message: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in message.items() if k not in ("id", "status")}


def test_compact_keeps_the_user_messages_and_one_compaction_item(srv: FakeLLMServer) -> None:
    srv.queue(Reply.text("untouched"))
    body = {"model": "gpt-5", "input": conversation(3), "instructions": "Be brief."}
    status, raw = post(srv, body, "/v1/responses/compact")
    assert status == 200, raw
    answer = json.loads(raw)
    assert answer["object"] == "response.compaction"
    *kept, last = answer["output"]
    assert [ResponseInputMessageItem.model_validate(m).role for m in kept] == ["user"] * 3
    assert [m["content"][0]["text"] for m in kept] == ["question 0", "question 1", "question 2"]
    compaction = ResponseCompactionItem.model_validate(last)
    assert srv.pending_replies == 1  # compaction is no scripted turn

    # Sent back, the compaction counts as its summary, not as what it replaced. The user
    # messages go back without the ids the endpoint gave them: the SDK's input types have
    # no message with an id but the assistant's.
    original = srv.requests[-1].input_tokens
    later = ask(input=[*map(as_input, kept), last, {
        "type": "message", "role": "user", "content": [{"type": "input_text", "text": "go on"}]}])
    post(srv, later)
    assert srv.requests[-1].status == 200, srv.requests[-1].refusal
    assert srv.requests[-1].input_tokens < original / 4
    # And it is the fake's own: altered, it is refused.
    later["input"][3]["encrypted_content"] = altered(compaction.encrypted_content)
    assert "could not be verified" in refusal(srv, later)["message"]


def test_compacting_a_compaction_keeps_the_earlier_summary(srv: FakeLLMServer) -> None:
    first = json.loads(post(srv, {"model": "gpt-5", "input": conversation(2)},
                            "/v1/responses/compact")[1])
    again = [*map(as_input, first["output"][:-1]), first["output"][-1], *conversation(1)]
    second = json.loads(post(srv, {"model": "gpt-5", "input": again}, "/v1/responses/compact")[1])
    assert srv.requests[-1].status == 200, srv.requests[-1].refusal
    assert len([i for i in second["output"] if i["type"] == "compaction"]) == 1
    assert [m["content"][0]["text"] for m in second["output"][:-1]] == [
        "question 0", "question 1", "question 0"]


def test_compact_refuses_and_overflows_as_create_does(srv: FakeLLMServer) -> None:
    found = refusal(srv, {"model": "gpt-5", "input": function_round(answer="x")},
                    "/v1/responses/compact")
    assert found["message"].startswith("No tool call found")
    assert "stream" in refusal(srv, {"model": "gpt-5", "input": "hi", "stream": True},
                               "/v1/responses/compact")["message"]
    srv.context_window = 100
    status, raw = post(srv, {"model": "gpt-5", "input": conversation(2)}, "/v1/responses/compact")
    assert status == 400 and json.loads(raw)["error"]["code"] == "context_length_exceeded"


def test_input_tokens_counts_what_create_would_and_keeps_the_queue(srv: FakeLLMServer) -> None:
    srv.queue(Reply.text("later"))
    body = {"model": "gpt-5", "input": conversation(1), "instructions": "Be brief."}
    status, raw = post(srv, body, "/v1/responses/input_tokens")
    counted = InputTokenCountResponse.model_validate_json(raw)
    assert status == 200 and counted.object == "response.input_tokens"
    post(srv, {**body, "store": False})
    assert counted.input_tokens == srv.requests[-1].input_tokens > 0
    assert "store" in refusal(srv, {**body, "store": False}, "/v1/responses/input_tokens")["message"]
