"""What we know about models: context window, output limit and prices.

Entries match by longest prefix of the lower-cased model name (a ``provider/`` prefix, as
OpenRouter spells models, is ignored). Settings can override window and output limit.
"""

from __future__ import annotations

from dataclasses import dataclass

from sidecar.core.conversation.messages import Usage


@dataclass(frozen=True, slots=True)
class ModelInfo:
    context_window: int
    max_output_tokens: int
    # US dollars per million tokens; None where unknown.
    input_price: float | None = None
    output_price: float | None = None
    cache_write_price: float | None = None
    cache_read_price: float | None = None
    supports_1m: bool = False


# Anthropic's prompt-cache prices relative to an uncached input token: a write with the
# five-minute TTL, a write with the one-hour TTL, a read.
CACHE_WRITE_5M = 1.25
CACHE_WRITE_1H = 2.0
CACHE_READ = 0.1


def _anthropic(window: int, out: int, inp: float, outp: float, one_m: bool = False) -> ModelInfo:
    return ModelInfo(window, out, inp, outp, inp * CACHE_WRITE_5M, inp * CACHE_READ, one_m)


def _openai(window: int, out: int, inp: float | None = None, outp: float | None = None,
            cached: float | None = None) -> ModelInfo:
    return ModelInfo(window, out, inp, outp, inp, cached)


# The capability registry (Anthropic) and the OpenAI-compatible table, by name prefix.
# Ids are the SDKs' own (anthropic ``ModelParam``, openai ``ChatModel`` / ``ResponsesModel``);
# windows, output limits and prices are the providers' published figures as of December
# 2026, None where a price is not published. What a provider's models endpoint says wins
# over this table (``sidecar.core.accounting.window``); this is the fallback when it says nothing.
ANTHROPIC_MODELS: dict[str, ModelInfo] = {
    "claude-fable-5-2": _anthropic(1_000_000, 128_000, 8.0, 40.0),
    "claude-fable-5-1": _anthropic(1_000_000, 128_000, 10.0, 50.0),
    "claude-fable-5": _anthropic(1_000_000, 128_000, 10.0, 50.0),
    "claude-mythos-5-1": _anthropic(1_000_000, 128_000, 10.0, 50.0),
    "claude-mythos": ModelInfo(1_000_000, 128_000),  # invitation only; prices unpublished
    "claude-opus-5-5": _anthropic(1_000_000, 128_000, 4.0, 20.0),
    "claude-opus-5": _anthropic(1_000_000, 128_000, 5.0, 25.0),
    # The 4.6 generation lists a 1M window; a [1m] name still sends the context-1m beta
    # that opened it, which the API accepts either way.
    "claude-opus-4-8": _anthropic(1_000_000, 128_000, 5.0, 25.0, True),
    "claude-opus-4-7": _anthropic(1_000_000, 128_000, 5.0, 25.0, True),
    "claude-opus-4-6": _anthropic(1_000_000, 128_000, 5.0, 25.0, True),
    "claude-opus-4-5": _anthropic(200_000, 64_000, 5.0, 25.0),
    "claude-opus-4-1": _anthropic(200_000, 32_000, 15.0, 75.0),
    "claude-opus-4": _anthropic(200_000, 32_000, 15.0, 75.0),
    "claude-sonnet-5-5": _anthropic(1_000_000, 128_000, 2.0, 10.0),
    "claude-sonnet-5": _anthropic(1_000_000, 128_000, 2.0, 10.0),
    "claude-sonnet-4-6": _anthropic(1_000_000, 64_000, 3.0, 15.0, True),
    # 200K models that reach 1M with the context-1m beta (a ``[1m]`` name asks for it).
    "claude-sonnet-4-5": _anthropic(200_000, 64_000, 3.0, 15.0, True),
    "claude-sonnet-4": _anthropic(200_000, 64_000, 3.0, 15.0, True),
    # Haiku 5.5 bills prompts over 100K tokens at a higher rate; this is the base rate.
    "claude-haiku-5-5": _anthropic(1_000_000, 128_000, 0.1, 0.5),
    "claude-haiku-4-5": _anthropic(200_000, 64_000, 1.0, 5.0),
    "claude-3-7-sonnet": _anthropic(200_000, 8_192, 3.0, 15.0),
    "claude-3-5-sonnet": _anthropic(200_000, 8_192, 3.0, 15.0),
    "claude-3-5-haiku": _anthropic(200_000, 8_192, 0.8, 4.0),
    "claude-3-opus": _anthropic(200_000, 4_096, 15.0, 75.0),
    "claude-3-haiku": _anthropic(200_000, 4_096, 0.25, 1.25),
    "claude": _anthropic(200_000, 32_000, 3.0, 15.0),
}

