"""Tier 3: a markdown memory of the session, kept current in the background.

At auto-compact it becomes the summary with no extra call; the messages after the last
summarized one are kept verbatim, extended backwards to the configured minimums.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sidecar.core.accounting.tokens import message_tokens
from sidecar.core.compaction.forked_call import forked_text_call
from sidecar.core.compaction.prompts import format_summary, memory_template, memory_update_prompt
from sidecar.core.conversation.messages import Message, is_compact_boundary
from sidecar.core.workspace.own_files import read_own_text

if TYPE_CHECKING:
    from sidecar.core.compaction.host import CompactionHost

log = logging.getLogger(__name__)
SECTION_CHARS = 8_000
PAD = 4 / 3  # the tail estimate is padded, as the reference's estimator does


@dataclass
class MemoryState:
    last_summarized_uuid: str | None = None
    tokens_at_update: int = 0
    tool_calls_since: int = 0
    updates: int = 0


class SessionMemory:
    def __init__(self, storage_dir: Path, session_id: str) -> None:
        self.path = storage_dir / "session-memory" / f"{session_id}.md"
        self._state_path = self.path.with_suffix(".json")
        self.state = MemoryState()
        self._task: asyncio.Task[bool] | None = None
        try:
            self.state = MemoryState(**json.loads(read_own_text(self._state_path)))
        except (OSError, ValueError, TypeError):
            pass

    def content(self) -> str | None:
        try:
            text = read_own_text(self.path, limit=4 << 20)
        except OSError:
            return None
        return None if text.strip() == memory_template().strip() or not text.strip() else text

    def _save(self, text: str) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".md.tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(self.path)
        self._state_path.write_text(json.dumps(self.state.__dict__))

    def note_response(self, session: CompactionHost, tool_calls: int) -> None:
        """Called after every model response; starts an update when thresholds are met."""
        cfg = session.settings.sessionMemory
        if not cfg.enabled or (self._task is not None and not self._task.done()):
            return
        self.state.tool_calls_since += tool_calls
        used = session.ledger.used()
        auto_at = session.thresholds.auto_compact_at
        if auto_at is None:
            return  # only an auto-compaction reads the notes
        # Each update costs a read of the whole context and the notes written out again
        # (output, the dearest kind of token); a session that stays far below the
        # auto-compact point never needs them. So the first update waits for startPercent
        # of that point, and later ones for updatePercent of it: two or three updates
        # before a compaction instead of one every few thousand tokens.
        if self.state.updates == 0:
            if used < max(cfg.initTokens, auto_at * cfg.startPercent // 100):
                return
        else:
            if used - self.state.tokens_at_update < max(cfg.updateTokens,
                                                         auto_at * cfg.updatePercent // 100):
                return
            if self.state.tool_calls_since < cfg.updateToolCalls and tool_calls > 0:
                return
        self._task = asyncio.ensure_future(self.update(session))

    async def wait(self, timeout: float = 15.0) -> None:
        if self._task is not None and not self._task.done():
            try:
                await asyncio.wait_for(asyncio.shield(self._task), timeout)
            except (asyncio.TimeoutError, Exception):
                pass

    async def update(self, session: CompactionHost, cached_only: bool = False) -> bool:
        """Bring the notes up to the context's end, or with ``cached_only`` up to the last
        answer: what the provider has cached, so the call reads it rather than writing the
        newest results, which a compaction keeps verbatim anyway."""
        records = session.transcript.model_view()
        if cached_only:
            records = records[:last_answer(records) + 1]
        if not records:
            return False
        current = self.content() or memory_template()
        try:
            raw = await forked_text_call(session, records, memory_update_prompt(current),
                                         call="memory")
        except Exception as exc:
            log.info("session memory update failed: %s", exc)
            return False
        text = format_summary(raw)
        if not text:
            return False
        self.state.tokens_at_update = session.ledger.used()
        self.state.tool_calls_since = 0
        self.state.updates += 1
        cut = last_safe_cut(records)
        if cut is not None:
            self.state.last_summarized_uuid = cut
        self._save(text)
        return True


    def after_compaction(self, used: int, renamed: dict[str, str], summary_uuid: str) -> None:
        """Re-base the update thresholds on the shrunken context and keep the cut point.

        A kept tail is re-appended with new uuids: a last-summarized message inside it moves
        to its copy; one that was summarized away maps to the summary message.
        """
        self.state.tokens_at_update = used
        self.state.tool_calls_since = 0
        last = self.state.last_summarized_uuid
        if last is not None:
            self.state.last_summarized_uuid = renamed.get(last, summary_uuid)
        if self.path.exists():
            self._state_path.write_text(json.dumps(self.state.__dict__))


def last_answer(records: list[Message]) -> int:
    """The index of the model's newest answer, -1 before its first."""
    return max((i for i, m in enumerate(records) if m.kind == "assistant"), default=-1)


