"""Whether a session's model is current, and the sentence that says so when it is not.

The provider's models endpoint is the lifecycle signal when it gives one; otherwise the
announced dates in ``sidecar.core.models.retirements`` stand in. From those dates alone a model
counts as retired once its retirement date has passed (Anthropic: "requests to models past
the retirement date will fail"); a provider that still says "deprecated" past the date is
believed, since it knows when the switch-off actually happens.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sidecar.contract.results import ModelStatus as ModelStatusView
from sidecar.core.models.retirements import lookup_retirement
from sidecar.core.ports import Lifecycle, ModelDescription

CATALOG_SOURCE = "model catalog"


@dataclass(frozen=True, slots=True)
class ModelStatus:
    model: str
    lifecycle: Lifecycle
    replacement: str | None = None
    retires_at: str | None = None
    source: str = ""  # who said so: a models endpoint, the catalog, or "" (nobody)

    @property
    def current(self) -> bool:
        return self.lifecycle == "active"

    def message(self, today: dt.date) -> str | None:
        """The plain sentence for the status bar and ``/context``; None for a current model."""
        if self.current:
            return None
        move = (f"move to {self.replacement}" if self.replacement
                else "choose a current model with /model NAME")
        if self.lifecycle == "retired":
            when = f" on {self.retires_at}" if self.retires_at else ""
            return f"{self.model} was retired{when}: requests to it fail; {move}."
        if self.retires_at and self.retires_at <= today.isoformat():
            return (f"{self.model} is deprecated and was due to retire on {self.retires_at}: "
                    f"requests may start failing; {move}.")
        when = f" and retires on {self.retires_at}" if self.retires_at else ""
        return f"{self.model} is deprecated{when}; {move}."

    def to_json(self, today: dt.date) -> ModelStatusView:
        return {"model": self.model, "lifecycle": self.lifecycle,
                "replacement": self.replacement, "retiresAt": self.retires_at,
                "source": self.source or None, "message": self.message(today)}


def model_status(model: str, provider: str, described: ModelDescription | None,
                 today: dt.date) -> ModelStatus:
    announced = lookup_retirement(model, provider)
    if described is not None and described.lifecycle_known:
        # The catalog may still know a replacement the endpoint does not name.
        replacement, retires_at = described.replacement, described.retires_at
        if described.lifecycle != "active" and announced is not None:
            replacement = replacement or announced.replacement
            retires_at = retires_at or announced.retires_at
        return ModelStatus(model, described.lifecycle, replacement, retires_at,
                           described.source)
    if announced is None:
        return ModelStatus(model, "active")
    lifecycle = announced.lifecycle
    if lifecycle == "deprecated" and announced.retires_at \
            and announced.retires_at <= today.isoformat():
        lifecycle = "retired"
    return ModelStatus(model, lifecycle, announced.replacement, announced.retires_at,
                       CATALOG_SOURCE)


def today_utc() -> dt.date:
    return dt.datetime.now(dt.timezone.utc).date()
