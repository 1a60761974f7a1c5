"""The Anthropic Messages adapter, through the official ``anthropic`` SDK.

The SDK takes about two seconds to import, so it is imported on first use, never when this
module loads. The client is built with ``max_retries=0``: retries belong to
``sidecar.core.turns.retry`` so that every attempt is visible to the session.

Request shaping:

- Prompt caching: ``cache_control: {"type": "ephemeral"}`` goes on the last system block,
  the last tool definition and, when ``cache_latest_message`` is set, the last cacheable
  block of the latest message; a ``cache_anchor`` adds a one-hour breakpoint on its
  message, a ``cache_resume`` a five-minute one on its message (before the tools' one,
  which is left out when four are placed). Markers already present in the request are
  removed first, so a request never carries more than the API's limit of four.
- Everything goes through the SDK's typed beta surface (``client.beta.messages``), so the
  SDK's own request types describe what is sent, and each beta feature names its beta:
  context editing (``context-management-2025-06-27``), the 1M window of models that need a
  beta for it (``context-1m-2025-08-07``), and effort (``effort-2025-11-24``).
- Server tools (web search, web fetch: ``sidecar.tools.web``) go as the API's own tool
  types, generally available (no beta). Their blocks come back whole (a ``server_tool_use``
  whose input streams as JSON pieces, like a tool call's, but which no client runs, and
  its result) and go back verbatim, in pairs (``sidecar.core.conversation.server_tools``);
  another provider's (OpenAI's ``web_search_call``) are left out.
- Thinking: ``{"type": "adaptive"}`` or ``{"type": "enabled", "budget_tokens": N}`` with N
  of at least 1,024 and below ``max_tokens``, as the API requires.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import AsyncIterator
from typing import Any

from sidecar.core.conversation import server_tools
from sidecar.core.conversation.messages import NO_CONTENT, Block, Usage
from sidecar.core.models.catalog import ModelInfo
from sidecar.core.ports import (
    Completed,
    ModelDescription,
    ModelRequest,
    ProviderError,
    ServerCompaction,
    StreamEvent,
    TextDelta,
    ThinkingDelta,
    ToolInputDelta,
    ToolUseStart,
)
from sidecar.core.turns.retry import RETRYABLE_TYPES
from sidecar.providers.http_errors import (
    mid_stream,
    parse_retry_after,
    status_is_retryable,
    transport_error,
    type_for_status,
)
from sidecar.providers.model_listing import list_anthropic_models
from sidecar.providers.sdk_client import SdkClientHolder
from sidecar.providers.sdk_values import sdk_dict, sdk_field, tool_input
from sidecar.providers.text_parts import TextParts
from sidecar.tools.web import ANTHROPIC_DEFINITIONS

CONTEXT_MANAGEMENT_BETA = "context-management-2025-06-27"
COMPACTION_BETA = "compact-2026-09-04"
LONG_CONTEXT_BETA = "context-1m-2025-08-07"
EFFORT_BETA = "effort-2025-11-24"
# The server-side search of the tools sent with ``defer_loading`` (generally available:
# no beta header; the SDK's non-beta types hold it).
TOOL_SEARCH_TOOL: dict[str, str] = {"type": "tool_search_tool_bm25_20251119",
                                    "name": "tool_search_tool_bm25"}
EPHEMERAL: dict[str, str] = {"type": "ephemeral"}
EPHEMERAL_HOUR: dict[str, str] = {"type": "ephemeral", "ttl": "1h"}
MAX_CACHE_BREAKPOINTS = 4
# The API refuses budgets under 1,024 tokens and budgets not below max_tokens.
MIN_THINKING_BUDGET = 1_024
# Block types that may not carry a cache breakpoint.
_UNCACHEABLE = frozenset({"thinking", "redacted_thinking"})


def _strip_cache_control(block: Block) -> Block:
    out = {k: v for k, v in block.items() if k != "cache_control"}
    if out.get("type") == "tool_result" and isinstance(out.get("content"), list):
        out["content"] = [
            _strip_cache_control(part) if isinstance(part, dict) else part
            for part in out["content"]
        ]
    return out


def _wire_block(block: Block) -> Block | None:
    """A copy of one of our blocks as the API accepts it, or None to leave it out."""
    kind = block.get("type")
    # A thinking block without a signature (from another provider's reasoning) would be
    # rejected: the API verifies signatures on thinking it gets back.
    if kind == "thinking" and not block.get("signature"):
        return None
    # So would another provider's compaction (OpenAI's, encrypted for OpenAI alone).
    if kind == "compaction" and not (block.get("signature") or block.get("content")):
        return None
    # And another provider's server tool calls (their results are for it alone), the
    # Responses API's tool search items among them.
    if server_tools.is_openai_server_block(block) or kind in ("tool_search_call", "tool_search_output"):
        return None
    out = _strip_cache_control(copy.deepcopy(block))
    # Another provider's citations on text (the Responses API's url_citation annotations).
    out.pop("annotations", None)
    return out


def build_messages_body(
    request: ModelRequest, model_info: ModelInfo | None = None
) -> dict[str, Any]:
    """The Messages API body for a request (without ``stream``), cache markers placed."""
    messages: list[dict[str, Any]] = []
    for message in request.messages:
        content = [b for b in (_wire_block(block) for block in message.content) if b is not None]
        if message.role == "assistant":
            content = server_tools.paired(content) or [{"type": "text", "text": NO_CONTENT}]
        messages.append({"role": message.role, "content": content})

    # With an anchor (sidecar.core.accounting.cache_anchor) its message carries a one-hour breakpoint,
    # and so do the tools and the system prompt, since the API takes one-hour breakpoints
    # only before five-minute ones; the latest message keeps five minutes.
    anchor = request.cache_anchor
    if anchor is not None and not 0 <= anchor < len(messages):
        anchor = None
    prefix_control = EPHEMERAL_HOUR if anchor is not None else EPHEMERAL
    breakpoints = 0
    latest = len(messages) - 1
    marked = [latest] if request.cache_latest_message and messages else []
    if anchor is not None and anchor not in marked:
        marked.append(anchor)
    # Where the cache resumes (sidecar.core.accounting.cache_resume); the tools' breakpoint
    # gives way to it (the system prompt's covers the tools, which lead it). It reads a
    # cached prefix and writes nothing, so it takes the hour's TTL before an anchor, where
    # the API wants one-hour breakpoints.
    resume = request.cache_resume
    if resume is not None and 0 <= resume < latest and resume not in marked:
        marked.append(resume)
    hour = {anchor} | ({resume} if anchor is not None and resume is not None
                       and resume < anchor else set())
    for index in marked:
        for block in reversed(messages[index]["content"]):
            if block.get("type") not in _UNCACHEABLE:
                block["cache_control"] = dict(EPHEMERAL_HOUR if index in hour else EPHEMERAL)
                breakpoints += 1
                break

    body: dict[str, Any] = {"model": request.model, "messages": messages}

    system = [_strip_cache_control(copy.deepcopy(b)) for b in request.system if b.get("text")]
    if system:
        if breakpoints < MAX_CACHE_BREAKPOINTS:
            system[-1]["cache_control"] = dict(prefix_control)
            breakpoints += 1
        body["system"] = system

    tools = [t.definition(typed=True) for t in request.tools if not t.deferred]
    tools += [dict(ANTHROPIC_DEFINITIONS[name]) for name in request.server_tools
              if name in ANTHROPIC_DEFINITIONS]
    deferred = [{**t.definition(), "defer_loading": True} for t in request.tools if t.deferred]
    if deferred:
        # The API's search finds the deferred tools; they stay out of the context (and
        # the cached prefix) until it references them, so the breakpoint goes before them.
        tools.append(dict(TOOL_SEARCH_TOOL))
    if tools:
        if breakpoints < MAX_CACHE_BREAKPOINTS:
            tools[-1]["cache_control"] = dict(prefix_control)
        body["tools"] = tools + deferred

    max_tokens = request.max_tokens
    if model_info is not None:
        max_tokens = min(max_tokens, model_info.max_output_tokens)
    body["max_tokens"] = max_tokens

    if request.thinking_adaptive:
        body["thinking"] = {"type": "adaptive"}
    elif request.thinking_budget:
        budget = min(request.thinking_budget, max_tokens - 1)
        if budget >= MIN_THINKING_BUDGET:
            body["thinking"] = {"type": "enabled", "budget_tokens": budget}
    if request.effort:
        body["output_config"] = {"effort": request.effort}

    if request.context_management is not None:
        body["context_management"] = copy.deepcopy(request.context_management)
    return body


def betas_for(request: ModelRequest, body: dict[str, Any],
              model_info: ModelInfo | None = None) -> list[str]:
    """The beta flags the body's features need."""
    betas: list[str] = []
    if "context_management" in body:
        betas.append(CONTEXT_MANAGEMENT_BETA)
    if request.long_context and model_info is not None and model_info.supports_1m:
        betas.append(LONG_CONTEXT_BETA)
    if "output_config" in body:
        betas.append(EFFORT_BETA)
    return betas


