"""The session's model as an ACP session config option.

ACP clients show a session's choices from ``configOptions`` (in the ``session/new``, load and
resume answers), change one with ``session/set_config_option``, and hear of a change made
elsewhere (``/model``) from a ``config_option_update``. The sidecar offers one option, the
model (category ``model``): the models the catalog knows for the session's provider, newest
families first, with the session's own model always among them.
"""

from __future__ import annotations

from typing import Any

from sidecar.core.models.catalog import ANTHROPIC_MODELS, OPENAI_COMPATIBLE_MODELS

MODEL_OPTION = "model"
# The catalog's names that are models one would pick (its other keys are family prefixes).
_PICKS = {
    "anthropic": ("claude-sonnet-5-5", "claude-opus-5-5", "claude-haiku-5-5", "claude-fable-5-2",
                  "claude-opus-4-8", "claude-sonnet-4-6", "claude-sonnet-4-5", "claude-haiku-4-5"),
    "openai": ("gpt-6.2-sol", "gpt-6.2-astra", "gpt-5.6-terra", "gpt-5.6-luna", "gpt-5.5",
               "gpt-4.1", "gpt-4o", "o4-mini"),
}


def model_choices(provider: str, current: str) -> list[str]:
    """What the option offers: the session's model first, then the catalog's picks."""
    table = ANTHROPIC_MODELS if provider == "anthropic" else OPENAI_COMPATIBLE_MODELS
    picks = [m for m in _PICKS.get(provider, _PICKS["openai"] if provider != "anthropic" else ())
             if m in table]
    return list(dict.fromkeys([current, *picks]))


def model_option(provider: str, current: str) -> dict[str, Any]:
    """ACP's ``SessionConfigOptionSelect`` for the model."""
    return {"id": MODEL_OPTION, "name": "Model", "category": "model", "type": "select",
            "description": f"The {provider} model that answers in this session",
            "currentValue": current,
            "options": [{"value": m, "name": m} for m in model_choices(provider, current)]}


def config_options(provider: str, model: str) -> list[dict[str, Any]]:
    return [model_option(provider, model)]


def config_option_update(provider: str, model: str) -> dict[str, Any]:
    return {"sessionUpdate": "config_option_update", "configOptions": config_options(provider, model)}
