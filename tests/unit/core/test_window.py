"""Context window resolution and threshold arithmetic with the seed's fixed 13,000 buffer."""

from __future__ import annotations

import dataclasses

import pytest

from sidecar.core.accounting.window import Thresholds, Window, compute_thresholds, resolve_window
from sidecar.core.settings import AutoCompact, Settings

DEFAULTS = Settings()
AUTO_OFF = dataclasses.replace(DEFAULTS, autoCompact=AutoCompact(enabled=False))


def thresholds(model: str, provider: str = "anthropic", settings: Settings = DEFAULTS) -> Thresholds:
    return compute_thresholds(resolve_window(model, provider, settings), settings)


def as_tuple(t: Thresholds) -> tuple[int, int, int | None, int, int, int]:
    return (t.size, t.effective_window, t.auto_compact_at, t.warning_at, t.error_at, t.blocking_at)


def assert_ordered(t: Thresholds) -> None:
    assert 0 < t.warning_at <= t.error_at
    base = t.auto_compact_at if t.auto_compact_at is not None else t.effective_window
    assert t.error_at <= base
    if t.auto_compact_at is not None:
        assert 0 < t.auto_compact_at <= t.blocking_at
    assert t.error_at <= t.blocking_at
    assert t.blocking_at <= t.effective_window < t.size


# --------------------------------------------------------------------------- worked examples


def test_200k_window_with_64k_output() -> None:
    w = resolve_window("claude-haiku-4-5", "anthropic", DEFAULTS)
    assert (w.size, w.max_output_tokens, w.source) == (200_000, 64_000, "model catalog")
    t = compute_thresholds(w, DEFAULTS)
    assert as_tuple(t) == (200_000, 180_000, 167_000, 147_000, 147_000, 177_000)


def test_200k_window_with_auto_compact_disabled() -> None:
    t = thresholds("claude-haiku-4-5", settings=AUTO_OFF)
    assert t.auto_compact_at is None
    assert (t.warning_at, t.error_at, t.blocking_at) == (160_000, 160_000, 177_000)
    assert not t.should_auto_compact(199_999)


def test_one_million_suffix() -> None:
    w = resolve_window("claude-opus-4-6[1m]", "anthropic", DEFAULTS)
    assert w.size == 1_000_000 and w.source == "[1m] suffix"
    t = compute_thresholds(w, DEFAULTS)
    assert as_tuple(t) == (1_000_000, 980_000, 967_000, 947_000, 947_000, 977_000)


def test_one_million_suffix_can_be_disabled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUDE_CODE_DISABLE_1M_CONTEXT", "1")
    assert resolve_window("claude-sonnet-4-5[1m]", "anthropic", DEFAULTS).size == 200_000


def test_gpt_4o() -> None:
    w = resolve_window("gpt-4o", "openai", DEFAULTS)
    assert (w.size, w.max_output_tokens) == (128_000, 16_384)
    t = compute_thresholds(w, DEFAULTS)
    assert (t.effective_window, t.auto_compact_at) == (111_616, 98_616)
    assert (t.warning_at, t.blocking_at) == (78_616, 108_616)


def test_gpt_4o_mini_is_not_taken_for_gpt_4o() -> None:
    w = resolve_window("gpt-4o-mini-2024-07-18", "openai", DEFAULTS)
    assert (w.size, w.max_output_tokens) == (128_000, 16_384)
    assert resolve_window("openrouter/openai/gpt-4.1", "openai-compatible", DEFAULTS).size == 1_047_576


def test_unknown_openai_compatible_model_falls_back_to_128k() -> None:
    w = resolve_window("my-local-finetune", "openai-compatible", DEFAULTS)
    assert w.size == 128_000 and w.source == "OpenAI-compatible fallback"
    t = compute_thresholds(w, DEFAULTS)
    assert (t.effective_window, t.auto_compact_at, t.blocking_at) == (108_000, 95_000, 105_000)


def test_unknown_anthropic_model_falls_back_to_200k() -> None:
    assert resolve_window("mystery", "anthropic", DEFAULTS).size == 200_000


def test_deepseek_chat() -> None:
    w = resolve_window("deepseek-chat", "openai-compatible", DEFAULTS)
    assert (w.size, w.max_output_tokens) == (128_000, 8_192)
    t = compute_thresholds(w, DEFAULTS)
    assert as_tuple(t) == (128_000, 119_808, 106_808, 86_808, 86_808, 116_808)


# --------------------------------------------------------------------------- overrides


