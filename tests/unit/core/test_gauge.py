"""The gauge payload: fields, levels and a breakdown that adds up."""

from __future__ import annotations

import dataclasses
import json

import pytest

from sidecar.core.accounting.gauge import BreakerState, build_gauge
from sidecar.core.accounting.tokens import SeedBytes, TokenLedger
from sidecar.core.accounting.window import Thresholds, Window, compute_thresholds, resolve_window
from sidecar.core.conversation.messages import Usage
from sidecar.core.settings import AutoCompact, Settings
from tests.unit.core.core_builders import assistant, result, text, tool_use, user

PROTOCOL_FIELDS = {
    "sessionId", "seq", "model", "provider", "used", "size", "effectiveWindow", "autoCompactAt",
    "warningAt", "errorAt", "blockingAt", "percentUsed", "percentLeftUntilAutoCompact", "level",
    "stage", "next", "source", "anchor", "breakdown", "lastTurn", "cost", "compactions", "autoCompact",
    "deferredTools",
}
BREAKDOWN_FIELDS = {"system", "tools", "memoryFiles", "messages", "toolResults", "summary",
                    "free", "reservedOutput"}
ON = BreakerState(enabled=True, open=False, consecutive_failures=0)
OFF = BreakerState(enabled=False, open=False, consecutive_failures=0)


def sonnet(settings: Settings = Settings()) -> Thresholds:
    """The seed's worked example: a 200K window (Haiku 4.5 is the current 200K model)."""
    return compute_thresholds(resolve_window("claude-haiku-4-5", "anthropic", settings), settings)


def gauge(ledger: TokenLedger, thresholds: Thresholds | None = None, breaker: BreakerState = ON,
          **kw) -> dict:
    return build_gauge(
        session_id="s1", seq=kw.pop("seq", 1), model="claude-haiku-4-5", provider="anthropic",
        ledger=ledger, thresholds=thresholds or sonnet(), breaker=breaker,
        compactions=kw.pop("compactions", {}), window_source=kw.pop("window_source", "model catalog"),
        **kw,
    )


def anchored_ledger(context: int, prefix: dict[str, int] | None = None) -> TokenLedger:
    """A ledger whose last response reported ``context`` tokens, with a little history."""
    ledger = TokenLedger(SeedBytes(), prefix_tokens=prefix or {"system": 3_000, "tools": 12_000})
    ledger.append(user(text("q" * 4_000)))
    ledger.append(assistant(tool_use("t1"), mid="m1",
                            usage=Usage(3, 1_000, context - 1_003 - 100, 100)))
    return ledger


def assert_breakdown_adds_up(g: dict) -> None:
    b = g["breakdown"]
    assert set(b) == BREAKDOWN_FIELDS
    assert all(isinstance(v, int) and v >= 0 for v in b.values())
    parts = sum(v for k, v in b.items() if k not in ("free", "reservedOutput"))
    assert parts == g["used"]
    if g["used"] < g["size"]:
        assert g["used"] + b["reservedOutput"] + b["free"] == g["size"]


def test_fields_and_camel_case_keys() -> None:
    ledger = anchored_ledger(50_000)
    ledger.append(user(result("t1", "r" * 8_000)))
    g = gauge(ledger, seq=7, last_turn=Usage(3, 1_000, 48_897, 100), cost_usd=0.1234567,
              compactions={"full": 1})
    assert PROTOCOL_FIELDS <= set(g) and set(g) - PROTOCOL_FIELDS <= {"estimator", "windowSource"}
    assert json.loads(json.dumps(g)) == g  # plain JSON, nothing exotic
    assert (g["sessionId"], g["seq"], g["model"], g["provider"]) == (
        "s1", 7, "claude-haiku-4-5", "anthropic")
    assert g["windowSource"] == "model catalog"
    assert g["used"] == 50_000 + 2_000
    assert (g["size"], g["effectiveWindow"], g["autoCompactAt"]) == (200_000, 180_000, 167_000)
    assert (g["warningAt"], g["errorAt"], g["blockingAt"]) == (147_000, 147_000, 177_000)
    assert g["percentUsed"] == 26.0
    assert g["percentLeftUntilAutoCompact"] == round((167_000 - 52_000) / 200_000 * 100, 1)
    assert g["level"] == "ok"
    assert g["stage"] == "normal"  # 52K of a 167K auto-compact point: under 60% of the way
    assert g["next"] == "Auto-compact at 167K (in 115K tokens): older turns will be summarized"
    assert g["source"] == "provider"
    assert g["estimator"] == "bytes4"
    assert g["anchor"] == {"apiTokens": 50_000, "estimatedSince": 2_000, "messagesSince": 1}
    assert g["lastTurn"] == {"inputTokens": 3, "cacheReadTokens": 48_897,
                             "cacheWriteTokens": 1_000, "outputTokens": 100}
    assert g["cost"] == {"amount": 0.123457, "currency": "USD"}
    assert g["compactions"] == {"full": 1}
    assert g["autoCompact"] == {"enabled": True, "circuitBreaker": "closed",
                                "consecutiveFailures": 0}
    assert_breakdown_adds_up(g)
    assert g["breakdown"]["reservedOutput"] == 20_000
    assert g["breakdown"]["system"] > 0 and g["breakdown"]["tools"] > g["breakdown"]["system"]


