"""The figures of one run, taken from what its fake LLM server recorded and served.

Every Messages request the fake recorded for the client counts: the conversation's own
turns, compaction summaries, session-notes updates and side calls alike, since all of them
are billed. The weights are Anthropic's relative prices (``sidecar.replay.billing``): an
uncached input token 1, a cache write 1.25 (2 with the one-hour TTL), a cache read 0.1,
an output token 5. A call on another model than the conversation's (a cheaper one for
summaries, say) is billed at its price, in the conversation model's input-token equivalents.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from sidecar.core.conversation.messages import Usage
from sidecar.core.turns.request_labels import CALL_HEADER
from sidecar.fake_llm import FakeLLMServer, RecordedRequest
from sidecar.fake_llm.counting import anthropic_units
from sidecar.replay.billing import (
    CACHE_READ_WEIGHT,
    CACHE_WRITE_1H_WEIGHT,
    CACHE_WRITE_WEIGHT,
    CLAUDE_OUTPUT_WEIGHT,
    Billed,
    price_scale,
)
from tests.bench.peer.agent import is_side_call, is_summary_request

MESSAGES_PATH = "/v1/messages"
COUNT_PATH = "/v1/messages/count_tokens"
KINDS = ("main", "compaction", "memory", "side")


@dataclass
class Tokens:
    """Usage summed over some requests."""

    input: int = 0
    cache_write: int = 0
    cache_read: int = 0
    output: int = 0
    cache_write_1h: int = 0  # of cache_write, with the one-hour TTL
    billed: float = 0.0  # each call's tokens at its model's price

    def add(self, usage: dict[str, Any], scale: float = 1.0) -> None:
        parsed = Usage.from_json(usage) or Usage()
        self.input += parsed.input_tokens
        self.cache_write += parsed.cache_creation_input_tokens
        self.cache_read += parsed.cache_read_input_tokens
        self.output += parsed.output_tokens
        self.cache_write_1h += parsed.cache_creation_1h_tokens
        self.billed += scale * Billed(
            input_tokens=parsed.input_tokens, cache_write_tokens=parsed.cache_creation_input_tokens,
            cache_read_tokens=parsed.cache_read_input_tokens, output_tokens=parsed.output_tokens,
            cache_write_1h_tokens=parsed.cache_creation_1h_tokens).total(CLAUDE_OUTPUT_WEIGHT)

    def to_json(self) -> dict[str, Any]:
        return {**self.__dict__, "billed": round(self.billed)}


@dataclass
class Figures:
    requests: int = 0  # Messages requests the fake recorded, answered or not
    answered: int = 0  # of which it answered with a model reply
    too_long: int = 0  # refused as longer than the window ("prompt is too long")
    other_errors: int = 0  # any other non-200 status
    count_calls: int = 0  # count_tokens requests (free on the real API, not billed)
    compactions: int = 0  # compaction summary requests the fake answered
    compactions_refused: int = 0  # compaction summary requests it refused (e.g. too long)
    memory_calls: int = 0  # session-notes updates (the sidecar's tier 3 keeps notes current)
    side_calls: int = 0  # one-shot calls with no tools
    total: Tokens = field(default_factory=Tokens)
    by_kind: dict[str, Tokens] = field(default_factory=lambda: {k: Tokens() for k in KINDS})
    peak_context: int = 0  # largest input + cache write + cache read of an answered request
    largest_request: int = 0  # largest input the fake counted, refused requests included
    checked: int = 0
    refused: int = 0
    violations: list[str] = field(default_factory=list)
    blocking: int = 0  # violations of rule "blocking": a sidecar request past its limit
    # Of the bill, what the client's own system prompt and tool definitions cost.
    prompt_overhead: float = 0.0
    # Reads of a file after an earlier Read result of it was cleared (see rereads_on_wire).
    rereads: int = 0

    @property
    def billed(self) -> float:
        return self.total.billed

    @property
    def conversation_only(self) -> float:
        """The bill without the system prompt and the tool definitions: what a client
        sending the same messages with no prompt of its own would have paid."""
        return self.billed - self.prompt_overhead

    def to_json(self) -> dict[str, Any]:
        data = {k: v for k, v in self.__dict__.items() if k not in ("total", "by_kind")}
        data["prompt_overhead"] = round(self.prompt_overhead)
        return {**data, "billed": round(self.billed), "tokens": self.total.to_json(),
                "byKind": {k: v.to_json() for k, v in self.by_kind.items()}}


def _header(request: RecordedRequest, name: str) -> str | None:
    return next((v for k, v in request.headers.items() if k.lower() == name), None)


def kind_of(request: RecordedRequest) -> str:
    """main, compaction, memory or side. The sidecar labels its forked calls with a header,
    which tells its compaction summaries from its session-notes updates; Claude Code's
    requests carry no label and are told apart by their prompt, as the agent does."""
    label = _header(request, CALL_HEADER)
    if label == "memory":
        return "memory"
    if label == "summary" or is_summary_request(request.body):
        return "compaction"
    if is_side_call(request.body):
        return "side"
    return "main"


def prompt_overhead(body: dict[str, Any], usage: dict[str, Any]) -> float:
    """What one request's system prompt and tool definitions were billed.

    They lead the prompt, in the fake's cache order tools, system, messages, so the cache
    read covers them first; what the read leaves was written (with the one-hour TTL when
    their breakpoint had it), and the rest was uncached input. Counted with the fake's
    own units, so the figure is the one the fake billed."""
    lead = len(body.get("tools") or [])
    system = body.get("system")
    lead += len(system) if isinstance(system, list) else 1 if system else 0
    units = anthropic_units(body)[:lead]
    tokens = sum(u.total for u in units)
    parsed = Usage.from_json(usage) or Usage()
    read = min(parsed.cache_read_input_tokens, tokens)
    written = min(parsed.cache_creation_input_tokens, tokens - read)
    hour = any(u.breakpoint_ttl == 3600.0 for u in units)
    write_weight = CACHE_WRITE_1H_WEIGHT if hour else CACHE_WRITE_WEIGHT
    return (CACHE_READ_WEIGHT * read + write_weight * written
            + (tokens - read - written))


def _result_sizes(message: dict[str, Any]) -> dict[str, int]:
    content = message.get("content")
    out: dict[str, int] = {}
    for block in content if isinstance(content, list) else []:
        if isinstance(block, dict) and block.get("type") == "tool_result":
            inner = block.get("content")
            out[str(block.get("tool_use_id"))] = len(json.dumps(inner))
    return out


def rereads_on_wire(bodies: list[dict[str, Any]]) -> int:
    """Reads of a file sent after an earlier Read result of the same file was cleared, told
    from the requests alone, so either client is measured alike: a result is cleared from
    the first request where it is under a quarter of the size it was sent with."""
    largest: dict[str, int] = {}
    cleared_at: dict[str, int] = {}
    first_seen: dict[str, int] = {}
    reads: dict[str, str] = {}  # Read tool_use id -> its file
    for index, body in enumerate(bodies):
        for message in body.get("messages") or []:
            if not isinstance(message, dict):
                continue
            content = message.get("content")
            for block in content if isinstance(content, list) else []:
                if isinstance(block, dict) and block.get("type") == "tool_use" \
                        and block.get("name") == "Read" and isinstance(block.get("input"), dict):
                    tid = str(block.get("id"))
                    reads.setdefault(tid, str(block["input"].get("file_path")))
                    first_seen.setdefault(tid, index)
            for tid, size in _result_sizes(message).items():
                largest[tid] = max(largest.get(tid, 0), size)
                if size * 4 < largest[tid]:
                    cleared_at.setdefault(tid, index)
    count = 0
    for tid, path in reads.items():
        earlier = [t for t, p in reads.items() if p == path and first_seen[t] < first_seen[tid]]
        if any(cleared_at.get(t, len(bodies)) <= first_seen[tid] for t in earlier):
            count += 1
    return count


def _base_model(model: object) -> str | None:
    """A model id without the client's long-context suffix (``[1m]``)."""
    return str(model).split("[", 1)[0] if model else None


