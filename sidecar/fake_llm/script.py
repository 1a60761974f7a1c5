"""Scripted replies and recorded requests of the fake LLM server.

A ``Reply`` is written in Anthropic content-block form whichever wire serves it, and is
JSON-able both ways so that tests in other languages can queue the same scripts over HTTP.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from sidecar.core.turns.request_labels import CALL_HEADER

from .responses_input import content_text, input_items, message_role

Block = dict[str, Any]
Provider = Literal["anthropic", "openai"]

FAULT_KINDS = frozenset(
    {
        "rate_limit",
        "overloaded",
        "server_error",
        "invalid_request",
        "prompt_too_long",
        "cut_stream",
        "malformed_event",
        "hang",
        # A stream that never ends: its opening, then one text delta over and over until the
        # client goes away (or ``seconds`` pass); ``text`` is the delta, ``chunk_delay_ms``
        # the pause between two.
        "endless",
    }
)
STOP_REASONS = frozenset(
    {
        "end_turn",
        "max_tokens",
        "stop_sequence",
        "tool_use",
        "pause_turn",
        "refusal",
        "model_context_window_exceeded",
        "compaction",
    }
)
# Server tool blocks are written as the Messages API returns them, less what the wire mints:
# ``server_tool_use {id, name, input}``; ``web_search_tool_result {tool_use_id, content:
# [{title, url, page_age?}]}``; ``web_fetch_tool_result {tool_use_id, content: {url, text,
# title?}}``; and a text block's ``citations: [{url, title, cited_text}]`` (see
# ``web_search`` and ``web_fetch`` below). The Anthropic wire adds the encrypted fields; the
# Responses wire serves a search as a ``web_search_call`` item and citations as
# ``url_citation`` annotations (it has no fetch).
SERVER_BLOCK_TYPES = frozenset({"server_tool_use", "web_search_tool_result",
                                "web_fetch_tool_result"})
BLOCK_TYPES = frozenset({"text", "thinking", "redacted_thinking", "tool_use", "compaction",
                         # A search of the request's deferred tools (sidecar.fake_llm.tool_search),
                         # and the blocks the fake answers it with.
                         "tool_search", "tool_search_tool_result",
                         "tool_search_call", "tool_search_output"}) | SERVER_BLOCK_TYPES

DEFAULT_CHUNK_SIZE = 12


@dataclass
class Reply:
    """One scripted model turn, or one scripted failure (``fault``)."""

    content: list[Block] = field(default_factory=list)
    stop_reason: str | None = None
    chunk_size: int = DEFAULT_CHUNK_SIZE
    chunk_delay_ms: float = 0
    # Overrides merged over the computed usage (Anthropic field names; the OpenAI wire maps them).
    usage: dict[str, int] | None = None
    fault: dict[str, Any] | None = None
    model: str | None = None

    def __post_init__(self) -> None:
        for block in self.content:
            kind = block.get("type")
            if kind not in BLOCK_TYPES:
                raise ValueError(f"unsupported reply block type: {kind!r}")
        if self.stop_reason is not None and self.stop_reason not in STOP_REASONS:
            raise ValueError(f"unknown stop_reason: {self.stop_reason!r}")
        if self.fault is not None and self.fault.get("fault") not in FAULT_KINDS:
            raise ValueError(f"unknown fault: {self.fault!r}")
        if self.chunk_size < 1:
            raise ValueError("chunk_size must be at least 1")

    @classmethod
    def text(cls, text: str, **kwargs: Any) -> Reply:
        return cls(content=[{"type": "text", "text": text}], **kwargs)

    @classmethod
    def tool_use(
        cls, name: str, input: dict[str, Any], *, id: str = "toolu_01", text: str | None = None
    ) -> Reply:
        blocks: list[Block] = [{"type": "text", "text": text}] if text else []
        blocks.append({"type": "tool_use", "id": id, "name": name, "input": input})
        return cls(content=blocks)

    @classmethod
    def failure(cls, fault: str, **params: Any) -> Reply:
        return cls(fault={"fault": fault, **params})

    @property
    def effective_stop_reason(self) -> str:
        if self.stop_reason is not None:
            return self.stop_reason
        if any(block.get("type") == "tool_use" for block in self.content):
            return "tool_use"
        return "end_turn"

    def to_json(self) -> dict[str, Any]:
        if self.fault is not None:
            return dict(self.fault)
        data: dict[str, Any] = {"content": copy.deepcopy(self.content)}
        if self.stop_reason is not None:
            data["stop_reason"] = self.stop_reason
        if self.chunk_size != DEFAULT_CHUNK_SIZE:
            data["chunk_size"] = self.chunk_size
        if self.chunk_delay_ms:
            data["chunk_delay_ms"] = self.chunk_delay_ms
        if self.usage is not None:
            data["usage"] = dict(self.usage)
        if self.model is not None:
            data["model"] = self.model
        return data

    @classmethod
    def from_json(cls, data: Any) -> Reply:
        """Accept a Reply's JSON form; a fault is flat: ``{"fault": "hang", "seconds": 2}``."""
        if isinstance(data, Reply):
            return data
        if isinstance(data, str):
            return cls.text(data)
        if not isinstance(data, dict):
            raise TypeError(f"a reply must be an object, got {type(data).__name__}")
        if "fault" in data:
            return cls(fault=dict(data))
        content = data.get("content", [])
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        return cls(
            content=copy.deepcopy(list(content)),
            stop_reason=data.get("stop_reason"),
            chunk_size=int(data.get("chunk_size", DEFAULT_CHUNK_SIZE)),
            chunk_delay_ms=float(data.get("chunk_delay_ms", 0)),
            usage=dict(data["usage"]) if isinstance(data.get("usage"), dict) else None,
            model=data.get("model"),
        )


