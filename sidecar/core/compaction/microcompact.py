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
from dataclasses import dataclass
from datetime import datetime
from typing import Iterable

from sidecar.core.accounting.cache_resume import LOOKBACK_BLOCKS
from sidecar.core.accounting.tokens import TextCounter, block_tokens
from sidecar.core.conversation import server_tools
from sidecar.core.conversation.messages import CLEARED_TOOL_RESULT, ApiMessage, Block, Message
from sidecar.core.models.catalog import CACHE_READ, CACHE_WRITE_5M
from sidecar.core.settings import Settings
from sidecar.core.workspace.skills import SKILL_TOOL


def compactable_results(records: Iterable[Message], compactable: frozenset[str]) -> list[str]:
    """tool_use ids of the results of ``compactable`` tools in the records, oldest first.

    Which tools those are is each tool's own ``compactable`` flag; a result of a tool the
    session does not have (a loaded transcript's) is left alone."""
    names: dict[str, str] = {}
    out: list[str] = []
    for m in records:
        for b in m.content:
            if server_tools.is_use(b):
                names[str(b.get("id"))] = str(b.get("name"))
            elif server_tools.is_result(b):
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


@dataclass(frozen=True)
class CacheReach:
    """Where a step's rewrite starts (what a cleared block saves and what a rewrite costs
    are the catalog's cache prices).

    At the first cleared result, when the provider's cache can be picked up just before
    it: the change is within the lookback of the previous request's breakpoint, or the
    request that asked for the answer before it went out after ``since`` and nothing before
    it changed since, so its breakpoint is still cached and the next request resumes there
    (``core.accounting.cache_resume``). Otherwise the whole conversation is written again
    (a recorded session: an 18,000-token step cleared 52 results, rewrote 91,000 tokens
    instead of the 29,000 after the first of them)."""

    since: float | None  # breakpoints written before this have expired; None: no resuming
    edits: tuple[tuple[float, int], ...] = ()  # (when, the first record it changed)

    @classmethod
    def of(cls, records: list[Message], since: float | None) -> CacheReach:
        """The clearings already in ``records`` (their boundaries) and what each changed."""
        if since is None:
            return cls(None)
        where: dict[str, int] = {}
        for i, m in enumerate(records):
            for b in m.content:
                if server_tools.is_result(b):
                    where.setdefault(str(b.get("tool_use_id")), i)
        edits: list[tuple[float, int]] = []
        for m in records:
            meta = m.extra.get("microcompactMetadata") if m.subtype == "microcompact_boundary" else None
            at = _parse_time(m.timestamp)
            if isinstance(meta, dict) and at is not None:
                changed = [where[str(i)] for i in meta.get("compactedToolIds") or [] if str(i) in where]
                if changed:
                    edits.append((at, min(changed)))
        return cls(since, tuple(edits))

    def rewrite_start(self, records: list[Message], first: int, blocks_after: int) -> int:
        if blocks_after <= LOOKBACK_BLOCKS:
            return first
        if self.since is None:
            return 0
        answer = next((i for i in range(first - 1, -1, -1) if records[i].kind == "assistant"), 0)
        sent = _parse_time(records[answer - 1].timestamp) if answer > 0 else None
        if sent is None or sent <= self.since:
            return 0
        if any(at >= sent and changed < answer for at, changed in self.edits):
            return 0
        return first


# The coming turn's length is a guess from the finished ones: a step must pay its rewrite
# back half again within it. (A recorded session whose last turns were a third as long as
# its average was 4 % dearer with a step that only just paid on average.)
STEP_MARGIN = 1.5


def is_prompt(m: Message) -> bool:
    """A prompt the user typed: it starts a turn."""
    return (m.kind == "user" and not m.is_meta and not m.is_compact_summary
            and not m.tool_results() and any(b.get("type") == "text" for b in m.content))


def step_clearing_candidates(records: list[Message], settings: Settings, used: int,
                             auto_compact_at: int | None, already: set[str],
                             compactable: frozenset[str], counter: TextCounter,
                             resumable_since: float | None = None) -> list[str]:
    """Results of finished turns worth clearing now, in one step, or [].

    Every request re-reads the whole context from the prompt cache, so a result that stays
    costs a cache read (0.1 of an input token) on every later request, while clearing it
    rewrites, once, everything that follows it (1.25 instead of the 0.1 it would have
    cost). Clearing a little on every request (what the server-side clear_tool_uses edit
    does past its trigger) pays that rewrite every time; so this clears all that is worth
    clearing at once and the decision is frozen (``record_clearing``): the next step comes
    only when the context has grown past the trigger again, and the prefix between stays
    cached.

    What may go: results of compactable tools from turns the model has already answered,
    oldest first, beyond the newest ``keepTokens`` of them. The step is taken only as a new
    prompt goes out: the model is done with those results, and what the step rewrites is
    answered content only. Mid-turn it would also rewrite the running turn's results, just
    cached, for the few requests the turn may have left (measured on the shell workload:
    one such step cost 40K for 4K of saved reads). The cleared block says so, and a later
    Read returns the file's content again. Worth it when the reads it saves over the coming
    turn, as long as the finished turns were on average, exceed the one rewrite. (Counting
    every request the context has served as still to come cleared a recorded session 10
    requests before its end and made it 4 % dearer.)
    """
    cfg = settings.microcompact.stepClearing
    if not cfg.enabled:
        return []
    trigger = cfg.triggerTokens
    if auto_compact_at is not None:
        trigger = min(trigger, auto_compact_at * cfg.triggerPercent // 100)
    if used < trigger:
        return []
    turn_start = max((i for i, m in enumerate(records) if is_prompt(m)), default=-1)
    if turn_start < 0 or any(m.kind == "assistant" for m in records[turn_start + 1:]):
        return []
    names: dict[str, str] = {}
    sizes: list[float] = []  # tokens of each record
    results: list[tuple[int, str, float]] = []  # (record index, tool_use id, tokens)
    responses: set[str] = set()
    finished_turns = sum(1 for m in records[:turn_start] if is_prompt(m))
    for i, m in enumerate(records):
        size = 0.0
        for b in m.content:
            tokens = block_tokens(b, counter)
            size += tokens
            if server_tools.is_use(b):
                names[str(b.get("id"))] = str(b.get("name"))
            elif server_tools.is_clearable(b) and i < turn_start:
                tid = str(b.get("tool_use_id"))
                if names.get(tid) in compactable and tid not in already:
                    results.append((i, tid, tokens))
        sizes.append(size)
        if m.kind == "assistant" and not m.is_synthetic:
            responses.add(m.message_id or m.uuid)
    kept = 0.0
    while results and kept + results[-1][2] <= cfg.keepTokens:
        kept += results.pop()[2]
    if not results:
        return []
    removed = sum(r[2] for r in results)
    first = results[0][0]
    blocks_after = sum(len(m.content) for m in records[first:turn_start])
    start = CacheReach.of(records, resumable_since).rewrite_start(records, first, blocks_after)
    rewritten = sum(sizes[start:]) - removed
    turn_requests = len(responses) / max(finished_turns, 1)
    saved_reads = turn_requests * CACHE_READ * removed
    if saved_reads <= STEP_MARGIN * rewritten * (CACHE_WRITE_5M - CACHE_READ):
        return []
    return [r[1] for r in results]


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
