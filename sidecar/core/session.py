"""One chat session: what it is (identity, model, settings), what it holds (its transcript,
token ledger and prefix) and what it sends (requests, gauge, updates).

The agent loop lives in ``sidecar.core.turns.turn``, the records in ``sidecar.core.conversation.transcript``,
and the context tiers in ``sidecar.core.compaction``; the session gives the tiers the
narrow ``CompactionHost`` view they need.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from sidecar.contract.results import Gauge
from sidecar.contract.updates import SessionUpdate, current_mode_update, usage_update
from sidecar.core.accounting.cache_anchor import CacheAnchors
from sidecar.core.accounting.gauge import BreakerState, build_gauge
from sidecar.core.accounting.tokens import Tiktoken, TokenLedger, make_counter, prefix_counter
from sidecar.core.accounting.window import Thresholds, Window, compute_thresholds, resolve_window
from sidecar.core.conversation.messages import Block, Message, Usage, iso_at
from sidecar.core.conversation.normalize import (
    clear_results,
    model_slice,
    normalize_for_api,
    with_leading_context,
)
from sidecar.core.conversation.tool_record import ToolNotes
from sidecar.core.conversation.transcript import Transcript
from sidecar.core.models.catalog import api_model_id, cost_usd
from sidecar.core.permissions.plan import PLAN_FILE_NAME, plan_entered_note, plan_left_note
from sidecar.core.ports import ModelRequest, Tool, tool_specs
from sidecar.core.settings import Settings
from sidecar.core.turns.request_labels import CallKind, Cause, request_headers
from sidecar.core.turns.turn import TurnRunner
from sidecar.core.workspace.skills import SKILL_TOOL
from sidecar.core.workspace.trust import UNTRUSTED, Trust

if TYPE_CHECKING:
    from sidecar.core.compaction.pipeline import ContextTiers
    from sidecar.core.conversation.file_state import FileReadState
    from sidecar.core.ports import (
        Editor,
        McpSessionLink,
        ModelDescription,
        Provider,
        Tool,
        TranscriptStore,
    )
    from sidecar.core.workspace.prefix import PrefixStore, PrefixView

log = logging.getLogger(__name__)


@dataclass
class SessionInfo:
    session_id: str
    cwd: str
    model: str
    provider: str
    title: str | None = None
    created_at: float = field(default_factory=time.time)


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
        describe: Callable[[Settings], ModelDescription | None] = lambda settings: None,
        workspace_trust: Callable[[], Trust] = lambda: UNTRUSTED,
    ) -> None:
        self.info = info
        # Whether the folder is trusted (blocking): its own hooks run only then.
        self.workspace_trust = workspace_trust
        self.settings = settings
        self.editor = editor
        self.transcript = Transcript(info.session_id, info.cwd, writer)
        self.prefix = prefix
        self.file_state = file_state
        self.tools = tools
        self._provider_factory = provider_factory
        self._provider: Provider | None = None
        # What the provider's models endpoint said of a model (None: nothing yet).
        self._describe = describe
        self.ledger = TokenLedger(make_counter(settings.tokens.estimator, info.model))
        self.window: Window = self.resolve_window()
        self.thresholds: Thresholds = compute_thresholds(self.window, settings)
        self.seq = 0
        self.last_usage: Usage | None = None
        self.cost_usd: float | None = None
        # Whether the Skill tool is offered yet (there are skills to list).
        self.skills_offered = False
        # Which breakpoint of the main requests keeps its prefix cached for an hour.
        self.cache_anchors = CacheAnchors()
        # What this session sends as its prefix, and the change records it has seen.
        self.prefix_view: PrefixView | None = None
        self.prefix_cursor = 0
        self._prefix_parts: dict[str, int] | None = None
        self.refresh_prefix()
        self.allowed_always: set[str] = set()
        # Permission answers and shown outputs of tool calls, for their updates and replay.
        self.tool_notes = ToolNotes()
        # The permission mode (sidecar.core.permissions.modes); whether it has ever been plan
        # mode in this process; whether the user accepted every edit of the running turn.
        self.mode: str = settings.permissions.defaultMode
        self.planned = self.mode == "plan"
        self.edits_accepted = False
        # What the model is told of a mode change, sent with the next request.
        self._mode_notes: list[Message] = [plan_entered_note(self.plan_file())] if self.planned else []
        self.cancel_event = asyncio.Event()
        self.busy = False
        self.tiers: ContextTiers | None = None  # set by the service
        self.clock: Callable[[], float] = time.time
        # What this conversation sends only changes before its end for a named cause; the
        # epoch counts those changes and every request says which one came last. It starts
        # from the clock so that it still rises when another process resumes the session.
        self.epoch = time.time_ns() // 1_000_000
        self.epoch_cause: Cause = "start"
        self.turns = TurnRunner(self)
        # The workspace's MCP servers as this session announced them (set by the service).
        self.mcp: McpSessionLink | None = None

    # ----- identity and configuration -------------------------------------------------

    @property
    def id(self) -> str:
        return self.info.session_id

    @property
    def updated_at(self) -> float:
        return self.transcript.updated_at

    def described(self, model: str | None = None) -> ModelDescription | None:
        """What the provider's models endpoint said of this session's model (or another
        model of its provider)."""
        return self._describe(self.settings_for_call(model))

    def resolve_window(self) -> Window:
        return resolve_window(self.info.model, self.info.provider, self.settings, self.described())

    def refresh_window(self) -> bool:
        """Resolve the window again (the provider said something new); True if it changed."""
        window = self.resolve_window()
        if window == self.window:
            return False
        self.window = window
        self.thresholds = compute_thresholds(window, self.settings)
        return True

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
        self.window = self.resolve_window()
        self.thresholds = compute_thresholds(self.window, settings)

    def provider(self) -> Provider:
        if self._provider is None:
            self._provider = self._provider_factory(self.settings_for_call())
        return self._provider

    def provider_for(self, model: str | None = None) -> Provider:
        if not model or model == self.info.model:
            return self.provider()
        return self._provider_factory(self.settings_for_call(model))

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

    def results_dir(self) -> Path | None:
        return self.transcript.results_dir()

    async def save_result(self, tool_use_id: str, text: str) -> Path | None:
        """Save a tool output too large for the context; None when it cannot be saved
        (the result then stays whole)."""
        try:
            return await asyncio.to_thread(self.transcript.save_result, tool_use_id, text)
        except (OSError, ValueError) as exc:
            log.warning("could not save a large tool result: %s", exc)
            return None

    def append(self, message: Message) -> Message:
        # Stamped by the session's clock, the one its idle gaps are measured by.
        message.timestamp = iso_at(self.clock())
        self.tool_notes.on_append(message)
        self.transcript.add(message)
        self.ledger.append(message)
        return message

    def restore(self, messages: list[Message]) -> None:
        """A loaded transcript's records; cleared results and compactions come with them."""
        self.transcript.restore(messages)
        self.rewrite("load")
        self.rebuild_ledger()
        # The last turn's usage and the cost so far, as the session showed them live.
        calls = [m for m in messages if m.kind == "assistant" and m.usage is not None
                 and not m.is_api_error and not m.is_synthetic]
        seen: set[str] = set()
        for m in calls:
            if m.usage is None or (m.message_id and m.message_id in seen):
                continue
            seen.add(m.message_id or m.uuid)
            cost = cost_usd(m.usage, m.model or self.info.model, self.info.provider)
            if cost is not None:
                self.cost_usd = (self.cost_usd or 0.0) + cost
        if calls:
            self.last_usage = calls[-1].usage

    @property
    def compactions(self) -> dict[str, int]:
        return self.transcript.compactions()

    def rebuild_ledger(self, anchor_ok: bool = True) -> None:
        self._prefix_parts = None
        self.ledger.prefix_tokens = self.prefix_parts()
        self.ledger.rebuild(self.transcript.model_view(), anchor_ok=anchor_ok)

    def estimate(self, records: list[Message]) -> int:
        """Estimated tokens of a would-be context (prefix plus these records)."""
        view = model_slice(clear_results(records, self.transcript.cleared_ids()))
        return sum(self.prefix_parts().values()) + self.ledger.estimate_messages(view)

    def record_clearing(self, ids: list[str], kind: str) -> None:
        """Freeze a microcompact decision and write it down so a reload keeps it."""
        before = self.ledger.used()
        self.append(Message(kind="system", subtype="microcompact_boundary",
                            content=[{"type": "text", "text": "Old tool results cleared"}],
                            extra={"microcompactMetadata": {"trigger": kind, "preTokens": before,
                                                            "compactedToolIds": ids}}))
        self.rewrite("microcompact")
        # The last usage still counts the cleared text: estimate until the next call.
        self.rebuild_ledger(anchor_ok=False)
        # A re-read must return the content again, not a stub pointing at a cleared result.
        self.file_state.forget_results()

    def commit(self, records: list[Message]) -> None:
        """A compaction's records (boundary, summary, re-injected files, kept tail): one
        write, then the context starts over from them with a fresh prefix.

        The boundary records the size the context starts over from (``postTokens``: the
        ledger's count of these records under the new prefix, as the gauge will show it),
        so a resumed session shows the compaction with the figures it had live."""
        self.refresh_prefix()
        meta = records[0].extra.get("compactMetadata") if records else None
        if isinstance(meta, dict):
            view = model_slice(records)
            meta["postTokens"] = sum(self.prefix_parts().values()) + self.ledger.estimate_messages(view)
        self.transcript.add(*records)
        self.rewrite("compaction")
        self.file_state.forget_results()
        self.rebuild_ledger()
        # What session/list shows of the session (its size) follows the compaction at once.
        self.persist_state()

    def clear(self) -> None:
        """Start over: a boundary with no summary; the transcript keeps everything."""
        self.append(Message(kind="system", subtype="compact_boundary",
                            content=[{"type": "text", "text": "Conversation cleared"}],
                            extra={"compactMetadata": {"trigger": "clear",
                                                       "preTokens": self.ledger.used()}}))
        self.rewrite("clear")
        self.file_state.forget_results()
        self.refresh_prefix()
        self.rebuild_ledger()
        self.last_usage = None
        self.persist_state()

    def persist_state(self) -> None:
        self.transcript.write_state(model=self.info.model, provider=self.info.provider,
                                    title=self.info.title, used=self.ledger.used(),
                                    size=self.thresholds.size, permission_mode=self.mode)

    # ----- permission mode ------------------------------------------------------------

    def plan_file(self) -> Path | None:
        """Where plan mode writes this session's plan (beside its transcript), when stored."""
        results = self.results_dir()
        return results.parent / PLAN_FILE_NAME if results is not None else None

    def set_mode(self, mode: str, *, restored: bool = False, tell_model: bool = True) -> bool:
        """Enter ``mode`` (an id of sidecar.core.permissions.modes.MODES); False when already in
        it. The client hears of the change; the model is told with the next request when
        plan mode starts or ends (an approved plan's tool result says so itself). A restored
        mode (a loaded session's) is no news to either."""
        if mode == self.mode:
            return False
        before, self.mode = self.mode, mode
        if mode == "plan":
            self.planned = True
        if restored:
            self._mode_notes.clear()
            return True
        if mode == "plan":
            self._mode_notes.append(plan_entered_note(self.plan_file()))
        elif before == "plan" and tell_model:
            self._mode_notes.append(plan_left_note(mode, self.plan_file()))
        self.update(current_mode_update(mode))
        self.persist_state()
        return True

    # ----- prefix -------------------------------------------------------------------

    def refresh_prefix(self) -> None:
        """Take the workspace's current prefix: at the start, a compaction or /clear, the
        causes that may rewrite what this session sends."""
        if self.prefix is not None:
            self.prefix_view = self.prefix.view()
            self.prefix_cursor = self.prefix_view.seq
        self._prefix_parts = None

    def take_prefix_changes(self) -> None:
        """CLAUDE.md, git or skill changes since this session's view, MCP servers' changes,
        mode changes the model has not been told of, as attachments; and the skill listing
        when the context holds none yet (a new or cleared session)."""
        if self.mcp is not None:
            self.mcp.sync(self)
        notes, self._mode_notes = self._mode_notes, []
        for note in notes:
            self.append(note)
        listed = self.list_skills()
        if self.prefix is None:
            return
        changes, self.prefix_cursor = self.prefix.changes_since(self.prefix_cursor)
        for change in changes:
            if listed and (change.attachment or {}).get("type") == "skill_changed":
                continue  # the listing just sent is newer
            self.append(change)

    def list_skills(self) -> bool:
        """Append the skill listing unless the context since the boundary holds one (a
        compaction re-injects it); True when it was appended now."""
        from sidecar.core.workspace.skills import discover_skills, listing_attachment

        if any((m.attachment or {}).get("type") == "skill_listing"
               for m in self.transcript.since_boundary()):
            self.offer_skill_tool()
            return False
        listing = listing_attachment(discover_skills(Path(self.info.cwd), Path.home()),
                                     self.thresholds.size)
        if listing is None:
            return False
        self.append(listing)
        self.offer_skill_tool()
        return True

    def offer_skill_tool(self) -> None:
        """The Skill tool joins the tools the model sees once there are skills to list;
        without any, its definition would be paid for on every request for nothing. Its
        arrival after the first request is a named rewrite, as any change of the tools."""
        if self.skills_offered:
            return
        self.skills_offered = True
        if self.last_usage is not None:
            self.tools_changed()

    def offered_tools(self) -> list[Tool]:
        return [t for t in self.tools if self.skills_offered or t.name != SKILL_TOOL]

    def tools_changed(self) -> None:
        """The tool set changed (an MCP server came, or its list did): a named rewrite."""
        self.rewrite("tools")
        self._prefix_parts = None
        self.ledger.prefix_tokens = self.prefix_parts()

    def prefix_parts(self) -> dict[str, int]:
        if self._prefix_parts is None:
            parts: dict[str, int] = {}
            counter = prefix_counter(self.ledger.counter, self.info.model)
            if self.prefix_view is not None:
                parts.update(self.prefix_view.parts(counter))
            specs = [spec.__dict__ for spec in tool_specs(self.offered_tools())]
            if isinstance(counter, Tiktoken):
                # Each definition as the API reads it: compact JSON, one tool at a time.
                parts["tools"] = round(sum(counter.text(json.dumps(
                    spec, ensure_ascii=False, separators=(",", ":"))) for spec in specs))
            else:  # a byte rule: the seed's text of the list
                parts["tools"] = round(counter.text(json.dumps(specs)))
            self._prefix_parts = parts
        return self._prefix_parts

    # ----- gauge and updates --------------------------------------------------------

    def breaker_state(self) -> BreakerState:
        if self.tiers is None:
            return BreakerState(self.settings.autoCompact.enabled, False, 0)
        return self.tiers.breaker_state()

    def gauge(self, bump: bool = True) -> Gauge:
        if bump:
            self.seq += 1
        return build_gauge(
            session_id=self.id,
            seq=self.seq,
            model=self.info.model,
            provider=self.info.provider,
            ledger=self.ledger,
            thresholds=self.thresholds,
            window_source=self.window.source,
            breaker=self.breaker_state(),
            compactions=self.compactions,
            last_turn=self.last_usage,
            cost_usd=self.cost_usd,
        )

    def send_usage_update(self) -> Gauge:
        gauge = self.gauge()
        self.editor.session_update(self.id, usage_update(gauge))
        return gauge

    def update(self, payload: SessionUpdate) -> None:
        self.editor.session_update(self.id, self.tool_notes.on_update(payload))

    # ----- requests -----------------------------------------------------------------

    def tool_names(self) -> set[str]:
        return {t.name for t in self.tools}

    def leading_context(self) -> list[Block]:
        user_ctx = self.prefix_view.user_context() if self.prefix_view else None
        return list(user_ctx.content) if user_ctx is not None else []

    def build_request(self, records: list[Message] | None = None, *,
                      call: CallKind = "main") -> ModelRequest:
        recs = list(records if records is not None else self.transcript.model_view())
        view = self.prefix_view
        system: list[Block] = [dict(b) for b in view.system] if view else []
        messages = normalize_for_api(recs, self.tool_names())
        # The project's rules and the date lead the first user message of every request,
        # after a compaction or /clear too (they are no record, so no boundary drops them).
        leading = self.leading_context()
        if leading:
            messages = with_leading_context(messages, leading)
        window = self.resolve_window()
        model, long_context = api_model_id(self.info.model)
        thinking = self.settings.thinking
        return ModelRequest(
            model=model,
            system=system,
            messages=messages,
            tools=tool_specs(self.offered_tools()),
            max_tokens=min(window.max_output_tokens, 32_000),
            thinking_budget=thinking.budgetTokens if thinking.mode == "budget" else None,
            thinking_adaptive=thinking.mode == "adaptive",
            effort=thinking.effort,
            long_context=long_context,
            prompt_cache_key=self.id,
            timeout_seconds=float(self.settings.retry.timeoutSeconds),
            headers=self.labels(call),
        )

    def with_cache_anchor(self, request: ModelRequest) -> ModelRequest:
        """A main request with its one-hour anchor (sidecar.core.accounting.cache_anchor), where the
        provider's cache takes breakpoints and TTLs."""
        if not self.settings.promptCache.hourAnchors or not self.provider().cache_breakpoints:
            return request
        previous = self.last_usage.prompt_tokens if self.last_usage is not None else None
        return self.cache_anchors.plan(request, self.ledger.used(), previous, self.clock(),
                                       self.epoch)

    def labels(self, call: CallKind = "main") -> dict[str, str]:
        return request_headers(self.id, call, self.epoch, self.epoch_cause,
                               self.thresholds.blocking_at)

    async def run_turn(self, prompt: list[Block]) -> str:
        """Run one agent turn; returns the stop reason."""
        self.edits_accepted = False  # "accept all edits this turn" ends with the turn
        return await self.turns.run(prompt)
