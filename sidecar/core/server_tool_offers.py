"""The port for the provider's own tools (run by the provider: web search, web fetch):
whether the model gets each, and why or why not. The composition root supplies the policy
(``sidecar.tools.web``); without one, none is offered."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Protocol

from sidecar.core.settings import Settings


class Described(Protocol):
    """What a models endpoint said of a model (``ports.ModelDescription``), as far as the
    policy reads it."""

    @property
    def model(self) -> str: ...

    @property
    def capabilities(self) -> frozenset[str]: ...


@dataclass(frozen=True)
class ServerToolOffer:
    """Whether a server tool goes to the model, and why or why not, in words for
    ``/context``."""

    tool: str  # web_search, web_fetch
    offered: bool
    reason: str


# Given the settings, the provider's name and what its models endpoint said of the model.
ServerToolPolicy = Callable[[Settings, str, "Described | None"], list[ServerToolOffer]]


def no_server_tools(settings: Settings, provider: str,
                    described: Described | None) -> list[ServerToolOffer]:
    return []
