"""One agent turn: the loop of model calls and tool rounds, and the streaming of each call.

Around every call the context tiers run (before the call, on the request, after the
response); the answer streams to the editor in coalesced chunks; tool calls run and their
results are appended; the loop ends when the model stops asking for tools (a ``pause_turn``, the provider
pausing a long run of its own server tools, is continued by sending the answer so far
back), when the user
cancels, at ``maxTurnRequests``, or when the context needs more auto-compactions than
``autoCompact.maxPerTurn`` (it refills as fast as it is compacted: the turn stops and says
what to do rather than compacting once per request). A provider failure after retries leaves the transcript
consistent: the partial answer kept and marked, the error recorded. An answer that reaches
its bound (``sidecar.core.turns.answer_cap``) has its stream stopped; what arrived is kept, with a
note saying it was cut, and the turn ends with ``max_tokens``.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, Protocol

from sidecar.contract.errors import ContextWindowExceeded
from sidecar.contract.updates import agent_message_chunk, agent_thought_chunk, session_info_update
from sidecar.core.conversation import server_tools
from sidecar.core.conversation.messages import INTERRUPTED_MARK, Block, Message, Usage, new_uuid
from sidecar.core.models.catalog import cost_usd
from sidecar.core.ports import (
    Completed,
    ModelRequest,
    ProviderError,
    TextDelta,
    ThinkingDelta,
    ToolUseStart,
)
from sidecar.core.turns.answer_cap import AnswerCut
from sidecar.core.turns.coalesce import ChunkCoalescer
from sidecar.core.turns.error_advice import provider_failed
from sidecar.core.turns.retry import Restarted, RetryReporter, plain_reason, stream_with_retry
from sidecar.core.turns.tool_context import ToolHost
from sidecar.core.turns.tool_runner import run_tool_calls

if TYPE_CHECKING:
    from sidecar.contract.results import Gauge
    from sidecar.core.accounting.tokens import TokenLedger
    from sidecar.core.accounting.window import Thresholds
    from sidecar.core.compaction.pipeline import ContextTiers
    from sidecar.core.ports import Provider
    from sidecar.core.turns.requests import SessionRequests


class TurnInfo(Protocol):
    session_id: str
    cwd: str
    model: str
    provider: str
    title: str | None


class TurnHost(ToolHost, Protocol):
    """What a turn needs of its session (the session implements it)."""

    @property
    def info(self) -> TurnInfo: ...

    tiers: ContextTiers | None
    ledger: TokenLedger
    thresholds: Thresholds
    last_usage: Usage | None
    cost_usd: float | None

    def provider(self) -> Provider: ...

    # How its requests are built and anchored in the provider's cache.
    requests: SessionRequests

    def take_prefix_changes(self) -> None: ...

    def send_usage_update(self) -> Gauge: ...

    def persist_state(self) -> None: ...

log = logging.getLogger(__name__)

STOP_REASONS = {"end_turn": "end_turn", "stop_sequence": "end_turn", "tool_use": "end_turn",
                "max_tokens": "max_tokens", "refusal": "refusal", "pause_turn": "end_turn"}


class TurnRunner:
    def __init__(self, session: TurnHost) -> None:
        self.session = session

    async def run(self, prompt: list[Block]) -> str:
        """Run one agent turn; returns the stop reason."""
        s = self.session
        tiers = s.tiers
        s.cancel_event.clear()
        if s.info.title is None:
            text = " ".join(b.get("text", "") for b in prompt if b.get("type") == "text").strip()
            s.info.title = (text[:80] or "New session")
            s.update(session_info_update(title=s.info.title))
        s.append(Message(kind="user", content=prompt))
        s.take_prefix_changes()
        s.send_usage_update()
        calls = 0
        reactive_compacted = False
        if tiers is not None:
            tiers.start_turn()
        while True:
            if s.cancel_event.is_set():
                return "cancelled"
            if calls >= s.settings.maxTurnRequests:
                return "max_turn_requests"
            if tiers is not None and tiers.refilling():
                self._stop_refilling(tiers.turn_auto_compactions)
                s.persist_state()
                return "max_turn_requests"
            if tiers is not None:
                await tiers.before_call()
            elif s.ledger.used() >= s.thresholds.blocking_at:
                raise ContextWindowExceeded("The context is full; run /compact")
            if s.cancel_event.is_set():
                return "cancelled"
            request = s.requests.build()
            if tiers is not None:
                request = tiers.prepare_request(request)
            request = s.requests.cache_placed(request)
            calls += 1
            try:
                completed = await self._stream_call(request)
            except ProviderError as err:
                if err.prompt_too_long and not reactive_compacted and tiers is not None:
                    reactive_compacted = True
                    if await tiers.recover_from_overflow(err):
                        calls -= 1
                        continue
                self._record_api_error(err)
                s.persist_state()
                raise provider_failed(err, s.settings) from err
            if completed is None:  # cancelled midway
                return "cancelled"
            # The provider paused a long run of its own tools (web searches): the answer so
            # far goes back as the last message, and the model carries on from it.
            if completed.stop_reason == "pause_turn":
                continue
            tool_uses = [b for b in completed.content if b.get("type") == "tool_use"]
            if not tool_uses or completed.stop_reason != "tool_use":
                s.persist_state()
                return STOP_REASONS.get(completed.stop_reason, "end_turn")
            await run_tool_calls(s, tool_uses, completed.message_id)
            s.take_prefix_changes()
            s.send_usage_update()
            if s.cancel_event.is_set():
                s.persist_state()
                return "cancelled"

    async def _stream_call(self, request: ModelRequest) -> Completed | None:
        """Stream one model call to the editor; None when cancelled."""
        s = self.session
        message_id = f"msg_{new_uuid()[:12]}"
        partial: dict[str, list[str]] = {"text": [], "thinking": []}

        def emit(kind: str, text: str) -> None:
            chunk = agent_message_chunk if kind == "text" else agent_thought_chunk
            s.update(chunk(text, message_id))

        coalescer = ChunkCoalescer(emit)
        retry = s.settings.retry

        reporter = RetryReporter(s.update, retry.maxRetries)

        def on_retry(attempt: int, error: ProviderError, delay: float) -> None:
            reporter.on_retry(attempt, error, delay)
            s.editor.status("warning", True, f"{plain_reason(error)}; retry {attempt} of "
                            f"{retry.maxRetries} in {delay:.1f}s")

        def on_through(attempt: int) -> None:
            # Said once the retried call's whole answer is in, after its text.
            coalescer.flush()
            reporter.on_through(attempt)

        async def consume() -> Completed | None:
            result = None
            async for event in stream_with_retry(
                s.provider(), request, max_retries=retry.maxRetries,
                base_delay=retry.baseDelayMs / 1000, max_delay=retry.maxDelayMs / 1000,
                on_retry=on_retry, on_through=on_through,
                max_answer_bytes=s.settings.maxAnswerBytes,
            ):
                if isinstance(event, TextDelta):
                    partial["text"].append(event.text)
                    coalescer.add("text", event.text)
                elif isinstance(event, ThinkingDelta):
                    partial["thinking"].append(event.text)
                    coalescer.add("thinking", event.text)
                elif isinstance(event, Restarted):
                    coalescer.flush()
                    partial["text"].clear()
                    partial["thinking"].clear()
                    emit("text", "\n\n[retrying after a provider error]\n\n")
                elif isinstance(event, ToolUseStart):
                    coalescer.flush()
                elif isinstance(event, Completed):
                    result = event
                elif isinstance(event, AnswerCut):
                    cut["at"] = event
            return result

        cut: dict[str, AnswerCut] = {}

        task = asyncio.ensure_future(consume())
        cancel_wait = asyncio.ensure_future(s.cancel_event.wait())
        try:
            done, _ = await asyncio.wait({task, cancel_wait}, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            task.cancel()
            cancel_wait.cancel()
            raise
        cancel_wait.cancel()
        coalescer.flush()
        if task not in done:
            task.cancel()
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass
            self._keep_partial(partial, request.model, message_id)
            return None
        try:
            completed = task.result()
        except Exception:
            self._keep_partial(partial, request.model, message_id)
            raise
        if completed is None and "at" in cut:
            return self._keep_cut(partial, request.model, message_id, cut["at"], emit)
        if completed is None:
            self._keep_partial(partial, request.model, message_id)
            return None
        s.last_usage = completed.usage
        cost = cost_usd(completed.usage, s.info.model, s.info.provider)
        if cost is not None:
            s.cost_usd = (s.cost_usd or 0.0) + cost
        s.append(Message(
            kind="assistant", content=completed.content or [{"type": "text", "text": ""}],
            message_id=completed.message_id or message_id, model=completed.model or request.model,
            usage=completed.usage, stop_reason=completed.stop_reason,
        ))
        for update in server_tools.call_updates(completed.content):
            s.update(update)
        if s.tiers is not None:
            s.tiers.after_response(completed)
        s.send_usage_update()
        return completed

    def _stop_refilling(self, compactions: int) -> None:
        """Say why the turn stops: as a warning, and as the turn's last agent text."""
        s = self.session
        th = s.thresholds
        text = (
            f"Stopped: the context refills faster than it can be compacted ({compactions} "
            f"auto-compactions in this turn, and it holds {s.ledger.used():,} tokens again, past "
            f"the auto-compact point of {th.auto_compact_at or 0:,} in a {th.size:,}-token window). "
            "Use a model with a bigger context window (or raise the contextWindow setting), "
            "start over with /clear, or ask for narrower reads: a range of lines, or Grep "
            "instead of whole files."
        )
        s.editor.show_message("warning", text)
        s.update(agent_message_chunk(f"\n\n{text}", f"msg_{new_uuid()[:12]}"))

    def _record_api_error(self, err: Exception) -> None:
        """The failure stays in the transcript, as Claude Code keeps it: never sent to the
        model again, but it tells normalization which media the provider refused."""
        text = f"API Error: {getattr(err, 'message', None) or err}"
        self.session.append(Message(kind="assistant", content=[{"type": "text", "text": text}],
                                    is_api_error=True, stop_reason="error"))

    def _keep_cut(self, partial: dict[str, list[str]], model: str, message_id: str,
                  cut: AnswerCut, emit: Any) -> Completed:
        """The answer reached its bound and its stream was stopped: what arrived is kept,
        ending with a note that says so (to the user and in the transcript), and the turn
        ends as at the output limit (``max_tokens``). A tool call it was writing is dropped."""
        s = self.session
        note = (f"[Answer cut: it reached {cut.limit:,} bytes, the most one answer may hold "
                "(the maxAnswerBytes setting, or 16 bytes per output token allowed); the "
                "model's stream was stopped]")
        emit("text", f"\n\n{note}")
        s.editor.show_message("warning", f"The model's answer was cut at {cut.limit:,} bytes "
                              "and its stream stopped: it passed the most one answer may hold.")
        text = "".join(partial["text"])
        content: list[Block] = [{"type": "text", "text": f"{text}\n\n{note}" if text else note}]
        completed = Completed(content=content, usage=Usage(), stop_reason="max_tokens",
                              message_id=message_id, model=model)
        s.append(Message(kind="assistant", content=content, message_id=message_id, model=model,
                         stop_reason="max_tokens",
                         extra={"answerCut": {"limit": cut.limit, "kept": cut.kept}}))
        if s.tiers is not None:
            s.tiers.after_response(completed)
        s.send_usage_update()
        return completed

    def _keep_partial(self, partial: dict[str, list[str]], model: str, message_id: str) -> None:
        """The partial answer stays in the transcript, marked as interrupted."""
        text = "".join(partial["text"])
        if not text and not partial["thinking"]:
            return
        blocks: list[Block] = []
        if text:
            blocks.append({"type": "text", "text": f"{text}\n\n{INTERRUPTED_MARK}"})
        else:
            blocks.append({"type": "text", "text": INTERRUPTED_MARK})
        self.session.append(Message(kind="assistant", content=blocks, message_id=message_id,
                                    model=model, stop_reason="interrupted",
                                    extra={"interrupted": True}))
