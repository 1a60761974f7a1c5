"""Billed-token equivalents: usage weighted by what each kind of token costs.

Prices relative to one uncached input token, as Anthropic bills them: a cache write
costs 1.25 with the 5-minute TTL and 2 with the one-hour TTL, a cache read 0.1, and an output token the model's output/input
price ratio, which is 5 for every Claude model in the catalog (e.g. $3 in / $15 out for
Sonnet, $5 / $25 for Opus 4.5+). So "billed tokens" are input-token equivalents: multiply
by the model's input price to get dollars.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sidecar.core.conversation.messages import Usage
from sidecar.core.models import catalog

CACHE_WRITE_WEIGHT = catalog.CACHE_WRITE_5M
CACHE_WRITE_1H_WEIGHT = catalog.CACHE_WRITE_1H
CACHE_READ_WEIGHT = catalog.CACHE_READ
CLAUDE_OUTPUT_WEIGHT = 5.0


def output_weight(model: str | None, provider: str = "anthropic") -> float:
    """The model's output price over its input price (5 for Claude when unknown)."""
    info = catalog.lookup(model or "", provider) if model else None
    if info is None or not info.input_price or info.output_price is None:
        return CLAUDE_OUTPUT_WEIGHT
    return info.output_price / info.input_price


@dataclass
class Billed:
    """Summed usage of a series of calls, and its input-token equivalent."""

    calls: int = 0
    input_tokens: int = 0
    cache_write_tokens: int = 0
    cache_read_tokens: int = 0
    output_tokens: int = 0
    cache_write_1h_tokens: int = 0  # of cache_write_tokens, written with the one-hour TTL

    def add(self, usage: Usage) -> None:
        self.calls += 1
        self.input_tokens += usage.input_tokens
        self.cache_write_tokens += usage.cache_creation_input_tokens
        self.cache_write_1h_tokens += usage.cache_creation_1h_tokens
        self.cache_read_tokens += usage.cache_read_input_tokens
        self.output_tokens += usage.output_tokens

    def merge(self, other: Billed) -> None:
        self.calls += other.calls
        self.input_tokens += other.input_tokens
        self.cache_write_tokens += other.cache_write_tokens
        self.cache_write_1h_tokens += other.cache_write_1h_tokens
        self.cache_read_tokens += other.cache_read_tokens
        self.output_tokens += other.output_tokens

    def writes(self) -> float:
        """The cache writes in input-token equivalents, each at its TTL's weight."""
        return (CACHE_WRITE_WEIGHT * (self.cache_write_tokens - self.cache_write_1h_tokens)
                + CACHE_WRITE_1H_WEIGHT * self.cache_write_1h_tokens)

    def total(self, out_weight: float) -> float:
        return (
            self.input_tokens
            + self.writes()
            + CACHE_READ_WEIGHT * self.cache_read_tokens
            + out_weight * self.output_tokens
        )

    def to_json(self, out_weight: float) -> dict[str, Any]:
        return {
            "calls": self.calls,
            "inputTokens": self.input_tokens,
            "cacheWriteTokens": self.cache_write_tokens,
            "cacheWrite1hTokens": self.cache_write_1h_tokens,
            "cacheReadTokens": self.cache_read_tokens,
            "outputTokens": self.output_tokens,
            "billed": round(self.total(out_weight)),
        }


def excess(ours: Billed, recorded: Billed, out_weight: float) -> str:
    """Where ``ours`` bills more than ``recorded``, kind by kind, largest first: the
    explanation a session above its recording owes."""
    kinds = (  # (name, tokens more, billed more)
        ("cache writes", ours.cache_write_tokens - recorded.cache_write_tokens,
         ours.writes() - recorded.writes()),
        ("cache reads", ours.cache_read_tokens - recorded.cache_read_tokens,
         CACHE_READ_WEIGHT * (ours.cache_read_tokens - recorded.cache_read_tokens)),
        ("uncached input", ours.input_tokens - recorded.input_tokens,
         float(ours.input_tokens - recorded.input_tokens)),
        ("output", ours.output_tokens - recorded.output_tokens,
         out_weight * (ours.output_tokens - recorded.output_tokens)),
    )
    over = sorted(((billed, name, tokens) for name, tokens, billed in kinds if billed > 0),
                  reverse=True)
    return ", ".join(f"{name} +{tokens:,} tokens (+{billed:,.0f} billed)"
                     for billed, name, tokens in over) or "nothing"


def billed_of(usages: list[Usage]) -> Billed:
    out = Billed()
    for usage in usages:
        out.add(usage)
    return out


def weights_json(out_weight: float) -> dict[str, float]:
    return {
        "input": 1.0,
        "cacheWrite": CACHE_WRITE_WEIGHT,
        "cacheWrite1h": CACHE_WRITE_1H_WEIGHT,
        "cacheRead": CACHE_READ_WEIGHT,
        "output": out_weight,
    }


def price_scale(model: str | None, session_model: str | None) -> float:
    """``model``'s input price over the session model's (1 when either is unknown): what
    turns a subagent's billed tokens into the session model's input-token equivalents."""
    ours = catalog.lookup(model or "", "anthropic") if model else None
    base = catalog.lookup(session_model or "", "anthropic") if session_model else None
    if ours is None or base is None or not ours.input_price or not base.input_price:
        return 1.0
    return ours.input_price / base.input_price


@dataclass
class SubagentBill:
    """Both sides' subagent calls on one model, billed in the session model's input-token
    equivalents (the model's own weights, scaled by its price)."""

    model: str
    scale: float
    out_weight: float
    ours: Billed
    recorded: Billed

    def ours_total(self) -> float:
        return self.scale * self.ours.total(self.out_weight)

    def recorded_total(self) -> float:
        return self.scale * self.recorded.total(self.out_weight)

    def to_json(self) -> dict[str, Any]:
        return {"model": self.model, "priceScale": round(self.scale, 3),
                "ours": {**self.ours.to_json(self.out_weight), "billed": round(self.ours_total())},
                "recorded": {**self.recorded.to_json(self.out_weight),
                             "billed": round(self.recorded_total())}}
