"""The peer benchmark's account of what a client's own system prompt and tools cost."""

from __future__ import annotations

from typing import Any

import pytest

from sidecar.fake_llm.counting import anthropic_units
from tests.bench.peer.measure import prompt_overhead

TOOL = {"name": "Read", "description": "Reads a file from the workspace, numbered like cat -n.",
        "input_schema": {"type": "object", "properties": {"file_path": {"type": "string"}}}}


def _body(ttl: str | None = None) -> dict[str, Any]:
    control: dict[str, str] = {"type": "ephemeral", **({"ttl": ttl} if ttl else {})}
    return {"tools": [{**TOOL, "cache_control": control}],
            "system": [{"type": "text", "text": "You are a coding assistant in an editor.",
                        "cache_control": control}],
            "messages": [{"role": "user", "content": "Read src/app.py and explain it " * 40}]}


def _lead(body: dict[str, Any]) -> int:
    return sum(u.total for u in anthropic_units(body)[:2])


def test_a_read_prefix_costs_a_tenth_of_its_tokens() -> None:
    body = _body()
    lead = _lead(body)
    usage = {"input_tokens": 0, "cache_read_input_tokens": lead + 500,
             "cache_creation_input_tokens": 80, "output_tokens": 10}
    assert prompt_overhead(body, usage) == pytest.approx(0.1 * lead)


def test_what_the_read_leaves_is_billed_as_written_then_as_input() -> None:
    body = _body()
    lead = _lead(body)
    written = {"input_tokens": 0, "cache_read_input_tokens": 0,
               "cache_creation_input_tokens": lead + 300, "output_tokens": 10}
    assert prompt_overhead(body, written) == pytest.approx(1.25 * lead)
    split = {"input_tokens": 7, "cache_read_input_tokens": 20,
             "cache_creation_input_tokens": lead - 30, "output_tokens": 10}
    assert prompt_overhead(body, split) == pytest.approx(0.1 * 20 + 1.25 * (lead - 30) + 10)
    uncached = {"input_tokens": lead + 300, "output_tokens": 10}
    assert prompt_overhead(body, uncached) == pytest.approx(lead)


def test_a_prefix_written_with_the_hour_is_billed_at_twice_an_input_token() -> None:
    body = _body("1h")
    lead = _lead(body)
    usage = {"input_tokens": 0, "cache_read_input_tokens": 0,
             "cache_creation_input_tokens": lead + 300, "output_tokens": 10,
             "cache_creation": {"ephemeral_1h_input_tokens": lead + 300,
                                "ephemeral_5m_input_tokens": 0}}
    assert prompt_overhead(body, usage) == pytest.approx(2.0 * lead)


def test_a_request_without_a_prompt_of_its_own_costs_nothing_here() -> None:
    body = {"messages": [{"role": "user", "content": "hello"}]}
    assert prompt_overhead(body, {"input_tokens": 5, "output_tokens": 1}) == 0
