"""The checkpoints room of the session service: a checkpoint before each prompt's turn,
and ``sidecar/checkpoints``, ``sidecar/rewind`` and ``sidecar/fork`` (docs/protocol.md,
"Checkpoints, rewind and fork")."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, cast

from sidecar.contract.errors import InvalidParams, SessionBusy
from sidecar.contract.params import ForkParams, RewindParams, SessionParams
from sidecar.contract.results import (
    CheckpointList,
    RestoreKind,
    Rewound,
    RewoundFile,
    SessionOpened,
)
from sidecar.core.checkpoints.ports import FileHistory, MemoryFileHistory
from sidecar.core.checkpoints.records import CheckpointState, checkpoints_of
from sidecar.core.checkpoints.rewind import apply, plan_files, preview, rewind_conversation
from sidecar.core.checkpoints.tracker import TurnChanges
from sidecar.core.conversation.messages import answered_calls, new_uuid

if TYPE_CHECKING:
    from sidecar.core.session import Session, SessionInfo
    from sidecar.core.settings import Settings


class Checkpoints:
    def __init__(self, *, get: Callable[[str], Session],
                 history: Callable[[str], FileHistory | None],
                 open_session: Callable[[SessionInfo, Settings], Session],
                 opened: Callable[[Session], SessionOpened]) -> None:
        self._get = get
        self._history = history
        self._open = open_session
        self._opened = opened  # announces a session to its client and answers as session/new
        self._memory: dict[str, FileHistory] = {}

    def attach(self, session: Session) -> None:
        """Give a session what records its turns' changes."""
        cwd = session.info.cwd
        history = self._history(cwd) or self._memory.setdefault(cwd, MemoryFileHistory())
        session.changes = TurnChanges(session.append, history, Path(cwd))

    def take(self, session: Session, prompt: str) -> str | None:
        """The checkpoint before a prompt's turn; its id."""
        if session.changes is None:
            return None
        return session.changes.take(prompt, session.ledger.used())

    def checkpoints(self, p: SessionParams) -> CheckpointList:
        session = self._get(p.session_id)
        return {"checkpoints": [c.to_json() for c in checkpoints_of(session.transcript.records)]}

    def _find(self, session: Session, checkpoint_id: str) -> list[CheckpointState]:
        """The checkpoint and those after it; InvalidParams when the conversation has none
        of that id."""
        found = checkpoints_of(session.transcript.records)
        for index, state in enumerate(found):
            if state.checkpoint_id == checkpoint_id:
                return found[index:]
        raise InvalidParams(f"No checkpoint {checkpoint_id!r} in this conversation",
                            data={"field": "checkpointId"})

    async def rewind(self, p: RewindParams) -> Rewound:
        session = self._get(p.session_id)
        _idle(session)
        # A prompt sent while the files are restored would be taken back with them.
        session.busy = True
        try:
            return await self.rewind_now(session, p)
        finally:
            session.busy = False

    async def rewind_now(self, session: Session, p: RewindParams) -> Rewound:
        """A rewind of ``session``, which runs no turn (or runs this one's command)."""
        states = self._find(session, p.checkpoint_id)
        changes = session.changes
        files: list[RewoundFile] = []
        if p.restore in ("code", "both") and changes is not None:
            plans = await asyncio.to_thread(plan_files, states, Path(session.info.cwd),
                                            bool(p.force))
            if p.preview:
                files = await asyncio.to_thread(preview, plans, changes.history)
            else:
                files = await asyncio.to_thread(apply, plans, changes.history)
                session.file_state.forget_results([f["path"] for f in files])
        rewound = p.restore in ("conversation", "both") and not p.preview
        if rewound:
            rewind_conversation(session, states[0], p.restore)
        session.send_usage_update()
        return {"restore": cast(RestoreKind, p.restore),
                "conversation": rewound, "files": files,
                "commands": [c for s in states for c in s.commands],
                "prompt": states[0].prompt, "gauge": session.gauge(bump=False)}

    def kept_before(self, session: Session, checkpoint_id: str) -> int:
        """How many records of the model's view come before the checkpoint's prompt: what
        "summarize from here" keeps verbatim. InvalidParams for a checkpoint an earlier
        compaction already summarized."""
        state = self._find(session, checkpoint_id)[0]
        uuid = session.transcript.records[state.index].uuid
        view = session.transcript.model_view()
        found = next((i for i, m in enumerate(view) if m.uuid == uuid), None)
        if found is None:
            raise InvalidParams("That prompt is before the last compaction: rewind to it, or "
                                "compact the whole conversation", data={"field": "fromCheckpointId"})
        return found

    async def fork(self, p: ForkParams) -> SessionOpened:
        parent = self._get(p.session_id)
        _idle(parent)
        return await self.fork_now(parent, p)

    async def fork_now(self, parent: Session, p: ForkParams) -> SessionOpened:
        """A new session continuing a copy of the conversation, up to the checkpoint's
        prompt or all of it; its records are written to its own transcript at once."""
        from sidecar.core.session import SessionInfo

        records = parent.transcript.records
        if p.checkpoint_id is not None:
            records = records[:self._find(parent, p.checkpoint_id)[0].index]
        title = p.title or f"{parent.info.title or 'Session'} (fork)"
        info = SessionInfo(session_id=new_uuid(), cwd=parent.info.cwd, model=parent.info.model,
                           provider=parent.info.provider, title=title)
        settings = dataclasses.replace(parent.settings, permissions=dataclasses.replace(
            parent.settings.permissions, defaultMode=parent.permissions.mode))
        fork = self._open(info, settings)
        copies = [dataclasses.replace(m, content=list(m.content), extra=dict(m.extra))
                  for m in records]
        fork.transcript.add(*copies)
        # The parent's prefix as it sends it, so the fork's first request repeats it.
        fork.prefix_view, fork.prefix_cursor = parent.prefix_view, parent.prefix_cursor
        fork.rewrite("load")
        fork.rebuild_ledger()
        calls = answered_calls(copies)
        fork.last_usage = calls[-1].usage if calls else None
        fork.persist_state()
        return self._opened(fork)


def _idle(session: Session) -> None:
    if session.busy:
        raise SessionBusy("A turn is running in this session; cancel it or wait",
                          data={"sessionId": session.id})
