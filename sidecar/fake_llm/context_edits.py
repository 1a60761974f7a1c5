"""Server-side context editing (Anthropic ``context_management``), applied before counting.

Supports ``clear_tool_uses_20250919`` (trigger by input tokens or tool uses; keep the newest
K tool uses, or the newest tool results within a token budget; ``clear_at_least``,
``exclude_tools``, ``clear_tool_inputs``) and ``clear_thinking_20251015`` (keep the newest
N assistant turns' thinking, or ``"all"``). The client keeps its full history; only the
fake's view of this one request changes, as with the real API.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from .counting import anthropic_block_tokens, anthropic_units, total_tokens

CLEARED_PLACEHOLDER = "[cleared to save context]"
DEFAULT_TRIGGER_TOKENS = 100_000
DEFAULT_KEEP_TOOL_USES = 3


class ContextEditError(ValueError):
    """A context_management value the real API would reject with a 400."""


@dataclass
class EditOutcome:
    body: dict[str, Any]
    applied_edits: list[dict[str, Any]]
    original_input_tokens: int
    requested: bool


def _edits_of(body: dict[str, Any]) -> list[dict[str, Any]] | None:
    management = body.get("context_management")
    if management is None:
        return None
    if not isinstance(management, dict):
        raise ContextEditError("context_management: expected an object")
    edits = management.get("edits", [])
    if not isinstance(edits, list):
        raise ContextEditError("context_management.edits: expected a list")
    for edit in edits:
        if not isinstance(edit, dict) or edit.get("type") not in (
            "clear_tool_uses_20250919",
            "clear_thinking_20251015",
        ):
            raise ContextEditError(f"context_management.edits: unsupported edit {edit!r}")
    return edits


def apply_context_edits(body: dict[str, Any]) -> EditOutcome:
    edits = _edits_of(body)
    original = total_tokens(anthropic_units(body))
    if not edits:
        return EditOutcome(body, [], original, edits is not None)
    edited = copy.deepcopy(body)
    applied: list[dict[str, Any]] = []
    # Thinking is cleared first: the real API requires that edit to come first in the list.
    for edit in sorted(edits, key=lambda e: e.get("type") != "clear_thinking_20251015"):
        if edit["type"] == "clear_thinking_20251015":
            result = _clear_thinking(edited, edit)
        else:
            result = _clear_tool_uses(edited, edit)
        if result is not None:
            applied.append(result)
    return EditOutcome(edited if applied else body, applied, original, True)


def _clear_thinking(body: dict[str, Any], edit: dict[str, Any]) -> dict[str, Any] | None:
    keep = edit.get("keep", {"type": "thinking_turns", "value": 1})
    if keep == "all" or (isinstance(keep, dict) and keep.get("type") == "all"):
        return None
    keep_turns = int(keep.get("value", 1)) if isinstance(keep, dict) else 1
    turns = [
        m
        for m in body.get("messages") or []
        if isinstance(m, dict)
        and m.get("role") == "assistant"
        and isinstance(m.get("content"), list)
        and any(
            isinstance(b, dict) and b.get("type") in ("thinking", "redacted_thinking")
            for b in m["content"]
        )
    ]
    older = turns[: max(len(turns) - keep_turns, 0)]
    if not older:
        return None
    cleared_tokens = 0
    for message in older:
        kept = []
        for block in message["content"]:
            if isinstance(block, dict) and block.get("type") in ("thinking", "redacted_thinking"):
                cleared_tokens += anthropic_block_tokens(block)
            else:
                kept.append(block)
        message["content"] = kept
    return {
        "type": "clear_thinking_20251015",
        "cleared_thinking_turns": len(older),
        "cleared_input_tokens": cleared_tokens,
    }


def _tool_pairs(body: dict[str, Any]) -> list[tuple[dict[str, Any] | None, dict[str, Any], str]]:
    """(tool_use block or None, tool_result block, tool name), oldest first."""
    uses: dict[str, dict[str, Any]] = {}
    pairs: list[tuple[dict[str, Any] | None, dict[str, Any], str]] = []
    for message in body.get("messages") or []:
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, list):
            continue
        for block in content:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "tool_use":
                uses[str(block.get("id"))] = block
            elif block.get("type") == "tool_result":
                use = uses.get(str(block.get("tool_use_id")))
                name = str(use.get("name", "")) if use else ""
                pairs.append((use, block, name))
    return pairs


def _threshold(spec: Any, default_type: str, default_value: int) -> tuple[str, int]:
    if spec is None:
        return default_type, default_value
    if not isinstance(spec, dict) or "value" not in spec:
        raise ContextEditError(f"context_management: malformed threshold {spec!r}")
    return str(spec.get("type", default_type)), int(spec["value"])


def _is_cleared(result: dict[str, Any]) -> bool:
    content = result.get("content")
    if content == CLEARED_PLACEHOLDER:
        return True
    return (
        isinstance(content, list)
        and len(content) == 1
        and isinstance(content[0], dict)
        and content[0].get("text") == CLEARED_PLACEHOLDER
    )


def _clear_tool_uses(body: dict[str, Any], edit: dict[str, Any]) -> dict[str, Any] | None:
    trigger_type, trigger_value = _threshold(
        edit.get("trigger"), "input_tokens", DEFAULT_TRIGGER_TOKENS
    )
    keep_type, keep_value = _threshold(edit.get("keep"), "tool_uses", DEFAULT_KEEP_TOOL_USES)
    at_least = _threshold(edit.get("clear_at_least"), "input_tokens", 0)[1]
    excluded = set(edit.get("exclude_tools") or [])
    clear_inputs = edit.get("clear_tool_inputs") or False

    pairs = _tool_pairs(body)
    if trigger_type == "tool_uses":
        if len(pairs) <= trigger_value:
            return None
    elif total_tokens(anthropic_units(body)) <= trigger_value:
        return None

    candidates = [p for p in pairs if p[2] not in excluded]
    if keep_type == "tool_uses":
        to_clear = candidates[: max(len(candidates) - keep_value, 0)]
    else:
        # Keep the newest results whose combined size fits the token budget.
        budget = keep_value
        keep_from = len(candidates)
        for index in range(len(candidates) - 1, -1, -1):
            cost = anthropic_block_tokens(candidates[index][1])
            if cost > budget:
                break
            budget -= cost
            keep_from = index
        to_clear = candidates[:keep_from]
    to_clear = [p for p in to_clear if not _is_cleared(p[1])]
    if not to_clear:
        return None

    cleared_tokens = 0
    for use, result, name in to_clear:
        before = anthropic_block_tokens(result)
        after = {**result, "content": CLEARED_PLACEHOLDER}
        cleared_tokens += max(before - anthropic_block_tokens(after), 0)
        wipe_input = clear_inputs is True or (
            isinstance(clear_inputs, list) and name in clear_inputs
        )
        if use is not None and wipe_input:
            cleared_tokens += max(
                anthropic_block_tokens(use) - anthropic_block_tokens({**use, "input": {}}), 0
            )
    if cleared_tokens < at_least:
        return None
    for use, result, name in to_clear:
        result["content"] = CLEARED_PLACEHOLDER
        wipe_input = clear_inputs is True or (
            isinstance(clear_inputs, list) and name in clear_inputs
        )
        if use is not None and wipe_input:
            use["input"] = {}
    return {
        "type": "clear_tool_uses_20250919",
        "cleared_tool_uses": len(to_clear),
        "cleared_input_tokens": cleared_tokens,
    }
