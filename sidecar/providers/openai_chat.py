"""The Chat Completions adapter (OpenAI-compatible servers) through the ``openai`` SDK.

One class serves every server that speaks OpenAI's older wire, by base URL: Ollama, vLLM,
llama.cpp server, OpenRouter, Gemini's compatible endpoint (``provider: "openai"`` itself
goes through the Responses API, ``openai_responses``). Named "openai" it still speaks to
OpenAI as OpenAI takes this wire. The SDK is imported on first use and runs with
``max_retries=0``: ``sidecar.core.turns.retry`` owns retries. The Responses adapter shares its
error classification and its readers of SDK objects.

Conversion from our Anthropic-form request:

- system blocks become one ``system`` message;
- ``tool_use`` blocks become the assistant's ``tool_calls``; each ``tool_result`` becomes
  its own ``tool`` message (text only: images there are replaced by a note, because
  Chat Completions accepts no images in tool messages), placed before the user's other
  content so that it directly follows the assistant's tool calls;
- thinking blocks are dropped (no Chat Completions server accepts them back);
- images become ``image_url`` parts holding data URLs.

On the way back, ``reasoning_content`` (DeepSeek, vLLM, the fake) or ``reasoning``
(OpenRouter, Ollama) deltas become thinking. OpenAI has no cache writes: cached prompt
tokens are reported as cache reads and the rest as plain input.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator
from typing import Any, Literal

from sidecar.core.conversation.messages import NO_CONTENT, ApiMessage, Block, Usage
from sidecar.core.models.catalog import ModelInfo
from sidecar.core.models.status import today_utc
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
    ToolSpec,
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
from sidecar.providers.model_listing import list_openai_models
from sidecar.providers.sdk_client import SdkClientHolder
from sidecar.providers.sdk_values import sdk_field, tool_input
from sidecar.providers.text_parts import TextParts

FINISH_REASONS = {
    "stop": "end_turn",
    "tool_calls": "tool_use",
    "function_call": "tool_use",
    "length": "max_tokens",
    "content_filter": "refusal",
}
IMAGE_IN_TOOL_RESULT_NOTE = "[image omitted: tool results carry text only on this provider]"
DOCUMENT_NOTE = "[document omitted: not supported by this provider]"
# Placeholder key for keyless local servers; the SDK refuses to start without some key.
KEYLESS_PLACEHOLDER = "sk-no-key-required"


def new_openai_client(api_key: str, base_url: str | None, timeout: float) -> Any:
    """The openai SDK's async client, retries left to the engine; local servers (Ollama,
    llama.cpp, vLLM) take a placeholder where no key is configured."""
    import openai

    return openai.AsyncOpenAI(api_key=api_key or KEYLESS_PLACEHOLDER, base_url=base_url,
                              max_retries=0, timeout=timeout)

ProviderName = Literal["openai", "openai-compatible"]


# ---------------------------------------------------------------- request conversion


def image_url(block: Block) -> str | None:
    source = block.get("source")
    if not isinstance(source, dict):
        return None
    if source.get("type") == "base64" and source.get("data"):
        media = source.get("media_type") or "image/png"
        return f"data:{media};base64,{source['data']}"
    if source.get("type") == "url" and source.get("url"):
        return str(source["url"])
    return None


def document_text(block: Block) -> str:
    source = block.get("source")
    if isinstance(source, dict) and source.get("type") == "text":
        return str(source.get("data", ""))
    return DOCUMENT_NOTE


def compaction_text(block: Block) -> str | None:
    """Another provider's compaction as text, where it is readable (Anthropic's summary is;
    OpenAI's is encrypted and has no form anywhere else)."""
    content = block.get("content")
    if isinstance(content, str) and content.strip():
        return f"Summary of the earlier conversation:\n{content}"
    return None


def tool_result_text(block: Block) -> str:
    """The text of a tool_result as one string; images and documents become notes."""
    content = block.get("content", "")
    parts: list[str] = []
    if isinstance(content, str):
        parts.append(content)
    elif isinstance(content, list):
        for part in content:
            if isinstance(part, str):
                parts.append(part)
            elif not isinstance(part, dict):
                continue
            elif part.get("type") == "text":
                parts.append(str(part.get("text", "")))
            elif part.get("type") == "image":
                parts.append(IMAGE_IN_TOOL_RESULT_NOTE)
            elif part.get("type") == "document":
                parts.append(document_text(part))
    text = "\n".join(p for p in parts if p)
    if block.get("is_error"):
        text = f"Error: {text}" if text else "Error"
    return text or NO_CONTENT


