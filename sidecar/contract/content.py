"""Content blocks: what a prompt is made of (docs/protocol.md, ContentBlock)."""


from typing import Any, Literal, TypedDict, Union

from sidecar.contract.decoding import Kind, Refused


class TextBlock(TypedDict):
    type: Literal["text"]
    text: str


class _ResourceLinkRequired(TypedDict):
    type: Literal["resource_link"]
    uri: str


class ResourceLinkBlock(_ResourceLinkRequired, total=False):
    """A file the sidecar reads with its file tool, recording read state."""

    name: str


class EmbeddedText(TypedDict):
    uri: str
    text: str


class ResourceBlock(TypedDict):
    """Embedded text, a selection say."""

    type: Literal["resource"]
    resource: EmbeddedText


class ImageBlock(TypedDict):
    type: Literal["image"]
    mimeType: str
    data: str


ContentBlock = Union[TextBlock, ResourceLinkBlock, ResourceBlock, ImageBlock]


def text_block(text: str) -> TextBlock:
    return {"type": "text", "text": text}


def _prompt_blocks(prompt: Any) -> list[ContentBlock]:
    """The blocks of a prompt; a text block keeps only its text, the others are copied."""
    if not isinstance(prompt, list) or not prompt:
        raise Refused("prompt must be a non-empty array of content blocks")
    out: list[Any] = []
    for i, block in enumerate(prompt):
        if not isinstance(block, dict) or not isinstance(block.get("type"), str):
            raise Refused(f"prompt[{i}] must be a content block with a type")
        kind = block["type"]
        if kind == "text":
            if not isinstance(block.get("text"), str):
                raise Refused(f"prompt[{i}].text must be a string")
            out.append(text_block(block["text"]))
        elif kind == "resource_link":
            if not isinstance(block.get("uri"), str):
                raise Refused(f"prompt[{i}].uri must be a string")
            out.append(dict(block))
        elif kind == "resource":
            res = block.get("resource")
            if not isinstance(res, dict) or not isinstance(res.get("text"), str):
                raise Refused(f"prompt[{i}].resource.text must be a string")
            out.append(dict(block))
        elif kind == "image":
            if not isinstance(block.get("data"), str) or not isinstance(block.get("mimeType"), str):
                raise Refused(f"prompt[{i}] image needs mimeType and data")
            out.append(dict(block))
        else:
            raise Refused(f"prompt[{i}].type {kind!r} is not supported")
    return out


PROMPT: Kind[list[ContentBlock]] = Kind("a non-empty array of content blocks", _prompt_blocks)
