"""A streamed Responses API answer assembled into our events and one ``Completed``.

Events, as ``openai.types.responses.ResponseStreamEvent`` names them:

- ``response.created``: the response id and model;
- ``response.output_item.added``: a ``function_call`` opens a tool_use block (its
  ``call_id`` becomes the block id), a ``reasoning`` item opens a thinking block;
- ``response.output_text.delta`` / ``response.refusal.delta``: text;
- ``response.reasoning_summary_text.delta``: thinking (summary parts joined by a blank line);
- ``response.function_call_arguments.delta``: the tool input's JSON;
- ``response.output_item.done``: the finished item, authoritative: arguments, the
  reasoning item's ``encrypted_content``, and any text that arrived without deltas; the
  hosted tool search's ``tool_search_call`` and ``tool_search_output``, kept whole;
- ``response.completed`` / ``response.incomplete``: usage and why it stopped;
- ``response.failed`` and ``error``: a ``ProviderError``, classified by the error code.

Usage: ``input_tokens`` includes the tokens read from and written to the prompt cache; they
are reported as cache reads and writes, the rest as plain input.
"""

from __future__ import annotations

from typing import Any

from sidecar.core.conversation.messages import Block, Usage
from sidecar.core.ports import (
    Completed,
    ProviderError,
    StreamEvent,
    TextDelta,
    ThinkingDelta,
    ToolInputDelta,
    ToolUseStart,
)
from sidecar.core.turns.retry import RETRYABLE_TYPES
from sidecar.providers.openai_chat import stream_error_type, token_count
from sidecar.core.conversation import server_tools
from sidecar.providers.openai_responses_items import (
    ENCRYPTED_CONTENT,
    REASONING_ID,
    TOOL_SEARCH_ITEMS,
    tool_search_block,
)
from sidecar.providers.sdk_values import sdk_dict, sdk_field, tool_input
from sidecar.providers.text_parts import TextParts

# Why a response stopped early (``incomplete_details.reason``) in our stop reasons.
INCOMPLETE_REASONS = {"max_output_tokens": "max_tokens", "content_filter": "refusal"}
# Error codes of failed responses that say what kind of failure it was.
_CODE_TYPES = {
    "context_length_exceeded": "context_length_exceeded",
    "rate_limit_exceeded": "rate_limit_error",
    "server_error": "api_error",
    "insufficient_quota": "permission_error",
}
_SUMMARY_BREAK = "\n\n"


def usage_from_responses(usage: Any) -> Usage:
    """Normalize ``ResponseUsage``; no usage at all is the all-zero Usage (no anchor).

    ``input_tokens`` is the whole prompt; its details say how much of it was read from the
    cache (``cached_tokens``) and how much written to it (``cache_write_tokens``).
    """
    if usage is None:
        return Usage()
    details = sdk_field(usage, "input_tokens_details")
    prompt = token_count(sdk_field(usage, "input_tokens"))
    cached = min(token_count(sdk_field(details, "cached_tokens")), prompt)
    written = min(token_count(sdk_field(details, "cache_write_tokens")), prompt - cached)
    return Usage(
        input_tokens=prompt - cached - written,
        cache_creation_input_tokens=written,
        cache_read_input_tokens=cached,
        output_tokens=token_count(sdk_field(usage, "output_tokens")),
    )


def failure(code: Any, message: Any) -> ProviderError:
    """A ProviderError for a failed response or an ``error`` event of the stream."""
    code_text = str(code) if code else None
    error_type = _CODE_TYPES.get(code_text or "") or stream_error_type(None, code_text)
    return ProviderError(
        str(message or f"the response failed ({code_text or 'no error code'})"),
        type=error_type,
        retryable=error_type in RETRYABLE_TYPES,
    )


