"""The provider port: one streaming call to a model, and the events it yields.

Adapters (Anthropic, OpenAI and compatible servers) translate a ``ModelRequest`` in
Anthropic block form to their wire format through the official SDKs, and their stream
back into these events. The SDKs import slowly, so adapters import them on first use.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, AsyncIterator, Protocol

from sidecar.core.messages import ApiMessage, Block, Usage


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    input_schema: dict[str, Any]


@dataclass
class ModelRequest:
    model: str
    system: list[Block]  # text blocks; the adapter places cache breakpoints
    messages: list[ApiMessage]
    tools: list[ToolSpec] = field(default_factory=list)
    max_tokens: int = 8_192
    # Thinking: at most ``thinking_budget`` tokens, or ``thinking_adaptive`` (the model
    # decides); ``effort`` as the provider names it (Anthropic output_config.effort, OpenAI
    # reasoning_effort).
    thinking_budget: int | None = None
    thinking_adaptive: bool = False
    effort: str | None = None
    # The model's long-context (1M) window was asked for with a ``[1m]`` suffix.
    long_context: bool = False
    # Anthropic server-side context editing (tier 2); adapters for other providers ignore it
    # because the session applies the same edit client-side for them.
    context_management: dict[str, Any] | None = None
    prompt_cache_key: str | None = None
    # Cache the latest message too (off for forked one-shot calls such as summaries).
    cache_latest_message: bool = True
    timeout_seconds: float = 600.0
    # Sent as HTTP headers (see sidecar.core.request_labels); the APIs ignore them.
    headers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class TextDelta:
    index: int
    text: str


@dataclass(frozen=True)
class ThinkingDelta:
    index: int
    text: str


@dataclass(frozen=True)
class ToolUseStart:
    index: int
    id: str
    name: str


@dataclass(frozen=True)
class ToolInputDelta:
    index: int
    partial_json: str


@dataclass(frozen=True)
class Completed:
    """The whole response: blocks in Anthropic form, usage, stop reason."""

    content: list[Block]
    usage: Usage
    stop_reason: str  # end_turn, tool_use, max_tokens, refusal, stop_sequence
    message_id: str
    model: str
    applied_edits: list[dict[str, Any]] = field(default_factory=list)


StreamEvent = TextDelta | ThinkingDelta | ToolUseStart | ToolInputDelta | Completed

_PTL_ANTHROPIC = re.compile(r"prompt is too long:\s*(\d+)\s*tokens\s*>\s*(\d+)", re.IGNORECASE)
_PTL_OPENAI = re.compile(
    r"maximum context length is (\d+) tokens.*?(?:resulted in|requested) (\d+) tokens",
    re.IGNORECASE | re.DOTALL,
)
_PTL_WORDS = re.compile(
    r"prompt is too long|context_length_exceeded|maximum context length|context window|"
    r"too many tokens|input is too long|exceeds the context",
    re.IGNORECASE,
)


class ProviderError(Exception):
    """A provider failure, classified so retry and compaction can act on it."""

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        type: str = "api_error",
        retry_after: float | None = None,
        retryable: bool = False,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.type = type
        self.retry_after = retry_after
        self.retryable = retryable
        self.prompt_too_long, self.token_gap = classify_prompt_too_long(message, type)

    def to_data(self) -> dict[str, Any]:
        return {"status": self.status, "type": self.type, "retryAfter": self.retry_after}


def classify_prompt_too_long(message: str, type: str = "") -> tuple[bool, int | None]:
    """Whether an error says the prompt was too long, and by how many tokens if stated."""
    m = _PTL_ANTHROPIC.search(message)
    if m:
        return True, max(int(m.group(1)) - int(m.group(2)), 0)
    m = _PTL_OPENAI.search(message)
    if m:
        return True, max(int(m.group(2)) - int(m.group(1)), 0)
    if type == "context_length_exceeded" or _PTL_WORDS.search(message):
        return True, None
    return False, None


class Provider(Protocol):
    name: str

    def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        """Yield deltas, then exactly one ``Completed``; raise ``ProviderError`` on failure."""
        ...

    async def count_tokens(self, request: ModelRequest) -> int | None:
        """Exact input tokens where the provider can count them, else None."""
        ...

    async def aclose(self) -> None: ...
