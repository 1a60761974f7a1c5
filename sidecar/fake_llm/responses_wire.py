"""OpenAI Responses API wire shapes, from a reply written in Anthropic blocks.

Field names follow what the official SDK parses (``openai.types.responses``: ``Response``,
``ResponseStreamEvent``, ``ResponseUsage``): thinking becomes a ``reasoning`` item (with its
summary only when the request asked for one in ``reasoning.summary``, with
``encrypted_content`` only when ``include`` asked for it), each text block a ``message``
item with one ``output_text`` part, each tool_use a ``function_call`` whose ``call_id`` is
the block's id, each web search (``server_tool_use`` and its results) a ``web_search_call``
(its sources listed only when ``include`` asked for them), a text's citations
``url_citation`` annotations; the API has no fetch, so a scripted fetch is not served. A reply that stops at ``max_tokens`` (or for a refusal) ends as the API
ends a cut-short answer: ``response.incomplete`` with ``incomplete_details.reason``.
"""

from __future__ import annotations

import json
import time
import uuid
from dataclasses import dataclass
from typing import Any

from . import openai_wire
from .encrypted_content import seal
from .script import Block, Reply

Event = tuple[str, dict[str, Any]]

# The API's words for an input past the model's window: no token counts in it.
CONTEXT_OVERFLOW = ("Your input exceeds the context window of this model. Please adjust your "
                    "input and try again.")
# Our stop reasons the API reports as an incomplete response, and the reason it gives.
INCOMPLETE_REASONS = {"max_tokens": "max_output_tokens", "refusal": "content_filter"}
ENCRYPTED_REASONING = "reasoning.encrypted_content"
SEARCH_SOURCES = "web_search_call.action.sources"


def new_id(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex}"


def context_overflow_body() -> dict[str, Any]:
    return openai_wire.error_body(CONTEXT_OVERFLOW, "invalid_request_error",
                                  "context_length_exceeded", "input")


def usage_json(input_tokens: int, cached: int, output: int, reasoning: int) -> dict[str, Any]:
    # The prefix cache the fake simulates is OpenAI's automatic one, which it models as
    # reads only; explicit cache breakpoints (and their writes) are not simulated.
    return {
        "input_tokens": input_tokens,
        "input_tokens_details": {"cached_tokens": cached, "cache_write_tokens": 0},
        "output_tokens": output,
        "output_tokens_details": {"reasoning_tokens": reasoning},
        "total_tokens": input_tokens + output,
    }


def reasoning_payload(text: str) -> str:
    return seal({"kind": "reasoning", "text": text})


@dataclass(frozen=True)
class Shape:
    """What the request asked to see of the reply."""

    summaries: bool  # ``reasoning.summary`` was set
    encrypted: bool  # ``include`` named reasoning.encrypted_content
    sources: bool = False  # ``include`` named web_search_call.action.sources

    @classmethod
    def of(cls, body: dict[str, Any]) -> Shape:
        reasoning = _dict(body.get("reasoning"))
        summary = reasoning.get("summary") or reasoning.get("generate_summary")
        include = body.get("include")
        listed = include if isinstance(include, list) else []
        return cls(summaries=bool(summary), encrypted=ENCRYPTED_REASONING in listed,
                   sources=SEARCH_SOURCES in listed)


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _chunks(text: str, size: int) -> list[str]:
    return [text[i: i + size] for i in range(0, len(text), size)]


def _reasoning_text(block: Block) -> str:
    return str(block.get("thinking", "") if block["type"] == "thinking" else "")


def _annotations(block: Block) -> list[dict[str, Any]]:
    text = str(block.get("text", ""))
    return [{"type": "url_citation", "url": c["url"], "title": c.get("title") or c["url"],
             "start_index": 0, "end_index": len(text)} for c in block.get("citations") or []]


