"""OpenAI Chat Completions wire shapes, converted from a reply written in Anthropic blocks.

Thinking becomes ``reasoning_content`` deltas (the field OpenAI-compatible servers use for
reasoning text); tool_use blocks become ``tool_calls``.
"""

from __future__ import annotations

import json
import time
import uuid
from typing import Any

from .script import Reply

FINISH_REASONS = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "pause_turn": "stop",
    "tool_use": "tool_calls",
    "max_tokens": "length",
    "model_context_window_exceeded": "length",
    "refusal": "content_filter",
}


def finish_reason(reply: Reply) -> str:
    return FINISH_REASONS.get(reply.effective_stop_reason, "stop")


def error_body(
    message: str, error_type: str, code: str | None, param: str | None = None
) -> dict[str, Any]:
    return {"error": {"message": message, "type": error_type, "param": param, "code": code}}


def prompt_too_long_body(tokens: int, maximum: int) -> dict[str, Any]:
    return error_body(
        f"This model's maximum context length is {maximum} tokens. However, your messages "
        f"resulted in {tokens} tokens. Please reduce the length of the messages.",
        "invalid_request_error",
        "context_length_exceeded",
        "messages",
    )


def rate_limit_body(model: str, retry_after: float) -> dict[str, Any]:
    return error_body(
        f"Rate limit reached for {model} in organization org-fake on requests per min (RPM): "
        f"Limit 3, Used 3, Requested 1. Please try again in {retry_after:g}s.",
        "requests",
        "rate_limit_exceeded",
    )


def usage_json(
    prompt_tokens: int, completion_tokens: int, cached_tokens: int, reasoning: int
) -> dict[str, Any]:
    return {
        "prompt_tokens": prompt_tokens,
        "completion_tokens": completion_tokens,
        "total_tokens": prompt_tokens + completion_tokens,
        "prompt_tokens_details": {"cached_tokens": cached_tokens, "audio_tokens": 0},
        "completion_tokens_details": {
            "reasoning_tokens": reasoning,
            "audio_tokens": 0,
            "accepted_prediction_tokens": 0,
            "rejected_prediction_tokens": 0,
        },
    }


def _parts(reply: Reply) -> tuple[str, str, list[dict[str, Any]]]:
    reasoning = "".join(b.get("thinking", "") for b in reply.content if b["type"] == "thinking")
    text = "".join(b.get("text", "") for b in reply.content if b["type"] == "text")
    calls = [
        {
            "id": b.get("id") or "call_" + uuid.uuid4().hex[:24],
            "type": "function",
            "function": {
                "name": b["name"],
                "arguments": json.dumps(b.get("input", {}), ensure_ascii=False),
            },
        }
        for b in reply.content
        if b["type"] == "tool_use"
    ]
    return reasoning, text, calls


def completion_json(reply: Reply, *, model: str, usage: dict[str, Any]) -> dict[str, Any]:
    reasoning, text, calls = _parts(reply)
    message: dict[str, Any] = {
        "role": "assistant",
        "content": text if text or not calls else None,
        "refusal": None,
        "annotations": [],
    }
    if reasoning:
        message["reasoning_content"] = reasoning
    if calls:
        message["tool_calls"] = calls
    return {
        "id": "chatcmpl-" + uuid.uuid4().hex[:24],
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": message,
                "logprobs": None,
                "finish_reason": finish_reason(reply),
            }
        ],
        "usage": usage,
        "service_tier": "default",
        "system_fingerprint": "fp_fake",
    }


def _chunks(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


def stream_chunks(
    reply: Reply, *, model: str, usage: dict[str, Any], include_usage: bool
) -> list[dict[str, Any]]:
    """Every ``data:`` payload of one streamed completion, before the final ``[DONE]``."""
    completion_id = "chatcmpl-" + uuid.uuid4().hex[:24]
    created = int(time.time())
    reasoning, text, calls = _parts(reply)

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": completion_id,
            "object": "chat.completion.chunk",
            "created": created,
            "model": model,
            "system_fingerprint": "fp_fake",
            "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
        }
        if include_usage:
            data["usage"] = None
        return data

    chunks = [chunk({"role": "assistant", "content": "", "refusal": None})]
    for piece in _chunks(reasoning, reply.chunk_size):
        chunks.append(chunk({"reasoning_content": piece}))
    for piece in _chunks(text, reply.chunk_size):
        chunks.append(chunk({"content": piece}))
    for index, call in enumerate(calls):
        chunks.append(
            chunk(
                {
                    "tool_calls": [
                        {
                            "index": index,
                            "id": call["id"],
                            "type": "function",
                            "function": {"name": call["function"]["name"], "arguments": ""},
                        }
                    ]
                }
            )
        )
        for piece in _chunks(call["function"]["arguments"], reply.chunk_size):
            chunks.append(
                chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
            )
    chunks.append(chunk({}, finish_reason(reply)))
    if include_usage:
        chunks.append(
            {
                "id": completion_id,
                "object": "chat.completion.chunk",
                "created": created,
                "model": model,
                "system_fingerprint": "fp_fake",
                "choices": [],
                "usage": usage,
            }
        )
    return chunks


def encode_chunk(data: dict[str, Any]) -> bytes:
    return f"data: {json.dumps(data, ensure_ascii=False)}\n\n".encode()


DONE = b"data: [DONE]\n\n"
