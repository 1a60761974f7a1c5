"""Prompt-cache simulations: Anthropic breakpoints with TTL and lookback, OpenAI prefix caching."""

from __future__ import annotations

from typing import Any

from sidecar.fake_llm.cache import AnthropicPromptCache, OpenAIPrefixCache
from sidecar.fake_llm.counting import Unit, anthropic_units, make_unit, openai_units


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


CC = {"type": "ephemeral"}


def conversation(turns: int, *, mark_last: bool = True) -> dict[str, Any]:
    """A system prompt with a breakpoint plus ``turns`` user/assistant pairs; the newest user
    block carries the moving breakpoint, as coding clients place it."""
    messages: list[dict[str, Any]] = []
    for i in range(turns):
        messages.append(
            {"role": "user", "content": [{"type": "text", "text": f"question {i} " * 40}]}
        )
        messages.append(
            {"role": "assistant", "content": [{"type": "text", "text": f"answer {i} " * 40}]}
        )
    messages.append({"role": "user", "content": [{"type": "text", "text": "next please"}]})
    if mark_last:
        messages[-1]["content"][0]["cache_control"] = CC
    return {
        "system": [
            {"type": "text", "text": "You are a coding assistant. " * 50, "cache_control": CC}
        ],
        "messages": messages,
    }


def tokens_through(units: list[Unit], index: int) -> int:
    return sum(u.total for u in units[: index + 1])


def test_without_breakpoints_everything_is_plain_input() -> None:
    cache = AnthropicPromptCache(FakeClock())
    units = anthropic_units(conversation(2, mark_last=False) | {"system": "plain"})
    usage = cache.apply("m", units)
    assert usage.cache_read_input_tokens == 0 and usage.cache_creation_input_tokens == 0
    assert usage.input_tokens == sum(u.total for u in units)


def test_first_request_writes_then_next_turn_reads_the_shared_prefix() -> None:
    clock = FakeClock()
    cache = AnthropicPromptCache(clock)
    first = anthropic_units(conversation(2))
    usage1 = cache.apply("m", first)
    total1 = sum(u.total for u in first)
    assert usage1.cache_read_input_tokens == 0
    assert usage1.cache_creation_input_tokens == total1
    assert usage1.input_tokens == 0
    assert usage1.ephemeral_5m_input_tokens == total1

    # The next turn appends the reply and a new user block; the breakpoint moves forward.
    second_body = conversation(3)
    second = anthropic_units(second_body)
    clock.now += 10
    usage2 = cache.apply("m", second)
    # The old breakpoint sat on "next please"; turn 3 rewrote that position, so the hit is
    # the longest earlier written prefix: the system block.
    assert usage2.cache_read_input_tokens == tokens_through(second, 0)
    assert usage2.cache_read_input_tokens + usage2.cache_creation_input_tokens == sum(
        u.total for u in second
    )


def test_growing_conversation_reads_previous_breakpoint_within_lookback() -> None:
    clock = FakeClock()
    cache = AnthropicPromptCache(clock)
    body = conversation(2)
    units1 = anthropic_units(body)
    cache.apply("m", units1)
    # Keep the old breakpoint's block as-is and append blocks after it (the usual client pattern).
    body["messages"].append(
        {"role": "assistant", "content": [{"type": "text", "text": "sure " * 30}]}
    )
    body["messages"].append(
        {"role": "user", "content": [{"type": "text", "text": "and then?", "cache_control": CC}]}
    )
    units2 = anthropic_units(body)
    usage = cache.apply("m", units2)
    assert usage.cache_read_input_tokens == sum(u.total for u in units1)
    assert usage.cache_creation_input_tokens == sum(u.total for u in units2[len(units1) :])
    assert usage.input_tokens == 0


def test_uncached_tail_after_last_breakpoint_is_input_tokens() -> None:
    cache = AnthropicPromptCache(FakeClock())
    body = conversation(1)
    body["messages"][-1]["content"][0].pop("cache_control")
    units = anthropic_units(body)
    usage = cache.apply("m", units)
    assert usage.cache_creation_input_tokens == units[0].total
    assert usage.input_tokens == sum(u.total for u in units[1:])


