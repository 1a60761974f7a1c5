"""What a session can switch to: the one list ``sidecar/models``, ``/model`` and ACP's model
option all show.

The provider's models list (what its endpoint said, as the registry keeps it) when it said
anything, else the catalog's picks for the provider. Retired models are left out, models
that are not for chat (embeddings, speech, images) too; the session's own model is always
in the list, first when the provider did not list it.
"""

from __future__ import annotations

import datetime as dt

from sidecar.contract.results import ModelChoice, ModelList
from sidecar.core.models.catalog import ANTHROPIC_MODELS, OPENAI_COMPATIBLE_MODELS, lookup
from sidecar.core.models.status import model_status
from sidecar.core.ports import ModelDescription

# The catalog's names that are models one would pick (its other keys are family prefixes),
# newest families first.
CATALOG_PICKS = {
    "anthropic": ("claude-sonnet-5-5", "claude-opus-5-5", "claude-haiku-5-5", "claude-fable-5-2",
                  "claude-opus-4-8", "claude-sonnet-4-6", "claude-sonnet-4-5", "claude-haiku-4-5"),
    "openai": ("gpt-6.2-sol", "gpt-6.2-astra", "gpt-5.6-terra", "gpt-5.6-luna", "gpt-5.5",
               "gpt-4.1", "gpt-4o", "o4-mini"),
}
# Words in the ids of models an OpenAI-wire list serves that do not chat.
_NOT_CHAT = ("embed", "tts", "whisper", "dall-e", "moderation", "transcribe", "realtime",
             "-audio", "gpt-image", "davinci", "babbage")


def catalog_picks(provider: str) -> list[str]:
    table = ANTHROPIC_MODELS if provider == "anthropic" else OPENAI_COMPATIBLE_MODELS
    picks = CATALOG_PICKS["anthropic" if provider == "anthropic" else "openai"]
    return [m for m in picks if m in table]


def model_list(provider: str, current: str, listed: list[ModelDescription] | None,
               described_current: ModelDescription | None, today: dt.date) -> ModelList:
    """The list for a session of ``provider`` on ``current``: ``listed`` is what the
    provider's endpoint said (None or [] when nothing), ``described_current`` what it said
    of ``current`` (an alias finds its snapshot)."""
    chat = [d for d in listed or () if not any(w in d.model.lower() for w in _NOT_CHAT)]
    source = "provider" if chat else "catalog"
    entries = chat or [ModelDescription(m, None, None, lifecycle_known=False)
                       for m in catalog_picks(provider)]
    models = [c for c in (_choice(d.model, provider, d, today) for d in entries)
              if c["lifecycle"] != "retired"]
    if not any(c["id"].lower() == current.lower() for c in models):
        models.insert(0, _choice(current, provider, described_current, today))
    return {"current": current, "models": models,
            "source": "provider" if source == "provider" else "catalog"}


def _choice(model: str, provider: str, described: ModelDescription | None,
            today: dt.date) -> ModelChoice:
    status = model_status(model, provider, described, today)
    window = described.context_window if described is not None else None
    if window is None:
        info = lookup(model, provider)
        window = info.context_window if info is not None else None
    return {"id": model, "displayName": described.display_name if described is not None else None,
            "lifecycle": status.lifecycle, "contextWindow": window}


def render_model_list(listing: ModelList) -> str:
    """``/model`` without a name: the list in words."""
    where = ("the provider's models list" if listing["source"] == "provider"
             else "the catalog (the provider listed none)")
    lines = [f"Models ({where}); /model NAME switches:"]
    for c in listing["models"]:
        lines.append(f"- {c['id']}{choice_details(c, listing['current'])}")
    return "\n".join(lines)


def choice_details(c: ModelChoice, current: str) -> str:
    """`` (current) · Claude Sonnet 5.5 · 1M context · deprecated``, what follows an id."""
    parts = [p for p in (
        c["displayName"] if c["displayName"] and c["displayName"] != c["id"] else None,
        f"{window_words(c['contextWindow'])} context" if c["contextWindow"] else None,
        c["lifecycle"] if c["lifecycle"] != "active" else None) if p]
    mark = " (current)" if c["id"] == current else ""
    return mark + "".join(f" · {p}" for p in parts)


def window_words(tokens: int) -> str:
    if tokens >= 1_000_000 and tokens % 1_000_000 < 100_000:
        return f"{tokens // 1_000_000}M"
    if tokens >= 1_000_000:
        return f"{tokens / 1_000_000:.1f}M"
    return f"{round(tokens / 1000)}K"
