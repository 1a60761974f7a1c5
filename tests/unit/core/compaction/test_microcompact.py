"""The context-management edits asked of Anthropic, and the client-side edit elsewhere."""

from __future__ import annotations

import dataclasses

from sidecar.core.compaction.microcompact import (
    anthropic_context_management,
    client_side_context_edit,
)
from sidecar.core.messages import ApiMessage
from sidecar.core.settings import Settings, Thinking
from sidecar.core.tokens import SeedBytes


def test_no_thinking_edit_without_thinking() -> None:
    edits = anthropic_context_management(Settings())["edits"]  # type: ignore[index]
    assert [e["type"] for e in edits] == ["clear_tool_uses_20250919"]


def test_thinking_edit_first_keeps_all_then_one_after_an_hour_away() -> None:
    settings = dataclasses.replace(Settings(), thinking=Thinking(mode="adaptive"))
    warm = anthropic_context_management(settings, idle_minutes=5)["edits"]  # type: ignore[index]
    assert warm[0] == {"type": "clear_thinking_20251015", "keep": "all"}
    assert warm[1]["type"] == "clear_tool_uses_20250919"
    cold = anthropic_context_management(settings, idle_minutes=61)["edits"]  # type: ignore[index]
    assert cold[0] == {"type": "clear_thinking_20251015",
                       "keep": {"type": "thinking_turns", "value": 1}}


def test_client_side_edit_names_what_it_cleared() -> None:
    settings = Settings()
    messages = [ApiMessage("user", [{"type": "text", "text": "go"}])]
    for i in range(6):
        messages.append(ApiMessage("assistant", [{"type": "tool_use", "id": f"t{i}", "name": "Read",
                                                  "input": {}}]))
        messages.append(ApiMessage("user", [{"type": "tool_result", "tool_use_id": f"t{i}",
                                             "content": "x" * 200_000}]))
    out, saved, edited = client_side_context_edit(messages, 300_000, settings, SeedBytes())
    assert saved > 0 and edited and "t5" not in edited  # the latest results stay
    same = client_side_context_edit(messages, 300_000, settings, SeedBytes())
    assert same[2] == edited  # the same decision for the same input: no needless cache break
    assert client_side_context_edit(messages, 1_000, settings, SeedBytes())[2] == frozenset()