@dataclass
class RecordedRequest:
    """What one model call looked like on the wire, and what the fake answered."""

    path: str
    provider: Provider
    headers: dict[str, str]
    body: dict[str, Any]
    input_tokens: int = 0
    usage: dict[str, Any] | None = None
    time: float = field(default_factory=time.time)
    status: int = 200
    fault: str | None = None
    # Anthropic context-management edits the fake applied before counting.
    applied_edits: list[dict[str, Any]] = field(default_factory=list)
    # Why the fake refused the body as the real API would (None when it was accepted).
    refusal: str | None = None
    index: int = -1
    # An endless stream: the bytes written, and when it ended (the client went away, or
    # its time ran out).
    streamed_bytes: int = 0
    stream_ended: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "provider": self.provider,
            "headers": dict(self.headers),
            "body": self.body,
            "input_tokens": self.input_tokens,
            "usage": self.usage,
            "time": self.time,
            "status": self.status,
            "fault": self.fault,
            "applied_edits": self.applied_edits,
            "refusal": self.refusal,
            "index": self.index,
            "streamed_bytes": self.streamed_bytes,
            "stream_ended": self.stream_ended,
        }

    @property
    def call(self) -> str | None:
        """The kind of call the sidecar labelled this request (main, summary, memory, count);
        None for a client that does not label its requests."""
        return next((v for k, v in self.headers.items() if k.lower() == CALL_HEADER), None)

    @property
    def last_user_text(self) -> str:
        return last_user_text(self.body, self.provider)


def web_search(query: str, results: list[tuple[str, str]], *, id: str = "srvtoolu_01",
               page_age: str | None = "2 days ago") -> list[Block]:
    """A server web search and its results (title, url), as reply blocks."""
    found: list[Block] = [{"title": title, "url": url, **({"page_age": page_age} if page_age
                                                          else {})} for title, url in results]
    return [{"type": "server_tool_use", "id": id, "name": "web_search", "input": {"query": query}},
            {"type": "web_search_tool_result", "tool_use_id": id, "content": found}]


def web_fetch(url: str, text: str, *, title: str | None = None,
              id: str = "srvtoolu_02") -> list[Block]:
    """A server web fetch of ``url`` and the page's text, as reply blocks."""
    page: Block = {"url": url, "text": text, **({"title": title} if title else {})}
    return [{"type": "server_tool_use", "id": id, "name": "web_fetch", "input": {"url": url}},
            {"type": "web_fetch_tool_result", "tool_use_id": id, "content": page}]


def cited(text: str, *sources: tuple[str, str, str]) -> Block:
    """A text block citing web pages: each source is (url, title, cited_text)."""
    return {"type": "text", "text": text,
            "citations": [{"url": u, "title": t, "cited_text": c} for u, t, c in sources]}


Responder = Callable[[RecordedRequest], Reply | dict[str, Any] | str]


def _anthropic_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    parts: list[str] = []
    for part in content:
        if isinstance(part, dict) and part.get("type") == "text":
            parts.append(str(part.get("text", "")))
    return "\n".join(parts)


def _conversation(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The request's messages; on the Responses wire, its message items (which carry a role)."""
    if "input" in body and "messages" not in body:
        return [item for item in input_items(body) if message_role(item) is not None]
    return [m for m in body.get("messages") or [] if isinstance(m, dict)]


def _text_of(content: Any) -> str:
    if isinstance(content, list) and any(
            isinstance(p, dict) and p.get("type") in ("input_text", "output_text") for p in content):
        return content_text(content)
    return _anthropic_text(content)


def last_user_text(body: dict[str, Any], provider: Provider) -> str:
    """The text of the newest user message that carries text (tool results alone do not count)."""
    for message in reversed(_conversation(body)):
        if not isinstance(message, dict) or message.get("role") != "user":
            continue
        text = _text_of(message.get("content"))
        if text:
            return text
    return ""


def default_reply(request: RecordedRequest) -> Reply:
    """What the fake says when nothing is queued: a summary for compaction prompts, else an echo.

    Deterministic so that tests and the demo can assert on it without scripting every turn.
    """
    messages = _conversation(request.body)
    count = len(messages)
    text = request.last_user_text
    if "<summary>" in text or isinstance(request.body.get("compaction"), dict):
        first_user = ""
        for message in messages:
            if isinstance(message, dict) and message.get("role") == "user":
                first_user = _text_of(message.get("content")).strip()
                if first_user:
                    break
        topic = " ".join(first_user.split()[:12]) or "(no user text)"
        # As a model would: the scratchpad and tags only when the prompt asks for them.
        compaction = request.body.get("compaction")
        asked = str(compaction.get("instructions") or "") if isinstance(compaction, dict) else text
        analysis = ("<analysis>\n"
                    f"Reviewed {count} messages in order.\n"
                    "</analysis>\n") if "<analysis>" in asked else ""
        tagged = "<summary>" in asked
        return Reply.text(
            analysis + ("<summary>\n" if tagged else "")
            + f"1. Primary Request and Intent: {topic}\n"
            f"2. Key Technical Concepts: conversation of {count} messages.\n"
            "3. Files and Code Sections: none recorded.\n"
            "4. Errors and fixes: none.\n"
            "5. Problem Solving: in progress.\n"
            "6. All user messages: summarized above.\n"
            "7. Pending Tasks: none.\n"
            f"8. Current Work: summarized {count} messages.\n"
            "9. Optional Next Step: continue with the latest request."
            + ("\n</summary>" if tagged else "")
        )
    snippet = " ".join(text.split())
    if len(snippet) > 200:
        snippet = snippet[:200] + "..."
    return Reply.text(f"Echo: {snippet}" if snippet else "Echo: (no text)")
