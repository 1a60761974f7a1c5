"""Tiers 1 and 2: clearing old tool results without a summary.

Tier 1 runs before every call: time-based clearing once the provider's cache has gone
cold. (The seed's second variant, Anthropic "cache edits" that delete results from the
cached prefix, is no public API: no SDK type has it and the Messages API refuses it.)
Tier 2 asks Anthropic to clear old tool uses past a token trigger, and makes the same edit
client-side on other providers' outgoing requests. Decisions about content already sent
are frozen: a cleared id stays cleared, so the cache is never broken twice for the same
result.
"""

from __future__ import annotations

import copy
from datetime import datetime
from typing import Iterable

from sidecar.core.messages import CLEARED_TOOL_RESULT, ApiMessage, Block, Message
from sidecar.core.settings import Settings
from sidecar.core.skills import SKILL_TOOL
from sidecar.core.tokens import TextCounter, block_tokens

def compactable_results(records: Iterable[Message], compactable: frozenset[str]) -> list[str]:
    """tool_use ids of the results of ``compactable`` tools in the records, oldest first.

    Which tools those are is each tool's own ``compactable`` flag; a result of a tool the
    session does not have (a loaded transcript's) is left alone."""
    names: dict[str, str] = {}
    out: list[str] = []
    for m in records:
        for b in m.content:
            if b.get("type") == "tool_use":
                names[str(b.get("id"))] = str(b.get("name"))
            elif b.get("type") == "tool_result":
                tid = str(b.get("tool_use_id"))
                if names.get(tid) in compactable and tid not in out:
                    out.append(tid)
    return out


def _parse_time(stamp: str) -> float | None:
    try:
        return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


def minutes_since_last_assistant(records: list[Message], now: float) -> float | None:
    for m in reversed(records):
        if m.kind == "assistant" and not m.is_synthetic:
            ts = _parse_time(m.timestamp)
            return None if ts is None else (now - ts) / 60
    return None


def time_based_candidates(records: list[Message], settings: Settings, now: float,
                          already: set[str], compactable: frozenset[str]) -> list[str]:
    cfg = settings.microcompact.timeBased
    if not cfg.enabled:
        return []
    gap = minutes_since_last_assistant(records, now)
    if gap is None or gap < cfg.gapMinutes:
        return []
    ids = compactable_results(records, compactable)
    keep = ids[-cfg.keepRecent:] if cfg.keepRecent else []
    return [i for i in ids if i not in keep and i not in already]


# Claude Code keeps every thinking turn while the cache is warm and only the last one
# after an hour away, when the cache is cold and clearing costs no rewrite.
THINKING_IDLE_MINUTES = 60


def anthropic_context_management(settings: Settings,
                                 idle_minutes: float | None = None) -> dict[str, object] | None:
    cfg = settings.apiContextManagement
    if not cfg.enabled:
        return None
    edits: list[dict[str, object]] = []
    # The API takes clear_thinking only with thinking on, and first among the edits.
    if settings.thinking.mode != "off":
        idle = idle_minutes is not None and idle_minutes >= THINKING_IDLE_MINUTES
        keep: object = {"type": "thinking_turns", "value": 1} if idle else "all"
        edits.append({"type": "clear_thinking_20251015", "keep": keep})
    edits.append({
        "type": "clear_tool_uses_20250919",
        "trigger": {"type": "input_tokens", "value": cfg.triggerTokens},
        "clear_at_least": {"type": "input_tokens",
                           "value": max(cfg.triggerTokens - cfg.keepTokens, 0)},
        # A loaded skill's instructions stay until a compaction puts them back.
        "exclude_tools": [SKILL_TOOL],
    })
    return {"edits": edits}


def client_side_context_edit(
    messages: list[ApiMessage], used: int, settings: Settings, counter: TextCounter,
    already: frozenset[str] = frozenset(),
) -> tuple[list[ApiMessage], int, frozenset[str]]:
    """The same edit as Anthropic's clear_tool_uses, applied to an outgoing request.

    What an earlier request cleared (``already``) stays cleared, so the prompt cache is
    rewritten only when the edit grows. ``used`` is the context as the last, edited,
    request measured it; past the trigger, more of the oldest results are cleared until
    what is left is ``keepTokens`` above it. Returns the edited messages, the tokens the
    edit removes and the ids it cleared. The transcript is untouched.
    """
    cfg = settings.apiContextManagement
    if not cfg.enabled:
        return messages, 0, frozenset()
    goal = used - cfg.keepTokens if used > cfg.triggerTokens else 0
    saved = 0.0  # by this request's new clearing
    kept_cleared = 0.0  # by what earlier requests cleared
    edited: set[str] = set()
    out = [ApiMessage(m.role, list(m.content)) for m in messages]
    # As the server's edit: a loaded skill's instructions are never cleared.
    skills = {str(b.get("id")) for m in out if m.role == "assistant" for b in m.content
              if b.get("type") == "tool_use" and b.get("name") == SKILL_TOOL}
    # The latest user message's results are what the model is about to read: keep them.
    last_user = max((i for i, m in enumerate(out) if m.role == "user"), default=-1)
    for i, m in enumerate(out):
        if i == last_user:
            continue
        content: list[Block] = []
        for b in m.content:
            kind = b.get("type")
            key = (str(b.get("tool_use_id")) if kind == "tool_result"
                   else f"thinking@{i}" if kind in ("thinking", "redacted_thinking") else None)
            if key is None or key in skills or (
                    kind == "tool_result" and b.get("content") == CLEARED_TOOL_RESULT):
                content.append(b)
                continue
            if key in already:
                kept_cleared += block_tokens(b, counter)
            elif saved < goal:
                saved += block_tokens(b, counter)
            else:
                content.append(b)
                continue
            edited.add(key)
            if kind == "tool_result":
                content.append({**copy.copy(b), "content": CLEARED_TOOL_RESULT})
        out[i] = ApiMessage(m.role, content or [{"type": "text", "text": "(no content)"}])
    if not edited:
        return messages, 0, frozenset()
    return out, round(saved + kept_cleared), frozenset(edited)
