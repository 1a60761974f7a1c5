"""The gauge: the one function every view of the context size uses.

The status bar, ``/context``, ``sidecar/gauge``, ``usage_update`` and the auto-compact
trigger all read this, so they never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from sidecar.contract.results import Breakdown, DeferredTools, Gauge
from sidecar.core.accounting.tokens import TokenLedger
from sidecar.core.accounting.window import Thresholds
from sidecar.core.conversation.messages import Usage


@dataclass(frozen=True, slots=True)
class BreakerState:
    enabled: bool
    open: bool
    consecutive_failures: int


def _breakdown(ledger: TokenLedger, used: int, thresholds: Thresholds) -> Breakdown:
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
    return Breakdown(system=out["system"], tools=out["tools"], memoryFiles=out["memoryFiles"],
                     messages=out["messages"], toolResults=out["toolResults"],
                     summary=out["summary"], free=out["free"], reservedOutput=out["reservedOutput"])


Stage = Literal["normal", "warning", "error", "blocking"]

# The presentation ramp (``stage``), as fractions of the point the context must stay under:
# the auto-compact point while auto-compact can run, else the blocking limit.
WARNING_FRACTION = 0.6
ERROR_FRACTION = 0.9


def _tokens(n: int) -> str:
    """167000 -> "167K", 1000000 -> "1M", 950 -> "950"."""
    if n >= 1_000_000 and n % 100_000 == 0:
        return f"{n / 1_000_000:g}M"
    if n >= 10_000:
        return f"{round(n / 1000)}K"
    if n >= 1000:
        return f"{n / 1000:.1f}K"
    return str(n)


def stage_of(used: int, thresholds: Thresholds, breaker: BreakerState) -> Stage:
    """How alarmed a client should look, unlike ``level`` (the seed's thresholds, whose
    default buffers put warning and error at the same point, long before anything happens):

    - ``blocking`` at the blocking limit, where requests are refused;
    - ``error`` from 90% of the way to the point the context must stay under: the auto-compact
      point while auto-compact can run (it is about to summarize), else the blocking limit;
    - ``warning`` from 60% of the way to that point;
    - ``normal`` below.
    """
    if used >= thresholds.blocking_at:
        return "blocking"
    target = _target(thresholds, breaker)
    if used >= target * ERROR_FRACTION:
        return "error"
    if used >= target * WARNING_FRACTION:
        return "warning"
    return "normal"


def _target(thresholds: Thresholds, breaker: BreakerState) -> int:
    auto = thresholds.auto_compact_at
    if breaker.enabled and not breaker.open and auto is not None:
        return auto
    return thresholds.blocking_at


def next_step(used: int, thresholds: Thresholds, breaker: BreakerState) -> str:
    """What will happen as the context grows, and what the user can do, in plain words."""
    auto = thresholds.auto_compact_at
    blocking = thresholds.blocking_at
    if breaker.enabled and not breaker.open and auto is not None:
        if used >= auto:
            return "Auto-compact runs before the next request: older turns will be summarized"
        return (f"Auto-compact at {_tokens(auto)} (in {_tokens(auto - used)} tokens): "
                "older turns will be summarized")
    if used >= blocking:
        return "The context is full: requests are refused until you run /compact or /clear"
    room = f"requests are refused at {_tokens(blocking)} (in {_tokens(blocking - used)} tokens)"
    if breaker.enabled and breaker.open:
        return (f"Auto-compact is off after {breaker.consecutive_failures} failed compactions: "
                f"run /compact or /clear; {room}")
    return f"Auto-compact is off: run /compact or /clear before the context fills; {room}"


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
    deferred_tools: DeferredTools | None = None,
) -> Gauge:
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
        "stage": stage_of(used, thresholds, breaker),
        "next": next_step(used, thresholds, breaker),
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
        "deferredTools": deferred_tools,
    }
