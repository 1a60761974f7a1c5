"""The provider SDKs load in a thread; requests that need them wait without holding the loop.

Importing the anthropic SDK takes about two seconds. A first turn that builds its client on
the event loop while the warm-up thread is still importing blocks on that module's import
lock, and with it every other request. The session service awaits ``ready()`` right before
it first needs a provider, so the import finishes off the loop and the loop keeps answering.
Only the SDK of a provider in use is loaded: the settings' provider once the engine is
built, another when a session first needs it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading

log = logging.getLogger(__name__)


class SdkWarmUp:
    def __init__(self) -> None:
        self._loads: dict[str, concurrent.futures.Future[None]] = {}  # by provider
        self._lock = threading.Lock()

    def start(self, provider: str) -> None:
        """Import ``provider``'s SDK (and the encoding that counts a session's prefix) in a
        background thread, once."""
        with self._lock:
            if provider in self._loads:
                return
            done: concurrent.futures.Future[None] = concurrent.futures.Future()
            self._loads[provider] = done

        def run() -> None:
            try:
                from sidecar.providers.registry import warm_up_sdk

                warm_up_sdk(provider)
                # The encoding that counts a session's prefix (sidecar.core.accounting.tokens)
                # loads here too, rather than on the loop when the first session opens.
                from sidecar.core.accounting.tokens import load_encoding

                load_encoding()
            finally:
                done.set_result(None)

        threading.Thread(target=run, name=f"sdk-warm-up-{provider}", daemon=True).start()

    async def ready(self, provider: str | None = None) -> None:
        """Return once ``provider``'s SDK is imported (starting the import if nobody did);
        without a provider, once every import started so far has finished."""
        if provider is not None:
            self.start(provider)
        with self._lock:
            pending = [f for f in self._loads.values() if not f.done()]
        for load in pending:
            await asyncio.wrap_future(load)
