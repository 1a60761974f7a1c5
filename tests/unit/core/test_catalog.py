"""The model catalog: windows, output limits and prices."""

from __future__ import annotations

import pytest

from sidecar.core.models import catalog


@pytest.mark.parametrize("model, provider, window, out", [
    ("claude-sonnet-5-5", "anthropic", 1_000_000, 128_000),
    ("claude-sonnet-5", "anthropic", 1_000_000, 128_000),
    ("claude-haiku-5-5", "anthropic", 1_000_000, 128_000),
    ("claude-fable-5-2", "anthropic", 1_000_000, 128_000),
    ("claude-mythos-5-2", "anthropic", 1_000_000, 128_000),
    ("claude-sonnet-4-5-20250929", "anthropic", 200_000, 64_000),
    ("claude-haiku-4-5-20251001", "anthropic", 200_000, 64_000),
    ("Claude-Opus-4-6", "anthropic", 1_000_000, 128_000),
    ("claude-sonnet-4-5[1m]", "anthropic", 200_000, 64_000),  # the suffix is window.py's business
    ("claude-3-5-haiku-latest", "anthropic", 200_000, 8_192),
    ("anthropic/claude-sonnet-4", "openai-compatible", 200_000, 64_000),
    ("gpt-6-astra", "openai", 1_050_000, 128_000),
    ("gpt-6.1-terra", "openai", 1_050_000, 128_000),  # the gpt-6 family entry
    ("gpt-5.6-luna", "openai", 1_050_000, 128_000),
    ("gpt-5.5-2026-04-23", "openai", 1_050_000, 128_000),
    ("gpt-4o-2024-08-06", "openai", 128_000, 16_384),
    ("gpt-4o-mini", "openai", 128_000, 16_384),
    ("openai/gpt-4.1-mini", "openai-compatible", 1_047_576, 32_768),
    ("deepseek-chat", "openai-compatible", 128_000, 8_192),
    ("deepseek-reasoner", "openai-compatible", 128_000, 32_768),
    ("qwen2.5-coder:7b", "openai-compatible", 32_768, 8_192),
    ("gpt-4o", "anthropic", 128_000, 16_384),  # found in the other table as a last resort
])
def test_lookup(model: str, provider: str, window: int, out: int) -> None:
    info = catalog.lookup(model, provider)
    assert info is not None
    assert (info.context_window, info.max_output_tokens) == (window, out)


@pytest.mark.parametrize("model", ["my-finetune", "", "gpt"])
def test_unknown_models(model: str) -> None:
    assert catalog.lookup(model, "openai-compatible") is None


def test_anthropic_prices_derive_cache_prices() -> None:
    info = catalog.lookup("claude-sonnet-5-5", "anthropic")
    assert info is not None
    assert (info.input_price, info.output_price) == (2.0, 10.0)
    assert info.cache_write_price == pytest.approx(2.5)
    assert info.cache_read_price == pytest.approx(0.2)


def test_every_model_the_sdks_name_has_an_entry() -> None:
    """The anthropic SDK's model ids, and the openai SDK's current chat models, are known to
    the catalog by their own entry, not only by the generic "claude" fallback."""
    import typing

    from anthropic.types.model_param import ModelParam
    from openai.types.shared.chat_model import ChatModel

    literal = next(a for a in typing.get_args(ModelParam) if typing.get_origin(a) is typing.Literal)
    for model in typing.get_args(literal):
        key = max((k for k in catalog.ANTHROPIC_MODELS if model.startswith(k)), key=len)
        assert key != "claude", model
    for model in typing.get_args(ChatModel):
        if model.startswith(("gpt-6", "gpt-5.6", "gpt-5.5")):
            assert catalog.lookup(model, "openai") is not None, model


def test_every_entry_is_sane() -> None:
    for table in (catalog.ANTHROPIC_MODELS, catalog.OPENAI_COMPATIBLE_MODELS):
        for name, info in table.items():
            assert name == name.lower()
            assert 0 < info.max_output_tokens < info.context_window, name
