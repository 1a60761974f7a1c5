"""The OpenAI Responses API adapter (``provider: "openai"``) through the official ``openai`` SDK.

OpenAI serves its current models best through the Responses API; Chat Completions
(``sidecar.providers.openai_chat``) stays for the servers that speak only that wire.

Stateless on purpose: ``store: false`` and the whole conversation as input on every
request, so the session's transcript is the only record and nothing depends on what the
server kept. Reasoning survives that through ``include: ["reasoning.encrypted_content"]``:
each reasoning item comes back encrypted, is kept on its thinking block, and is sent back
as it came. The conversion lives in ``openai_responses_items``, the stream assembly in
``openai_responses_stream``.

The SDK is imported on first use (about a second) and runs with ``max_retries=0``:
``sidecar.core.turns.retry`` owns retries. Errors go through the same classification as Chat
Completions (context-length errors become prompt-too-long, transient statuses retryable);
failures reported inside the stream (``response.failed``, ``error``) by their error code.

Server-side compaction: ``compact`` calls ``responses.compact``, whose output (the user
messages, then one compaction item with encrypted content) later requests send in place
of the conversation it summarized. Tool-result clearing stays the engine's client-side
edit (``server_context_management = False``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from sidecar.core.ports import (
    ModelDescription,
    ModelRequest,
    ProviderError,
    ServerCompaction,
    StreamEvent,
)
from sidecar.providers.http_errors import mid_stream
from sidecar.providers.openai_chat import classify_openai_error, new_openai_client
from sidecar.providers.openai_responses_items import (
    build_compact_body,
    build_count_body,
    build_responses_body,
    compacted_blocks,
)
from sidecar.providers.openai_responses_stream import ResponsesAssembly, usage_from_responses
from sidecar.providers.sdk_client import SdkClientHolder


class OpenAIResponsesProvider(SdkClientHolder):
    """``Provider`` over the OpenAI Responses API."""

    server_context_management = False
    server_compaction = True
    cache_breakpoints = False

    name = "openai"

    def _new_client(self) -> Any:
        return new_openai_client(self._api_key, self.base_url, self._default_timeout)

    async def describe_models(self) -> list[ModelDescription]:
        return []

    async def count_tokens(self, request: ModelRequest) -> int | None:
        try:
            result = await self._sdk_client().responses.input_tokens.count(
                **build_count_body(request),
                extra_headers=request.headers or None,
                timeout=request.timeout_seconds,
            )
        except Exception as err:
            raise classify_openai_error(err) from err
        return int(result.input_tokens)

    async def compact(self, request: ModelRequest, instructions: str | None) -> ServerCompaction:
        try:
            result = await self._sdk_client().responses.compact(
                **build_compact_body(request, instructions),
                extra_headers=request.headers or None,
                timeout=request.timeout_seconds,
            )
        except Exception as err:
            raise classify_openai_error(err) from err
        blocks = compacted_blocks(getattr(result, "output", None) or [])
        if not any(b.get("type") == "compaction" for b in blocks):
            raise ProviderError("the compact endpoint answered without a compaction item",
                                type="malformed_event", retryable=True)
        # The summary is encrypted: there is no readable text to show.
        return ServerCompaction(blocks=blocks, summary=None,
                                usage=usage_from_responses(getattr(result, "usage", None)),
                                role="user")

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        body = build_responses_body(request, self.model_info)
        state = ResponsesAssembly()
        streaming = False
        try:
            stream = await self._sdk_client().responses.create(
                **body, timeout=request.timeout_seconds, extra_headers=request.headers or None
            )
            streaming = True
            async with stream:
                async for event in stream:
                    for out in state.on_event(event):
                        yield out
                    if state.finished:
                        break
        except ProviderError:
            raise
        except Exception as err:
            raise mid_stream(classify_openai_error(err), streaming) from err
        if not state.finished:
            raise ProviderError(
                "the response stream ended before response.completed",
                type="stream_interrupted",
                retryable=True,
            )
        yield state.completed()
