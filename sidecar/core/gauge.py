"""The gauge: the one function every view of the context size uses.

The status bar, ``/context``, ``sidecar/gauge``, ``usage_update`` and the auto-compact
trigger all read this, so they never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sidecar.core.messages import Usage
from sidecar.core.tokens import TokenLedger
from sidecar.core.window import Thresholds


@dataclass(frozen=True, slots=True)
class BreakerState:
    enabled: bool
    open: bool
    consecutive_failures: int


def _breakdown(ledger: TokenLedger, used: int, thresholds: Thresholds) -> dict[str, int]:
    parts = {
        "system": float(ledger.prefix_tokens.get("system", 0)),
        "tools": float(ledger.prefix_tokens.get("tools", 0)),
        "memoryFiles": float(ledger.prefix_tokens.get("memoryFiles", 0)),
        "messages": ledger.by_category.get("messages", 0.0),
        "toolResults": ledger.by_category.get("toolResults", 0.0),
        "summary": ledger.by_category.get("summary", 0.0),
    }
    fixed = ("system", "tools", "memoryFiles")
    conversation = ("messages", "toolResults", "summary")
    prefix = sum(parts[k] for k in fixed)
    talk = sum(parts[k] for k in conversation)
    # The prefix is fixed text we estimated once; what the provider counted beyond it is
    # the conversation, so the conversation parts absorb the difference. Only when the
    # count is smaller than the prefix estimate does the prefix shrink too.
    if used >= prefix:
        out = {k: round(parts[k]) for k in fixed}
        rest = used - sum(out.values())
        scale = rest / talk if talk > 0 else 0.0
        out.update({k: round(parts[k] * scale) for k in conversation})
        if talk <= 0:
            out["messages"] = rest
    else:
        scale = used / prefix if prefix > 0 else 0.0
        out = {k: round(parts[k] * scale) for k in fixed}
        out.update({k: 0 for k in conversation})
    drift = used - sum(out.values())
    largest = max(conversation, key=lambda k: out[k]) if used >= prefix else max(fixed, key=lambda k: out[k])
    out[largest] += drift
    # Past the effective window the conversation eats into the output reservation, so the
    # reservation shrinks: used + reservedOutput + free stays equal to size.
    reserved = min(thresholds.size - thresholds.effective_window, max(thresholds.size - used, 0))
    out["reservedOutput"] = reserved
    out["free"] = max(thresholds.size - used - reserved, 0)
    return out


def build_gauge(
    *,
    session_id: str,
    seq: int,
    model: str,
    provider: str,
    ledger: TokenLedger,
    thresholds: Thresholds,
    breaker: BreakerState,
    compactions: dict[str, int],
    window_source: str = "",
    last_turn: Usage | None = None,
    cost_usd: float | None = None,
) -> dict[str, Any]:
    used = ledger.used()
    size = thresholds.size
    auto_at = thresholds.auto_compact_at if breaker.enabled else None
    left: float | None = None
    if auto_at is not None:
        left = round(max(auto_at - used, 0) / size * 100, 1)
    anchor = ledger.anchor
    return {
        "sessionId": session_id,
        "seq": seq,
        "model": model,
        "provider": provider,
        "used": used,
        "size": size,
        # Where the size came from: an override, the provider's models endpoint, the catalog.
        "windowSource": window_source or None,
        "effectiveWindow": thresholds.effective_window,
        "autoCompactAt": auto_at,
        "warningAt": thresholds.warning_at,
        "errorAt": thresholds.error_at,
        "blockingAt": thresholds.blocking_at,
        "percentUsed": round(used / size * 100, 1) if size else 0.0,
        "percentLeftUntilAutoCompact": left,
        "level": thresholds.level(used),
        "source": ledger.source,
        "estimator": ledger.counter.name,
        "anchor": {
            "apiTokens": anchor.api_tokens if anchor else 0,
            "estimatedSince": round(ledger.estimated_since) if anchor else used,
            "messagesSince": ledger.messages_since,
        },
        "breakdown": _breakdown(ledger, used, thresholds),
        "lastTurn": {
            "inputTokens": last_turn.input_tokens if last_turn else 0,
            "cacheReadTokens": last_turn.cache_read_input_tokens if last_turn else 0,
            "cacheWriteTokens": last_turn.cache_creation_input_tokens if last_turn else 0,
            "outputTokens": last_turn.output_tokens if last_turn else 0,
        },
        "cost": {"amount": round(cost_usd, 6), "currency": "USD"} if cost_usd is not None else None,
        "compactions": dict(compactions),
        "autoCompact": {
            "enabled": breaker.enabled,
            "circuitBreaker": "open" if breaker.open else "closed",
            "consecutiveFailures": breaker.consecutive_failures,
        },
    }
