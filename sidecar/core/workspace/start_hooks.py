"""The SessionStart hooks of each session, run in the background when it opens, resumes or
is cleared; their context joins the first request, so a prompt waits for them."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sidecar.core.session import Session

log = logging.getLogger(__name__)


class StartHooks:
    def __init__(self) -> None:
        # Per session, the SessionStart hooks still running.
        self._starting: dict[str, asyncio.Task[None]] = {}

    def start(self, session: Session, source: str) -> None:
        """Run ``session``'s hooks for ``source`` (startup, resume) in the background."""
        from sidecar.core.workspace.hooks import may_have_hooks

        if not may_have_hooks(session.settings, Path(session.info.cwd), Path.home(), "SessionStart"):
            return
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return
        self._starting[session.id] = asyncio.ensure_future(self.run(session, source))

    async def run(self, session: Session, source: str) -> None:
        """Run the hooks now and append what they said."""
        from sidecar.core.workspace.hooks import session_start

        try:
            for record in await session_start(session, source):
                session.append(record)
        except Exception as exc:  # a hook never fails a session
            log.warning("SessionStart hooks failed: %s", exc)

    async def started(self, session: Session) -> None:
        """Wait for the hooks still running for ``session``."""
        task = self._starting.pop(session.id, None)
        if task is not None:
            await task