def test_defaults_for_a_fresh_session() -> None:
    g = gauge(TokenLedger(SeedBytes()))
    assert g["used"] == 0 and g["level"] == "ok" and g["source"] == "estimate"
    assert g["cost"] is None
    assert g["lastTurn"] == {"inputTokens": 0, "cacheReadTokens": 0, "cacheWriteTokens": 0,
                             "outputTokens": 0}
    assert g["anchor"] == {"apiTokens": 0, "estimatedSince": 0, "messagesSince": 0}
    assert g["breakdown"]["free"] == 180_000
    assert_breakdown_adds_up(g)


def test_source_is_estimate_without_an_anchor() -> None:
    ledger = TokenLedger(SeedBytes(), prefix_tokens={"system": 1_000})
    ledger.append(user(text("x" * 4_000)))
    g = gauge(ledger)
    assert g["source"] == "estimate" and g["used"] == 2_000
    assert g["anchor"] == {"apiTokens": 0, "estimatedSince": 2_000, "messagesSince": 1}
    assert_breakdown_adds_up(g)


@pytest.mark.parametrize("context, level", [
    (100_000, "ok"), (146_999, "ok"), (147_000, "error"), (170_000, "error"),
    (177_000, "blocking"), (199_000, "blocking"),
])
def test_level_follows_the_thresholds(context: int, level: str) -> None:
    g = gauge(anchored_ledger(context))
    assert g["used"] == context and g["level"] == level
    assert_breakdown_adds_up(g)


def test_levels_with_separate_warning_and_error() -> None:
    settings = dataclasses.replace(Settings(), warningBufferTokens=30_000, errorBufferTokens=10_000)
    t = sonnet(settings)
    assert gauge(anchored_ledger(140_000), t)["level"] == "warning"
    assert gauge(anchored_ledger(160_000), t)["level"] == "error"


@pytest.mark.parametrize("used", [0, 1, 50_000, 179_999, 180_000, 185_000, 199_999])
def test_breakdown_sums_to_size_below_the_window(used: int) -> None:
    ledger = anchored_ledger(used) if used > 1_200 else TokenLedger(
        SeedBytes(), prefix_tokens={"system": used})
    g = gauge(ledger)
    assert g["used"] == used
    assert_breakdown_adds_up(g)


def test_breakdown_adds_up_when_nothing_was_estimated() -> None:
    # A response whose records carried no countable content (all of it is in the usage).
    ledger = TokenLedger(SeedBytes())
    ledger.append(assistant(mid="m1", usage=Usage(5, 0, 40_000, 0)))
    g = gauge(ledger)
    assert g["used"] == 40_005
    assert_breakdown_adds_up(g)


def test_breakdown_over_the_window_has_nothing_free() -> None:
    g = gauge(anchored_ledger(230_000))
    assert g["level"] == "blocking" and g["breakdown"]["free"] == 0
    assert g["percentUsed"] == 115.0 and g["percentLeftUntilAutoCompact"] == 0.0


def test_breakdown_categories() -> None:
    ledger = TokenLedger(SeedBytes(), prefix_tokens={"system": 1_000, "tools": 1_000,
                                                    "memoryFiles": 1_000})
    ledger.append(user(text("s" * 4_000), is_compact_summary=True))
    ledger.append(user(text("m" * 4_000)))
    ledger.append(user(result("t", "r" * 4_000)))
    g = gauge(ledger)
    b = g["breakdown"]
    assert g["used"] == 6_000
    assert {k: b[k] for k in ("system", "tools", "memoryFiles", "messages", "toolResults",
                              "summary")} == dict.fromkeys(
        ("system", "tools", "memoryFiles", "messages", "toolResults", "summary"), 1_000)


def test_auto_compact_off_has_no_auto_compact_point() -> None:
    settings = dataclasses.replace(Settings(), autoCompact=AutoCompact(enabled=False))
    g = gauge(anchored_ledger(100_000), sonnet(settings), breaker=OFF)
    assert g["autoCompactAt"] is None and g["percentLeftUntilAutoCompact"] is None
    assert g["warningAt"] == 160_000
    assert g["autoCompact"]["enabled"] is False
    # The breaker's view decides even if the thresholds were computed with it on.
    g = gauge(anchored_ledger(100_000), sonnet(), breaker=OFF)
    assert g["autoCompactAt"] is None and g["percentLeftUntilAutoCompact"] is None


def test_open_circuit_breaker_is_reported() -> None:
    g = gauge(anchored_ledger(170_000), breaker=BreakerState(True, True, 3))
    assert g["autoCompact"] == {"enabled": True, "circuitBreaker": "open",
                                "consecutiveFailures": 3}


def test_small_window_gauge_adds_up() -> None:
    t = compute_thresholds(Window(32_000, 8_192, "test"), Settings())
    ledger = TokenLedger(SeedBytes(), prefix_tokens={"system": 500})
    ledger.append(assistant(text("x" * 400), mid="m1", usage=Usage(10, 0, 20_000, 100)))
    g = gauge(ledger, t)
    assert g["size"] == 32_000
    assert_breakdown_adds_up(g)
