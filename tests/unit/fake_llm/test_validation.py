"""The fake judges request bodies as the real APIs do: refusals, and shapes it must accept.

Each refusal case is a defect a client can really ship (several of them this project once
shipped); each accepted case is a shape the official SDKs' documentation sends, so the
validator is never stricter than the APIs.
"""

from __future__ import annotations

import base64
from typing import Any

import pytest

from sidecar.fake_llm.request_rules import thinking_signature
from sidecar.fake_llm.validation import judge_anthropic, judge_openai

HEADERS = {"anthropic-version": "2023-06-01"}
BETA = HEADERS | {"anthropic-beta": "context-management-2025-06-27"}


def body(messages: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"model": "claude-sonnet-4-6", "max_tokens": 1024, "stream": True,
            "messages": messages, **extra}


def user(*blocks: dict[str, Any]) -> dict[str, Any]:
    return {"role": "user", "content": list(blocks)}


def assistant(*blocks: dict[str, Any]) -> dict[str, Any]:
    return {"role": "assistant", "content": list(blocks)}


def text(t: str, **kw: Any) -> dict[str, Any]:
    return {"type": "text", "text": t, **kw}


def use(tid: str, name: str = "Read") -> dict[str, Any]:
    return {"type": "tool_use", "id": tid, "name": name, "input": {"file_path": "a.py"}}


def result(tid: str) -> dict[str, Any]:
    return {"type": "tool_result", "tool_use_id": tid, "content": "ok"}


def refused(b: dict[str, Any], headers: dict[str, str] = HEADERS,
            path: str = "/v1/messages") -> str:
    found = judge_anthropic(path, b, headers)
    assert found is not None, "the body was accepted"
    return found.message


def accepted(b: dict[str, Any], headers: dict[str, str] = HEADERS,
             path: str = "/v1/messages") -> None:
    found = judge_anthropic(path, b, headers)
    assert found is None, found.message


# ----------------------------------------------------------------- Anthropic: refusals


def test_a_block_type_no_public_api_has() -> None:
    cache_edits = {"type": "cache_edits", "edits": [{"type": "delete", "tool_use_id": "t1"}]}
    message = refused(body([user(cache_edits, text("hi"))]))
    assert message.startswith("messages.0.user.content.0: Input tag 'cache_edits'")


def test_unknown_fields_at_any_depth() -> None:
    assert refused(body([user(text("hi"))], bogus=1)) == "bogus: Extra inputs are not permitted"
    assert "text.bogus: Extra inputs" in refused(body([user(text("hi", bogus=1))]))
    # count_tokens takes no max_tokens.
    counted = {k: v for k, v in body([user(text("hi"))]).items() if k not in ("max_tokens", "stream")}
    accepted(counted, path="/v1/messages/count_tokens")
    assert "max_tokens" in refused(counted | {"max_tokens": 5}, path="/v1/messages/count_tokens")


def test_a_window_suffix_is_no_model_id() -> None:
    assert "[1m]" in refused(body([user(text("hi"))], model="claude-opus-4-6[1m]"))


def test_version_header_is_required() -> None:
    assert "anthropic-version" in refused(body([user(text("hi"))]), headers={})


def test_at_most_four_cache_breakpoints() -> None:
    cc = {"type": "ephemeral"}
    system = [text(f"s{i}", cache_control=cc) for i in range(5)]
    assert "maximum of 4 blocks" in refused(body([user(text("hi"))], system=system))
    accepted(body([user(text("hi", cache_control=cc))], system=system[:3]))


def test_one_hour_breakpoints_come_before_five_minute_ones() -> None:
    """The API processes tools, system, then messages; a one-hour breakpoint after a
    five-minute one is refused, a one-hour prefix before a five-minute tail is taken."""
    hour, five = {"type": "ephemeral", "ttl": "1h"}, {"type": "ephemeral"}
    tools = [{"name": "Read", "description": "r", "input_schema": {"type": "object"},
              "cache_control": five}]
    message = refused(body([user(text("hi", cache_control=hour))], tools=tools))
    assert message.startswith("messages.0.content.0.cache_control: a ttl='1h' cache_control")
    assert "must not come after a ttl='5m'" in refused(
        body([user(text("a", cache_control={"type": "ephemeral", "ttl": "5m"}),
                   text("b", cache_control=hour))]))
    accepted(body([user(text("a", cache_control=hour)), assistant(text("b")),
                   user(text("c", cache_control=five))],
                  system=[text("s", cache_control=hour)],
                  tools=[tools[0] | {"cache_control": hour}]))


