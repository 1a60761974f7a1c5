"""Our Anthropic-form requests as Responses API bodies, and compacted output back in our form.

The Responses API is used statelessly (``store: false``): every request carries the whole
conversation as input items, so the session's transcript stays the only source of truth.

Conversion of the conversation:

- system text blocks become ``instructions``;
- a user message becomes its ``function_call_output`` items first (each must directly
  follow the calls it answers, before any other message), then, in block order, its text,
  images and documents as ``message`` items with ``input_text`` / ``input_image`` parts, and
  its ``compaction`` blocks as compaction items;
- an assistant message becomes, in block order: ``reasoning`` items for the thinking blocks
  that carry this API's ``encrypted_content`` (without ``store`` that is the only form in
  which the API can read earlier reasoning; thinking from other providers is left out),
  its text as assistant ``message`` items, and ``function_call`` items whose ``call_id`` is
  the tool_use block's id;
- its web searches (``web_search_call`` blocks, the output items kept whole) as the same
  input items; another provider's server tool blocks are left out (their results are
  encrypted for it), as are the ``url_citation`` annotations kept on our text blocks (they
  are for the user: the API reads the answer's text alone);
- tool results keep their images: ``function_call_output`` accepts input_text and
  input_image parts.

Assistant text goes back as a message with string content. The API takes ``output_text``
parts only inside an output message that names its ``msg_`` id, and our text blocks carry
no such id: they are sent verbatim to Anthropic after a provider switch, so no
provider-specific key may ride on them. Reasoning is different: a thinking block without a
signature never reaches Anthropic, so its ``reasoning_id`` and ``encrypted_content`` can.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from sidecar.core.conversation import server_tools
from sidecar.core.conversation.messages import ApiMessage, Block
from sidecar.core.models.catalog import ModelInfo
from sidecar.core.ports import ModelRequest, ToolSpec
from sidecar.providers.openai_chat import (
    compaction_text,
    document_text,
    image_url,
    tool_result_text,
)
from sidecar.providers.sdk_values import sdk_field
from sidecar.tools.web import RESPONSES_DEFINITIONS, RESPONSES_SOURCES

# The API refuses max_output_tokens below 16.
MIN_OUTPUT_TOKENS = 16
# Asked for whenever reasoning is on, so the reasoning survives ``store: false``.
ENCRYPTED_REASONING = "reasoning.encrypted_content"
# The opaque fields of a Responses reasoning item, kept on our thinking block.
REASONING_ID = "reasoning_id"
ENCRYPTED_CONTENT = "encrypted_content"
# The API's default image detail; its request type requires the field on message images.
IMAGE_DETAIL = "auto"


# ---------------------------------------------------------------- the conversation


def system_text(system: list[Block]) -> str:
    return "\n\n".join(str(b.get("text", "")) for b in system if b.get("text"))


def _image_part(block: Block) -> dict[str, Any] | None:
    url = image_url(block)
    if url is None:
        return None
    return {"type": "input_image", "image_url": url, "detail": IMAGE_DETAIL}


def _user_part(block: Block) -> dict[str, Any] | None:
    kind = block.get("type")
    if kind == "text":
        text = str(block.get("text", ""))
        return {"type": "input_text", "text": text} if text else None
    if kind == "image":
        return _image_part(block)
    if kind == "document":
        return {"type": "input_text", "text": document_text(block)}
    if kind == "compaction" and (summary := compaction_text(block)):
        return {"type": "input_text", "text": summary}
    # cache_edits and other Anthropic-only blocks have no Responses form.
    return None


def _tool_output(block: Block) -> str | list[dict[str, Any]]:
    """A tool result's ``output``: plain text, or text and image parts when it holds images."""
    content = block.get("content")
    images = isinstance(content, list) and any(
        isinstance(p, dict) and p.get("type") == "image" for p in content
    )
    if not images or not isinstance(content, list):
        return tool_result_text(block)
    parts: list[dict[str, Any]] = []
    if block.get("is_error"):
        parts.append({"type": "input_text", "text": "Error"})
    for part in content:
        if isinstance(part, str):
            parts.append({"type": "input_text", "text": part})
        elif isinstance(part, dict) and part.get("type") == "image":
            url = image_url(part)
            if url is not None:
                parts.append({"type": "input_image", "image_url": url, "detail": IMAGE_DETAIL})
        elif isinstance(part, dict) and part.get("type") == "text" and part.get("text"):
            parts.append({"type": "input_text", "text": str(part["text"])})
        elif isinstance(part, dict) and part.get("type") == "document":
            parts.append({"type": "input_text", "text": document_text(part)})
    return parts or tool_result_text(block)


