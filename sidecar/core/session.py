"""One chat session: what it is (identity, model, settings), what it holds (its transcript,
token ledger and prefix) and what it says (gauge, updates).

Everything it needs is passed or built at construction. The agent loop lives in
``sidecar.core.turns.turn``, the records in ``sidecar.core.conversation.transcript``, the
request building in ``sidecar.core.turns.requests``, the tools offered in
``sidecar.core.turns.tool_offering``, the permission mode and plan state in
``sidecar.core.permissions.state``, and the context tiers in ``sidecar.core.compaction``;
the session gives the tiers the narrow ``CompactionHost`` view they need.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from sidecar.contract.results import Gauge
from sidecar.contract.updates import SessionUpdate, usage_update
from sidecar.core.accounting.gauge import build_gauge
from sidecar.core.accounting.tokens import Tiktoken, TokenLedger, make_counter, prefix_counter
from sidecar.core.accounting.window import Thresholds, Window, compute_thresholds, resolve_window
from sidecar.core.conversation.messages import Block, Message, Usage, answered_calls, iso_at
from sidecar.core.conversation.normalize import clear_results, model_slice
from sidecar.core.conversation.tool_record import ToolNotes
from sidecar.core.conversation.transcript import Transcript
from sidecar.core.models.catalog import cost_usd
from sidecar.core.permissions.state import SessionPermissions
from sidecar.core.ports import Tool
from sidecar.core.server_tool_offers import ServerToolPolicy, no_server_tools
from sidecar.core.session_resources import SessionResources
from sidecar.core.settings import Settings
from sidecar.core.turns.deferred_tools import SERVER_SEARCH_PROVIDERS, prefix_tools
from sidecar.core.turns.request_labels import Cause
from sidecar.core.turns.requests import SessionRequests
from sidecar.core.turns.tool_offering import ToolOffering
from sidecar.core.turns.turn import TurnRunner
from sidecar.core.workspace.trust import UNTRUSTED, Trust

if TYPE_CHECKING:
    from sidecar.core.checkpoints.tracker import TurnChanges
    from sidecar.core.conversation.file_state import FileReadState
    from sidecar.core.ports import (
        Editor,
        McpServers,
        McpSessionLink,
        ModelDescription,
        Provider,
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
        mcp: McpServers | None = None,
        tier_observers: list[Callable[[dict[str, Any]], None]] | None = None,
        server_tools: ServerToolPolicy = no_server_tools,
    ) -> None:
        from sidecar.core.compaction.pipeline import ContextTiers

        self.info = info
        # Whether the folder is trusted (blocking): its own hooks run only then.
        self.workspace_trust = workspace_trust
        self.settings = settings
        self.editor = editor
        self.transcript = Transcript(info.session_id, info.cwd, writer)
        self.prefix = prefix
        self.file_state = file_state
        # The session's tools (MCP servers' join this list), and those offered the model.
        self.tools = tools
        self.offering = ToolOffering(tools)
        self._provider_factory = provider_factory
        self._provider: Provider | None = None
        # What the provider's models endpoint said of a model (None: nothing yet).
        self._describe = describe
        # Which of the provider's own tools (web search, web fetch) the model gets, and why.
        self.server_tool_policy = server_tools
        self.ledger = TokenLedger(make_counter(settings.tokens.estimator, info.model))
        self.window: Window = self.resolve_window()
        self.thresholds: Thresholds = compute_thresholds(self.window, settings)
        self.seq = 0
        self.last_usage: Usage | None = None
        self.cost_usd: float | None = None
        # What this session sends as its prefix, and the change records it has seen.
        self.prefix_view: PrefixView | None = None
        self.prefix_cursor = 0
        self._prefix_parts: dict[str, int] | None = None
        self.refresh_prefix()
        # Permission answers and shown outputs of tool calls, for their updates and replay.
        self.tool_notes = ToolNotes()
        # The permission mode, plan mode's state, and what the user allowed.
        self.permissions = SessionPermissions(
            settings.permissions.defaultMode, results_dir=self.results_dir,
            announce=self.update, persist=self.persist_state)
        self.cancel_event = asyncio.Event()
        # What its tools keep between calls (background shells); closed as the session ends.
        self.resources = SessionResources()
        # What its turns change, for rewinding (set by the checkpoints room; None: nothing).
        self.changes: TurnChanges | None = None
        self.busy = False
        self.clock: Callable[[], float] = time.time
        # What this conversation sends only changes before its end for a named cause; the
        # epoch counts those changes and every request says which one came last. It starts
        # from the clock so that it still rises when another process resumes the session.
        self.epoch = time.time_ns() // 1_000_000
        self.epoch_cause: Cause = "start"
        self.requests = SessionRequests(self)
        self.turns = TurnRunner(self)
        # The context tiers around every call, their events told to ``tier_observers``.
        self.tiers = ContextTiers(self)
        self.tiers.observers.extend(tier_observers or [])
        # The workspace's MCP servers as this session announced them: ``mcp.link`` gives
        # the session its link (and gives it anew when the servers' settings change).
        self.mcp: McpSessionLink | None = None
        if mcp is not None:
            mcp.link(self)

    # ----- identity and configuration -------------------------------------------------

    @property
    def id(self) -> str:
        return self.info.session_id

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
        calls = answered_calls(messages)
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

    def rebuild_ledger(self) -> None:
        self._prefix_parts = None
        self.ledger.prefix_tokens = self.prefix_parts()
        self.ledger.rebuild(self.transcript.model_view())

    def estimate(self, records: list[Message]) -> int:
        """Estimated tokens of a would-be context (prefix plus these records)."""
        view = model_slice(clear_results(records, self.transcript.cleared_ids()))
        return sum(self.prefix_parts().values()) + self.ledger.estimate_messages(view)

    def record_clearing(self, ids: list[str], kind: str) -> None:
        """Freeze a microcompact decision and write it down so a reload keeps it."""
        before = self.ledger.used()
        view = self.transcript.model_view()
        self.append(Message(kind="system", subtype="microcompact_boundary",
                            content=[{"type": "text", "text": "Old tool results cleared"}],
                            extra={"microcompactMetadata": {"trigger": kind, "preTokens": before,
                                                            "compactedToolIds": ids}}))
        self.rewrite("microcompact")
        # The last usage still counts the cleared text: until the next call, that count
        # less our estimate of what was cleared.
        self.ledger.rebuild_after_removal(view, self.transcript.model_view())
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
                                    size=self.thresholds.size,
                                    permission_mode=self.permissions.mode)

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
        for note in self.permissions.take_notes():
            self.append(note)
        listing, offered = self.offering.list_skills(
            self.transcript.since_boundary(), Path(self.info.cwd), self.thresholds.size)
        if listing is not None:
            self.append(listing)
        if offered and self.last_usage is not None:
            self.tools_changed()  # the Skill tool arrives after the first request: a rewrite
        listed = listing is not None
        if self.prefix is None:
            return
        changes, self.prefix_cursor = self.prefix.changes_since(self.prefix_cursor)
        for change in changes:
            if listed and (change.attachment or {}).get("type") == "skill_changed":
                continue  # the listing just sent is newer
            self.append(change)

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
            typed = self.info.provider == "anthropic"
            specs = [s.definition(typed)
                     for s in prefix_tools(self.offering.offered(), self.offering.deferral,
                                           self.info.provider in SERVER_SEARCH_PROVIDERS)]
            if isinstance(counter, Tiktoken):
                # Each definition as the API reads it: compact JSON, one tool at a time.
                parts["tools"] = round(sum(counter.text(json.dumps(
                    spec, ensure_ascii=False, separators=(",", ":"))) for spec in specs))
            else:  # a byte rule: the seed's text of the list
                parts["tools"] = round(counter.text(json.dumps(specs)))
            self._prefix_parts = parts
        return self._prefix_parts

    # ----- gauge and updates --------------------------------------------------------

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
            breaker=self.tiers.breaker_state(),
            compactions=self.transcript.compactions(),
            last_turn=self.last_usage,
            cost_usd=self.cost_usd,
            deferred_tools=self.offering.deferral.view(self.info.provider),
        )

    def send_usage_update(self) -> Gauge:
        gauge = self.gauge()
        self.editor.session_update(self.id, usage_update(gauge))
        return gauge

    def update(self, payload: SessionUpdate) -> None:
        self.editor.session_update(self.id, self.tool_notes.on_update(payload))

    async def run_turn(self, prompt: list[Block]) -> str:
        """Run one agent turn; returns the stop reason."""
        self.permissions.turn_started()
        return await self.turns.run(prompt)
