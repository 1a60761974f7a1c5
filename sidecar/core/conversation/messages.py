"""The message model: Claude Code style records holding Anthropic-style content blocks.

Content blocks stay plain JSON dicts (``{"type": "text", "text": ...}``) because that is
their canonical form on the wire, in transcripts and in both providers' adapters; the
record around them is typed.
"""

from __future__ import annotations

import uuid as uuidlib
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from typing import Any, Literal

Block = dict[str, Any]
Kind = Literal["user", "assistant", "system", "attachment", "hook_result", "progress"]

SYNTHETIC_MODEL = "<synthetic>"
CLEARED_TOOL_RESULT = "[Old tool result content cleared]"
MISSING_TOOL_RESULT = "[Tool result missing due to internal error]"
INTERRUPTED_MARK = "[Response interrupted]"
NO_CONTENT = "(no content)"


def new_uuid() -> str:
    return str(uuidlib.uuid4())


def iso_at(seconds: float) -> str:
    """A record's timestamp for a moment given as seconds since the epoch."""
    moment = datetime.fromtimestamp(seconds, timezone.utc)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def now_iso() -> str:
    return iso_at(datetime.now(timezone.utc).timestamp())


@dataclass(frozen=True, slots=True)
class Usage:
    """Token usage of one API response, normalized across providers."""

    input_tokens: int = 0
    cache_creation_input_tokens: int = 0
    cache_read_input_tokens: int = 0
    output_tokens: int = 0
    # Of the cache writes, those with the one-hour TTL (Anthropic's
    # cache_creation.ephemeral_1h_input_tokens): billed at twice an input token, not 1.25.
    cache_creation_1h_tokens: int = 0
    # Searches the provider ran itself (Anthropic's usage.server_tool_use), priced apart.
    web_search_requests: int = 0

    @property
    def context_tokens(self) -> int:
        """Tokens the response occupied in the window: the whole prompt plus the answer."""
        return (
            self.input_tokens
            + self.cache_creation_input_tokens
            + self.cache_read_input_tokens
            + self.output_tokens
        )

    @property
    def prompt_tokens(self) -> int:
        return self.input_tokens + self.cache_creation_input_tokens + self.cache_read_input_tokens

    def is_zero(self) -> bool:
        return self.context_tokens == 0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "input_tokens": self.input_tokens,
            "cache_creation_input_tokens": self.cache_creation_input_tokens,
            "cache_read_input_tokens": self.cache_read_input_tokens,
            "output_tokens": self.output_tokens,
        }
        if self.cache_creation_1h_tokens:
            out["cache_creation"] = {
                "ephemeral_5m_input_tokens":
                    self.cache_creation_input_tokens - self.cache_creation_1h_tokens,
                "ephemeral_1h_input_tokens": self.cache_creation_1h_tokens,
            }
        if self.web_search_requests:
            out["server_tool_use"] = {"web_search_requests": self.web_search_requests}
        return out

    @classmethod
    def from_json(cls, data: Any) -> Usage | None:
        if not isinstance(data, dict):
            return None

        def num(key: str, source: Any = data) -> int:
            value = source.get(key) if isinstance(source, dict) else None
            return int(value) if isinstance(value, (int, float)) and value > 0 else 0

        written = num("cache_creation_input_tokens")
        return cls(
            input_tokens=num("input_tokens"),
            cache_creation_input_tokens=written,
            cache_read_input_tokens=num("cache_read_input_tokens"),
            output_tokens=num("output_tokens"),
            cache_creation_1h_tokens=min(
                written, num("ephemeral_1h_input_tokens", data.get("cache_creation"))),
            web_search_requests=num("web_search_requests", data.get("server_tool_use")),
        )


@dataclass(slots=True)
class Message:
    """One conversation record.

    ``kind`` follows the seed's message types. ``message_id`` is the provider's response id
    on assistant records (several records can share one, as Claude Code splits a response
    per block). ``usage`` is present on assistant records that came from a real API call.
    """

    kind: Kind
    content: list[Block]
    uuid: str = field(default_factory=new_uuid)
    parent_uuid: str | None = None
    timestamp: str = field(default_factory=now_iso)
    message_id: str | None = None
    model: str | None = None
    usage: Usage | None = None
    stop_reason: str | None = None
    is_meta: bool = False
    is_virtual: bool = False
    is_compact_summary: bool = False
    is_api_error: bool = False
    subtype: str | None = None  # system records: compact_boundary, local_command, ...
    attachment: dict[str, Any] | None = None  # attachment records: {"type": ..., ...}
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def role(self) -> Literal["user", "assistant"]:
        return "assistant" if self.kind == "assistant" else "user"

    @property
    def is_synthetic(self) -> bool:
        return self.model == SYNTHETIC_MODEL

    def with_content(self, content: list[Block]) -> Message:
        return replace(self, content=content)

    def text(self) -> str:
        return "".join(b.get("text", "") for b in self.content if b.get("type") == "text")

    def tool_uses(self) -> list[Block]:
        return [b for b in self.content if b.get("type") == "tool_use"]

    def tool_results(self) -> list[Block]:
        return [b for b in self.content if b.get("type") == "tool_result"]


def as_blocks(content: Any) -> list[Block]:
    """Content as a block list: strings become one text block, junk is dropped."""
    if isinstance(content, str):
        return [{"type": "text", "text": content}] if content else []
    if isinstance(content, list):
        out: list[Block] = []
        for item in content:
            if isinstance(item, str):
                out.append({"type": "text", "text": item})
            elif isinstance(item, dict) and isinstance(item.get("type"), str):
                out.append(item)
        return out
    return []


def user_text(text: str, **kw: Any) -> Message:
    return Message(kind="user", content=[{"type": "text", "text": text}], **kw)


def tool_result_block(tool_use_id: str, content: str | list[Block], is_error: bool = False) -> Block:
    block: Block = {"type": "tool_result", "tool_use_id": tool_use_id, "content": content}
    if is_error:
        block["is_error"] = True
    return block


@dataclass(frozen=True, slots=True)
class ApiMessage:
    """A message as sent to a provider: role and Anthropic-style blocks."""

    role: Literal["user", "assistant"]
    content: list[Block]

    def to_json(self) -> dict[str, Any]:
        return {"role": self.role, "content": self.content}


def is_compact_boundary(message: Message) -> bool:
    """A compaction's or a /clear's boundary: the model sees nothing before the last one."""
    return message.kind == "system" and message.subtype == "compact_boundary"


def answered_calls(records: list[Message]) -> list[Message]:
    """The records of real model answers, with the usage the provider reported."""
    return [m for m in records if m.kind == "assistant" and m.usage is not None
            and not m.is_api_error and not m.is_synthetic]


def json_object(value: Any) -> dict[str, Any]:
    """``value`` when it is a JSON object, else an empty one (tool inputs, notification
    params: anything the other side may have sent malformed)."""
    return value if isinstance(value, dict) else {}


def since_clear(records: list[Message]) -> list[Message]:
    """The records after the last /clear: a cleared conversation carries nothing over."""
    for i in range(len(records) - 1, -1, -1):
        m = records[i]
        if m.kind == "system" and m.subtype == "compact_boundary" and \
                (m.extra.get("compactMetadata") or {}).get("trigger") == "clear":
            return records[i + 1:]
    return records