def _search_call(block: Block, results: dict[str, Block], shape: Shape) -> dict[str, Any]:
    action: dict[str, Any] = {"type": "search", "query": str(block.get("input", {}).get("query", ""))}
    found = results.get(str(block.get("id")), {}).get("content")
    if shape.sources and isinstance(found, list):
        action["sources"] = [{"type": "url", "url": r["url"]} for r in found]
    return {"type": "web_search_call", "id": new_id("ws"), "status": "completed", "action": action}


def output_items(reply: Reply, shape: Shape) -> list[dict[str, Any]]:
    """The reply's output items as the completed response lists them."""
    items: list[dict[str, Any]] = []
    results = {str(b.get("tool_use_id")): b for b in reply.content
               if b["type"] == "web_search_tool_result"}
    for block in reply.content:
        kind = block["type"]
        if kind == "server_tool_use":
            if block.get("name") == "web_search":
                items.append(_search_call(block, results, shape))
            continue
        if kind in ("web_search_tool_result", "web_fetch_tool_result"):
            continue
        if kind in ("thinking", "redacted_thinking"):
            text = _reasoning_text(block)
            item: dict[str, Any] = {"type": "reasoning", "id": new_id("rs"), "summary": []}
            if shape.summaries and text:
                item["summary"] = [{"type": "summary_text", "text": text}]
            if shape.encrypted:
                item["encrypted_content"] = reasoning_payload(text or str(block.get("data", "")))
            items.append(item)
        elif kind == "text":
            items.append({
                "type": "message", "id": new_id("msg"), "status": "completed",
                "role": "assistant",
                "content": [{"type": "output_text", "text": str(block.get("text", "")),
                             "annotations": _annotations(block), "logprobs": []}],
            })
        elif kind in ("tool_search_call", "tool_search_output"):
            items.append(dict(block))  # the hosted search's items (sidecar.fake_llm.tool_search)
        else:
            items.append({
                "type": "function_call", "id": new_id("fc"), "status": "completed",
                "call_id": str(block.get("id") or new_id("call")), "name": str(block["name"]),
                "arguments": json.dumps(block.get("input", {}), ensure_ascii=False),
            })
    return items


def response_json(body: dict[str, Any], *, response_id: str, created_at: int, model: str,
                  status: str, output: list[dict[str, Any]], usage: dict[str, Any] | None,
                  incomplete_reason: str | None = None) -> dict[str, Any]:
    """A ``Response`` object, echoing the request's settings as the API does."""
    reasoning = _dict(body.get("reasoning"))
    return {
        "id": response_id,
        "object": "response",
        "created_at": created_at,
        "status": status,
        "background": False,
        "error": None,
        "incomplete_details": {"reason": incomplete_reason} if incomplete_reason else None,
        "instructions": body.get("instructions"),
        "max_output_tokens": body.get("max_output_tokens"),
        "max_tool_calls": None,
        "model": model,
        "output": output,
        "parallel_tool_calls": body.get("parallel_tool_calls", True),
        "previous_response_id": None,
        "prompt_cache_key": body.get("prompt_cache_key"),
        "reasoning": {"effort": reasoning.get("effort"), "summary": reasoning.get("summary")},
        "service_tier": "default",
        "store": body.get("store", True),
        "temperature": 1.0,
        "text": {"format": {"type": "text"}, "verbosity": "medium"},
        "tool_choice": body.get("tool_choice", "auto"),
        "tools": body.get("tools") or [],
        "top_logprobs": 0,
        "top_p": 1.0,
        "truncation": body.get("truncation") or "disabled",
        "usage": usage,
        "user": None,
        "metadata": {},
    }


def finished_status(reply: Reply) -> tuple[str, str | None]:
    reason = INCOMPLETE_REASONS.get(reply.effective_stop_reason)
    return ("incomplete", reason) if reason else ("completed", None)


