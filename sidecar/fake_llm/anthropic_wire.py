"""Anthropic Messages wire shapes: SSE event sequences, message JSON and error bodies.

Field names follow what the official SDK parses (``anthropic.types.RawMessageStreamEvent``,
``Message``, ``Usage``, ``BetaContextManagementResponse``).
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from .encrypted_content import seal
from .request_rules import compaction_signature, thinking_signature
from .script import Reply

Event = tuple[str, dict[str, Any]]

ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    404: "not_found_error",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}


def new_message_id() -> str:
    return "msg_" + uuid.uuid4().hex[:24]


def new_request_id() -> str:
    return "req_" + uuid.uuid4().hex[:24]


def error_body(status: int, message: str, error_type: str | None = None) -> dict[str, Any]:
    return {
        "type": "error",
        "error": {"type": error_type or ERROR_TYPES.get(status, "api_error"), "message": message},
        "request_id": new_request_id(),
    }


def prompt_too_long_message(tokens: int, maximum: int) -> str:
    return f"prompt is too long: {tokens} tokens > {maximum} maximum"


def web_search_result(result: dict[str, Any]) -> dict[str, Any]:
    """One scripted search result as the API returns it: the page's content is encrypted
    (sealed here, so the fake can tell a value sent back altered)."""
    return {"type": "web_search_result", "url": result["url"], "title": result["title"],
            "page_age": result.get("page_age"),
            "encrypted_content": seal({"kind": "web_search_result", "url": result["url"],
                                       "title": result["title"]})}


def citation(cite: dict[str, Any]) -> dict[str, Any]:
    """A scripted citation of a searched page (``web_search_result_location``)."""
    return {"type": "web_search_result_location", "url": cite["url"], "title": cite.get("title"),
            "cited_text": cite.get("cited_text", ""),
            "encrypted_index": seal({"kind": "citation", "url": cite["url"]})}


def _server_result(block: dict[str, Any]) -> dict[str, Any]:
    kind = block["type"]
    content = block.get("content")
    if kind == "web_search_tool_result":
        wire: Any = ([web_search_result(r) for r in content] if isinstance(content, list)
                     else {"type": "web_search_tool_result_error", **dict(content or {})})
    elif isinstance(content, dict) and "error_code" in content:
        wire = {"type": "web_fetch_tool_result_error", "error_code": content["error_code"]}
    else:
        page = dict(content or {})
        wire = {"type": "web_fetch_result", "url": page["url"],
                "retrieved_at": "2026-12-01T12:00:00Z",
                "content": {"type": "document", "title": page.get("title"), "citations": None,
                            "source": {"type": "text", "media_type": "text/plain",
                                       "data": page.get("text", "")}}}
    return {"type": kind, "tool_use_id": block["tool_use_id"], "content": wire}


def server_tool_usage(reply: Reply) -> dict[str, int] | None:
    """``usage.server_tool_use``: the server tool requests the reply made, if any."""
    names = [b.get("name") for b in reply.content if b.get("type") == "server_tool_use"]
    if not names:
        return None
    return {"web_search_requests": names.count("web_search"),
            "web_fetch_requests": names.count("web_fetch")}


def final_block(block: dict[str, Any]) -> dict[str, Any]:
    """A reply block as it appears in a complete Message."""
    kind = block["type"]
    if kind == "text":
        cites = block.get("citations")
        return {"type": "text", "text": block.get("text", ""),
                "citations": [citation(c) for c in cites] if cites else None}
    if kind == "server_tool_use":
        return {"type": "server_tool_use", "id": block["id"], "name": block["name"],
                "input": block.get("input", {})}
    if kind in ("web_search_tool_result", "web_fetch_tool_result"):
        return _server_result(block)
    if kind == "thinking":
        thinking = block.get("thinking", "")
        return {
            "type": "thinking",
            "thinking": thinking,
            "signature": thinking_signature(thinking),
        }
    if kind == "redacted_thinking":
        return {"type": "redacted_thinking", "data": block.get("data", "")}
    if kind == "compaction":
        content = block.get("content")
        return {
            "type": "compaction",
            "content": content,
            "encrypted_content": None,
            "signature": compaction_signature(content) if content is not None else None,
        }
    if kind == "tool_search_tool_result":
        return {"type": "tool_search_tool_result", "tool_use_id": block["tool_use_id"],
                "content": block["content"]}
    return {
        "type": "tool_use",
        "id": block.get("id") or "toolu_" + uuid.uuid4().hex[:24],
        "name": block["name"],
        "input": block.get("input", {}),
    }


def message_json(
    reply: Reply,
    *,
    model: str,
    usage: dict[str, Any],
    context_management: dict[str, Any] | None,
    message_id: str | None = None,
) -> dict[str, Any]:
    message: dict[str, Any] = {
        "id": message_id or new_message_id(),
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [final_block(b) for b in reply.content],
        "stop_reason": reply.effective_stop_reason,
        "stop_sequence": None,
        "usage": _with_server_usage(usage, reply),
    }
    if context_management is not None:
        message["context_management"] = context_management
    return message


def _with_server_usage(usage: dict[str, Any], reply: Reply) -> dict[str, Any]:
    server = server_tool_usage(reply)
    return {**usage, "server_tool_use": server} if server is not None else usage


def _chunks(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


def stream_events(
    reply: Reply,
    *,
    model: str,
    usage: dict[str, Any],
    context_management: dict[str, Any] | None,
) -> list[Event]:
    """The full SSE event sequence of one streamed reply, in the real API's order."""
    start_usage = dict(usage)
    start_usage["output_tokens"] = 1
    message_id = new_message_id()
    events: list[Event] = [
        (
            "message_start",
            {
                "type": "message_start",
                "message": {
                    "id": message_id,
                    "type": "message",
                    "role": "assistant",
                    "model": model,
                    "content": [],
                    "stop_reason": None,
                    "stop_sequence": None,
                    "usage": start_usage,
                },
            },
        )
    ]
    for index, block in enumerate(reply.content):
        full = final_block(block)
        kind = full["type"]
        if kind == "text":
            start: dict[str, Any] = {"type": "text", "text": ""}
            deltas = [
                {"type": "text_delta", "text": c} for c in _chunks(full["text"], reply.chunk_size)
            ]
            if full["citations"]:
                start["citations"] = []
                deltas += [{"type": "citations_delta", "citation": c} for c in full["citations"]]
        elif kind in ("web_search_tool_result", "web_fetch_tool_result"):
            # A server tool's result arrives whole.
            start, deltas = full, []
        elif kind == "thinking":
            start = {"type": "thinking", "thinking": "", "signature": ""}
            deltas = [
                {"type": "thinking_delta", "thinking": c}
                for c in _chunks(full["thinking"], reply.chunk_size)
            ]
            deltas.append({"type": "signature_delta", "signature": full["signature"]})
        elif kind in ("redacted_thinking", "tool_search_tool_result"):
            start, deltas = full, []
        elif kind == "compaction":
            # The summary arrives whole in one delta; the signature rides on the block start.
            start = {"type": "compaction", "content": None, "encrypted_content": None,
                     "signature": full["signature"]}
            deltas = [{"type": "compaction_delta", "content": full["content"],
                       "encrypted_content": full["encrypted_content"]}]
        else:  # tool_use, server_tool_use: the input streams in pieces
            start = {"type": kind, "id": full["id"], "name": full["name"], "input": {}}
            encoded = json.dumps(full["input"], ensure_ascii=False)
            # The real API opens with an empty partial_json piece before the arguments.
            deltas = [{"type": "input_json_delta", "partial_json": ""}] + [
                {"type": "input_json_delta", "partial_json": c}
                for c in _chunks(encoded, reply.chunk_size)
            ]
        events.append(
            (
                "content_block_start",
                {"type": "content_block_start", "index": index, "content_block": start},
            )
        )
        if index == 0:
            events.append(("ping", {"type": "ping"}))
        for delta in deltas:
            events.append(
                (
                    "content_block_delta",
                    {"type": "content_block_delta", "index": index, "delta": delta},
                )
            )
        events.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
    if not reply.content:
        events.append(("ping", {"type": "ping"}))
    delta_event: dict[str, Any] = {
        "type": "message_delta",
        "delta": {"stop_reason": reply.effective_stop_reason, "stop_sequence": None},
        "usage": {
            "input_tokens": usage["input_tokens"],
            "cache_creation_input_tokens": usage["cache_creation_input_tokens"],
            "cache_read_input_tokens": usage["cache_read_input_tokens"],
            "output_tokens": usage["output_tokens"],
        },
    }
    server = server_tool_usage(reply)
    if server is not None:
        delta_event["usage"]["server_tool_use"] = server
    if context_management is not None:
        delta_event["context_management"] = context_management
    events.append(("message_delta", delta_event))
    events.append(("message_stop", {"type": "message_stop"}))
    return events


def encode_event(name: str, data: dict[str, Any]) -> bytes:
    return f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()