def figures_of(srv: FakeLLMServer) -> Figures:
    out = Figures()
    main_bodies: list[dict[str, Any]] = []
    requests = list(srv.requests)
    conversation_model = next((str(r.body.get("model")) for r in requests
                               if r.path == MESSAGES_PATH and kind_of(r) == "main"), None)
    for request in requests:
        if request.path == COUNT_PATH:
            out.count_calls += 1
            continue
        if request.path != MESSAGES_PATH:
            continue
        out.requests += 1
        out.largest_request = max(out.largest_request, request.input_tokens)
        kind = kind_of(request)
        if kind == "main":
            main_bodies.append(request.body)
        usage = request.usage
        if kind == "compaction":
            if usage is not None:
                out.compactions += 1
            else:
                out.compactions_refused += 1
        out.memory_calls += kind == "memory"
        out.side_calls += kind == "side"
        if request.fault == "prompt_too_long":
            out.too_long += 1
        elif request.status != 200:
            out.other_errors += 1
        if usage is None:
            continue
        out.answered += 1
        scale = price_scale(_base_model(request.body.get("model")), _base_model(conversation_model))
        out.total.add(usage, scale)
        out.by_kind[kind].add(usage, scale)
        out.prompt_overhead += scale * prompt_overhead(request.body, usage)
        context = sum(int(usage.get(k) or 0) for k in (
            "input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"))
        out.peak_context = max(out.peak_context, context)
    out.rereads = rereads_on_wire(main_bodies)
    out.checked = srv.checker.checked
    out.refused = srv.checker.refused
    found = srv.violations
    out.violations = [str(v) for v in found]
    out.blocking = sum(1 for v in found if v.rule == "blocking")
    return out
