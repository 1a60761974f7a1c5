"""The context manager: runs the five tiers around every model call of a session.

Before a call: microcompact (tier 1), then auto-compact when the gauge says so (session
memory first, tier 3, then full compaction, tier 4, with the prompt-too-long retry, tier 5,
inside it), behind the circuit breaker; then the blocking check. On the request: API
context management (tier 2), server-side on Anthropic, client-side elsewhere. A compaction is committed only when it
really shrinks the context; a failed one changes nothing and says so.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from typing import TYPE_CHECKING, Any, Callable

from sidecar.core.compaction.breaker import CircuitBreaker
from sidecar.core.compaction.full import api_round_groups, full_compact
from sidecar.core.compaction.microcompact import (
    anthropic_context_management,
    client_side_context_edit,
    minutes_since_last_assistant,
    time_based_candidates,
)
from sidecar.core.compaction.prompts import summary_message_text
from sidecar.core.compaction.session_memory import SessionMemory, plan_memory_compaction
from sidecar.core.errors import CompactionFailed, ContextWindowExceeded
from sidecar.core.gauge import BreakerState
from sidecar.core.messages import Message, new_uuid, user_text
from sidecar.core.settings import storage_dir

if TYPE_CHECKING:
    from sidecar.core.session import Session
    from sidecar.core.ports import Completed, ModelRequest, ProviderError

log = logging.getLogger(__name__)


class ContextManager:
    def __init__(self, session: Session) -> None:
        self.session = session
        self.breaker = CircuitBreaker(session.settings.autoCompact.maxConsecutiveFailures)
        self.memory = SessionMemory(storage_dir(session.settings), session.id)
        self.compacted_since_anchor = False
        self._task: asyncio.Task[Any] | None = None
        # The tool results the last client-side edit cleared (see prepare_request).
        self._edited: frozenset[str] = frozenset()
        self.events: list[dict[str, Any]] = []  # what fired, for replay and tests
        # Called with each event as it is logged (replay adds where in the recording it is).
        self.observers: list[Callable[[dict[str, Any]], None]] = []

    # ----- gauge -------------------------------------------------------------------

    def breaker_state(self) -> BreakerState:
        return BreakerState(self.session.settings.autoCompact.enabled, self.breaker.open,
                            self.breaker.consecutive_failures)

    def _log_event(self, tier: str, **data: Any) -> None:
        event = {"tier": tier, "at": len(self.session.records), **data}
        self.events.append(event)
        for observe in self.observers:
            observe(event)

    # ----- before and around every call ---------------------------------------------

    async def before_call(self, session: Session) -> None:
        now = session.clock()
        view = session.context_records()
        cleared = time_based_candidates(view, session.settings, now, session.cleared_ids)
        if cleared:
            before = session.ledger.used()
            session.record_clearing(cleared, "time_based")
            self._log_event("microcompact", kind="time_based", cleared=len(cleared),
                            tokensBefore=before, tokensAfter=session.ledger.used())
            session.send_usage_update()
        used = session.ledger.used()
        th = session.thresholds
        auto = session.settings.autoCompact
        if (auto.enabled and not self.breaker.open and not self.compacted_since_anchor
                and th.should_auto_compact(used)):
            if auto.confirm and not await self._confirmed(session, used):
                pass
            else:
                try:
                    await self.compact_now(trigger="auto")
                except CompactionFailed:
                    pass
        used = session.ledger.used()
        if used >= th.blocking_at and not self.compacted_since_anchor:
            hint = "run /compact" if not auto.enabled else "compaction failed; run /compact or /clear"
            raise ContextWindowExceeded(
                f"The context holds {used:,} tokens, past the blocking limit of {th.blocking_at:,}; {hint}",
                data={"used": used, "blockingAt": th.blocking_at, "suggestion": "/compact"},
            )

    async def _confirmed(self, session: Session, used: int) -> bool:
        answer = await session.editor.request_permission(
            session.id,
            {"toolCallId": f"compact-{new_uuid()[:8]}", "title": f"Compact the conversation ({used:,} tokens)?",
             "kind": "other", "status": "pending", "rawInput": {"used": used}},
            [{"optionId": "allow_once", "name": "Compact now", "kind": "allow_once"},
             {"optionId": "reject_once", "name": "Not now", "kind": "reject_once"}],
        )
        return answer in ("allow_once", "allow_always")

    def prepare_request(self, session: Session, request: ModelRequest) -> ModelRequest:
        if session.info.provider == "anthropic":
            idle = minutes_since_last_assistant(session.context_records(), session.clock())
            return dataclasses.replace(request, context_management=anthropic_context_management(
                session.settings, idle_minutes=idle))
        messages, saved, edited = client_side_context_edit(
            request.messages, session.ledger.used(), session.settings, session.ledger.counter)
        if edited != self._edited:
            # The outgoing history differs from the last request's before its end.
            self._edited = edited
            session.rewrite("context_edit")
            request = dataclasses.replace(request, headers=session.labels())
        if saved:
            self._log_event("api_context_management", kind="client_side", saved=saved)
            request = dataclasses.replace(request, messages=messages)
        return request

    def after_response(self, session: Session, completed: Completed) -> None:
        self.compacted_since_anchor = False
        if completed.applied_edits:
            self._log_event("api_context_management", kind="server", edits=completed.applied_edits)
        tool_calls = sum(1 for b in completed.content if b.get("type") == "tool_use")
        self.memory.note_response(session, tool_calls)

    async def recover_from_overflow(self, session: Session, err: ProviderError) -> bool:
        """The provider said the prompt is too long: one forced compaction, then retry."""
        try:
            await self.compact_now(trigger="auto", force_full=True)
        except CompactionFailed:
            return False
        return True

    def cancel(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()

    # ----- compaction ----------------------------------------------------------------

    async def compact_now(self, *, trigger: str, instructions: str | None = None,
                          work_done_token: Any = None, force_full: bool = False) -> dict[str, Any]:
        session = self.session
        compaction_id = f"cmp_{new_uuid()[:12]}"
        before = session.ledger.used()
        base = {"sessionUpdate": "compaction_update", "compactionId": compaction_id, "trigger": trigger}
        session.update({**base, "status": "in_progress", "tier": "session_memory" if not force_full
                        and trigger == "auto" else "full", "tokensBefore": before})
        session.editor.status("normal", True, "Compacting the conversation…")
        progress: dict[str, str | None] = {"token": None}
        client_token = work_done_token if isinstance(work_done_token, str) else None

        async def run() -> tuple[str, int, str]:
            progress["token"] = await session.editor.progress(client_token, "begin", "Compacting",
                                                              f"{before:,} tokens")
            return await self._compact(trigger, instructions, force_full, progress["token"])

        # The task exists before the first await, so a cancel can never slip past it.
        self._task = asyncio.ensure_future(run())
        try:
            tier, after, summary = await self._task
        except asyncio.CancelledError:
            session.update({**base, "status": "cancelled", "tier": "full", "tokensBefore": before})
            await session.editor.progress(progress["token"], "end", "Compacting", "cancelled")
            session.editor.status("normal", False, "Compaction cancelled")
            current = asyncio.current_task()
            if current is not None and current.cancelling():
                raise  # the request itself was cancelled ($/cancelRequest): -32800
            raise CompactionFailed("The compaction was cancelled",
                                   data={"tier": "full", "reason": "cancelled"}) from None
        except Exception as exc:
            reason = getattr(exc, "message", None) or str(exc) or type(exc).__name__
            if trigger == "auto":
                self.breaker.record_failure()
            self._log_event("failed", reason=reason, trigger=trigger)
            session.update({**base, "status": "failed", "tier": "full", "tokensBefore": before,
                            "error": reason})
            await session.editor.progress(progress["token"], "end", "Compacting", f"failed: {reason}")
            msg = f"Compaction failed, nothing was changed: {reason}"
            if self.breaker.open and trigger == "auto":
                msg += " (auto-compact is now off for this session after repeated failures)"
            session.editor.show_message("warning", msg)
            session.editor.status("warning", False, msg)
            session.send_usage_update()
            raise CompactionFailed(msg, data={"tier": "full", "reason": reason}) from exc
        finally:
            self._task = None
        self.breaker.record_success()
        self.compacted_since_anchor = True
        session.compactions[tier] = session.compactions.get(tier, 0) + 1
        self._log_event(tier, trigger=trigger, tokensBefore=before, tokensAfter=after)
        session.update({**base, "status": "completed", "tier": tier, "tokensBefore": before,
                        "tokensAfter": after, "summary": summary})
        await session.editor.progress(progress["token"], "end", "Compacting",
                                      f"saved {before - after:,} tokens")
        session.editor.status("normal", False, f"Compacted: {before:,} → {after:,} tokens")
        session.send_usage_update()
        return {"compactionId": compaction_id, "status": "completed", "tier": tier,
                "tokensBefore": before, "tokensAfter": after}

    async def _compact(self, trigger: str, instructions: str | None, force_full: bool,
                       token: str | None) -> tuple[str, int, str]:
        session = self.session
        # "Did it shrink" compares the rebuilt context's estimate with the context now, as
        # our estimate or as the gauge shows it (the provider's count), whichever is larger:
        # a compaction that grows the context by both measures has failed.
        before = max(session.estimate(session.records), session.ledger.used())
        if trigger == "auto" and not force_full and session.settings.sessionMemory.enabled:
            await self.memory.wait()
            plan = plan_memory_compaction(session, self.memory)
            if plan is not None:
                summary, tail = plan
                records = self._new_context("session_memory", trigger, before, summary, tail, [])
                after = session.estimate(records)
                limit = session.thresholds.auto_compact_at or session.thresholds.blocking_at
                if after < before and after < limit:
                    self._commit(records)
                    return "session_memory", session.ledger.used(), summary
                log.info("session memory compaction would leave %s tokens; using full", after)
        await session.editor.progress(token, "report", "Compacting", "summarizing the conversation")
        result = await full_compact(session, trigger, instructions)
        records = self._new_context("full", trigger, before, result.summary, pending_round(session),
                                    result.attachments, ptl_retries=result.ptl_retries)
        after = session.estimate(records)
        if after >= before:
            raise RuntimeError(f"the summary ({after:,} tokens) does not shrink the context ({before:,})")
        self._commit(records)
        return "full", session.ledger.used(), result.summary

    def _new_context(self, tier: str, trigger: str, before: int, summary: str, tail: list[Message],
                     attachments: list[Message], ptl_retries: int = 0) -> list[Message]:
        session = self.session
        last = session.records[-1].uuid if session.records else None
        boundary = Message(kind="system", subtype="compact_boundary",
                           content=[{"type": "text", "text": "Conversation compacted"}],
                           extra={"compactMetadata": {"trigger": trigger, "preTokens": before, "tier": tier,
                                                      "ptlRetries": ptl_retries},
                                  "logicalParentUuid": last})
        text = summary_message_text(summary, str(session.transcript_path()), auto=trigger == "auto",
                                    preserved_tail=bool(tail))
        summary_msg = user_text(text, is_compact_summary=True)
        kept = [dataclasses.replace(m, uuid=new_uuid(), parent_uuid=None, usage=None,
                                    extra={**m.extra, "keptFrom": m.uuid}) for m in tail]
        return [boundary, summary_msg, *attachments, *kept]

    def _commit(self, records: list[Message]) -> None:
        session = self.session
        session.append_many(records)
        session.rewrite("compaction")
        session.file_state.forget_results()
        session.refresh_prefix()
        session.cleared_ids.clear()
        session.rebuild_ledger()
        renamed = {m.extra["keptFrom"]: m.uuid for m in records if "keptFrom" in m.extra}
        summary = next(m for m in records if m.is_compact_summary)
        self.memory.after_compaction(session.ledger.used(), renamed, summary.uuid)


def pending_round(session: Session) -> list[Message]:
    """Mid-turn, the latest response and its tool results stay verbatim after a summary,
    so the model continues from what it just saw (as Claude Code does)."""
    records = [m for m in session.view_records() if m.kind in ("user", "assistant")]
    if not records or not records[-1].tool_results():
        return []
    groups = api_round_groups(records)
    last = groups[-1] if groups else []
    return last if last and last[0].kind == "assistant" else []