def _compaction_item(block: Block) -> dict[str, Any]:
    # The id is informational; without ``store`` the API reads the encrypted content only.
    return {"type": "compaction", "encrypted_content": str(block.get(ENCRYPTED_CONTENT, ""))}


def _is_own_compaction(block: Block) -> bool:
    """This API's compaction (encrypted, unsigned), not another provider's signed summary."""
    return bool(block.get(ENCRYPTED_CONTENT)) and not block.get("signature")


def _user_items(content: list[Block]) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = [
        {
            "type": "function_call_output",
            "call_id": str(b.get("tool_use_id", "")),
            "output": _tool_output(b),
        }
        for b in content
        if b.get("type") == "tool_result"
    ]
    parts: list[dict[str, Any]] = []

    def flush() -> None:
        if parts:
            items.append({"type": "message", "role": "user", "content": list(parts)})
            parts.clear()

    for block in content:
        if block.get("type") == "tool_result":
            continue
        if block.get("type") == "compaction" and _is_own_compaction(block):
            flush()
            items.append(_compaction_item(block))
            continue
        part = _user_part(block)
        if part is not None:
            parts.append(part)
    flush()
    return items


def _reasoning_item(block: Block) -> dict[str, Any] | None:
    """A thinking block as a reasoning item, or None when it is not this API's reasoning."""
    encrypted = block.get(ENCRYPTED_CONTENT)
    item_id = block.get(REASONING_ID)
    if not (isinstance(encrypted, str) and encrypted and isinstance(item_id, str) and item_id):
        return None
    thinking = str(block.get("thinking", ""))
    summary = [{"type": "summary_text", "text": thinking}] if thinking else []
    return {"type": "reasoning", "id": item_id, "summary": summary, "encrypted_content": encrypted}


def _assistant_items(content: list[Block]) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    texts: list[str] = []

    def flush() -> None:
        if texts:
            items.append({"type": "message", "role": "assistant", "content": "".join(texts)})
            texts.clear()

    for block in content:
        kind = block.get("type")
        if kind == "text":
            if block.get("text"):
                texts.append(str(block["text"]))
            continue
        flush()
        if kind == "thinking":
            item = _reasoning_item(block)
            if item is not None:
                items.append(item)
        elif kind == "tool_use":
            items.append(
                {
                    "type": "function_call",
                    "call_id": str(block.get("id", "")),
                    "name": str(block.get("name", "")),
                    "arguments": json.dumps(block.get("input") or {}, ensure_ascii=False),
                }
            )
        elif kind == "compaction" and _is_own_compaction(block):
            items.append(_compaction_item(block))
        elif server_tools.is_openai_server_block(block):
            items.append(dict(block))
        elif kind == "compaction" and (summary := compaction_text(block)):
            texts.append(summary)
        elif kind in TOOL_SEARCH_ITEMS:
            items.append(tool_search_block(block))
    flush()
    return items


def convert_input(messages: list[ApiMessage]) -> list[dict[str, Any]]:
    """Our Anthropic-form messages as Responses input items."""
    items: list[dict[str, Any]] = []
    for message in messages:
        if message.role == "assistant":
            items.extend(_assistant_items(message.content))
        else:
            items.extend(_user_items(message.content))
    return items


def convert_tools(tools: list[ToolSpec]) -> list[dict[str, Any]]:
    # Strict mode would require every property to be listed as required and no extra keys;
    # the tools' schemas are written for Anthropic, which has no such rule. Deferred tools
    # carry ``defer_loading`` and come after the hosted ``tool_search`` that loads them.
    def function(t: ToolSpec) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "function", "name": t.name, "description": t.description,
                               "parameters": t.input_schema, "strict": False}
        if t.deferred:
            out["defer_loading"] = True
        return out

    loaded = [function(t) for t in tools if not t.deferred]
    deferred = [function(t) for t in tools if t.deferred]
    return loaded + ([{"type": "tool_search"}] + deferred if deferred else [])


# The hosted tool search's output items, kept in the assistant's message as blocks of their
# own type and sent back as input items; the fields each input item takes.
TOOL_SEARCH_ITEMS: dict[str, tuple[str, ...]] = {
    "tool_search_call": ("type", "id", "call_id", "arguments", "execution", "status"),
    "tool_search_output": ("type", "id", "call_id", "execution", "status", "tools"),
}


def tool_search_block(item: dict[str, Any]) -> Block:
    """A tool search output item as the block (and later the input item) it becomes."""
    fields = TOOL_SEARCH_ITEMS[str(item.get("type"))]
    return {k: v for k, v in item.items() if k in fields and v is not None}