def test_context_management_needs_its_beta_header() -> None:
    edits = {"edits": [{"type": "clear_tool_uses_20250919"}]}
    assert "context_management" in refused(body([user(text("hi"))], context_management=edits))
    accepted(body([user(text("hi"))], context_management=edits), headers=BETA)


def test_clear_thinking_needs_thinking_on_and_comes_first() -> None:
    thinking_edit = {"type": "clear_thinking_20251015", "keep": "all"}
    tools_edit = {"type": "clear_tool_uses_20250919"}
    plain = body([user(text("hi"))], context_management={"edits": [thinking_edit, tools_edit]})
    assert "requires thinking" in refused(plain, headers=BETA)
    adaptive = plain | {"thinking": {"type": "adaptive"}}
    accepted(adaptive, headers=BETA)
    swapped = adaptive | {"context_management": {"edits": [tools_edit, thinking_edit]}}
    assert "must be the first" in refused(swapped, headers=BETA)


def test_thinking_budget_rules() -> None:
    low = body([user(text("hi"))], thinking={"type": "enabled", "budget_tokens": 500})
    assert "greater than or equal to 1024" in refused(low)
    above = body([user(text("hi"))], max_tokens=2000,
                 thinking={"type": "enabled", "budget_tokens": 2000})
    assert "`max_tokens` must be greater than `thinking.budget_tokens`" in refused(above)


def test_thinking_signatures_come_back_unchanged() -> None:
    thought = "check the file first"
    good = {"type": "thinking", "thinking": thought, "signature": thinking_signature(thought)}
    accepted(body([user(text("hi")), assistant(good, text("done")), user(text("next"))]))
    forged = good | {"thinking": "something else"}
    assert "Invalid `signature`" in refused(
        body([user(text("hi")), assistant(forged, text("done")), user(text("next"))]))
    unsigned = {"type": "thinking", "thinking": thought}
    assert "signature: Field required" in refused(
        body([user(text("hi")), assistant(unsigned, text("done")), user(text("next"))]))


def test_a_budgeted_tool_loop_hands_its_thinking_back() -> None:
    thinking = {"type": "enabled", "budget_tokens": 1024}
    loop = [user(text("hi")), assistant(use("t1")), user(result("t1"))]
    assert "must start with a thinking block" in refused(body(loop, max_tokens=4096,
                                                              thinking=thinking))
    signed = {"type": "thinking", "thinking": "x", "signature": thinking_signature("x")}
    loop[1] = assistant(signed, use("t1"))
    accepted(body(loop, max_tokens=4096, thinking=thinking))


def test_tool_results_answer_the_message_before() -> None:
    stray = body([user(text("hi")), assistant(text("sure")), user(result("t9"))])
    assert "unexpected `tool_use_id`" in refused(stray)
    missing = body([user(text("hi")), assistant(use("t1")), user(text("and?"))])
    assert "without `tool_result` blocks immediately after: t1" in refused(missing)
    late = body([user(text("hi")), assistant(use("t1")), user(text("note"), result("t1"))])
    assert "must come first" in refused(late)
    accepted(body([user(text("hi")), assistant(use("t1")), user(result("t1"), text("note"))]))


def test_tool_use_ids_are_unique() -> None:
    twice = body([user(text("hi")), assistant(use("t1")), user(result("t1")),
                  assistant(use("t1")), user(result("t1"))])
    assert "ids must be unique" in refused(twice)


def test_empty_text_blocks_and_trailing_whitespace() -> None:
    assert "text content blocks must be non-empty" in refused(body([user(text(""))]))
    assert "trailing whitespace" in refused(body([user(text("hi")), assistant(text("Sure "))]))


def test_an_image_over_the_size_limit() -> None:
    data = base64.b64encode(b"\x89PNG" + b"\0" * (5 * 1024 * 1024)).decode()
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": data}}
    assert "image exceeds 5 MB maximum" in refused(body([user(image, text("what is it?"))]))


# ----------------------------------------------------------------- Anthropic: accepted


