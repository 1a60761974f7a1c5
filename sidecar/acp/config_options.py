"""The session's model as an ACP session config option.

ACP clients show a session's choices from ``configOptions`` (in the ``session/new``, load and
resume answers), change one with ``session/set_config_option``, and hear of a change made
elsewhere (``/model``) from a ``config_option_update``. The sidecar offers one option, the
model (category ``model``): the models ``sidecar/models`` lists for the session (the
provider's models list, or the catalog's picks when it said nothing), with the session's own
model always among them.
"""

from __future__ import annotations

from typing import Any, Callable

from sidecar.contract.results import ModelList
from sidecar.core.models.listing import catalog_picks

MODEL_OPTION = "model"
# The models a session can switch to (its service's ``models.choices``), by session id.
Choices = Callable[[str], ModelList | None]


def model_choices(provider: str, current: str, listing: ModelList | None = None) -> list[str]:
    """What the option offers: the list ``sidecar/models`` answers (the provider's models
    list, or the catalog's picks), the session's model always among them."""
    ids = [c["id"] for c in listing["models"]] if listing is not None \
        else catalog_picks(provider)
    return list(dict.fromkeys([current, *ids]))


def model_option(provider: str, current: str, listing: ModelList | None = None) -> dict[str, Any]:
    """ACP's ``SessionConfigOptionSelect`` for the model."""
    return {"id": MODEL_OPTION, "name": "Model", "category": "model", "type": "select",
            "description": f"The {provider} model that answers in this session",
            "currentValue": current,
            "options": [{"value": m, "name": m} for m in model_choices(provider, current, listing)]}


def config_options(provider: str, model: str, listing: ModelList | None = None) -> list[dict[str, Any]]:
    return [model_option(provider, model, listing)]


def config_option_update(provider: str, model: str,
                         listing: ModelList | None = None) -> dict[str, Any]:
    return {"sessionUpdate": "config_option_update",
            "configOptions": config_options(provider, model, listing)}
