"""One chat session: its records, its token ledger, and its agent turn.

The record list is the transcript: append-only, and what the model sees is derived from
it (the slice after the last compact boundary, normalized). Every record is written to
disk as it is appended.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from sidecar.core.coalesce import ChunkCoalescer
from sidecar.core.errors import ContextWindowExceeded, ProviderFailed
from sidecar.core.gauge import BreakerState, build_gauge
from sidecar.core.messages import (
    INTERRUPTED_MARK,
    Block,
    Message,
    Usage,
    new_uuid,
)
from sidecar.core.catalog import api_model_id
from sidecar.core.normalize import model_slice, normalize_for_api, with_leading_context
from sidecar.core.request_labels import CallKind, Cause, request_headers
from sidecar.core.settings import Settings
from sidecar.core.tokens import TokenLedger, make_counter
from sidecar.core.tool_runner import run_tool_calls
from sidecar.core.window import Thresholds, compute_thresholds, resolve_window

if TYPE_CHECKING:
    from sidecar.core.compaction.pipeline import ContextManager
    from sidecar.core.ports import Editor
    from sidecar.core.file_state import FileReadState
    from sidecar.core.ports import TranscriptStore
    from sidecar.core.prefix import PrefixStore, PrefixView
    from sidecar.core.ports import ModelRequest, Provider
    from sidecar.core.ports import Tool

log = logging.getLogger(__name__)

STOP_REASONS = {"end_turn": "end_turn", "stop_sequence": "end_turn", "tool_use": "end_turn",
                "max_tokens": "max_tokens", "refusal": "refusal", "pause_turn": "end_turn"}


@dataclass
class SessionInfo:
    session_id: str
    cwd: str
    model: str
    provider: str
    title: str | None = None
    created_at: float = field(default_factory=time.time)
    updated_at: float = field(default_factory=time.time)


class Session:
    def __init__(
        self,
        info: SessionInfo,
        settings: Settings,
        *,
        editor: Editor,
        writer: TranscriptStore | None,
        prefix: PrefixStore | None,
        file_state: FileReadState,
        tools: list[Tool],
        provider_factory: Callable[[Settings], Provider],
    ) -> None:
        self.info = info
        self.settings = settings
        self.editor = editor
        self.writer = writer
        self.prefix = prefix
        self.file_state = file_state
        self.tools = tools
        self._provider_factory = provider_factory
        self._provider: Provider | None = None
        self.records: list[Message] = []
        self.ledger = TokenLedger(make_counter(settings.tokens.estimator, info.model))
        self.thresholds: Thresholds = self._thresholds()
        self.seq = 0
        self.compactions: dict[str, int] = {}
        self.last_usage: Usage | None = None
        self.cost_usd: float | None = None
        # What this session sends as its prefix, and the change records it has seen.
        self.prefix_view: PrefixView | None = None
        self.prefix_cursor = 0
        self.refresh_prefix()
        self.allowed_always: set[str] = set()
        self.cancel_event = asyncio.Event()
        self.turn_task: asyncio.Task[Any] | None = None
        self.busy = False
        self.context: ContextManager | None = None  # set by the service
        self._prefix_parts_cache: dict[str, int] | None = None
        self.clock: Callable[[], float] = time.time
        # Tool results cleared by microcompact; frozen once sent.
        self.cleared_ids: set[str] = set()
        # What this conversation sends only changes before its end for a named cause; the
        # epoch counts those changes and every request says which one came last. It starts
        # from the clock so that it still rises when another process resumes the session.
        self.epoch = time.time_ns() // 1_000_000
        self.epoch_cause: Cause = "start"

    # ----- identity and configuration -------------------------------------------------

    @property
    def id(self) -> str:
        return self.info.session_id

    def _thresholds(self) -> Thresholds:
        window = resolve_window(self.info.model, self.info.provider, self.settings)
        return compute_thresholds(window, self.settings)

    def rewrite(self, cause: Cause) -> None:
        """Note that ``cause`` changed what the next request repeats of the previous one."""
        self.epoch += 1
        self.epoch_cause = cause

    def set_model(self, model: str, provider: str | None, settings: Settings) -> None:
        if model != self.info.model or (provider and provider != self.info.provider):
            self.rewrite("model")
        elif settings != self.settings:
            self.rewrite("settings")
        self.info.model = model
        if provider:
            self.info.provider = provider
        self.settings = settings
        self._provider = None
        self.thresholds = self._thresholds()

    def provider(self) -> Provider:
        if self._provider is None:
            self._provider = self._provider_factory(self.settings_for_call())
        return self._provider

    async def close_provider(self) -> None:
        provider, self._provider = self._provider, None
        if provider is not None:
            try:
                await provider.aclose()
            except Exception as exc:  # closing a pool must not fail a shutdown
                log.debug("provider close failed: %s", exc)

    def settings_for_call(self, model: str | None = None) -> Settings:
        return dataclasses.replace(
            self.settings, model=model or self.info.model, provider=self.info.provider
        )

    # ----- records ------------------------------------------------------------------

    def append(self, message: Message, *, persist: bool = True) -> Message:
        self.records.append(message)
        self.ledger.append(message)
        if persist and self.writer is not None:
            try:
                self.writer.append(message, self.id, self.info.cwd)
            except OSError as exc:  # a full disk must not lose the in-memory turn
                log.error("transcript write failed: %s", exc)
                self.editor.show_message("error", f"Could not write the transcript: {exc}")
        self.info.updated_at = time.time()
        return message

    def append_many(self, messages: list[Message]) -> None:
        """Append records with one transcript write (all or nothing on a crash)."""
        for message in messages:
            self.records.append(message)
        if self.writer is not None:
            try:
                self.writer.append_many(messages, self.id, self.info.cwd)
            except OSError as exc:
                log.error("transcript write failed: %s", exc)
                self.editor.show_message("error", f"Could not write the transcript: {exc}")
        self.info.updated_at = time.time()

    def context_records(self) -> list[Message]:
        return model_slice(self.records)

    def view_records(self) -> list[Message]:
        """The records the model sees: after the last boundary, cleared results applied."""
        from sidecar.core.compaction.microcompact import clear_results

        return clear_results(self.context_records(), self.cleared_ids)

    def rebuild_ledger(self, anchor_ok: bool = True) -> None:
        self._prefix_parts_cache = None
        self.ledger.prefix_tokens = self.prefix_parts()
        self.ledger.rebuild(self.view_records(), anchor_ok=anchor_ok)

    def estimate(self, records: list[Message]) -> int:
        """Estimated tokens of a would-be context (prefix plus these records)."""
        from sidecar.core.compaction.microcompact import clear_results

        return sum(self.prefix_parts().values()) + self.ledger.estimate_messages(
            model_slice(clear_results(records, self.cleared_ids)))

    def record_clearing(self, ids: list[str], kind: str) -> None:
        """Freeze a microcompact decision and write it down so a reload keeps it."""
        before = self.ledger.used()
        self.cleared_ids.update(ids)
        self.rewrite("microcompact")
        # The last usage still counts the cleared text: estimate until the next call.
        self.rebuild_ledger(anchor_ok=False)
        # A re-read must return the content again, not a stub pointing at a cleared result.
        self.file_state.forget_results()
        self.append(Message(kind="system", subtype="microcompact_boundary",
                            content=[{"type": "text", "text": "Old tool results cleared"}],
                            extra={"microcompactMetadata": {"trigger": kind, "preTokens": before,
                                                            "compactedToolIds": ids}}))

    def refresh_prefix(self) -> None:
        """Take the workspace's current prefix: at the start, a compaction or /clear, the
        causes that may rewrite what this session sends."""
        if self.prefix is not None:
            self.prefix_view = self.prefix.view()
            self.prefix_cursor = self.prefix_view.seq
        self._prefix_parts_cache = None

    def transcript_path(self) -> Path | None:
        return self.writer.path_for(self.id, self.info.cwd) if self.writer is not None else None

    def prefix_parts(self) -> dict[str, int]:
        if self._prefix_parts_cache is None:
            parts: dict[str, int] = {}
            if self.prefix_view is not None:
                parts.update(self.prefix_view.parts(self.ledger.counter))
            from sidecar.core.ports import tool_specs
            import json

            specs = [s.__dict__ for s in tool_specs(self.tools)]
            parts["tools"] = round(self.ledger.counter.text(json.dumps(specs)))
            self._prefix_parts_cache = parts
        return self._prefix_parts_cache

    def persist_state(self) -> None:
        if self.writer is None:
            return
        try:
            self.writer.append_state(
                self.id, self.info.cwd, model=self.info.model, provider=self.info.provider,
                title=self.info.title, used=self.ledger.used(), size=self.thresholds.size,
            )
        except OSError as exc:
            log.error("state write failed: %s", exc)

    # ----- gauge --------------------------------------------------------------------

    def breaker_state(self) -> BreakerState:
        if self.context is None:
            return BreakerState(self.settings.autoCompact.enabled, False, 0)
        return self.context.breaker_state()

    def gauge(self, bump: bool = True) -> dict[str, Any]:
        if bump:
            self.seq += 1
        return build_gauge(
            session_id=self.id,
            seq=self.seq,
            model=self.info.model,
            provider=self.info.provider,
            ledger=self.ledger,
            thresholds=self.thresholds,
            breaker=self.breaker_state(),
            compactions=self.compactions,
            last_turn=self.last_usage,
            cost_usd=self.cost_usd,
        )

    def send_usage_update(self) -> dict[str, Any]:
        gauge = self.gauge()
        update: dict[str, Any] = {
            "sessionUpdate": "usage_update",
            "used": gauge["used"],
            "size": gauge["size"],
            "_meta": {"sidecar": gauge},
        }
        if gauge.get("cost"):
            update["cost"] = gauge["cost"]
        self.editor.session_update(self.id, update)
        return gauge

    def update(self, payload: dict[str, Any]) -> None:
        self.editor.session_update(self.id, payload)

    # ----- requests -----------------------------------------------------------------

    def tool_names(self) -> set[str]:
        return {t.name for t in self.tools}

    def build_request(self, records: list[Message] | None = None, *,
                      call: CallKind = "main") -> ModelRequest:
        from sidecar.core.ports import ModelRequest
        from sidecar.core.ports import tool_specs

        recs = list(records if records is not None else self.view_records())
        view = self.prefix_view
        system: list[Block] = [dict(b) for b in view.system] if view else []
        messages = normalize_for_api(recs, self.tool_names())
        # The project's rules and the date lead the first user message of every request,
        # after a compaction or /clear too (they are no record, so no boundary drops them).
        user_ctx = view.user_context() if view else None
        if user_ctx is not None:
            messages = with_leading_context(messages, user_ctx.content)
        window = resolve_window(self.info.model, self.info.provider, self.settings)
        model, long_context = api_model_id(self.info.model)
        thinking = self.settings.thinking
        return ModelRequest(
            model=model,
            system=system,
            messages=messages,
            tools=tool_specs(self.tools),
            max_tokens=min(window.max_output_tokens, 32_000),
            thinking_budget=thinking.budgetTokens if thinking.mode == "budget" else None,
            thinking_adaptive=thinking.mode == "adaptive",
            effort=thinking.effort,
            long_context=long_context,
            prompt_cache_key=self.id,
            timeout_seconds=float(self.settings.retry.timeoutSeconds),
            headers=self.labels(call),
        )

    def labels(self, call: CallKind = "main") -> dict[str, str]:
        return request_headers(self.id, call, self.epoch, self.epoch_cause,
                               self.thresholds.blocking_at)

    # ----- the turn -----------------------------------------------------------------

    async def run_turn(self, prompt: list[Block]) -> str:
        """Run one agent turn; returns the stop reason."""
        from sidecar.core.ports import ProviderError

        self.cancel_event.clear()
        if self.info.title is None:
            text = " ".join(b.get("text", "") for b in prompt if b.get("type") == "text").strip()
            self.info.title = (text[:80] or "New session")
            self.update({"sessionUpdate": "session_info_update", "title": self.info.title})
        self.append(Message(kind="user", content=prompt))
        self._take_prefix_changes()
        self.send_usage_update()
        calls = 0
        reactive_compacted = False
        while True:
            if self.cancel_event.is_set():
                return "cancelled"
            if calls >= self.settings.maxTurnRequests:
                return "max_turn_requests"
            if self.context is not None:
                await self.context.before_call(self)
            elif self.ledger.used() >= self.thresholds.blocking_at:
                raise ContextWindowExceeded("The context is full; run /compact")
            if self.cancel_event.is_set():
                return "cancelled"
            request = self.build_request()
            if self.context is not None:
                request = self.context.prepare_request(self, request)
            calls += 1
            try:
                completed = await self._stream_call(request)
            except ProviderError as err:
                if err.prompt_too_long and not reactive_compacted and self.context is not None:
                    reactive_compacted = True
                    if await self.context.recover_from_overflow(self, err):
                        calls -= 1
                        continue
                self._record_api_error(err)
                self.persist_state()
                raise ProviderFailed(
                    f"The provider failed: {err.message}", data=err.to_data()
                ) from err
            if completed is None:  # cancelled midway
                return "cancelled"
            tool_uses = [b for b in completed.content if b.get("type") == "tool_use"]
            if not tool_uses or completed.stop_reason != "tool_use":
                self.persist_state()
                return STOP_REASONS.get(completed.stop_reason, "end_turn")
            await run_tool_calls(self, tool_uses, completed.message_id)
            self._take_prefix_changes()
            self.send_usage_update()
            if self.cancel_event.is_set():
                self.persist_state()
                return "cancelled"

    def _take_prefix_changes(self) -> None:
        if self.prefix is None:
            return
        changes, self.prefix_cursor = self.prefix.changes_since(self.prefix_cursor)
        for change in changes:
            self.append(change)

    async def _stream_call(self, request: ModelRequest) -> Any:
        """Stream one model call to the editor; None when cancelled."""
        from sidecar.core.ports import Completed, TextDelta, ThinkingDelta, ToolUseStart
        from sidecar.core.catalog import cost_usd
        from sidecar.core.retry import Restarted, stream_with_retry

        message_id = f"msg_{new_uuid()[:12]}"
        partial: dict[str, list[str]] = {"text": [], "thinking": []}

        def emit(kind: str, text: str) -> None:
            name = "agent_message_chunk" if kind == "text" else "agent_thought_chunk"
            self.update({"sessionUpdate": name, "content": {"type": "text", "text": text},
                         "messageId": message_id})

        coalescer = ChunkCoalescer(emit)
        retry = self.settings.retry

        def on_retry(attempt: int, error: Exception, delay: float) -> None:
            self.editor.status("warning", True, f"Provider error ({error}); retry {attempt} in {delay:.1f}s")

        async def consume() -> Any:
            result = None
            async for event in stream_with_retry(
                self.provider(), request, max_retries=retry.maxRetries,
                base_delay=retry.baseDelayMs / 1000, max_delay=retry.maxDelayMs / 1000,
                on_retry=on_retry,
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
            return result

        task = asyncio.ensure_future(consume())
        cancel_wait = asyncio.ensure_future(self.cancel_event.wait())
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
        if completed is None:
            self._keep_partial(partial, request.model, message_id)
            return None
        self.last_usage = completed.usage
        cost = cost_usd(completed.usage, self.info.model, self.info.provider)
        if cost is not None:
            self.cost_usd = (self.cost_usd or 0.0) + cost
        self.append(Message(
            kind="assistant", content=completed.content or [{"type": "text", "text": ""}],
            message_id=completed.message_id or message_id, model=completed.model or request.model,
            usage=completed.usage, stop_reason=completed.stop_reason,
        ))
        if self.context is not None:
            self.context.after_response(self, completed)
        self.send_usage_update()
        return completed

    def _record_api_error(self, err: Exception) -> None:
        """The failure stays in the transcript, as Claude Code keeps it: never sent to the
        model again, but it tells normalization which media the provider refused."""
        text = f"API Error: {getattr(err, 'message', None) or err}"
        self.append(Message(kind="assistant", content=[{"type": "text", "text": text}],
                            is_api_error=True, stop_reason="error"))

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
        self.append(Message(kind="assistant", content=blocks, message_id=message_id, model=model,
                            stop_reason="interrupted", extra={"interrupted": True}))

    # ----- maintenance --------------------------------------------------------------

    def clear(self) -> None:
        """Start over: a boundary with no summary; the transcript keeps everything."""
        self.append(Message(kind="system", subtype="compact_boundary",
                            content=[{"type": "text", "text": "Conversation cleared"}],
                            extra={"compactMetadata": {"trigger": "clear", "preTokens": self.ledger.used()}}))
        self.cleared_ids.clear()
        self.rewrite("clear")
        self.file_state.forget_results()
        self.refresh_prefix()
        self.rebuild_ledger()
        self.last_usage = None

    def cwd_path(self) -> Path:
        return Path(self.info.cwd)