def last_safe_cut(records: list[Message]) -> str | None:
    """The newest record after which no tool_use waits for its result: the notes cover
    everything up to it, and a kept tail starting after it breaks no pair. In a long turn
    that is the last round of results, not the turn's start, so the notes can serve."""
    pending: set[str] = set()
    cut: str | None = None
    for m in records:
        for b in m.content:
            if b.get("type") == "tool_use":
                pending.add(str(b.get("id")))
            elif b.get("type") == "tool_result":
                pending.discard(str(b.get("tool_use_id")))
        if not pending:
            cut = m.uuid
    return cut


def _truncate_sections(text: str) -> str:
    out: list[str] = []
    for chunk in text.split("\n# "):
        if len(chunk) > SECTION_CHARS:
            cut = chunk[:SECTION_CHARS].rsplit("\n", 1)[0]
            chunk = cut + "\n[section truncated; the full notes are in the session memory file]"
        out.append(chunk)
    return "\n# ".join(out)


def tail_bounds(session: CompactionHost) -> tuple[int, int]:
    """The kept tail's (minimum, maximum) tokens. Each compaction rewrites what it keeps
    into the prompt cache, and a context that lands just under the auto-compact point
    compacts again a step later: the tail is held to tailPercent of that point, which in
    small windows is below the seed's minimum (10,000 of a 27,000 point would leave one
    file read of room)."""
    cfg = session.settings.sessionMemory
    auto_at = session.thresholds.auto_compact_at
    most = cfg.maxTokens if auto_at is None else min(cfg.maxTokens, auto_at * cfg.tailPercent // 100)
    return min(cfg.minTokens, most), most


def select_tail(records: list[Message], start: int, session: CompactionHost) -> int:
    """Extend the kept tail backwards to the minimums, then repair API invariants."""
    cfg = session.settings.sessionMemory
    least, most = tail_bounds(session)
    counter = session.ledger.counter

    def cost(m: Message) -> float:
        return message_tokens(m, counter) * PAD

    tokens = sum(cost(m) for m in records[start:])
    texts = sum(1 for m in records[start:] if any(b.get("type") == "text" for b in m.content))
    while start > 0:
        if tokens >= most or (tokens >= least and texts >= cfg.minTextBlockMessages):
            break
        prev = records[start - 1]
        if is_compact_boundary(prev):
            break
        if tokens + cost(prev) > most:
            break
        start -= 1
        tokens += cost(prev)
        texts += 1 if any(b.get("type") == "text" for b in prev.content) else 0
    # Never start on a tool_result whose tool_use would be cut off, nor in the middle of
    # one response's records (thinking blocks travel with their message).
    changed = True
    while changed and 0 < start < len(records):
        changed = False
        kept_use_ids = {str(b.get("id")) for m in records[start:] for b in m.content
                        if b.get("type") == "tool_use"}
        needed = {str(b.get("tool_use_id")) for m in records[start:] for b in m.content
                  if b.get("type") == "tool_result"} - kept_use_ids
        first = records[start]
        sibling = (first.kind == "assistant" and first.message_id is not None
                   and records[start - 1].message_id == first.message_id)
        if needed or sibling or (first.kind == "user" and any(
                b.get("type") == "tool_result" for b in first.content)):
            start -= 1
            changed = True
    return start


def plan_memory_compaction(session: CompactionHost, memory: SessionMemory) -> tuple[str, list[Message]] | None:
    """The summary text and the kept tail, or None when the memory cannot serve."""
    text = memory.content()
    if text is None:
        return None
    records = session.transcript.model_view()
    body = [i for i, m in enumerate(records) if not is_compact_boundary(m)]
    if not body:
        return None
    last = memory.state.last_summarized_uuid
    if last is not None:
        idx = next((i for i, m in enumerate(records) if m.uuid == last), None)
        if idx is None:
            return None
        start = idx + 1
    else:
        start = len(records)
    # Results the model asked for and has not answered yet stay whatever their size: the
    # notes may hold them, but the model has not seen them.
    answered = last_answer(records)
    if any(m.tool_results() for m in records[answered + 1:]):
        start = min(start, answered + 1)
    start = select_tail(records, start, session)
    tail = [m for m in records[start:] if not is_compact_boundary(m)]
    return _truncate_sections(text), tail