def reasoning_for(request: ModelRequest) -> dict[str, Any] | None:
    """``reasoning`` as Chat Completions' reasoning_effort is chosen: a budget or adaptive
    thinking means "reason", at medium effort unless one is set; summaries are what the
    user sees of it."""
    if not (request.effort or request.thinking_budget or request.thinking_adaptive):
        return None
    return {"effort": request.effort or "medium", "summary": "auto"}


def build_responses_body(request: ModelRequest, model_info: ModelInfo | None = None) -> dict[str, Any]:
    """The streaming ``responses.create`` body for a request."""
    max_tokens = request.max_tokens
    if model_info is not None:
        max_tokens = min(max_tokens, model_info.max_output_tokens)
    body: dict[str, Any] = {
        "model": request.model,
        "input": convert_input(request.messages),
        "store": False,
        "stream": True,
        "max_output_tokens": max(max_tokens, MIN_OUTPUT_TOKENS),
    }
    instructions = system_text(request.system)
    if instructions:
        body["instructions"] = instructions
    tools = convert_tools(request.tools) + [
        dict(RESPONSES_DEFINITIONS[name]) for name in request.server_tools
        if name in RESPONSES_DEFINITIONS]
    if tools:
        body["tools"] = tools
    if request.prompt_cache_key:
        body["prompt_cache_key"] = request.prompt_cache_key
    reasoning = reasoning_for(request)
    include: list[str] = []
    if reasoning is not None:
        body["reasoning"] = reasoning
        include.append(ENCRYPTED_REASONING)
    if any(t.get("type") == "web_search" for t in tools):
        include.append(RESPONSES_SOURCES)
    if include:
        body["include"] = include
    return body


# The fields of a create body that the input-token counting endpoint also takes.
_COUNTED = ("model", "input", "instructions", "tools", "reasoning")


def build_count_body(request: ModelRequest) -> dict[str, Any]:
    body = build_responses_body(request)
    return {k: body[k] for k in _COUNTED if k in body}


def build_compact_body(request: ModelRequest, instructions: str | None) -> dict[str, Any]:
    """The ``responses.compact`` body. The endpoint takes no separate summary prompt: a
    caller's focus for the summary goes after the system text in ``instructions``, which
    the compacting model reads as its developer message."""
    body: dict[str, Any] = {"model": request.model, "input": convert_input(request.messages)}
    text = "\n\n".join(t for t in (system_text(request.system), (instructions or "").strip()) if t)
    if text:
        body["instructions"] = text
    if request.prompt_cache_key:
        body["prompt_cache_key"] = request.prompt_cache_key
    return body


# ---------------------------------------------------------------- compacted output


def _image_block(url: str) -> Block:
    if url.startswith("data:") and ";base64," in url:
        head, data = url[5:].split(";base64,", 1)
        return {"type": "image", "source": {"type": "base64", "media_type": head or "image/png",
                                            "data": data}}
    return {"type": "image", "source": {"type": "url", "url": url}}


def _blocks_of_user_content(content: Any) -> list[Block]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}] if content else []
    blocks: list[Block] = []
    for part in content or []:
        kind = sdk_field(part, "type")
        if kind in ("input_text", "output_text"):
            text = str(sdk_field(part, "text") or "")
            if text:
                blocks.append({"type": "text", "text": text})
        elif kind == "input_image":
            url = sdk_field(part, "image_url")
            if url:  # an image by file id has no form in our blocks
                blocks.append(_image_block(str(url)))
    return blocks


def compacted_blocks(output: Iterable[Any]) -> list[Block]:
    """The compact endpoint's output ("a list of all user messages, followed by a single
    compaction item") as our blocks, in order; the compaction item's fields verbatim.

    The SDK types that output as output items, whose messages are the assistant's; the
    endpoint's user messages arrive in that shape with ``role: "user"`` and input parts, so
    they are read field by field, never through the SDK's model of an assistant message.
    """
    blocks: list[Block] = []
    for item in output:
        kind = sdk_field(item, "type")
        if kind == "message" and sdk_field(item, "role") == "user":
            blocks.extend(_blocks_of_user_content(sdk_field(item, "content")))
        elif kind == "compaction":
            block: Block = {
                "type": "compaction",
                ENCRYPTED_CONTENT: str(sdk_field(item, ENCRYPTED_CONTENT) or ""),
            }
            item_id = sdk_field(item, "id")
            if item_id:
                block["id"] = str(item_id)
            blocks.append(block)
    return blocks
