"""Context window resolution and the threshold arithmetic.

Resolution, first match wins: ``CLAUDE_CODE_MAX_CONTEXT_TOKENS`` and the ``contextWindow``
setting (overrides), what the provider's models endpoint said (``ModelDescription``, kept by
``sidecar.core.models.registry``), then the seed's chain: a ``[1m]`` model suffix
(1,000,000), the capability registry, the OpenAI-compatible table, then 200,000 (128,000 for
unknown OpenAI-compatible models). The output limit: the ``maxOutputTokens`` setting, the
models endpoint, the catalog, then 32,000.
Thresholds follow the seed: effective = window - min(max output, 20,000); auto-compact
13,000 below that; warning and error 20,000 below the auto-compact point; blocking 3,000
below the effective window.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Literal

from sidecar.core.environment import env_flag, env_positive_int
from sidecar.core.models import catalog
from sidecar.core.ports import ModelDescription
from sidecar.core.settings import Settings

Level = Literal["ok", "warning", "error", "blocking"]
ONE_MILLION = 1_000_000


@dataclass(frozen=True, slots=True)
class Window:
    size: int
    max_output_tokens: int
    source: str  # which rule decided the size


@dataclass(frozen=True, slots=True)
class Thresholds:
    size: int
    max_output_tokens: int  # the most one answer may take
    effective_window: int
    auto_compact_at: int | None
    warning_at: int
    error_at: int
    blocking_at: int

    def level(self, used: int) -> Level:
        if used >= self.blocking_at:
            return "blocking"
        if used >= self.error_at:
            return "error"
        if used >= self.warning_at:
            return "warning"
        return "ok"

    def should_auto_compact(self, used: int) -> bool:
        return self.auto_compact_at is not None and used >= self.auto_compact_at


def resolve_window(model: str, provider: str, settings: Settings,
                   described: ModelDescription | None = None) -> Window:
    """The window and output limit of ``model``; ``described`` is what the provider's
    models endpoint said of it, when it said anything."""
    info = catalog.lookup(model, provider)
    max_out = (settings.maxOutputTokens
               or (described.max_output_tokens if described else None)
               or (info.max_output_tokens if info else catalog.DEFAULT_MAX_OUTPUT))
    env = env_positive_int("CLAUDE_CODE_MAX_CONTEXT_TOKENS")
    if env:
        return Window(env, max_out, "CLAUDE_CODE_MAX_CONTEXT_TOKENS")
    if settings.contextWindow:
        return Window(settings.contextWindow, max_out, "setting contextWindow")
    long_context = model.lower().endswith("[1m]") and not env_flag("CLAUDE_CODE_DISABLE_1M_CONTEXT")
    said = described.context_window if described else None
    # A models endpoint states the window without beta headers; a [1m] name sends the
    # context-1m beta, which lifts a 200K model to 1M, so a smaller figure does not apply.
    if said and described and not (long_context and said < ONE_MILLION):
        return Window(said, max_out, described.source or "provider models endpoint")
    if long_context:
        return Window(ONE_MILLION, max_out, "[1m] suffix")
    if info:
        return Window(info.context_window, max_out, "model catalog")
    if provider == "anthropic":
        return Window(catalog.DEFAULT_WINDOW, max_out, "default")
    return Window(catalog.OPENAI_FALLBACK_WINDOW, max_out, "OpenAI-compatible fallback")


def compute_thresholds(window: Window, settings: Settings) -> Thresholds:
    size = window.size
    # CLAUDE_CODE_AUTO_COMPACT_WINDOW can only lower the window the thresholds use.
    capped = min(size, env_positive_int("CLAUDE_CODE_AUTO_COMPACT_WINDOW") or size)
    reserve = min(window.max_output_tokens, settings.summaryReserveTokens)
    buffer = settings.autoCompact.bufferTokens
    # Small windows: never let a reserve or buffer eat more than half of what is left, so
    # every threshold stays positive and ordered (the seed's numbers hold from ~70K up).
    effective = max(capped - reserve, capped // 2)
    auto: int | None = None
    if settings.autoCompact.enabled:
        auto = max(effective - buffer, effective // 2)
        pct = os.environ.get("CLAUDE_AUTOCOMPACT_PCT_OVERRIDE", "").strip()
        try:
            value = float(pct) if pct else 0.0
        except ValueError:
            value = 0.0
        if 0 < value <= 100:
            auto = min(int(effective * value / 100), auto)
    base = auto if auto is not None else effective
    warning = max(base - settings.warningBufferTokens, base // 2)
    error = max(base - settings.errorBufferTokens, base // 2)
    # Blocking stays above auto-compact and the warnings even when the small-window floors
    # lift those above effective - blockingBuffer (auto-compact off included).
    floor = max(auto if auto is not None else 0, warning, error)
    blocking = max(effective - settings.blockingBufferTokens, (floor + effective) // 2)
    blocking = env_positive_int("CLAUDE_CODE_BLOCKING_LIMIT_OVERRIDE") or max(blocking, 1)
    return Thresholds(
        size=size,
        max_output_tokens=window.max_output_tokens,
        effective_window=effective,
        auto_compact_at=auto,
        warning_at=warning,
        error_at=error,
        blocking_at=blocking,
    )