class _Events:
    """Builds the event list, numbering each event as the API does."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def add(self, kind: str, **fields: Any) -> None:
        self.events.append((kind, {"type": kind, "sequence_number": len(self.events), **fields}))


def stream_events(reply: Reply, body: dict[str, Any], *, model: str,
                  usage: dict[str, Any]) -> list[Event]:
    """Every event of one streamed reply, in the API's order."""
    shape = Shape.of(body)
    response_id = new_id("resp")
    created = int(time.time())
    out = _Events()
    opening = response_json(body, response_id=response_id, created_at=created, model=model,
                            status="in_progress", output=[], usage=None)
    out.add("response.created", response=opening)
    out.add("response.in_progress", response=opening)
    items = output_items(reply, shape)
    for index, item in enumerate(items):
        _item_events(out, index, item, reply.chunk_size)
    status, reason = finished_status(reply)
    final = response_json(body, response_id=response_id, created_at=created, model=model,
                          status=status, output=items, usage=usage, incomplete_reason=reason)
    out.add(f"response.{status}", response=final)
    return out.events


def _item_events(out: _Events, index: int, item: dict[str, Any], size: int) -> None:
    kind = item["type"]
    where = {"item_id": item["id"], "output_index": index}
    if kind == "reasoning":
        out.add("response.output_item.added", output_index=index,
                item={"type": "reasoning", "id": item["id"], "summary": []})
        for number, part in enumerate(item["summary"]):
            empty = {"type": "summary_text", "text": ""}
            out.add("response.reasoning_summary_part.added", **where, summary_index=number,
                    part=empty)
            for piece in _chunks(part["text"], size):
                out.add("response.reasoning_summary_text.delta", **where, summary_index=number,
                        delta=piece)
            out.add("response.reasoning_summary_text.done", **where, summary_index=number,
                    text=part["text"])
            out.add("response.reasoning_summary_part.done", **where, summary_index=number,
                    part=part)
    elif kind == "web_search_call":
        out.add("response.output_item.added", output_index=index,
                item={**item, "status": "in_progress"})
        for stage in ("in_progress", "searching", "completed"):
            out.add(f"response.web_search_call.{stage}", **where)
    elif kind == "message":
        out.add("response.output_item.added", output_index=index,
                item={**item, "status": "in_progress", "content": []})
        part = item["content"][0]
        at = {**where, "content_index": 0}
        out.add("response.content_part.added", **at,
                part={"type": "output_text", "text": "", "annotations": [], "logprobs": []})
        for piece in _chunks(part["text"], size):
            out.add("response.output_text.delta", **at, delta=piece, logprobs=[])
        for number, note in enumerate(part["annotations"]):
            out.add("response.output_text.annotation.added", **at, annotation_index=number,
                    annotation=note)
        out.add("response.output_text.done", **at, text=part["text"], logprobs=[])
        out.add("response.content_part.done", **at, part=part)
    elif kind in ("tool_search_call", "tool_search_output"):
        out.add("response.output_item.added", output_index=index,
                item={**item, "status": "in_progress"})
    else:
        out.add("response.output_item.added", output_index=index,
                item={**item, "status": "in_progress", "arguments": ""})
        for piece in _chunks(item["arguments"], size):
            out.add("response.function_call_arguments.delta", **where, delta=piece)
        out.add("response.function_call_arguments.done", **where, arguments=item["arguments"])
    out.add("response.output_item.done", output_index=index, item=item)


def overflow_events(body: dict[str, Any], *, model: str) -> list[Event]:
    """A streamed request past the window: the response opens, then an ``error`` event."""
    response_id = new_id("resp")
    opening = response_json(body, response_id=response_id, created_at=int(time.time()),
                            model=model, status="in_progress", output=[], usage=None)
    out = _Events()
    out.add("response.created", response=opening)
    out.add("response.in_progress", response=opening)
    out.add("error", code="context_length_exceeded", message=CONTEXT_OVERFLOW, param="input")
    return out.events


def encode_event(name: str, data: dict[str, Any]) -> bytes:
    return f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()
