"""Server-side context editing as the fake applies it before counting."""

from __future__ import annotations

from typing import Any

import pytest

from sidecar.fake_llm.context_edits import (
    CLEARED_PLACEHOLDER,
    ContextEditError,
    apply_context_edits,
)
from sidecar.fake_llm.counting import anthropic_units, total_tokens


def tool_history(count: int, names: list[str] | None = None) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = [{"role": "user", "content": "start"}]
    for i in range(count):
        name = names[i] if names else "Read"
        messages.append(
            {
                "role": "assistant",
                "content": [
                    {"type": "tool_use", "id": f"t{i}", "name": name, "input": {"path": f"f{i}.py"}}
                ],
            }
        )
        messages.append(
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": f"t{i}",
                        "content": f"contents of file {i} " * 200,
                    }
                ],
            }
        )
    return messages


def clear_edit(**fields: Any) -> dict[str, Any]:
    return {"context_management": {"edits": [{"type": "clear_tool_uses_20250919", **fields}]}}


def results(body: dict[str, Any]) -> list[Any]:
    return [
        block["content"]
        for message in body["messages"]
        if isinstance(message["content"], list)
        for block in message["content"]
        if block["type"] == "tool_result"
    ]


def test_no_context_management_leaves_the_body_alone() -> None:
    body = {"messages": tool_history(3)}
    outcome = apply_context_edits(body)
    assert outcome.body is body and outcome.applied_edits == [] and not outcome.requested


def test_below_trigger_nothing_is_cleared_but_the_request_is_acknowledged() -> None:
    body = {"messages": tool_history(5)} | clear_edit(
        trigger={"type": "input_tokens", "value": 10**6}
    )
    outcome = apply_context_edits(body)
    assert outcome.requested and outcome.applied_edits == []
    assert CLEARED_PLACEHOLDER not in results(outcome.body)


def test_over_trigger_clears_oldest_results_and_keeps_the_newest() -> None:
    body = {"messages": tool_history(6)} | clear_edit(
        trigger={"type": "input_tokens", "value": 1000}, keep={"type": "tool_uses", "value": 2}
    )
    before = total_tokens(anthropic_units(body))
    outcome = apply_context_edits(body)
    after = total_tokens(anthropic_units(outcome.body))
    (edit,) = outcome.applied_edits
    assert edit["type"] == "clear_tool_uses_20250919"
    assert edit["cleared_tool_uses"] == 4
    assert edit["cleared_input_tokens"] == before - after > 0
    contents = results(outcome.body)
    assert contents[:4] == [CLEARED_PLACEHOLDER] * 4
    assert all(c != CLEARED_PLACEHOLDER for c in contents[4:])
    # The caller's history is untouched: editing happens on the fake's copy.
    assert CLEARED_PLACEHOLDER not in results(body)
    assert outcome.original_input_tokens == before


def test_exclude_tools_clear_inputs_and_clear_at_least() -> None:
    names = ["Read", "Bash", "Read", "Read", "Read"]
    body = {"messages": tool_history(5, names)} | clear_edit(
        trigger={"type": "input_tokens", "value": 100},
        keep={"type": "tool_uses", "value": 1},
        exclude_tools=["Bash"],
        clear_tool_inputs=True,
    )
    outcome = apply_context_edits(body)
    assert outcome.applied_edits[0]["cleared_tool_uses"] == 3
    contents = results(outcome.body)
    assert contents[1] != CLEARED_PLACEHOLDER  # Bash is excluded
    uses = [
        b
        for m in outcome.body["messages"]
        if isinstance(m["content"], list)
        for b in m["content"]
        if b["type"] == "tool_use"
    ]
    assert [u["input"] for u in uses][:1] == [{}]
    assert uses[1]["input"] == {"path": "f1.py"}

    strict = {"messages": tool_history(5)} | clear_edit(
        trigger={"type": "input_tokens", "value": 100},
        clear_at_least={"type": "input_tokens", "value": 10**6},
    )
    assert apply_context_edits(strict).applied_edits == []


def test_keep_by_token_budget_and_trigger_by_tool_uses() -> None:
    one_result = total_tokens(anthropic_units({"messages": tool_history(1)[2:]}))
    body = {"messages": tool_history(5)} | clear_edit(
        trigger={"type": "tool_uses", "value": 3},
        keep={"type": "input_tokens", "value": one_result * 2},
    )
    outcome = apply_context_edits(body)
    assert outcome.applied_edits[0]["cleared_tool_uses"] == 3
    few = {"messages": tool_history(3)} | clear_edit(trigger={"type": "tool_uses", "value": 3})
    assert apply_context_edits(few).applied_edits == []


def test_already_cleared_results_are_not_counted_again() -> None:
    body = {"messages": tool_history(4)} | clear_edit(
        trigger={"type": "input_tokens", "value": 100}, keep={"type": "tool_uses", "value": 2}
    )
    edited = apply_context_edits(body).body
    again = apply_context_edits(edited)
    assert again.applied_edits == []


def test_clear_thinking_keeps_the_newest_turns() -> None:
    messages = [
        {"role": "user", "content": "q"},
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "old " * 50, "signature": "s"},
                {"type": "text", "text": "a1"},
            ],
        },
        {"role": "user", "content": "q2"},
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "new " * 50, "signature": "s"},
                {"type": "text", "text": "a2"},
            ],
        },
    ]
    body = {
        "messages": messages,
        "context_management": {
            "edits": [
                {"type": "clear_thinking_20251015", "keep": {"type": "thinking_turns", "value": 1}}
            ]
        },
    }
    outcome = apply_context_edits(body)
    (edit,) = outcome.applied_edits
    assert edit["type"] == "clear_thinking_20251015" and edit["cleared_thinking_turns"] == 1
    assert edit["cleared_input_tokens"] > 0
    assert [b["type"] for b in outcome.body["messages"][1]["content"]] == ["text"]
    assert outcome.body["messages"][3]["content"][0]["type"] == "thinking"
    keep_all = body | {
        "context_management": {"edits": [{"type": "clear_thinking_20251015", "keep": "all"}]}
    }
    assert apply_context_edits(keep_all).applied_edits == []


def test_unknown_edit_is_rejected() -> None:
    with pytest.raises(ContextEditError):
        apply_context_edits(
            {"messages": [], "context_management": {"edits": [{"type": "drop_everything"}]}}
        )
