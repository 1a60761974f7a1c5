"""The prompt history: every prompt recorded as it is sent (unless the environment says not
to), listed for the editor's recall, and its last entry undone."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Callable, Mapping, cast

from sidecar.contract.params import HistoryListParams, NoParams
from sidecar.contract.results import HistoryList, HistoryUndone
from sidecar.core.conversation.messages import Block
from sidecar.core.secrets.redacting import redacting_errors
from sidecar.core.settings import Settings

if TYPE_CHECKING:
    from sidecar.core.session import Session
    from sidecar.core.stores import Stores

log = logging.getLogger(__name__)


@redacting_errors
class PromptHistory:
    def __init__(self, stores: Stores, settings: Callable[[], Settings],
                 environ: Mapping[str, str]) -> None:
        self._stores = stores
        self._settings = settings
        self._environ = environ

    def record(self, session: Session, blocks: list[Block]) -> None:
        """Add a prompt; a failure is logged, never a failed turn."""
        if self._environ.get("CLAUDE_CODE_SKIP_PROMPT_HISTORY"):
            return
        try:
            self._stores.history().add_prompt(blocks, project=session.info.cwd,
                                              session_id=session.id)
        except Exception as exc:  # history is a convenience; never fail a turn on it
            log.warning("prompt history not recorded: %s", exc)

    async def history_list(self, p: HistoryListParams) -> HistoryList:
        """``sidecar/history/list``."""
        history = self._stores.history()
        entries = await asyncio.to_thread(
            history.list, limit=p.limit or self._settings().history.maxItems, project=p.project)
        return cast(HistoryList, {"entries": [e.to_json() for e in entries]})

    async def history_undo(self, p: NoParams) -> HistoryUndone:
        """``sidecar/history/undo``."""
        # Undo takes the history's file lock, which another process may hold for a while.
        removed = await asyncio.to_thread(self._stores.history().undo)
        return cast(HistoryUndone, {"removed": removed.to_json() if removed is not None else None})
