"""An MCP ``CallToolResult`` as tool-result content: text, images and structured content
converted to the blocks a model reads, the text capped with a note (the session's
tool-result budget applies after this too)."""

from __future__ import annotations

import json
from typing import Any

from sidecar.core.conversation.messages import Block

# The image types every provider accepts in a tool result.
IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})


def convert(result: Any, max_chars: int) -> tuple[list[Block], bool]:
    """(content blocks, is_error) of a ``CallToolResult``."""
    blocks: list[Block] = []
    for item in result.content or []:
        kind = getattr(item, "type", None)
        if kind == "text":
            blocks.append({"type": "text", "text": item.text})
        elif kind == "image":
            mime = (item.mime_type or "").lower()
            if mime in IMAGE_TYPES:
                blocks.append({"type": "image", "source": {"type": "base64", "media_type": mime,
                                                           "data": item.data}})
            else:
                blocks.append({"type": "text", "text": f"[an image of type {mime or 'unknown'} "
                                                       "was returned and left out: unsupported type]"})
        elif kind == "audio":
            blocks.append({"type": "text", "text": f"[audio ({item.mime_type}) was returned and "
                                                   "left out: models here read no audio]"})
        elif kind == "resource":
            res = item.resource
            text = getattr(res, "text", None)
            if text is not None:
                blocks.append({"type": "text", "text": f"Resource {res.uri}:\n{text}"})
            else:
                blocks.append({"type": "text", "text": f"[binary resource {res.uri} "
                                                       f"({res.mime_type or 'unknown type'}) left out]"})
        elif kind == "resource_link":
            about = f": {item.description}" if item.description else ""
            blocks.append({"type": "text", "text": f"Resource link {item.name} <{item.uri}>{about}"})
    structured = getattr(result, "structured_content", None)
    if structured is not None and not any(b["type"] == "text" for b in blocks):
        blocks.append({"type": "text", "text": json.dumps(structured, ensure_ascii=False, indent=2)})
    if not blocks:
        blocks.append({"type": "text", "text": "(the tool returned no content)"})
    return _capped(blocks, max_chars), bool(result.is_error)


def _capped(blocks: list[Block], max_chars: int) -> list[Block]:
    total = sum(len(b["text"]) for b in blocks if b["type"] == "text")
    if total <= max_chars:
        return blocks
    out: list[Block] = []
    room = max_chars
    for block in blocks:
        if block["type"] != "text":
            out.append(block)
            continue
        text = block["text"]
        out.append({"type": "text", "text": text[:max(room, 0)]})
        room -= len(text)
    out = [b for b in out if b["type"] != "text" or b["text"]]
    out.append({"type": "text", "text": f"\n[output cut: {max_chars:,} of {total:,} characters "
                                        "shown (setting mcp.resultMaxChars)]"})
    return out
