"""Validation of the content blocks a client sends as a prompt."""

from __future__ import annotations

from typing import Any

from sidecar.core.errors import InvalidParams
from sidecar.core.messages import Block


def prompt_blocks(prompt: Any) -> list[Block]:
    if not isinstance(prompt, list) or not prompt:
        raise InvalidParams("prompt must be a non-empty array of content blocks")
    out: list[Block] = []
    for i, block in enumerate(prompt):
        if not isinstance(block, dict) or not isinstance(block.get("type"), str):
            raise InvalidParams(f"prompt[{i}] must be a content block with a type")
        kind = block["type"]
        if kind == "text":
            if not isinstance(block.get("text"), str):
                raise InvalidParams(f"prompt[{i}].text must be a string")
            out.append({"type": "text", "text": block["text"]})
        elif kind == "resource_link":
            if not isinstance(block.get("uri"), str):
                raise InvalidParams(f"prompt[{i}].uri must be a string")
            out.append(dict(block))
        elif kind == "resource":
            res = block.get("resource")
            if not isinstance(res, dict) or not isinstance(res.get("text"), str):
                raise InvalidParams(f"prompt[{i}].resource.text must be a string")
            out.append(dict(block))
        elif kind == "image":
            if not isinstance(block.get("data"), str) or not isinstance(block.get("mimeType"), str):
                raise InvalidParams(f"prompt[{i}] image needs mimeType and data")
            out.append(dict(block))
        else:
            raise InvalidParams(f"prompt[{i}].type {kind!r} is not supported")
    return out