def test_documented_shapes_are_accepted() -> None:
    png = base64.b64encode(b"\x89PNG\r\n\x1a\n").decode()
    pdf = base64.b64encode(b"%PDF-1.4").decode()
    tools = [{"name": "get_weather", "description": "Weather for a city",
              "input_schema": {"type": "object", "properties": {"city": {"type": "string"}},
                               "required": ["city"]},
              "cache_control": {"type": "ephemeral"}}]
    messages = [
        user(text("What is in this image and this PDF?"),
             {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": png}},
             {"type": "document", "source": {"type": "base64", "media_type": "application/pdf",
                                             "data": pdf}}),
        assistant(text("Let me check the weather too."),
                  {"type": "tool_use", "id": "toolu_01", "name": "get_weather",
                   "input": {"city": "Paris"}}),
        user({"type": "tool_result", "tool_use_id": "toolu_01",
              "content": [text("15 degrees")], "is_error": False}),
        assistant({"type": "redacted_thinking", "data": "EmwKAhgB"}, text("It is 15 degrees.")),
        user(text("Thanks", cache_control={"type": "ephemeral", "ttl": "5m"})),
    ]
    accepted(body(messages, system=[text("You are terse.", cache_control={"type": "ephemeral"})],
                  tools=tools, tool_choice={"type": "auto"},
                  stop_sequences=["END"], metadata={"user_id": "u-1"}))
    # A plain string system prompt and string content, non-streaming.
    plain = {"model": "claude-haiku-4-5", "max_tokens": 64, "system": "Be brief.",
             "messages": [{"role": "user", "content": "Hello"},
                          {"role": "assistant", "content": "Hi"}]}
    accepted(plain)


# ----------------------------------------------------------------- OpenAI


def chat(messages: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"model": "gpt-5.5", "stream": True, "stream_options": {"include_usage": True},
            "messages": messages, **extra}


def openai_refused(b: dict[str, Any]) -> str:
    found = judge_openai(b, {})
    assert found is not None, "the body was accepted"
    return found.message


def test_openai_refusals() -> None:
    call = {"id": "call_1", "type": "function",
            "function": {"name": "Read", "arguments": "{}"}}
    stray = chat([{"role": "user", "content": "hi"},
                  {"role": "tool", "tool_call_id": "call_9", "content": "x"}])
    assert "must be a response to a preceeding message" in openai_refused(stray)
    unanswered = chat([{"role": "user", "content": "hi"},
                       {"role": "assistant", "tool_calls": [call]},
                       {"role": "user", "content": "and?"}])
    assert "did not have response messages: call_1" in openai_refused(unanswered)
    assert "only allowed when 'stream' is enabled" in openai_refused(
        chat([{"role": "user", "content": "hi"}], stream=False))
    assert "Use 'max_completion_tokens'" in openai_refused(
        chat([{"role": "user", "content": "hi"}], max_tokens=100))
    assert "Extra inputs are not permitted" in openai_refused(
        chat([{"role": "user", "content": "hi", "cache_control": {"type": "ephemeral"}}]))


def test_openai_documented_shapes_are_accepted() -> None:
    call = {"id": "call_1", "type": "function",
            "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}
    messages = [
        {"role": "developer", "content": "Be brief."},
        {"role": "user", "content": [{"type": "text", "text": "Weather here?"},
                                     {"type": "image_url",
                                      "image_url": {"url": "data:image/png;base64,iVBORw0="}}]},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "call_1", "content": "15 degrees"},
        {"role": "assistant", "content": "It is 15 degrees."},
        {"role": "user", "content": "Thanks"},
    ]
    tools = [{"type": "function", "function": {
        "name": "get_weather", "description": "Weather for a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}]
    found = judge_openai(chat(messages, tools=tools, tool_choice="auto", max_completion_tokens=500,
                              reasoning_effort="low", prompt_cache_key="s-1"), {})
    assert found is None, found
    # Compatible servers' older shape: max_tokens on a non-reasoning model.
    found = judge_openai({"model": "llama3.3", "max_tokens": 100, "stream": False,
                          "messages": [{"role": "system", "content": "x"},
                                       {"role": "user", "content": "hi"}]}, {})
    assert found is None, found


@pytest.mark.parametrize("model", ["gpt-4o", "qwen2.5-coder:7b", "openrouter/anthropic/claude-x"])
def test_openai_model_ids(model: str) -> None:
    assert judge_openai(chat([{"role": "user", "content": "hi"}], model=model), {}) is None