def test_max_context_tokens_env_wins_over_everything(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUDE_CODE_MAX_CONTEXT_TOKENS", "150000")
    settings = dataclasses.replace(DEFAULTS, contextWindow=90_000)
    w = resolve_window("claude-opus-4-6[1m]", "anthropic", settings)
    assert w.size == 150_000 and w.source == "CLAUDE_CODE_MAX_CONTEXT_TOKENS"
    for junk in ("0", "-5", "lots", ""):
        monkeypatch.setenv("CLAUDE_CODE_MAX_CONTEXT_TOKENS", junk)
        assert resolve_window("claude-haiku-4-5", "anthropic", DEFAULTS).size == 200_000


def test_context_window_setting_beats_suffix_and_catalog() -> None:
    settings = dataclasses.replace(DEFAULTS, contextWindow=64_000)
    assert resolve_window("claude-opus-4-6[1m]", "anthropic", settings).size == 64_000


def test_max_output_setting_changes_the_reserve() -> None:
    settings = dataclasses.replace(DEFAULTS, maxOutputTokens=4_096)
    t = thresholds("claude-haiku-4-5", settings=settings)
    assert (t.effective_window, t.auto_compact_at) == (195_904, 182_904)


def test_auto_compact_window_env_can_only_lower(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUDE_CODE_AUTO_COMPACT_WINDOW", "100000")
    t = thresholds("claude-haiku-4-5")
    assert t.size == 200_000  # the raw window stays the gauge's denominator
    assert (t.effective_window, t.auto_compact_at, t.warning_at, t.blocking_at) == (
        80_000, 67_000, 47_000, 77_000)
    monkeypatch.setenv("CLAUDE_CODE_AUTO_COMPACT_WINDOW", "500000")
    assert as_tuple(thresholds("claude-haiku-4-5"))[1:3] == (180_000, 167_000)


@pytest.mark.parametrize("pct, expected", [("50", 90_000), ("100", 167_000), ("99.5", 167_000),
                                            ("0", 167_000), ("150", 167_000), ("x", 167_000)])
def test_autocompact_pct_override_can_only_lower(
    monkeypatch: pytest.MonkeyPatch, pct: str, expected: int
) -> None:
    monkeypatch.setenv("CLAUDE_AUTOCOMPACT_PCT_OVERRIDE", pct)
    t = thresholds("claude-haiku-4-5")
    assert t.auto_compact_at == expected
    assert t.warning_at == expected - 20_000


def test_blocking_limit_override(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUDE_CODE_BLOCKING_LIMIT_OVERRIDE", "150000")
    assert thresholds("claude-haiku-4-5").blocking_at == 150_000
    monkeypatch.setenv("CLAUDE_CODE_BLOCKING_LIMIT_OVERRIDE", "-1")
    assert thresholds("claude-haiku-4-5").blocking_at == 177_000


def test_buffer_settings_move_the_thresholds() -> None:
    settings = dataclasses.replace(
        DEFAULTS, autoCompact=AutoCompact(bufferTokens=30_000), warningBufferTokens=10_000,
        errorBufferTokens=5_000, blockingBufferTokens=1_000,
    )
    t = thresholds("claude-haiku-4-5", settings=settings)
    assert as_tuple(t) == (200_000, 180_000, 150_000, 140_000, 145_000, 179_000)


# --------------------------------------------------------------------------- small windows


@pytest.mark.parametrize("size, out", [(60_000, 8_192), (32_000, 8_192), (33_000, 20_000),
                                       (16_000, 4_096), (8_000, 8_192), (4_096, 2_048),
                                       (200_000, 128_000)])
@pytest.mark.parametrize("auto", [True, False])
def test_small_windows_keep_thresholds_positive_and_ordered(size: int, out: int, auto: bool) -> None:
    settings = DEFAULTS if auto else AUTO_OFF
    t = compute_thresholds(Window(size, out, "test"), settings)
    assert t.size == size
    assert_ordered(t)


def test_60k_window_numbers() -> None:
    t = compute_thresholds(Window(60_000, 8_192, "test"), DEFAULTS)
    assert (t.effective_window, t.auto_compact_at, t.blocking_at) == (51_808, 38_808, 48_808)
    # The seed's 20,000 warning buffer would put the warning at 18,808, under half of the
    # auto-compact point: it is held at half so the warning means something.
    assert t.warning_at == 19_404


def test_32k_window_with_8k_output() -> None:
    t = compute_thresholds(Window(32_000, 8_192, "test"), DEFAULTS)
    assert t.effective_window == 23_808
    assert t.auto_compact_at is not None and 0 < t.auto_compact_at < t.effective_window
    assert t.warning_at > 0
    assert t.level(0) == "ok"


def test_every_catalog_model_is_ordered() -> None:
    from sidecar.core.models import catalog

    for table, provider in ((catalog.ANTHROPIC_MODELS, "anthropic"),
                            (catalog.OPENAI_COMPATIBLE_MODELS, "openai-compatible")):
        for model in table:
            for settings in (DEFAULTS, AUTO_OFF):
                assert_ordered(thresholds(model, provider, settings))


# --------------------------------------------------------------------------- level


def test_level_boundaries() -> None:
    t = thresholds("claude-haiku-4-5")
    assert t.level(0) == "ok"
    assert t.level(146_999) == "ok"
    assert t.level(147_000) == "error"  # warning and error coincide by default
    assert t.level(176_999) == "error"
    assert t.level(177_000) == "blocking"
    assert t.level(250_000) == "blocking"
    assert not t.should_auto_compact(166_999) and t.should_auto_compact(167_000)


def test_level_distinguishes_warning_from_error_when_buffers_differ() -> None:
    settings = dataclasses.replace(DEFAULTS, warningBufferTokens=30_000, errorBufferTokens=10_000)
    t = thresholds("claude-haiku-4-5", settings=settings)
    assert (t.warning_at, t.error_at) == (137_000, 157_000)
    assert [t.level(n) for n in (136_999, 137_000, 156_999, 157_000, 177_000)] == [
        "ok", "warning", "warning", "error", "blocking"]


# --------------------------------------------------------------------------- the provider's word


def said(window: int | None, out: int | None = None, source: str = "anthropic /v1/models"):
    from sidecar.core.ports import ModelDescription

    return ModelDescription("claude-haiku-4-5", window, out, source=source)


def test_the_models_endpoint_beats_the_catalog() -> None:
    w = resolve_window("claude-haiku-4-5", "anthropic", DEFAULTS, said(300_000, 48_000))
    assert (w.size, w.max_output_tokens, w.source) == (300_000, 48_000, "anthropic /v1/models")


def test_overrides_beat_the_models_endpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = dataclasses.replace(DEFAULTS, contextWindow=90_000, maxOutputTokens=4_000)
    w = resolve_window("claude-haiku-4-5", "anthropic", settings, said(300_000, 48_000))
    assert (w.size, w.max_output_tokens, w.source) == (90_000, 4_000, "setting contextWindow")
    monkeypatch.setenv("CLAUDE_CODE_MAX_CONTEXT_TOKENS", "150000")
    w = resolve_window("claude-haiku-4-5", "anthropic", settings, said(300_000, 48_000))
    assert (w.size, w.source) == (150_000, "CLAUDE_CODE_MAX_CONTEXT_TOKENS")


def test_what_the_endpoint_leaves_out_comes_from_the_catalog() -> None:
    w = resolve_window("claude-haiku-4-5", "anthropic", DEFAULTS, said(None, 48_000))
    assert (w.size, w.max_output_tokens, w.source) == (200_000, 48_000, "model catalog")
    w = resolve_window("claude-haiku-4-5", "anthropic", DEFAULTS, said(300_000, None))
    assert (w.size, w.max_output_tokens) == (300_000, 64_000)
    w = resolve_window("my-finetune", "openai-compatible", DEFAULTS, said(None, None))
    assert (w.size, w.max_output_tokens, w.source) == (128_000, 32_000,
                                                       "OpenAI-compatible fallback")


def test_a_compatible_server_names_its_own_window() -> None:
    w = resolve_window("qwen3-coder", "openai-compatible", DEFAULTS,
                       said(32_768, None, "vllm max_model_len"))
    assert (w.size, w.source) == (32_768, "vllm max_model_len")
    t = compute_thresholds(w, DEFAULTS)
    assert_ordered(t)


def test_a_1m_name_is_not_cut_to_the_window_stated_without_the_beta() -> None:
    w = resolve_window("claude-sonnet-4-5[1m]", "anthropic", DEFAULTS, said(200_000, 64_000))
    assert (w.size, w.max_output_tokens, w.source) == (1_000_000, 64_000, "[1m] suffix")
    w = resolve_window("claude-opus-4-6[1m]", "anthropic", DEFAULTS, said(1_000_000, 128_000))
    assert (w.size, w.source) == (1_000_000, "anthropic /v1/models")
