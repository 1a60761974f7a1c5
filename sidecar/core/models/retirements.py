"""Which models the providers have deprecated or retired, by exact model id.

The fallback for when a provider's models endpoint is unreachable or says nothing (OpenAI's
says no lifecycle for most models). Unlike the window table in ``sidecar.core.models.catalog``
this never matches by prefix: a new model whose name starts like a retired one must not be
called retired. Sources: Anthropic's model deprecations page and the anthropic SDK's
``DEPRECATED_MODELS``; the openai SDK's ``ChatModel`` docstring (announced shutdown dates)
and OpenAI's deprecations page for the replacements it names. Retired models point at the
current model of their line, deprecated ones at the replacement the provider names.
"""

from __future__ import annotations

from dataclasses import dataclass

from sidecar.core.models.catalog import api_model_id
from sidecar.core.ports import Lifecycle


@dataclass(frozen=True, slots=True)
class Retirement:
    lifecycle: Lifecycle
    retires_at: str | None  # ISO date the provider announced; requests fail from then on
    replacement: str | None = None


def _same(ids: tuple[str, ...], entry: Retirement) -> dict[str, Retirement]:
    return {model: entry for model in ids}


ANTHROPIC_RETIREMENTS: dict[str, Retirement] = {
    **_same(("claude-opus-4-5", "claude-opus-4-5-20251101"),
            Retirement("deprecated", "2027-01-22", "claude-opus-5-5")),
    **_same(("claude-sonnet-4-5", "claude-sonnet-4-5-20250929"),
            Retirement("deprecated", "2026-11-30", "claude-sonnet-5-5")),
    "claude-mythos-preview": Retirement("deprecated", "2026-06-30", "claude-mythos-5"),
    **_same(("claude-opus-4-1", "claude-opus-4-1-20250805"),
            Retirement("retired", "2026-08-05", "claude-opus-5-5")),
    **_same(("claude-opus-4-0", "claude-opus-4-20250514"),
            Retirement("retired", "2026-06-15", "claude-opus-5-5")),
    **_same(("claude-sonnet-4-0", "claude-sonnet-4-20250514"),
            Retirement("retired", "2026-06-15", "claude-sonnet-5-5")),
    **_same(("claude-3-7-sonnet-latest", "claude-3-7-sonnet-20250219"),
            Retirement("retired", "2026-02-19", "claude-sonnet-5-5")),
    **_same(("claude-3-5-haiku-latest", "claude-3-5-haiku-20241022"),
            Retirement("retired", "2026-02-19", "claude-haiku-5-5")),
    **_same(("claude-3-opus-latest", "claude-3-opus-20240229"),
            Retirement("retired", "2026-01-05", "claude-opus-5-5")),
    **_same(("claude-3-5-sonnet-latest", "claude-3-5-sonnet-20241022",
             "claude-3-5-sonnet-20240620"),
            Retirement("retired", "2025-10-22", "claude-sonnet-5-5")),
}


def _shutdown(date: str, ids: tuple[str, ...], replacement: str | None = None
              ) -> dict[str, Retirement]:
    return _same(ids, Retirement("deprecated", date, replacement))


OPENAI_RETIREMENTS: dict[str, Retirement] = {
    **_shutdown("2027-04-01", ("gpt-5.4-nano", "gpt-5.4-nano-2026-03-17"), "gpt-5.6-luna"),
    **_shutdown("2027-04-01", ("gpt-5.1", "gpt-5.1-2025-11-13")),
    **_shutdown("2026-08-10", ("gpt-5.3-chat-latest", "gpt-5.2-chat-latest")),
    **_shutdown("2026-07-23", ("gpt-5.1-codex", "gpt-5.1-chat-latest", "gpt-5-chat-latest",
                               "gpt-4o-search-preview", "gpt-4o-mini-search-preview",
                               "gpt-4o-search-preview-2025-03-11",
                               "gpt-4o-mini-search-preview-2025-03-11")),
    **_shutdown("2026-12-11", ("gpt-5", "gpt-5-2025-08-07", "o3", "o3-2025-04-16"),
                "gpt-5.6-sol"),
    **_shutdown("2026-12-11", ("gpt-5-mini", "gpt-5-mini-2025-08-07"), "gpt-5.6-terra"),
    **_shutdown("2026-12-11", ("gpt-5-nano", "gpt-5-nano-2025-08-07"), "gpt-5.6-luna"),
    **_shutdown("2027-01-14", ("gpt-4.1", "gpt-4.1-mini", "gpt-4.1-2025-04-14",
                               "gpt-4.1-mini-2025-04-14", "gpt-4o", "gpt-4o-2024-11-20",
                               "gpt-4o-2024-08-06", "gpt-4o-mini", "gpt-4o-mini-2024-07-18")),
    **_shutdown("2026-10-23", ("gpt-4.1-nano", "gpt-4.1-nano-2025-04-14"), "gpt-5.6-luna"),
    **_shutdown("2026-10-23", ("o4-mini", "o4-mini-2025-04-16", "gpt-3.5-turbo",
                               "gpt-3.5-turbo-0125"), "gpt-5.6-terra"),
    **_shutdown("2026-10-23", ("o3-mini", "o3-mini-2025-01-31", "o1", "o1-2024-12-17",
                               "gpt-4o-2024-05-13", "gpt-4-turbo", "gpt-4-turbo-2024-04-09",
                               "gpt-4-1106-preview", "gpt-4", "gpt-4-0613"), "gpt-5.6-sol"),
    **_shutdown("2025-07-28", ("o1-preview", "o1-preview-2024-09-12")),
    **_shutdown("2025-10-27", ("o1-mini", "o1-mini-2024-09-12")),
    **_shutdown("2026-02-17", ("chatgpt-4o-latest",)),
    **_shutdown("2026-02-12", ("codex-mini-latest",)),
    **_shutdown("2026-03-26", ("gpt-4-0125-preview", "gpt-4-turbo-preview", "gpt-4-0314")),
    **_shutdown("2024-12-06", ("gpt-4-vision-preview",)),
    **_shutdown("2025-06-06", ("gpt-4-32k", "gpt-4-32k-0314", "gpt-4-32k-0613")),
    **_shutdown("2024-09-13", ("gpt-3.5-turbo-16k", "gpt-3.5-turbo-0301", "gpt-3.5-turbo-0613",
                               "gpt-3.5-turbo-16k-0613")),
    **_shutdown("2026-09-28", ("gpt-3.5-turbo-1106",)),
}


def lookup_retirement(model: str, provider: str) -> Retirement | None:
    """The announced deprecation of exactly this model id (a ``[1m]`` suffix and an
    OpenRouter-style ``vendor/`` prefix ignored), searching the provider's table first."""
    name = api_model_id(model)[0].lower().rsplit("/", 1)[-1]
    tables = ((ANTHROPIC_RETIREMENTS, OPENAI_RETIREMENTS) if provider == "anthropic"
              else (OPENAI_RETIREMENTS, ANTHROPIC_RETIREMENTS))
    for table in tables:
        if name in table:
            return table[name]
    return None