OPENAI_COMPATIBLE_MODELS: dict[str, ModelInfo] = {
    "gpt-6.2-astra": _openai(1_050_000, 128_000, 8.0, 40.0),
    "gpt-6-astra": _openai(1_050_000, 128_000, 10.0, 50.0, 1.0),
    "gpt-6.2-sol": _openai(1_050_000, 128_000, 2.0, 10.0, 0.2),
    "gpt-6.1-sol": _openai(1_050_000, 128_000, 2.0, 10.0, 0.2),
    "gpt-6-sol": _openai(1_050_000, 128_000, 2.0, 10.0, 0.2),
    "gpt-6": _openai(1_050_000, 128_000),
    "gpt-5.6-luna": _openai(1_050_000, 128_000, 0.2, 1.2, 0.02),
    "gpt-5.6-terra": _openai(1_050_000, 128_000, 2.0, 12.0),
    "gpt-5.6": _openai(1_050_000, 128_000),
    "gpt-5.5": _openai(1_050_000, 128_000, 5.0, 30.0),
    "gpt-5.4": _openai(1_050_000, 128_000, 2.5, 15.0),
    "gpt-5.2": _openai(400_000, 128_000, 1.75, 14.0, 0.175),
    "gpt-5": _openai(400_000, 128_000, 1.25, 10.0, 0.125),
    "gpt-4.1": _openai(1_047_576, 32_768, 2.0, 8.0, 0.5),
    "gpt-4o-mini": _openai(128_000, 16_384, 0.15, 0.6, 0.075),
    "gpt-4o": _openai(128_000, 16_384, 2.5, 10.0, 1.25),
    "gpt-4-turbo": _openai(128_000, 4_096, 10.0, 30.0),
    "o4-mini": _openai(200_000, 100_000, 1.1, 4.4, 0.275),
    "o3": _openai(200_000, 100_000, 2.0, 8.0, 0.5),
    "deepseek-chat": _openai(128_000, 8_192, 0.27, 1.1, 0.07),
    "deepseek-reasoner": _openai(128_000, 32_768, 0.55, 2.19, 0.14),
    "gemini-2.5-pro": _openai(1_048_576, 65_536, 1.25, 10.0, 0.31),
    "gemini-2.5-flash": _openai(1_048_576, 65_536, 0.3, 2.5, 0.075),
    "gemini-2.0-flash": _openai(1_048_576, 8_192, 0.1, 0.4, 0.025),
    "llama3.3": _openai(131_072, 8_192),
    "llama3.2": _openai(131_072, 8_192),
    "llama3.1": _openai(131_072, 8_192),
    "qwen2.5-coder": _openai(32_768, 8_192),
    "qwen3": _openai(40_960, 8_192),
    "mistral-large": _openai(131_072, 8_192),
    "codestral": _openai(256_000, 8_192),
}

DEFAULT_WINDOW = 200_000
OPENAI_FALLBACK_WINDOW = 128_000
DEFAULT_MAX_OUTPUT = 32_000


LONG_CONTEXT_SUFFIX = "[1m]"


def api_model_id(model: str) -> tuple[str, bool]:
    """The id the API knows, and whether the name asked for the 1M window.

    ``claude-opus-4-6[1m]`` is our name for "that model with its long window"; the API
    knows the model as ``claude-opus-4-6`` and the window by a beta header.
    """
    name = model.strip()
    if name.lower().endswith(LONG_CONTEXT_SUFFIX):
        return name[: -len(LONG_CONTEXT_SUFFIX)], True
    return name, False


def _bare(model: str) -> str:
    return api_model_id(model)[0].lower().rsplit("/", 1)[-1]


def _longest_prefix(table: dict[str, ModelInfo], model: str) -> ModelInfo | None:
    name = _bare(model)
    best = max((k for k in table if name.startswith(k)), key=len, default=None)
    return table[best] if best else None


def lookup(model: str, provider: str) -> ModelInfo | None:
    """The catalog entry for a model, searching the provider's own table first."""
    tables = (
        (ANTHROPIC_MODELS, OPENAI_COMPATIBLE_MODELS)
        if provider == "anthropic"
        else (OPENAI_COMPATIBLE_MODELS, ANTHROPIC_MODELS)
    )
    for table in tables:
        found = _longest_prefix(table, model)
        if found:
            return found
    return None


# Anthropic's price of a web search its server runs: $10 per 1,000, beside the tokens.
WEB_SEARCH_USD = 10.0 / 1_000


def cost_usd(usage: Usage, model: str, provider: str) -> float | None:
    """Dollars a response cost at catalog prices, or None when the model's prices are unknown."""
    info = lookup(model, provider)
    if info is None or info.input_price is None or info.output_price is None:
        return None
    write_price = info.cache_write_price if info.cache_write_price is not None else info.input_price
    read_price = info.cache_read_price if info.cache_read_price is not None else info.input_price
    hour = usage.cache_creation_1h_tokens  # one-hour writes, priced apart
    total = (
        usage.input_tokens * info.input_price
        + (usage.cache_creation_input_tokens - hour) * write_price
        + hour * CACHE_WRITE_1H * info.input_price
        + usage.cache_read_input_tokens * read_price
        + usage.output_tokens * info.output_price
    )
    return total / 1_000_000 + usage.web_search_requests * WEB_SEARCH_USD