def _count(value: Any) -> int | None:
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def classify_anthropic_error(err: BaseException) -> ProviderError:
    """Map an exception from the anthropic SDK (or its transport) to a ProviderError."""
    import anthropic

    if isinstance(err, anthropic.APIStatusError):
        body_type: str | None = err.type if isinstance(err.type, str) else None
        message = (
            err.api_message if isinstance(err.api_message, str) and err.api_message else str(err)
        )
        status: int | None = err.status_code
        if status is not None and status < 400:
            # An ``event: error`` inside a 200 stream: the body says what went wrong.
            status = None
            error_type = body_type or "api_error"
            retryable = error_type in RETRYABLE_TYPES
        else:
            error_type = body_type or type_for_status(status)
            retryable = status_is_retryable(status)
        return ProviderError(
            message,
            status=status,
            type=error_type,
            retry_after=parse_retry_after(err.response.headers),
            retryable=retryable,
        )
    if isinstance(err, anthropic.APITimeoutError):
        return ProviderError("the request timed out", type="timeout", retryable=True)
    if isinstance(err, anthropic.APIConnectionError):
        cause = err.__cause__
        detail = f" ({type(cause).__name__}: {cause})" if cause is not None else ""
        return ProviderError(f"connection error{detail}", type="connection_error", retryable=True)
    if isinstance(err, anthropic.APIResponseValidationError):
        return ProviderError(str(err), type="malformed_event", retryable=True)
    mapped = transport_error(err)
    if mapped is not None:
        return mapped
    if isinstance(err, TypeError) and "authentication" in str(err).lower():
        return ProviderError(str(err), type="authentication_error", retryable=False)
    return ProviderError(f"{type(err).__name__}: {err}", type="api_error", retryable=False)


