"""The provider SDKs load in a thread; requests that need them wait without holding the loop.

Importing the anthropic SDK takes about two seconds. A first turn that builds its client on
the event loop while the warm-up thread is still importing blocks on that module's import
lock, and with it every other request. The session service awaits ``ready()`` right before
it first needs a provider, so the import finishes off the loop and the loop keeps answering.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading

log = logging.getLogger(__name__)

class SdkWarmUp:
    def __init__(self) -> None:
        self._done: concurrent.futures.Future[None] | None = None
        self._lock = threading.Lock()

    def start(self) -> None:
        with self._lock:
            if self._done is not None:
                return
            done: concurrent.futures.Future[None] = concurrent.futures.Future()
            self._done = done

        def run() -> None:
            try:
                # The providers' own modules load here too, with the SDKs they wrap.
                from sidecar.providers.registry import warm_up_sdks

                warm_up_sdks()
                # The encoding that counts a session's prefix (sidecar.core.accounting.tokens) loads
                # here too, rather than on the loop when the first session opens.
                from sidecar.core.accounting.tokens import load_encoding

                load_encoding()
            finally:
                done.set_result(None)

        threading.Thread(target=run, name="sdk-warm-up", daemon=True).start()

    async def ready(self) -> None:
        """Return once the SDKs are imported (starting the import if nobody did)."""
        self.start()
        assert self._done is not None
        if not self._done.done():
            await asyncio.wrap_future(self._done)
