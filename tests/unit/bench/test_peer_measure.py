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


class _Recorded:
    """Just what the measure reads of a recorded request."""

    def __init__(self, model: str, usage: dict[str, Any], summary: bool = False) -> None:
        self.path = "/v1/messages"
        self.headers = {"x-sidecar-call": "summary"} if summary else {}
        self.body = {"model": model, "tools": [TOOL],
                     "messages": [{"role": "user", "content": "hello"}]}
        self.usage = usage
        self.input_tokens = usage["input_tokens"]
        self.fault = None
        self.status = 200


def test_a_call_on_a_cheaper_model_is_billed_at_its_price() -> None:
    from types import SimpleNamespace

    from sidecar.core.turns.request_labels import CALL_HEADER
    from tests.bench.peer.measure import figures_of

    main = _Recorded("claude-sonnet-4-6[1m]", {"input_tokens": 1000, "output_tokens": 100})
    summary = _Recorded("claude-haiku-4-5", {"input_tokens": 30000, "output_tokens": 2000})
    summary.headers = {CALL_HEADER: "summary"}
    server = SimpleNamespace(requests=[main, summary], violations=[],
                             checker=SimpleNamespace(checked=2, refused=0))
    figures = figures_of(server)  # type: ignore[arg-type]
    # Haiku 4.5 costs a third of Sonnet 4.6: its 40,000 input-token equivalents bill 13,333.
    assert figures.by_kind["main"].billed == pytest.approx(1000 + 5 * 100)
    assert figures.by_kind["compaction"].billed == pytest.approx((30000 + 5 * 2000) / 3)
    assert figures.billed == pytest.approx(1500 + 40000 / 3)
    assert figures.total.input == 31000  # the tokens themselves are not scaled