def test_ttl_expiry_and_refresh_on_hit() -> None:
    clock = FakeClock()
    cache = AnthropicPromptCache(clock)
    units = anthropic_units(conversation(1))
    total = sum(u.total for u in units)
    cache.apply("m", units)
    clock.now += 200
    assert cache.apply("m", units).cache_read_input_tokens == total
    clock.now += 200  # 400 s after the write but only 200 s after the refreshing hit
    assert cache.apply("m", units).cache_read_input_tokens == total
    clock.now += 301
    expired = cache.apply("m", units)
    assert expired.cache_read_input_tokens == 0
    assert expired.cache_creation_input_tokens == total


def test_one_hour_ttl_survives_five_minutes_and_is_reported_separately() -> None:
    clock = FakeClock()
    cache = AnthropicPromptCache(clock)
    body = conversation(1, mark_last=False)
    body["system"][0]["cache_control"] = {"type": "ephemeral", "ttl": "1h"}
    units = anthropic_units(body)
    usage = cache.apply("m", units)
    assert usage.ephemeral_1h_input_tokens == units[0].total
    assert usage.ephemeral_5m_input_tokens == 0
    clock.now += 1800
    assert cache.apply("m", units).cache_read_input_tokens == units[0].total


def test_lookback_is_limited_to_twenty_blocks() -> None:
    clock = FakeClock()
    cache = AnthropicPromptCache(clock)
    blocks = [make_unit(f"block {i} " * 5) for i in range(40)]
    marked = [Unit(b.key, b.text, b.tokens, 300.0) if i == 5 else b for i, b in enumerate(blocks)]
    cache.apply("m", marked[:6])
    near = [Unit(b.key, b.text, b.tokens, 300.0) if i == 25 else b for i, b in enumerate(blocks)]
    assert cache.apply("m", near[:26]).cache_read_input_tokens == tokens_through(blocks, 5)
    cache.clear()
    cache.apply("m", marked[:6])
    far = [Unit(b.key, b.text, b.tokens, 300.0) if i == 26 else b for i, b in enumerate(blocks)]
    assert cache.apply("m", far[:27]).cache_read_input_tokens == 0


def test_cache_is_per_model_and_respects_minimum_size() -> None:
    clock = FakeClock()
    cache = AnthropicPromptCache(clock)
    units = anthropic_units(conversation(1))
    cache.apply("model-a", units)
    assert cache.apply("model-b", units).cache_read_input_tokens == 0
    strict = AnthropicPromptCache(clock, min_tokens=10**6)
    usage = strict.apply("m", units)
    assert usage.cache_creation_input_tokens == 0
    assert usage.input_tokens == sum(u.total for u in units)


def openai_body(history: int, tail: str = "latest") -> dict[str, Any]:
    messages = [{"role": "system", "content": "You write code. " * 300}]
    for i in range(history):
        messages.append({"role": "user", "content": f"question {i} " * 30})
        messages.append({"role": "assistant", "content": f"answer {i} " * 30})
    messages.append({"role": "user", "content": tail})
    return {"messages": messages}


def test_openai_short_prompts_are_never_cached() -> None:
    cache = OpenAIPrefixCache(FakeClock())
    units = openai_units({"messages": [{"role": "user", "content": "hello " * 100}]})
    assert cache.apply(units, None) == 0
    assert cache.apply(units, None) == 0


def test_openai_cached_tokens_are_the_common_prefix_rounded_to_128() -> None:
    cache = OpenAIPrefixCache(FakeClock())
    first = openai_units(openai_body(3))
    assert cache.apply(first, None) == 0
    second = openai_units(openai_body(4))
    cached = cache.apply(second, None)
    shared = sum(u.total for u in first[:-1])  # everything before the old last user message
    assert cached % 128 == 0
    assert shared - 128 < cached <= shared
    assert cached >= 1024


def test_openai_common_prefix_reaches_inside_a_changed_message() -> None:
    cache = OpenAIPrefixCache(FakeClock())
    base = "shared words " * 600
    cache.apply(openai_units({"messages": [{"role": "user", "content": base + "tail one"}]}), None)
    cached = cache.apply(
        openai_units({"messages": [{"role": "user", "content": base + "other end"}]}), None
    )
    assert cached >= 1024 and cached % 128 == 0


def test_openai_prompt_cache_key_separates_and_ttl_expires() -> None:
    clock = FakeClock()
    cache = OpenAIPrefixCache(clock)
    cache.apply(openai_units(openai_body(3)), "alpha")
    assert cache.apply(openai_units(openai_body(4)), "beta") == 0
    assert cache.apply(openai_units(openai_body(4)), "alpha") > 0
    clock.now += 301
    assert cache.apply(openai_units(openai_body(5)), "alpha") == 0