class ResponsesAssembly:
    """The response being assembled; ``on_event`` returns what to stream for one event."""

    def __init__(self) -> None:
        self.blocks: list[Block] = []
        # (kind, output_index, content_index) -> position in ``blocks``.
        self._where: dict[tuple[str, int, int], int] = {}
        self._arguments: dict[int, list[str]] = {}
        self._summary_index: dict[int, int] = {}
        self.message_id = ""
        self.model = ""
        self.usage: Any = None
        self.incomplete_reason: str | None = None
        self.finished = False
        self.parts = TextParts()

    # ------------------------------------------------------------ events

    def on_event(self, event: Any) -> list[StreamEvent]:
        kind = sdk_field(event, "type")
        if kind in ("response.created", "response.in_progress"):
            self._take_response(sdk_field(event, "response"))
            return []
        if kind == "response.output_item.added":
            return self._item_added(_index(event), sdk_field(event, "item"))
        if kind in ("response.output_text.delta", "response.refusal.delta"):
            piece = str(sdk_field(event, "delta") or "")
            return self._text(_index(event), _index(event, "content_index"), piece)
        if kind == "response.reasoning_summary_text.delta":
            return self._summary(_index(event), _index(event, "summary_index"),
                                 str(sdk_field(event, "delta") or ""))
        if kind == "response.function_call_arguments.delta":
            return self._arguments_delta(_index(event), str(sdk_field(event, "delta") or ""))
        if kind == "response.output_item.done":
            return self._item_done(_index(event), sdk_field(event, "item"))
        if kind in ("response.completed", "response.incomplete"):
            response = sdk_field(event, "response")
            self._take_response(response)
            self.usage = sdk_field(response, "usage")
            details = sdk_field(response, "incomplete_details")
            reason = sdk_field(details, "reason")
            self.incomplete_reason = str(reason) if reason else None
            self.finished = True
            return []
        if kind == "response.failed":
            error = sdk_field(sdk_field(event, "response"), "error")
            raise failure(sdk_field(error, "code"), sdk_field(error, "message"))
        if kind == "error":
            raise failure(sdk_field(event, "code"), sdk_field(event, "message"))
        # Content-part and summary-part boundaries, done events whose content the deltas
        # already carried, and tools this adapter never declares.
        return []

    def _take_response(self, response: Any) -> None:
        self.message_id = self.message_id or str(sdk_field(response, "id") or "")
        self.model = self.model or str(sdk_field(response, "model") or "")

    def _block(self, key: tuple[str, int, int], fresh: Block) -> tuple[int, bool]:
        """The block for ``key``, opened from ``fresh`` on first sight; True when opened."""
        position = self._where.get(key)
        if position is not None:
            return position, False
        self.blocks.append(fresh)
        self._where[key] = len(self.blocks) - 1
        return len(self.blocks) - 1, True

    def _item_added(self, output: int, item: Any) -> list[StreamEvent]:
        kind = sdk_field(item, "type")
        if kind == "function_call":
            return self._open_call(output, item)
        if kind == "reasoning":
            self._open_reasoning(output, item)
        return []

    def _open_call(self, output: int, item: Any) -> list[StreamEvent]:
        call_id = str(sdk_field(item, "call_id") or "")
        name = str(sdk_field(item, "name") or "")
        position, opened = self._block(
            ("call", output, 0), {"type": "tool_use", "id": call_id, "name": name, "input": {}}
        )
        if not opened:
            return []
        self._arguments[position] = []
        out: list[StreamEvent] = [ToolUseStart(position, call_id, name)]
        early = str(sdk_field(item, "arguments") or "")
        if early:
            out.extend(self._arguments_delta(output, early))
        return out

    def _open_reasoning(self, output: int, item: Any) -> int:
        fresh: Block = {"type": "thinking", "thinking": "", "signature": "",
                        REASONING_ID: str(sdk_field(item, "id") or "")}
        return self._block(("reasoning", output, 0), fresh)[0]

    def _text(self, output: int, part: int, piece: str) -> list[StreamEvent]:
        position, _ = self._block(("text", output, part), {"type": "text", "text": ""})
        if not piece:
            return []
        self.parts.add(self.blocks[position], position, "text", piece)
        return [TextDelta(position, piece)]

    def _summary(self, output: int, summary: int, piece: str) -> list[StreamEvent]:
        position = self._where.get(("reasoning", output, 0))
        if position is None:
            position = self._open_reasoning(output, None)
        block = self.blocks[position]
        last = self._summary_index.get(position)
        if last is not None and summary != last and self.parts.read(block, position, "thinking"):
            piece = _SUMMARY_BREAK + piece
        self._summary_index[position] = summary
        if not piece:
            return []
        self.parts.add(block, position, "thinking", piece)
        return [ThinkingDelta(position, piece)]

    def _arguments_delta(self, output: int, piece: str) -> list[StreamEvent]:
        position = self._where.get(("call", output, 0))
        if position is None:
            raise ProviderError(
                f"function call arguments for unknown output item {output}",
                type="malformed_event",
                retryable=True,
            )
        if not piece:
            return []
        self._arguments[position].append(piece)
        return [ToolInputDelta(position, piece)]

    def _item_done(self, output: int, item: Any) -> list[StreamEvent]:
        kind = sdk_field(item, "type")
        if kind in TOOL_SEARCH_ITEMS:  # the hosted search and the tools it loaded
            self._block(("search", output, 0), tool_search_block(sdk_dict(item)))
            return []
        if kind == "message":
            out: list[StreamEvent] = []
            for part_index, part in enumerate(sdk_field(item, "content") or []):
                final = sdk_field(part, "text")
                if final is None:
                    final = sdk_field(part, "refusal")
                out.extend(self._catch_up_text(output, part_index, str(final or "")))
                # Its citations of the web search's pages, kept for the user.
                notes = [sdk_dict(a) for a in sdk_field(part, "annotations") or []
                         if sdk_field(a, "type") == "url_citation"]
                if notes:
                    position, _ = self._block(("text", output, part_index),
                                              {"type": "text", "text": ""})
                    self.blocks[position]["annotations"] = notes
            return out
        if kind == server_tools.OPENAI_WEB_SEARCH_CALL:
            # The provider's own search, kept whole: it goes back as the same input item.
            self._block(("search", output, 0), sdk_dict(item))
            return []
        if kind == "function_call":
            out = self._open_call(output, item)
            position = self._where[("call", output, 0)]
            final = str(sdk_field(item, "arguments") or "")
            streamed = "".join(self._arguments[position])
            if final and final != streamed:
                # The done item is authoritative: stream what the deltas did not carry, or,
                # when they went astray, let its arguments replace them.
                if final.startswith(streamed):
                    final = final[len(streamed):]
                else:
                    self._arguments[position] = []
                out.extend(self._arguments_delta(output, final))
            return out
        if kind == "reasoning":
            found = self._where.get(("reasoning", output, 0))
            position = self._open_reasoning(output, item) if found is None else found
            block = self.blocks[position]
            encrypted = sdk_field(item, ENCRYPTED_CONTENT)
            if encrypted:
                block[ENCRYPTED_CONTENT] = str(encrypted)
            block[REASONING_ID] = str(sdk_field(item, "id") or block[REASONING_ID])
            final = _SUMMARY_BREAK.join(
                str(sdk_field(p, "text") or "") for p in sdk_field(item, "summary") or []
            )
            have = self.parts.read(block, position, "thinking")
            if final and final != have and final.startswith(have):
                piece = final[len(have):]
                self.parts.set(block, position, "thinking", final)
                return [ThinkingDelta(position, piece)]
        return []

    def _catch_up_text(self, output: int, part: int, final: str) -> list[StreamEvent]:
        position, _ = self._block(("text", output, part), {"type": "text", "text": ""})
        have = self.parts.read(self.blocks[position], position, "text")
        if not final or final == have or not final.startswith(have):
            return []
        return self._text(output, part, final[len(have):])

    # ------------------------------------------------------------ the whole response

    def completed(self) -> Completed:
        self.parts.settle(self.blocks)
        calls = False
        for position, pieces in self._arguments.items():
            calls = True
            block = self.blocks[position]
            block["input"] = tool_input("".join(pieces),
                                        f"function call arguments for {block['name']!r}")
        stop = INCOMPLETE_REASONS.get(self.incomplete_reason or "")
        if stop is None:
            stop = "tool_use" if calls else "end_turn"
        content = [
            b
            for b in self.blocks
            if not (b["type"] == "text" and not b["text"])
            # Reasoning with neither summary nor encrypted content carries nothing.
            and not (b["type"] == "thinking" and not b["thinking"] and not b.get(ENCRYPTED_CONTENT))
        ]
        return Completed(
            content=content,
            usage=usage_from_responses(self.usage),
            stop_reason=stop,
            message_id=self.message_id,
            model=self.model,
        )


def _index(event: Any, name: str = "output_index") -> int:
    value = sdk_field(event, name)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise ProviderError(f"a {sdk_field(event, 'type')} event without {name}",
                        type="malformed_event", retryable=True)
