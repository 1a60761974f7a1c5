"""What a session's tools keep for it from one call to the next (the background shells the
shell tool started, ``sidecar.tools.background_shells``): one of each kind, made on first use,
and closed when the session closes or is deleted, when ``/clear`` starts its conversation
over, and when the sidecar shuts down.

The engine knows nothing of what is kept; a kind only needs a constructor without arguments
and ``aclose``.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol, TypeVar, cast

log = logging.getLogger(__name__)


class SessionResource(Protocol):
    async def aclose(self) -> None:
        """Release what it holds (end processes, close files); never raises for what is
        already gone."""
        ...


Kept = TypeVar("Kept", bound=SessionResource)


class SessionResources:
    def __init__(self) -> None:
        self._kept: dict[type[SessionResource], SessionResource] = {}

    def get(self, kind: type[Kept]) -> Kept:
        """The session's ``kind``, made now if it has none."""
        kept = self._kept.get(kind)
        if kept is None:
            kept = self._kept[kind] = kind()
        return cast(Kept, kept)

    async def aclose(self) -> None:
        """Close everything kept, all at once; a failure is logged, never raised (closing a
        session must not fail). What is asked for afterwards is made anew."""
        kept, self._kept = list(self._kept.values()), {}
        results = await asyncio.gather(*(k.aclose() for k in kept), return_exceptions=True)
        for resource, result in zip(kept, results):
            if isinstance(result, Exception):
                log.warning("closing %s failed: %s", type(resource).__name__, result)