def _user_messages(content: list[Block]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    parts: list[dict[str, Any]] = []
    for block in content:
        kind = block.get("type")
        if kind == "tool_result":
            out.append(
                {
                    "role": "tool",
                    "tool_call_id": str(block.get("tool_use_id", "")),
                    "content": tool_result_text(block),
                }
            )
        elif kind == "text":
            if block.get("text"):
                parts.append({"type": "text", "text": str(block["text"])})
        elif kind == "image":
            url = image_url(block)
            if url:
                parts.append({"type": "image_url", "image_url": {"url": url}})
        elif kind == "document":
            parts.append({"type": "text", "text": document_text(block)})
        elif kind == "compaction" and (summary := compaction_text(block)):
            parts.append({"type": "text", "text": summary})
        # cache_edits and other Anthropic-only blocks have no Chat Completions form.
    if parts:
        # Plain strings where possible: several local servers reject content arrays.
        if all(p["type"] == "text" for p in parts):
            out.append({"role": "user", "content": "\n\n".join(p["text"] for p in parts)})
        else:
            out.append({"role": "user", "content": parts})
    return out


def _assistant_message(content: list[Block]) -> dict[str, Any] | None:
    texts: list[str] = []
    calls: list[dict[str, Any]] = []
    for block in content:
        kind = block.get("type")
        if kind == "text" and block.get("text"):
            texts.append(str(block["text"]))
        elif kind == "compaction" and (summary := compaction_text(block)):
            texts.append(summary)
        elif kind == "tool_use":
            calls.append(
                {
                    "id": str(block.get("id", "")),
                    "type": "function",
                    "function": {
                        "name": str(block.get("name", "")),
                        "arguments": json.dumps(block.get("input") or {}, ensure_ascii=False),
                    },
                }
            )
    if not texts and not calls:
        return None
    message: dict[str, Any] = {"role": "assistant", "content": "".join(texts) if texts else None}
    if calls:
        message["tool_calls"] = calls
    return message


def convert_messages(system: list[Block], messages: list[ApiMessage]) -> list[dict[str, Any]]:
    """Our system blocks and Anthropic-form messages as Chat Completions messages."""
    out: list[dict[str, Any]] = []
    system_text = "\n\n".join(str(b.get("text", "")) for b in system if b.get("text"))
    if system_text:
        out.append({"role": "system", "content": system_text})
    for message in messages:
        if message.role == "assistant":
            converted = _assistant_message(message.content)
            if converted is not None:
                out.append(converted)
        else:
            out.extend(_user_messages(message.content))
    return out


def convert_tools(tools: list[ToolSpec]) -> list[dict[str, Any]]:
    return [
        {
            "type": "function",
            "function": {
                "name": t.name,
                "description": t.description,
                "parameters": t.input_schema,
            },
        }
        for t in tools
    ]


def build_chat_body(
    request: ModelRequest, provider: ProviderName, model_info: ModelInfo | None = None
) -> dict[str, Any]:
    """The Chat Completions body for a request (``stream`` included)."""
    max_tokens = request.max_tokens
    if model_info is not None:
        max_tokens = min(max_tokens, model_info.max_output_tokens)
    body: dict[str, Any] = {
        "model": request.model,
        "messages": convert_messages(request.system, request.messages),
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    # OpenAI deprecated max_tokens (and reasoning models refuse it); compatible servers
    # mostly only know max_tokens.
    body["max_completion_tokens" if provider == "openai" else "max_tokens"] = max_tokens
    if request.tools:
        body["tools"] = convert_tools(request.tools)
    if request.prompt_cache_key:
        body["prompt_cache_key"] = request.prompt_cache_key
    # Reasoning is asked for by effort alone on this wire; a budget or adaptive thinking
    # setting means "reason", at the provider's default effort unless one is set.
    if request.effort or request.thinking_budget or request.thinking_adaptive:
        body["reasoning_effort"] = request.effort or "medium"
    return body


# ---------------------------------------------------------------- errors


def _error_fields(body: object) -> tuple[str | None, str | None, str | None]:
    """(message, type, code) from an OpenAI-style error body, at top level or under ``error``."""
    if isinstance(body, dict) and isinstance(body.get("error"), dict):
        body = body["error"]
    if not isinstance(body, dict):
        return None, None, None

    def text(key: str) -> str | None:
        value = body.get(key)  # type: ignore[union-attr]
        return str(value) if value is not None and value != "" else None

    return text("message"), text("type"), text("code")


def classify_openai_error(err: BaseException) -> ProviderError:
    """Map an exception from the openai SDK (or its transport) to a ProviderError."""
    import openai

    if isinstance(err, openai.APIStatusError):
        message, _, code = _error_fields(err.body)
        status = err.status_code
        error_type = type_for_status(status)
        # OpenClaude treats 413 from compatible servers as a context overflow too.
        if code == "context_length_exceeded" or status == 413:
            error_type = "context_length_exceeded"
        return ProviderError(
            message or str(err),
            status=status,
            type=error_type,
            retry_after=parse_retry_after(err.response.headers),
            retryable=status_is_retryable(status),
        )
    if isinstance(err, openai.APITimeoutError):
        return ProviderError("the request timed out", type="timeout", retryable=True)
    if isinstance(err, openai.APIConnectionError):
        cause = err.__cause__
        detail = f" ({type(cause).__name__}: {cause})" if cause is not None else ""
        return ProviderError(f"connection error{detail}", type="connection_error", retryable=True)
    if isinstance(err, openai.APIResponseValidationError):
        return ProviderError(str(err), type="malformed_event", retryable=True)
    if isinstance(err, openai.APIError):
        # An error object sent inside a 200 stream.
        message, body_type, code = _error_fields(err.body)
        error_type = (
            "context_length_exceeded"
            if code == "context_length_exceeded"
            else (stream_error_type(body_type, code))
        )
        return ProviderError(
            message or err.message,
            type=error_type,
            retryable=error_type in RETRYABLE_TYPES,
        )
    mapped = transport_error(err)
    if mapped is not None:
        return mapped
    return ProviderError(f"{type(err).__name__}: {err}", type="api_error", retryable=False)


def stream_error_type(body_type: str | None, code: str | None) -> str:
    words = f"{body_type or ''} {code or ''}".lower()
    if "rate" in words:
        return "rate_limit_error"
    if "overload" in words or "unavailable" in words:
        return "overloaded_error"
    if "invalid" in words:
        return "invalid_request_error"
    return "api_error"


# ---------------------------------------------------------------- response assembly


def token_count(value: Any) -> int:
    return (
        int(value)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0
        else 0
    )


def usage_from_openai(usage: Any) -> Usage:
    """Normalize Chat Completions usage; no usage at all is the all-zero Usage (no anchor)."""
    if usage is None:
        return Usage()
    prompt = token_count(sdk_field(usage, "prompt_tokens"))
    cached = token_count(sdk_field(sdk_field(usage, "prompt_tokens_details"), "cached_tokens"))
    cached = min(cached, prompt)
    return Usage(
        input_tokens=prompt - cached,
        cache_creation_input_tokens=0,
        cache_read_input_tokens=cached,
        output_tokens=token_count(sdk_field(usage, "completion_tokens")),
    )


class _ToolCall:
    def __init__(self, index: int, call_id: str | None) -> None:
        self.index = index
        self.id = call_id
        self.name = ""
        self.arguments: list[str] = []
        self.started = False


class _Assembly:
    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self.calls: list[_ToolCall] = []
        self.by_position: dict[int, _ToolCall] = {}
        self.message_id = ""
        self.model = ""
        self.finish_reason: str | None = None
        self.usage: Any = None
        self.parts = TextParts()

    def _open(self, kind: str) -> int:
        if self.blocks and self.blocks[-1]["type"] == kind:
            return len(self.blocks) - 1
        if kind == "text":
            self.blocks.append({"type": "text", "text": ""})
        else:
            self.blocks.append({"type": "thinking", "thinking": "", "signature": ""})
        return len(self.blocks) - 1

    def text(self, piece: str) -> StreamEvent:
        index = self._open("text")
        self.parts.add(self.blocks[index], index, "text", piece)
        return TextDelta(index, piece)

    def thinking(self, piece: str) -> StreamEvent:
        index = self._open("thinking")
        self.parts.add(self.blocks[index], index, "thinking", piece)
        return ThinkingDelta(index, piece)

    def tool_delta(self, delta: Any) -> list[StreamEvent]:
        position = sdk_field(delta, "index")
        call_id = str(sdk_field(delta, "id") or "") or None
        call: _ToolCall | None
        if isinstance(position, int):
            call = self.by_position.get(position)
            if call is not None and call_id and call.id and call_id != call.id:
                # Some servers reuse index 0 for every call; a new id means a new call.
                call = None
        elif call_id:
            call = next((c for c in self.calls if c.id == call_id), None)
        else:
            # No index and no id: a continuation of the latest call.
            call = self.calls[-1] if self.calls else None
        if call is None:
            self.blocks.append({"type": "tool_use", "id": "", "name": "", "input": {}})
            call = _ToolCall(len(self.blocks) - 1, call_id)
            self.calls.append(call)
            if isinstance(position, int):
                self.by_position[position] = call
        elif call_id and not call.id:
            call.id = str(call_id)
        function = sdk_field(delta, "function")
        name = sdk_field(function, "name")
        if name and not call.name:
            call.name = str(name)
        arguments = sdk_field(function, "arguments")
        out: list[StreamEvent] = []
        if arguments:
            call.arguments.append(str(arguments))
        if not call.started and call.name:
            call.started = True
            call.id = call.id or "call_" + uuid.uuid4().hex[:24]
            out.append(ToolUseStart(call.index, call.id, call.name))
            buffered = "".join(call.arguments)
            if buffered:
                out.append(ToolInputDelta(call.index, buffered))
        elif call.started and arguments:
            out.append(ToolInputDelta(call.index, str(arguments)))
        return out

    def completed(self) -> Completed:
        self.parts.settle(self.blocks)
        for call in self.calls:
            block = self.blocks[call.index]
            block["id"] = call.id or "call_" + uuid.uuid4().hex[:24]
            block["name"] = call.name
            block["input"] = tool_input("".join(call.arguments),
                                        f"tool call arguments for {call.name!r}")
        stop = FINISH_REASONS.get(self.finish_reason or "", "end_turn")
        # Some servers (Ollama among them) finish with "stop" even when they called tools.
        if self.calls and stop == "end_turn":
            stop = "tool_use"
        content = [
            b
            for b in self.blocks
            if not (b["type"] == "text" and not b["text"])
            and not (b["type"] == "thinking" and not b["thinking"])
        ]
        return Completed(
            content=content,
            usage=usage_from_openai(self.usage),
            stop_reason=stop,
            message_id=self.message_id,
            model=self.model,
        )


class OpenAIChatProvider(SdkClientHolder):
    """``Provider`` over Chat Completions; ``name`` is "openai" or "openai-compatible"."""

    server_context_management = False
    server_compaction = False
    cache_breakpoints = False

    def __init__(
        self,
        api_key: str,
        base_url: str | None = None,
        model_info: ModelInfo | None = None,
        *,
        name: ProviderName = "openai",
        default_timeout: float = 600.0,
    ) -> None:
        super().__init__(api_key or KEYLESS_PLACEHOLDER, base_url, model_info,
                         default_timeout=default_timeout)
        self.name = name

    def _new_client(self) -> Any:
        return new_openai_client(self._api_key, self.base_url, self._default_timeout)

    async def compact(self, request: ModelRequest, instructions: str | None) -> ServerCompaction:
        raise ProviderError(f"{self.name} has no server-side compaction here",
                            type="invalid_request_error")

    async def describe_models(self) -> list[ModelDescription]:
        return await list_openai_models(self._sdk_client(), self.name, self.base_url, today_utc())

    async def count_tokens(self, request: ModelRequest) -> int | None:
        # Chat Completions has no counting endpoint; the core counts with tiktoken.
        return None

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        provider: ProviderName = "openai" if self.name == "openai" else "openai-compatible"
        body = build_chat_body(request, provider, self.model_info)
        state = _Assembly()
        finished = False
        streaming = False
        try:
            stream = await self._sdk_client().chat.completions.create(
                **body, timeout=request.timeout_seconds, extra_headers=request.headers or None
            )
            streaming = True
            async with stream:
                async for chunk in stream:
                    state.message_id = state.message_id or str(sdk_field(chunk, "id") or "")
                    state.model = state.model or str(sdk_field(chunk, "model") or "")
                    usage = sdk_field(chunk, "usage")
                    if usage is not None:
                        state.usage = usage
                    for choice in sdk_field(chunk, "choices") or []:
                        for event in self._on_choice(choice, state):
                            yield event
                        reason = sdk_field(choice, "finish_reason")
                        if reason:
                            state.finish_reason = str(reason)
                            finished = True
        except ProviderError:
            raise
        except Exception as err:
            raise mid_stream(classify_openai_error(err), streaming) from err
        if not finished:
            raise ProviderError(
                "the response stream ended without a finish_reason",
                type="stream_interrupted",
                retryable=True,
            )
        yield state.completed()

    def _on_choice(self, choice: Any, state: _Assembly) -> list[StreamEvent]:
        delta = sdk_field(choice, "delta")
        if delta is None:
            return []
        out: list[StreamEvent] = []
        reasoning = sdk_field(delta, "reasoning_content") or sdk_field(delta, "reasoning")
        if isinstance(reasoning, str) and reasoning:
            out.append(state.thinking(reasoning))
        content = sdk_field(delta, "content")
        if isinstance(content, str) and content:
            out.append(state.text(content))
        refusal = sdk_field(delta, "refusal")
        if isinstance(refusal, str) and refusal:
            out.append(state.text(refusal))
        for call in sdk_field(delta, "tool_calls") or []:
            out.extend(state.tool_delta(call))
        return out
