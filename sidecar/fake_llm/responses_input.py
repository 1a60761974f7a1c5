"""Reading a Responses request's ``input``: its items, which are messages, and their text.

Shared by the fake's counting, rules, invariant checks and default replies, which all see
the Responses wire's conversation as items where the other wires have messages.
"""

from __future__ import annotations

from typing import Any


def input_items(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The input as items; a plain string is one user message, as the API reads it."""
    value = body.get("input")
    if isinstance(value, str):
        return [{"type": "message", "role": "user", "content": value}]
    if isinstance(value, list):
        return [item for item in value if isinstance(item, dict)]
    return []


def message_role(item: dict[str, Any]) -> str | None:
    """The role of a message item (its ``type`` may be left out), else None."""
    if item.get("type", "message") != "message":
        return None
    role = item.get("role")
    return role if isinstance(role, str) else None


def parts(content: Any) -> list[dict[str, Any]]:
    if isinstance(content, str):
        return [{"type": "input_text", "text": content}]
    if isinstance(content, list):
        return [p for p in content if isinstance(p, dict)]
    return []


def part_text(part: dict[str, Any]) -> str:
    kind = part.get("type")
    if kind in ("input_text", "output_text", "summary_text"):
        return str(part.get("text", ""))
    if kind == "refusal":
        return str(part.get("refusal", ""))
    return ""


def content_text(content: Any) -> str:
    return "\n".join(t for t in (part_text(p) for p in parts(content)) if t)
