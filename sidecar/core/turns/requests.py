"""How a session's requests are built: its prefix (system prompt, tools, the project's
rules leading the first user message), its records as the API takes them, the model's
limits and the session's settings, labelled with the session's epoch; and a main request's
one-hour cache anchor."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Protocol

from sidecar.core.accounting.cache_anchor import CacheAnchors, running_digests
from sidecar.core.accounting.cache_resume import CacheResume
from sidecar.core.conversation.normalize import normalize_for_api, with_leading_context
from sidecar.core.models.catalog import api_model_id
from sidecar.core.ports import ModelRequest
from sidecar.core.turns.deferred_tools import (
    SERVER_SEARCH_PROVIDERS,
    discovered_names,
    request_tools,
)
from sidecar.core.turns.request_labels import CallKind, Cause, request_headers

if TYPE_CHECKING:
    from sidecar.core.accounting.tokens import TokenLedger
    from sidecar.core.accounting.window import Thresholds, Window
    from sidecar.core.conversation.messages import Block, Message, Usage
    from sidecar.core.conversation.transcript import Transcript
    from sidecar.core.ports import ModelDescription, Provider
    from sidecar.core.server_tool_offers import ServerToolOffer, ServerToolPolicy
    from sidecar.core.settings import Settings
    from sidecar.core.turns.tool_offering import ToolOffering
    from sidecar.core.workspace.prefix import PrefixView


class ModelOf(Protocol):
    model: str
    provider: str


class RequestSource(Protocol):
    """What the requests are built from (the session implements it)."""

    @property
    def id(self) -> str: ...

    @property
    def info(self) -> ModelOf: ...

    settings: Settings
    transcript: Transcript
    prefix_view: PrefixView | None
    offering: ToolOffering
    ledger: TokenLedger
    thresholds: Thresholds
    last_usage: Usage | None
    clock: Callable[[], float]
    epoch: int
    epoch_cause: Cause

    def resolve_window(self) -> Window: ...

    def provider(self) -> Provider: ...

    def described(self, model: str | None = None) -> ModelDescription | None: ...

    server_tool_policy: ServerToolPolicy

    def rewrite(self, cause: Cause) -> None: ...


class SessionRequests:
    def __init__(self, source: RequestSource) -> None:
        self._source = source
        # Which breakpoint of the main requests keeps its prefix cached for an hour.
        self.cache_anchors = CacheAnchors()
        # Where its recent requests left the prompt cache, for one that edits far back.
        self.cache_resume = CacheResume()
        # The deferred tools the last main request offered because a search found them.
        self._found: list[str] = []

    def leading_context(self) -> list[Block]:
        """The blocks (project rules, date) that lead the first user message of every request."""
        view = self._source.prefix_view
        user_ctx = view.user_context() if view else None
        return list(user_ctx.content) if user_ctx is not None else []

    def server_tools(self) -> list[ServerToolOffer]:
        """Whether each of the provider's own tools (web search, web fetch) goes to the
        model, and why."""
        s = self._source
        return s.server_tool_policy(s.settings, s.info.provider, s.described())

    def build(self, records: list[Message] | None = None, *,
              call: CallKind = "main") -> ModelRequest:
        """A request of ``records`` (the model's view of the transcript by default)."""
        s = self._source
        recs = list(records if records is not None else s.transcript.model_view())
        view = s.prefix_view
        system: list[Block] = [dict(b) for b in view.system] if view else []
        messages = normalize_for_api(recs, s.offering.names())
        # The project's rules and the date lead the first user message of every request,
        # after a compaction or /clear too (they are no record, so no boundary drops them).
        leading = self.leading_context()
        if leading:
            messages = with_leading_context(messages, leading)
        window = s.resolve_window()
        model, long_context = api_model_id(s.info.model)
        thinking = s.settings.thinking
        deferral = s.offering.deferral
        server_search = s.info.provider in SERVER_SEARCH_PROVIDERS
        # Only the sidecar's own search offers what it found, read from the conversation.
        searched = discovered_names(recs) if deferral.names and not server_search else []
        tools = request_tools(s.offering.offered(), deferral, searched, server_search)
        found = [t.name for t in tools if t.name in deferral.names and not t.deferred]
        if call == "main" and found != self._found:
            # A search found tools: their definitions join the array (at its end), a
            # change of what the conversation sent before, with its cause.
            self._found = found
            s.rewrite("tools")
        return ModelRequest(
            model=model,
            system=system,
            messages=messages,
            tools=tools,
            max_tokens=min(window.max_output_tokens, 32_000),
            thinking_budget=thinking.budgetTokens if thinking.mode == "budget" else None,
            thinking_adaptive=thinking.mode == "adaptive",
            effort=thinking.effort,
            long_context=long_context,
            prompt_cache_key=s.id,
            timeout_seconds=float(s.settings.retry.timeoutSeconds),
            headers=self.labels(call),
            server_tools=tuple(o.tool for o in self.server_tools() if o.offered),
        )

    def cache_placed(self, request: ModelRequest) -> ModelRequest:
        """A main request with the breakpoints of its own where the provider's cache takes
        them: the one-hour anchor (sidecar.core.accounting.cache_anchor) and the point the
        cache resumes at past an edit (sidecar.core.accounting.cache_resume)."""
        s = self._source
        if not s.provider().cache_breakpoints:
            return request
        now = s.clock()
        digests = running_digests(request.messages)  # one pass over the conversation
        if s.settings.promptCache.hourAnchors:
            previous = s.last_usage.prompt_tokens if s.last_usage is not None else None
            request = self.cache_anchors.plan(request, s.ledger.used(), previous, now, s.epoch,
                                              digests)
        return self.cache_resume.plan(request, now, digests)

    def labels(self, call: CallKind = "main") -> dict[str, str]:
        s = self._source
        return request_headers(s.id, call, s.epoch, s.epoch_cause, s.thresholds.blocking_at)
