"""The context tiers: the five tiers around every model call of one session.

Before a call: microcompact (tier 1), then auto-compact when the gauge says so (session
memory first, tier 3, then full compaction, tier 4, with the prompt-too-long retry, tier 5,
inside it), behind the circuit breaker; then the blocking check. On the request: API
context management (tier 2), server-side where the provider has it, client-side elsewhere.
A compaction is committed only when it really shrinks the context; a failed one changes
nothing and says so. One that shrinks it without making real room (see ``room_target``) is
kept but reported as short of it, and an automatic one counts as a failure for the circuit
breaker. Auto-compactions are counted per turn, so a turn that refills the context as fast
as it is compacted can stop (``sidecar.core.turns.turn``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from sidecar.contract.errors import CompactionFailed, ContextWindowExceeded
from sidecar.contract.results import CompactionBackend, CompactionTier
from sidecar.contract.updates import CompactionTrigger, compaction_update
from sidecar.core.accounting.cache_resume import ENTRY_LIFETIME
from sidecar.core.accounting.gauge import BreakerState
from sidecar.core.compaction.breaker import CircuitBreaker
from sidecar.core.compaction.full import (
    FullResult,
    api_round_groups,
    full_compact,
)
from sidecar.core.compaction.microcompact import (
    anthropic_context_management,
    client_side_context_edit,
    minutes_since_last_assistant,
    step_clearing_candidates,
    time_based_candidates,
)
from sidecar.core.compaction.prompts import server_summary_note, summary_message_text
from sidecar.core.compaction.reinjection import reinjected_context
from sidecar.core.compaction.session_memory import SessionMemory, plan_memory_compaction
from sidecar.core.compaction.turn_clearing import turn_clearing_candidates
from sidecar.core.conversation import server_tools
from sidecar.core.conversation.messages import Message, new_uuid, user_text
from sidecar.core.settings import storage_dir
from sidecar.core.turns.deferred_tools import DISCOVERED_KEY, discovered_names
from sidecar.core.workspace.hooks import after_compaction, with_hook_output

if TYPE_CHECKING:
    from sidecar.core.compaction.host import CompactionHost
    from sidecar.core.ports import Completed, ModelRequest, ProviderError, ServerCompaction

log = logging.getLogger(__name__)

# Real headroom: after a compaction the context must hold at most this share of the
# auto-compact point. A fifth of the budget left free is room for a few ordinary results
# (in a 60K window, 5,400 tokens); less, and the next result or two trigger the next
# compaction, which is how a turn ends up compacting once per request.
ROOM_SHARE = (4, 5)


def room_target(auto_compact_at: int | None, blocking_at: int) -> int:
    """The most a compacted context may hold and count as having made real room."""
    limit = auto_compact_at or blocking_at
    return limit * ROOM_SHARE[0] // ROOM_SHARE[1]


@dataclass(frozen=True)
class CompactOutcome:
    tier: CompactionTier
    backend: CompactionBackend  # local (our summary) or server (the provider's)
    tokens_after: int
    summary: str
    fallback_reason: str | None = None  # why the provider's compaction was not used


class ContextTiers:
    """The five tiers around every model call of one host."""

    def __init__(self, host: CompactionHost) -> None:
        self.host = host
        self.breaker = CircuitBreaker(host.settings.autoCompact.maxConsecutiveFailures)
        self.memory = SessionMemory(storage_dir(host.settings), host.id)
        self.compacted_since_anchor = False
        # Auto-compactions since the turn last made progress: since it began, or since a
        # compaction after which the model asked for something it had not asked for before.
        self.turn_auto_compactions = 0
        self._turn_calls: set[str] = set()  # the turn's tool calls, as name and input
        self._new_work = False  # a call not seen before in the turn, since the last compaction
        self._seen_answer: str | None = None
        self._task: asyncio.Task[Any] | None = None
        # What the client-side edit has cleared since the context began (the first
        # record after the last boundary): it stays cleared (see prepare_request).
        self._edited: frozenset[str] = frozenset()
        self._edited_context: str | None = None
        self.events: list[dict[str, Any]] = []  # what fired, for replay and tests
        # Called with each event as it is logged (replay adds where in the recording it is).
        self.observers: list[Callable[[dict[str, Any]], None]] = []

    # ----- gauge -------------------------------------------------------------------

    def breaker_state(self) -> BreakerState:
        return BreakerState(self.host.settings.autoCompact.enabled, self.breaker.open,
                            self.breaker.consecutive_failures)

    def _log_event(self, tier: str, **data: Any) -> None:
        event = {"tier": tier, "at": len(self.host.transcript.records), **data}
        self.events.append(event)
        for observe in self.observers:
            observe(event)

    # ----- before and around every call ---------------------------------------------

    def start_turn(self) -> None:
        self.turn_auto_compactions = 0
        self._turn_calls = set()
        self._new_work = False

    def _note_progress(self) -> None:
        """Whether the latest answer asked for something new in this turn: a long turn of
        new reads may need a compaction every few requests and still be getting somewhere;
        one that asks again for what a compaction took away is refilling."""
        last = next((m for m in reversed(self.host.transcript.records)
                     if m.kind == "assistant"), None)
        if last is None or last.uuid == self._seen_answer:
            return
        self._seen_answer = last.uuid
        for block in last.content:
            if block.get("type") == "tool_use":
                call = f"{block.get('name')}:{json.dumps(block.get('input'), sort_keys=True)}"
                if call not in self._turn_calls:
                    self._turn_calls.add(call)
                    self._new_work = True

    def refilling(self) -> bool:
        """Whether the context needs another auto-compaction in a turn that already had
        ``autoCompact.maxPerTurn`` of them with no new work between: it refills faster than
        compaction empties it."""
        host = self.host
        auto = host.settings.autoCompact
        self._note_progress()
        return (auto.enabled and not self.breaker.open and not self.compacted_since_anchor
                and self.turn_auto_compactions >= auto.maxPerTurn and not self._new_work
                and host.thresholds.should_auto_compact(host.ledger.used()))

    async def before_call(self) -> None:
        host = self.host
        now = host.clock()
        view = host.transcript.since_boundary()
        # The web tools' results too (run by the provider: no Tool of the session's).
        compactable = frozenset(t.name for t in host.tools if t.compactable) \
            | server_tools.CLEARABLE_SERVER_TOOLS
        cleared = time_based_candidates(view, host.settings, now, host.transcript.cleared_ids(),
                                        compactable)
        if cleared:
            before = host.ledger.used()
            host.record_clearing(cleared, "time_based")
            self._log_event("microcompact", kind="time_based", cleared=len(cleared),
                            tokensBefore=before, tokensAfter=host.ledger.used())
            host.send_usage_update()
        th = host.thresholds
        view = host.transcript.model_view()
        # A step's rewrite starts at the first cleared result where the provider's cache
        # can be picked up there (sidecar.core.accounting.cache_resume).
        resumable = now - ENTRY_LIFETIME if host.provider_for().cache_breakpoints else None
        cleared = step_clearing_candidates(view, host.settings, host.ledger.used(),
                                           th.auto_compact_at, host.transcript.cleared_ids(),
                                           compactable, host.ledger.counter, resumable)
        kind = "step"
        if not cleared:
            cleared = turn_clearing_candidates(view, host.settings, host.ledger.used(),
                                               th.auto_compact_at, host.transcript.cleared_ids(),
                                               compactable, host.ledger.counter, resumable)
            kind = "turn"
        if cleared:
            before = host.ledger.used()
            host.record_clearing(cleared, kind)
            self._log_event("microcompact", kind=kind, cleared=len(cleared),
                            tokensBefore=before, tokensAfter=host.ledger.used())
            host.send_usage_update()
        used = host.ledger.used()
        auto = host.settings.autoCompact
        if (auto.enabled and not self.breaker.open and not self.compacted_since_anchor
                and th.should_auto_compact(used)):
            if auto.confirm and not await self._confirmed(host, used):
                pass
            else:
                self._note_progress()
                if self._new_work:
                    self.turn_auto_compactions = 0
                self._new_work = False
                self.turn_auto_compactions += 1
                try:
                    await self.compact_now(trigger="auto")
                except CompactionFailed:
                    pass
        used = host.ledger.used()
        if used >= th.blocking_at:
            hint = "run /compact" if not auto.enabled else "compaction failed; run /compact or /clear"
            raise ContextWindowExceeded(
                f"The context holds {used:,} tokens, past the blocking limit of {th.blocking_at:,}; {hint}",
                data={"used": used, "blockingAt": th.blocking_at, "suggestion": "/compact"},
            )

    async def _confirmed(self, host: CompactionHost, used: int) -> bool:
        answer = await host.editor.request_permission(
            host.id,
            {"toolCallId": f"compact-{new_uuid()[:8]}", "title": f"Compact the conversation ({used:,} tokens)?",
             "kind": "other", "status": "pending", "rawInput": {"used": used}},
            [{"optionId": "allow_once", "name": "Compact now", "kind": "allow_once"},
             {"optionId": "reject_once", "name": "Not now", "kind": "reject_once"}],
        )
        return answer.option_id in ("allow_once", "allow_always")

    def prepare_request(self, request: ModelRequest) -> ModelRequest:
        host = self.host
        if host.provider_for().server_context_management:
            idle = minutes_since_last_assistant(host.transcript.since_boundary(), host.clock())
            return dataclasses.replace(request, context_management=anthropic_context_management(
                host.settings, idle_minutes=idle))
        since = host.transcript.since_boundary()
        context = since[0].uuid if since else None
        already = self._edited if context == self._edited_context else frozenset()
        messages, saved, edited = client_side_context_edit(
            request.messages, host.ledger.used(), host.settings, host.ledger.counter, already)
        if edited != already:
            # The outgoing history differs from the last request's before its end.
            self._edited, self._edited_context = edited, context
            host.rewrite("context_edit")
            request = dataclasses.replace(request, headers=host.requests.labels())
        if saved:
            self._log_event("api_context_management", kind="client_side", saved=saved)
            request = dataclasses.replace(request, messages=messages)
        return request

    def after_response(self, completed: Completed) -> None:
        self.compacted_since_anchor = False
        if completed.applied_edits:
            self._log_event("api_context_management", kind="server", edits=completed.applied_edits)
        tool_calls = sum(1 for b in completed.content if b.get("type") == "tool_use")
        self.memory.note_response(self.host, tool_calls)

    async def recover_from_overflow(self, err: ProviderError) -> bool:
        """The provider said the prompt is too long: one forced compaction, then retry."""
        self.turn_auto_compactions += 1
        try:
            await self.compact_now(trigger="auto", force_full=True)
        except CompactionFailed:
            return False
        return True

    def cancel(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()

    # ----- compaction ----------------------------------------------------------------

    async def compact_now(self, *, trigger: CompactionTrigger, instructions: str | None = None,
                          work_done_token: Any = None, force_full: bool = False,
                          keep: int | None = None) -> dict[str, Any]:
        """Compact now; with ``keep``, the first ``keep`` records of the model's view stay
        verbatim and only the rest is summarized ("summarize from here")."""
        host = self.host
        compaction_id = f"cmp_{new_uuid()[:12]}"
        before = host.ledger.used()
        memory_first = (trigger == "auto" and not force_full
                        and host.settings.sessionMemory.enabled)
        host.update(compaction_update(
            compaction_id, trigger=trigger, status="in_progress",
            tier="session_memory" if memory_first else "full", tokens_before=before))
        host.editor.status("normal", True, "Compacting the conversation…")
        progress: dict[str, str | None] = {"token": None}
        client_token = work_done_token if isinstance(work_done_token, str) else None

        async def run() -> CompactOutcome:
            progress["token"] = await host.editor.progress(client_token, "begin", "Compacting",
                                                              f"{before:,} tokens")
            if keep is not None:
                return await self._summarize_after(keep, trigger, instructions)
            return await self._compact(trigger, instructions, force_full, progress["token"])

        # The task exists before the first await, so a cancel can never slip past it.
        self._task = asyncio.ensure_future(run())
        try:
            done = await self._task
            tier, after, summary = done.tier, done.tokens_after, done.summary
        except asyncio.CancelledError:
            host.update(compaction_update(compaction_id, trigger=trigger, status="cancelled",
                                          tier="full", tokens_before=before))
            await host.editor.progress(progress["token"], "end", "Compacting", "cancelled")
            host.editor.status("normal", False, "Compaction cancelled")
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
            host.update(compaction_update(compaction_id, trigger=trigger, status="failed",
                                          tier="full", tokens_before=before, error=reason))
            await host.editor.progress(progress["token"], "end", "Compacting", f"failed: {reason}")
            msg = f"Compaction failed, nothing was changed: {reason}"
            if self.breaker.open and trigger == "auto":
                msg += " (auto-compact is now off for this session after repeated failures)"
            host.editor.show_message("warning", msg)
            host.editor.status("warning", False, msg)
            host.send_usage_update()
            raise CompactionFailed(msg, data={"tier": "full", "reason": reason}) from exc
        finally:
            self._task = None
        short = self._short_of_room(before, after)
        if short is None:
            self.breaker.record_success()
        elif trigger == "auto":
            self.breaker.record_failure()
        self.compacted_since_anchor = True
        self._log_event(tier, trigger=trigger, tokensBefore=before, tokensAfter=after,
                        backend=done.backend, **({"short": short} if short else {}))
        host.update(compaction_update(compaction_id, trigger=trigger, status="completed",
                                      tier=tier, tokens_before=before, tokens_after=after,
                                      summary=summary, backend=done.backend, error=short))
        if done.fallback_reason:
            host.editor.show_message(
                "info", f"The provider did not compact the conversation ({done.fallback_reason}); "
                "the sidecar summarized it instead.")
        await host.editor.progress(progress["token"], "end", "Compacting",
                                   f"{before:,} → {after:,} tokens")
        if short is None:
            host.editor.status("normal", False, f"Compacted: {before:,} → {after:,} tokens")
        else:
            msg = f"Compacted {before:,} → {after:,} tokens, but {short}"
            if trigger == "auto" and self.breaker.open:
                msg += " (auto-compact is now off for this session after repeated failures)"
            host.editor.show_message("warning", msg)
            host.editor.status("warning", False, msg)
        host.send_usage_update()
        return {"compactionId": compaction_id, "status": "completed", "tier": tier,
                "tokensBefore": before, "tokensAfter": after, "backend": done.backend}

    def _short_of_room(self, before: int, after: int) -> str | None:
        """Why a committed compaction did not make real room, or None when it did."""
        th = self.host.thresholds
        target = room_target(th.auto_compact_at, th.blocking_at)
        if after >= before:
            return f"the context did not shrink ({before:,} → {after:,} tokens)"
        if after > target:
            return (f"the context still holds {after:,} tokens, more than {target:,} "
                    f"(80% of the {'auto-compact point' if th.auto_compact_at else 'blocking limit'}); "
                    "it will fill up again within a few requests")
        return None

    async def _compact(self, trigger: str, instructions: str | None, force_full: bool,
                       token: str | None) -> CompactOutcome:
        host = self.host
        # "Did it shrink" compares the rebuilt context's estimate with the context now, as
        # our estimate or as the gauge shows it (the provider's count), whichever is larger:
        # a compaction that grows the context by both measures has failed.
        # The gauge's figure is also the ``tokensBefore`` reported (and recorded as the
        # boundary's ``preTokens``): a context that does not shrink below it is no
        # compaction to report, whatever the estimates say.
        shown = host.ledger.used()
        before = max(host.estimate(host.transcript.records), shown)
        target = room_target(host.thresholds.auto_compact_at, host.thresholds.blocking_at)
        if trigger == "auto" and not force_full and host.settings.sessionMemory.enabled:
            await self.memory.wait()
            # Notes that stop well before the context's end leave a tail too long to make
            # room; brought up to date once (a call reading the cached context, as a full
            # summary would), they can still serve.
            for refresh in (False, True):
                if refresh and not await self.memory.update(host, cached_only=True):
                    break
                plan = plan_memory_compaction(host, self.memory)
                if plan is None:
                    continue
                summary, tail = plan
                records = self._new_context("session_memory", trigger, shown, summary, tail,
                                            await reinjected_context(host, "session_memory"))
                after = host.estimate(records)
                # The notes must make real room, else the full summary may do better.
                if after < min(before, shown) and after <= target:
                    self._commit(records)
                    await after_compaction(host, trigger, summary)
                    return CompactOutcome("session_memory", "local", host.ledger.used(), summary)
                log.info("session memory compaction would leave %s tokens", after)
        await host.editor.progress(token, "report", "Compacting", "summarizing the conversation")
        instructions = await with_hook_output(host, trigger, instructions)
        result = await full_compact(host, instructions)
        records, after = self._full_context(result, trigger, shown)
        if (after >= before or after >= shown) and result.server is not None:
            # The provider's compaction keeps too much (OpenAI's keeps every user message):
            # our own summary may still shrink it.
            log.info("the provider's compaction would leave %s tokens of %s; summarizing locally",
                     after, before)
            result = await full_compact(host, instructions, server_ok=False,
                                        fallback="its compaction would not shrink the context")
            records, after = self._full_context(result, trigger, shown)
        if after >= before or after >= shown:
            raise RuntimeError(f"the summary ({after:,} tokens) does not shrink the context "
                               f"({shown:,})")
        self._commit(records)
        await after_compaction(host, trigger, result.summary)
        return CompactOutcome("full", "server" if result.server else "local", host.ledger.used(),
                              result.summary, result.fallback_reason)

    async def _summarize_after(self, keep: int, trigger: str,
                               instructions: str | None) -> CompactOutcome:
        """The view's first ``keep`` records verbatim, a summary of the rest after them."""
        host = self.host
        shown = host.ledger.used()
        view = host.transcript.model_view()
        head, rest = view[:keep], view[keep:]
        if not any(m.kind == "assistant" for m in rest):
            raise RuntimeError("nothing after that prompt to summarize")
        instructions = await with_hook_output(host, trigger, instructions)
        result = await full_compact(host, instructions, server_ok=False, view=rest)
        records = self._new_context("full", trigger, shown, result.summary, [],
                                    result.attachments, head=head)
        after = host.estimate(records)
        if after >= shown:
            raise RuntimeError(f"the summary ({after:,} tokens) does not shrink the context "
                               f"({shown:,})")
        self._commit(records)
        await after_compaction(host, trigger, result.summary)
        return CompactOutcome("full", "local", host.ledger.used(), result.summary)

    def _full_context(self, result: FullResult, trigger: str,
                      before: int) -> tuple[list[Message], int]:
        """The records a full compaction leaves, and their estimate. Mid-turn, the round in
        progress stays verbatim unless that alone would reach the blocking limit."""
        host = self.host
        tail = pending_round(host)
        records = self._new_context("full", trigger, before, result.summary, tail,
                                    result.attachments, ptl_retries=result.ptl_retries,
                                    server=result.server)
        after = host.estimate(records)
        if tail and after >= host.thresholds.blocking_at:
            records = self._new_context("full", trigger, before, result.summary, [],
                                        result.attachments, ptl_retries=result.ptl_retries,
                                        server=result.server)
            after = host.estimate(records)
        return records, after

    def _new_context(self, tier: str, trigger: str, before: int, summary: str, tail: list[Message],
                     attachments: list[Message], ptl_retries: int = 0,
                     server: ServerCompaction | None = None,
                     head: list[Message] | None = None) -> list[Message]:
        host = self.host
        records = host.transcript.records
        last = records[-1].uuid if records else None
        boundary = Message(kind="system", subtype="compact_boundary",
                           content=[{"type": "text", "text": "Conversation compacted"}],
                           extra={"compactMetadata": {"trigger": trigger, "preTokens": before, "tier": tier,
                                                      "ptlRetries": ptl_retries,
                                                      "backend": "server" if server else "local"},
                                  "logicalParentUuid": last})
        discovered = discovered_names(host.transcript.model_view())
        if discovered:
            boundary.extra["compactMetadata"][DISCOVERED_KEY] = discovered
        # What an earlier compaction re-injected is made afresh below, never kept twice.
        def copies(chosen: list[Message]) -> list[Message]:
            return [dataclasses.replace(m, uuid=new_uuid(), parent_uuid=None, usage=None,
                                        extra={**m.extra, "keptFrom": m.uuid}) for m in chosen
                    if not (m.kind == "attachment" and (m.attachment or {}).get("reinjected"))]

        kept = copies(tail)
        first = copies([m for m in head or [] if m.kind != "system"])
        path = str(host.transcript.path())
        if server:
            # The provider's blocks lead every later request, as the API requires; what the
            # local summary message says around a summary follows them as a note.
            summary_msg = Message(kind=server.role, content=list(server.blocks),
                                  is_compact_summary=True, extra={"serverCompaction": True})
            note = Message(kind="attachment", attachment={"type": "compact_note"},
                           content=[{"type": "text", "text": server_summary_note(
                               path, auto=trigger == "auto", preserved_tail=bool(tail))}],
                           is_meta=True)
            return [boundary, summary_msg, note, *attachments, *kept]
        text = summary_message_text(summary, path, auto=trigger == "auto",
                                    preserved_tail=bool(tail))
        summary_msg = user_text(text, is_compact_summary=True)
        return [boundary, *first, summary_msg, *attachments, *kept]

    def _commit(self, records: list[Message]) -> None:
        host = self.host
        host.commit(records)
        renamed = {m.extra["keptFrom"]: m.uuid for m in records if "keptFrom" in m.extra}
        summary = next(m for m in records if m.is_compact_summary)
        self.memory.after_compaction(host.ledger.used(), renamed, summary.uuid)


def pending_round(host: CompactionHost) -> list[Message]:
    """Mid-turn, the latest response and its tool results stay verbatim after a summary,
    so the model continues from what it just saw (as Claude Code does)."""
    records = [m for m in host.transcript.model_view() if m.kind in ("user", "assistant")]
    if not records or not records[-1].tool_results():
        return []
    groups = api_round_groups(records)
    last = groups[-1] if groups else []
    return last if last and last[0].kind == "assistant" else []


