"""Token counting of the fake LLM server: canonical units, memoization, flat media costs."""

from __future__ import annotations

import time

from sidecar.fake_llm.counting import (
    IMAGE_TOKENS,
    anthropic_units,
    count_text,
    encoding,
    openai_units,
    output_tokens,
    total_tokens,
)


def test_count_text_matches_tiktoken_and_ignores_special_markers() -> None:
    text = "def main():\n    return '<|endoftext|>'  # not a special token here"
    assert count_text(text) == len(encoding().encode_ordinary(text))
    assert count_text("") == 0
    assert count_text("hello world") == 2


def test_anthropic_units_follow_cache_order_tools_system_messages() -> None:
    body = {
        "tools": [
            {"name": "Read", "description": "read a file", "input_schema": {"type": "object"}}
        ],
        "system": [{"type": "text", "text": "You are terse."}],
        "messages": [
            {"role": "user", "content": "first question"},
            {"role": "assistant", "content": [{"type": "text", "text": "answer"}]},
        ],
    }
    units = anthropic_units(body)
    assert [u.text.split(" ", 1)[0] for u in units[:2]] == ["tool", "system:"]
    assert units[2].text == "\n\nuser: first question"
    assert units[3].text == "\n\nassistant: answer"
    assert total_tokens(units) == sum(count_text(u.text) for u in units)


def test_cache_control_marks_a_breakpoint_without_changing_identity() -> None:
    plain = {"messages": [{"role": "user", "content": [{"type": "text", "text": "same words"}]}]}
    marked = {
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "same words", "cache_control": {"type": "ephemeral"}}
                ],
            }
        ]
    }
    (a,) = anthropic_units(plain)
    (b,) = anthropic_units(marked)
    assert a.key == b.key and a.tokens == b.tokens
    assert a.breakpoint_ttl is None and b.breakpoint_ttl == 300.0
    marked["messages"][0]["content"][0]["cache_control"]["ttl"] = "1h"
    assert anthropic_units(marked)[0].breakpoint_ttl == 3600.0


def test_tool_use_and_results_and_images_are_counted() -> None:
    body = {
        "messages": [
            {
                "role": "assistant",
                "content": [
                    {"type": "tool_use", "id": "t1", "name": "Read", "input": {"path": "a.py"}}
                ],
            },
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "t1",
                        "content": [
                            {"type": "text", "text": "print('hi')"},
                            {"type": "image", "source": {"type": "base64", "data": "AAAA"}},
                        ],
                    }
                ],
            },
        ]
    }
    use, result = anthropic_units(body)
    assert "Read" in use.text and '"path":"a.py"' in use.text
    assert "print('hi')" in result.text
    assert result.extra_tokens == IMAGE_TOKENS
    assert result.total == result.tokens + IMAGE_TOKENS


def test_openai_units_cover_tools_messages_and_tool_calls() -> None:
    body = {
        "tools": [{"type": "function", "function": {"name": "Read", "parameters": {}}}],
        "messages": [
            {"role": "system", "content": "be brief"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "c1",
                        "type": "function",
                        "function": {"name": "Read", "arguments": "{}"},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": "file text"},
        ],
    }
    units = openai_units(body)
    assert len(units) == 4
    assert units[1].text.startswith("<|system|>")
    assert "Read({})" in units[2].text
    assert "file text" in units[3].text


def test_output_tokens_count_generated_blocks_and_are_never_zero() -> None:
    assert output_tokens([]) == 1
    blocks = [
        {"type": "thinking", "thinking": "consider it"},
        {"type": "text", "text": "hello world"},
        {"type": "tool_use", "id": "t", "name": "Read", "input": {"p": 1}},
    ]
    assert output_tokens(blocks) == count_text("consider it") + 2 + count_text('Read\n{"p":1}')


def test_large_conversation_is_counted_quickly_the_second_time() -> None:
    paragraph = "The sidecar keeps sessions inside the window by compacting history. " * 60
    messages = [
        {"role": "user" if i % 2 == 0 else "assistant", "content": f"{i}: {paragraph}"}
        for i in range(300)
    ]
    body = {"messages": messages}
    first = total_tokens(anthropic_units(body))
    assert first > 150_000
    started = time.perf_counter()
    body["messages"].append({"role": "user", "content": "one more"})
    second = total_tokens(anthropic_units(body))
    elapsed = time.perf_counter() - started
    assert second > first
    assert elapsed < 0.25, f"memoized recount took {elapsed:.3f}s"