class _Assembly:
    """The response being assembled from raw stream events."""

    def __init__(self) -> None:
        self.blocks: dict[int, Block] = {}
        self.json_parts: dict[int, list[str]] = {}
        self.message_id = ""
        self.model = ""
        self.stop_reason = ""
        self.usage: dict[str, int] = {}
        self.applied_edits: list[dict[str, Any]] = []
        self.stopped = False
        self.text = TextParts()

    def merge_usage(self, usage: Any) -> None:
        for key in (
            "input_tokens",
            "cache_creation_input_tokens",
            "cache_read_input_tokens",
            "output_tokens",
        ):
            value = _count(sdk_field(usage, key))
            if value is not None:
                self.usage[key] = value
        # The writes with the one-hour TTL (an anchor's), priced higher than the others.
        hour = _count(sdk_field(sdk_field(usage, "cache_creation"), "ephemeral_1h_input_tokens"))
        if hour is not None:
            self.usage["cache_creation_1h"] = hour
        searches = _count(sdk_field(sdk_field(usage, "server_tool_use"), "web_search_requests"))
        if searches is not None:
            self.usage["web_search_requests"] = searches

    def completed(self) -> Completed:
        self.text.settle(self.blocks)
        usage = Usage(
            cache_creation_1h_tokens=self.usage.get("cache_creation_1h", 0),
            input_tokens=self.usage.get("input_tokens", 0),
            cache_creation_input_tokens=self.usage.get("cache_creation_input_tokens", 0),
            cache_read_input_tokens=self.usage.get("cache_read_input_tokens", 0),
            output_tokens=self.usage.get("output_tokens", 0),
            web_search_requests=self.usage.get("web_search_requests", 0),
        )
        return Completed(
            content=[self.blocks[i] for i in sorted(self.blocks)],
            usage=usage,
            stop_reason=self.stop_reason or "end_turn",
            message_id=self.message_id,
            model=self.model,
            applied_edits=self.applied_edits,
        )


