"""Billed-token maths: weights, deduplication of split responses, the output price ratio."""

from __future__ import annotations

import pytest

from sidecar.core.conversation.messages import Message, Usage
from sidecar.replay.billing import (
    CACHE_READ_WEIGHT,
    CACHE_WRITE_WEIGHT,
    Billed,
    billed_of,
    output_weight,
    weights_json,
)
from sidecar.replay.script import build_script
from sidecar.storage.claude_code import settle_response_usage


def test_weights_are_anthropics_relative_prices() -> None:
    assert CACHE_WRITE_WEIGHT == 1.25
    assert CACHE_READ_WEIGHT == 0.1
    assert weights_json(5.0) == {"input": 1.0, "cacheWrite": 1.25, "cacheWrite1h": 2.0,
                                 "cacheRead": 0.1, "output": 5.0}


def test_billed_total_weights_each_kind() -> None:
    billed = billed_of(
        [
            Usage(
                input_tokens=100,
                cache_creation_input_tokens=1_000,
                cache_read_input_tokens=10_000,
                output_tokens=20,
            ),
            Usage(
                input_tokens=5,
                cache_creation_input_tokens=0,
                cache_read_input_tokens=11_000,
                output_tokens=200,
            ),
        ]
    )
    assert (billed.calls, billed.input_tokens, billed.cache_write_tokens) == (2, 105, 1_000)
    assert (billed.cache_read_tokens, billed.output_tokens) == (21_000, 220)
    # 105 + 1.25 * 1000 + 0.1 * 21000 + 5 * 220
    assert billed.total(5.0) == pytest.approx(105 + 1_250 + 2_100 + 1_100)
    assert billed.to_json(5.0)["billed"] == 4_555
    total = Billed()
    total.merge(billed)
    total.merge(billed)
    assert total.calls == 4 and total.total(5.0) == pytest.approx(2 * 4_555)


@pytest.mark.parametrize(
    "model",
    [
        "claude-opus-4-6",
        "claude-sonnet-4-20250514",
        "claude-opus-4-1-20250805",
        "claude-haiku-4-5-20251001",
    ],
)
def test_claude_output_costs_five_inputs(model: str) -> None:
    assert output_weight(model) == pytest.approx(5.0)


def test_unknown_model_falls_back_to_claudes_ratio_and_openai_uses_its_own() -> None:
    assert output_weight(None) == 5.0
    assert output_weight("gpt-4o", "openai") == pytest.approx(10.0 / 2.5)


def test_recorded_spend_counts_a_split_response_once_with_its_final_usage() -> None:
    partial = Usage(
        input_tokens=2,
        cache_creation_input_tokens=500,
        cache_read_input_tokens=20_000,
        output_tokens=8,
    )
    final = Usage(
        input_tokens=2,
        cache_creation_input_tokens=500,
        cache_read_input_tokens=20_000,
        output_tokens=276,
    )
    records = [
        Message(kind="user", content=[{"type": "text", "text": "go"}]),
        Message(
            kind="assistant",
            content=[{"type": "text", "text": "a"}],
            message_id="m1",
            usage=partial,
        ),
        Message(
            kind="assistant",
            content=[{"type": "tool_use", "id": "t", "name": "Read", "input": {}}],
            message_id="m1",
            usage=final,
        ),
        Message(kind="user", content=[{"type": "tool_result", "tool_use_id": "t", "content": "x"}]),
        Message(
            kind="assistant", content=[{"type": "text", "text": "b"}], message_id="m2", usage=final
        ),
    ]
    settle_response_usage(records)
    script = build_script(records)
    recorded = billed_of([c.usage for c in script.calls])
    assert recorded.calls == 2
    assert recorded.output_tokens == 2 * 276
    assert recorded.total(5.0) == pytest.approx(2 * (2 + 1.25 * 500 + 0.1 * 20_000 + 5 * 276))


def test_one_hour_cache_writes_bill_at_twice_an_input_token() -> None:
    """A recording made with Claude Code's one-hour cache pays 2x for its writes, not 1.25x:
    billing them as five-minute writes understated what those sessions cost."""
    usage = Usage.from_json({
        "input_tokens": 3, "cache_creation_input_tokens": 1_000,
        "cache_read_input_tokens": 10_000, "output_tokens": 10,
        "cache_creation": {"ephemeral_5m_input_tokens": 400, "ephemeral_1h_input_tokens": 600},
    })
    assert usage is not None and usage.cache_creation_1h_tokens == 600
    billed = billed_of([usage])
    assert billed.total(5.0) == pytest.approx(3 + 1.25 * 400 + 2.0 * 600 + 0.1 * 10_000 + 50)
    assert billed.to_json(5.0)["cacheWrite1hTokens"] == 600
    # The split survives a round trip through the transcript's JSON.
    assert Usage.from_json(usage.to_json()) == usage
    five_minute = Usage.from_json({"cache_creation_input_tokens": 1_000})
    assert five_minute is not None and billed_of([five_minute]).total(5.0) == 1_250