class AnthropicProvider(SdkClientHolder):
    """``Provider`` over the Anthropic Messages API."""

    server_context_management = True
    # On-demand compaction (``compaction: {type: summarize}``): the server summarizes and
    # returns a signed block that later requests send first.
    server_compaction = True
    cache_breakpoints = True

    name = "anthropic"

    def _new_client(self) -> Any:
        import anthropic

        return anthropic.AsyncAnthropic(api_key=self._api_key, base_url=self.base_url,
                                        max_retries=0, timeout=self._default_timeout)

    async def compact(self, request: ModelRequest, instructions: str | None) -> ServerCompaction:
        """One compaction request: the conversation as it stands, ``compaction`` instead of
        a reply. Not streamed: nothing is sampled, the answer is the block alone."""
        body = build_messages_body(request, self.model_info)
        # The API refuses context_management beside compaction; nothing is sampled anyway.
        body.pop("context_management", None)
        config: dict[str, Any] = {"type": "summarize"}
        if instructions and instructions.strip():
            config["instructions"] = instructions
        body["compaction"] = config
        betas = [*betas_for(request, body, self.model_info), COMPACTION_BETA]
        try:
            message = await self._sdk_client().beta.messages.create(
                **body, betas=betas, extra_headers=request.headers or None,
                timeout=request.timeout_seconds,
            )
        except ProviderError:
            raise
        except Exception as err:
            raise classify_anthropic_error(err) from err
        blocks = [sdk_dict(b) for b in (sdk_field(message, "content") or [])
                  if sdk_field(b, "type") == "compaction"]
        summary = next((b.get("content") for b in blocks if b.get("content")), None)
        if not blocks or summary is None:
            raise ProviderError("the server's compaction produced no summary", type="api_error")
        state = _Assembly()
        state.merge_usage(sdk_field(message, "usage"))
        return ServerCompaction(blocks=blocks, summary=str(summary), usage=state.completed().usage)

    async def describe_models(self) -> list[ModelDescription]:
        return await list_anthropic_models(self._sdk_client(), [COMPACTION_BETA])

    async def count_tokens(self, request: ModelRequest) -> int | None:
        counted = dataclasses.replace(request, cache_latest_message=False)
        body = build_messages_body(counted, self.model_info)
        body.pop("max_tokens", None)
        try:
            result = await self._sdk_client().beta.messages.count_tokens(
                **body,
                betas=betas_for(counted, body, self.model_info),
                extra_headers=request.headers or None,
                timeout=request.timeout_seconds,
            )
        except ProviderError:
            raise
        except Exception as err:
            raise classify_anthropic_error(err) from err
        return int(result.input_tokens)

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        body = build_messages_body(request, self.model_info)
        state = _Assembly()
        streaming = False
        try:
            stream = await self._sdk_client().beta.messages.create(
                **body,
                betas=betas_for(request, body, self.model_info),
                stream=True,
                extra_headers=request.headers or None,
                timeout=request.timeout_seconds,
            )
            streaming = True
            async with stream:
                async for event in stream:
                    for out in self._on_event(event, state):
                        yield out
                    if state.stopped:
                        break
        except ProviderError:
            raise
        except Exception as err:
            raise mid_stream(classify_anthropic_error(err), streaming) from err
        if not state.stopped:
            raise ProviderError(
                "the response stream ended before message_stop",
                type="stream_interrupted",
                retryable=True,
            )
        yield state.completed()

    def _on_event(self, event: Any, state: _Assembly) -> list[StreamEvent]:
        kind = sdk_field(event, "type")
        if kind == "message_start":
            message = sdk_field(event, "message")
            state.message_id = str(sdk_field(message, "id") or "")
            state.model = str(sdk_field(message, "model") or "")
            state.merge_usage(sdk_field(message, "usage"))
            return []
        if kind == "content_block_start":
            return self._on_block_start(
                int(sdk_field(event, "index")), sdk_field(event, "content_block"), state
            )
        if kind == "content_block_delta":
            return self._on_delta(int(sdk_field(event, "index")), sdk_field(event, "delta"), state)
        if kind == "content_block_stop":
            self._on_block_stop(int(sdk_field(event, "index")), state)
            return []
        if kind == "message_delta":
            delta = sdk_field(event, "delta")
            stop_reason = sdk_field(delta, "stop_reason")
            if stop_reason:
                state.stop_reason = str(stop_reason)
            state.merge_usage(sdk_field(event, "usage"))
            management = sdk_field(event, "context_management")
            edits = sdk_field(management, "applied_edits")
            if isinstance(edits, list):
                state.applied_edits = [sdk_dict(e) for e in edits]
            return []
        if kind == "message_stop":
            state.stopped = True
        return []

    def _on_block_start(self, index: int, block: Any, state: _Assembly) -> list[StreamEvent]:
        kind = sdk_field(block, "type")
        if kind == "text":
            text = str(sdk_field(block, "text") or "")
            state.blocks[index] = {"type": "text", "text": text}
            return [TextDelta(index, text)] if text else []
        if kind == "thinking":
            thinking = str(sdk_field(block, "thinking") or "")
            state.blocks[index] = {
                "type": "thinking",
                "thinking": thinking,
                "signature": str(sdk_field(block, "signature") or ""),
            }
            return [ThinkingDelta(index, thinking)] if thinking else []
        if kind == "tool_use":
            tool_id = str(sdk_field(block, "id") or "")
            name = str(sdk_field(block, "name") or "")
            state.blocks[index] = {"type": "tool_use", "id": tool_id, "name": name, "input": {}}
            state.json_parts[index] = []
            return [ToolUseStart(index, tool_id, name)]
        # A server tool's call: its input streams as a tool call's does, but the provider
        # runs it, so no client tool call starts.
        if kind == server_tools.SERVER_TOOL_USE:
            state.blocks[index] = {**sdk_dict(block), "input": {}}
            state.json_parts[index] = []
            return []
        # redacted_thinking and server tool results arrive whole; keep them verbatim.
        state.blocks[index] = sdk_dict(block)
        return []

    def _on_delta(self, index: int, delta: Any, state: _Assembly) -> list[StreamEvent]:
        block = state.blocks.get(index)
        if block is None:
            raise ProviderError(
                f"content_block_delta for unknown block {index}",
                type="malformed_event",
                retryable=True,
            )
        kind = sdk_field(delta, "type")
        if kind == "text_delta":
            text = str(sdk_field(delta, "text") or "")
            state.text.add(block, index, "text", text)
            return [TextDelta(index, text)] if text else []
        if kind == "thinking_delta":
            text = str(sdk_field(delta, "thinking") or "")
            state.text.add(block, index, "thinking", text)
            return [ThinkingDelta(index, text)] if text else []
        if kind == "signature_delta":
            block["signature"] = str(sdk_field(delta, "signature") or "")
            return []
        if kind == "input_json_delta":
            piece = str(sdk_field(delta, "partial_json") or "")
            state.json_parts.setdefault(index, []).append(piece)
            return [ToolInputDelta(index, piece)] if piece and block.get("type") == "tool_use" \
                else []
        if kind == "citations_delta":
            citation = sdk_field(delta, "citation")
            if citation is not None:
                block.setdefault("citations", []).append(sdk_dict(citation))
        return []

    def _on_block_stop(self, index: int, state: _Assembly) -> None:
        block = state.blocks.get(index)
        if block is None or not server_tools.is_use(block):
            return
        parts = state.json_parts.pop(index, None)
        if parts is None and block.get("type") != "tool_use":
            return  # a server tool's input that came whole with its start
        block["input"] = tool_input("".join(parts or []),
                                    f"{block.get('type')} input for {block.get('name')!r}")
