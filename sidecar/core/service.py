"""The session service: the facade every transport calls (``sidecar.routes`` says which of
its calls serves which wire method).

It opens, loads, lists and closes sessions and runs their turns. What keeps arriving lives
in rooms of its own, built here and held by the service:

- ``models`` (``core/models/session_models.py``): switching a session's model, whether its
  provider can be reached, what the providers' models endpoints say, the status bar;
- ``report`` (``core/accounting/context_report.py``): the context report;
- ``documents`` (``core/workspace/editor_reports.py``): what the editor reports of files,
  and the workspace watchers;
- ``prompt_history`` (``core/conversation/prompt_history.py``): the prompt history;
- ``stores`` (``core/stores.py``): the transcript writer, history store and archive;
- ``start_hooks`` (``core/workspace/start_hooks.py``): the SessionStart hooks;
- ``checkpoints`` (``core/checkpoints/room.py``): a checkpoint before each prompt's turn,
  rewinding the conversation and the files, forking;
- the slash commands (``core/commands.py``), which reach the rooms through the service.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from pathlib import Path
from typing import Any, Awaitable, Callable, Mapping, cast

from sidecar.contract.errors import CompactionFailed, InvalidParams, SessionBusy, SessionNotFound
from sidecar.contract.params import (
    CompactParams,
    ListSessionsParams,
    LoadSessionParams,
    NewSessionParams,
    PromptParams,
    SessionParams,
    SetModeParams,
    SetTitleParams,
)
from sidecar.contract.results import (
    Compacted,
    Empty,
    Gauge,
    PromptResult,
    SessionList,
    SessionOpened,
    StopReason,
)
from sidecar.contract.updates import (
    CompactionTrigger,
    available_commands_update,
    session_info_update,
)
from sidecar.core.accounting.context_report import ContextReport
from sidecar.core.checkpoints.ports import FileHistory
from sidecar.core.checkpoints.room import Checkpoints
from sidecar.core.commands import announced, run_command
from sidecar.core.conversation.history_replay import replay_history
from sidecar.core.conversation.messages import Block, new_uuid
from sidecar.core.conversation.prompt_history import PromptHistory
from sidecar.core.models.session_models import SessionModels
from sidecar.core.permissions.modes import MODES
from sidecar.core.ports import Adapters, Editor
from sidecar.core.secrets.held_keys import ProcessEnvironment, hold_configured
from sidecar.core.secrets.redacting import redacting_errors
from sidecar.core.secrets.redaction import RedactingEditor, redact_value
from sidecar.core.session import Session, SessionInfo
from sidecar.core.session_catalog import listed, read_stored
from sidecar.core.settings import Settings
from sidecar.core.stores import Stores
from sidecar.core.subagents.runner import SessionSubagents, SubagentParts
from sidecar.core.workspace.editor_context import editor_attachments
from sidecar.core.workspace.editor_reports import EditorReports
from sidecar.core.workspace.prefix import read_ahead
from sidecar.core.workspace.start_hooks import StartHooks
from sidecar.core.workspace.trust import TrustBook

log = logging.getLogger(__name__)


@redacting_errors
class SessionService:
    def __init__(self, editor: Editor, settings: Settings, *, adapters: Adapters,
                 environ: Mapping[str, str] | None = None) -> None:
        self.adapters = adapters
        # Whatever leaves through the editor is redacted of the keys the sidecar holds.
        self.editor: Editor = RedactingEditor(editor)  # type: ignore[assignment]
        self.settings = settings
        self.environ = environ if environ is not None else ProcessEnvironment()
        self.sessions: dict[str, Session] = {}
        # Set by the transport: waits, off the event loop, until the provider SDKs are imported.
        # Awaits the SDK of a provider (None: of every provider in use) loading off the loop.
        self.sdk_ready: Callable[[str | None], Awaitable[None]] | None = None
        # Told of every context-management event of every session (replay's report).
        self.tier_observers: list[Callable[[dict[str, Any]], None]] = []
        self.stores = Stores(adapters, lambda: self.settings, self.editor)
        # Whether a folder is trusted: until it is, what it ships runs nothing.
        self.trust = TrustBook(lambda: self.stores.directory)
        self.mcp = adapters.mcp(self.trust.of)
        self.trust.listeners.append(self.mcp.trusted)
        self.models = SessionModels(
            editor=self.editor, sessions=self.sessions, get=self.get,
            provider=lambda s: self.adapters.provider(s, self.environ),
            storage_dir=lambda: self.stores.directory, environ=self.environ,
            ready=self._sdk_ready, settings=lambda: self.settings)
        self.documents = EditorReports(self.sessions, adapters.watcher, self.environ, self.mcp)
        self.report = ContextReport(get=self.get, trust=self.trust,
                                    watchers=self.documents.watchers, stores=self.stores,
                                    models=self.models, mcp=self.mcp, ready=self._sdk_ready)
        self.prompt_history = PromptHistory(self.stores, lambda: self.settings, self.environ)
        self.checkpoints = Checkpoints(get=self.get, history=self._file_history,
                                       open_session=self._open, opened=self._forked)
        self.start_hooks = StartHooks()
        hold_configured(settings, self.environ)

    def update_settings(self, settings: Settings, *, open_sessions: bool = True) -> None:
        """New settings: the keys they name are held, a moved storage directory is opened
        anew, and open sessions take them (each keeps its model), their MCP servers
        connecting anew when the servers' settings changed. With ``open_sessions`` False
        (a workspace's own settings), only sessions opened from now on take them."""
        old_dir = self.stores.directory
        mcp_changed = (settings.mcpServers, settings.mcp) != (self.settings.mcpServers,
                                                             self.settings.mcp)
        hold_configured(settings, self.environ)
        self.settings = settings
        if self.stores.directory != old_dir:
            self.stores.moved()
            self.models.storage_moved()
        if not open_sessions:
            return
        for session in self.sessions.values():
            self.models.settings_changed(session, settings)
        if mcp_changed:
            self.mcp.reconfigure(list(self.sessions.values()))

    # ----- sessions -----------------------------------------------------------------

    def get(self, session_id: str) -> Session:
        session = self.sessions.get(session_id)
        if session is None:
            raise SessionNotFound(f"Unknown session {session_id!r}", data={"sessionId": session_id})
        return session

    def _open(self, info: SessionInfo, settings: Settings) -> Session:
        from sidecar.core.conversation.file_state import FileReadState

        self.stores.remember_loop()
        session = Session(
            info, settings, editor=self.editor, writer=self.stores.writer(),
            prefix=self.adapters.prefix(Path(info.cwd), settings), file_state=FileReadState(),
            tools=self.adapters.tools(settings), provider_factory=self.models.provider,
            describe=self.models.described, workspace_trust=lambda: self.trust.of(info.cwd),
            mcp=self.mcp, tier_observers=self.tier_observers,
            server_tools=self.adapters.server_tools,
        )
        # Its Task tool runs subagents: sessions built from the same pieces.
        SessionSubagents(session, SubagentParts(
            tools=self.adapters.tools, provider=self.models.provider,
            describe=self.models.described, writer=self.stores.writer,
            trusted=lambda: self.trust.of(info.cwd).trusted, home=self.adapters.home,
            tier_observers=self.tier_observers))
        self.checkpoints.attach(session)
        self.sessions[info.session_id] = session
        self.documents.watch(info.cwd, session.prefix)
        return session

    def _file_history(self, cwd: str) -> FileHistory | None:
        make = self.adapters.file_history
        return make(self.stores.directory, cwd) if make is not None else None

    def _forked(self, session: Session) -> SessionOpened:
        self._announce(session)
        self.start_hooks.start(session, "resume")
        return _opened(session)

    def _announce(self, session: Session) -> None:
        """Tell the client of an opened session: its commands, its gauge, and what is wrong
        with its provider or model, if anything."""
        session.update(available_commands_update(announced()))
        session.send_usage_update()
        self.models.opened(session)

    def new_session(self, p: NewSessionParams) -> SessionOpened:
        """``session/new``: on the model the params name, else the one last chosen in a
        session of the same workspace, else the settings' model."""
        pick = self.models.picked(p.cwd)
        if p.model or (pick is not None and p.provider and p.provider != pick[1]):
            pick = None
        settings = dataclasses.replace(
            self.settings, model=p.model or (pick[0] if pick else self.settings.model),
            provider=p.provider or (pick[1] if pick else self.settings.provider),
        )
        info = SessionInfo(session_id=new_uuid(), cwd=p.cwd, model=settings.model,
                           provider=settings.provider, title=p.title)
        session = self._open(info, settings)
        session.rebuild_ledger()
        self._announce(session)
        self.start_hooks.start(session, "startup")
        return _opened(session)

    async def load_session(self, p: LoadSessionParams) -> SessionOpened:
        """Open a stored session by id, or a transcript file by path (see
        ``session_catalog.read_stored``); an open one is replayed to the client again."""
        self.stores.remember_loop()
        session = self.sessions.get(p.session_id)
        if session is None:
            session = await self._load(p.session_id, p.cwd)
        replay_history(session)
        self._announce(session)
        return _opened(session)

    async def _load(self, session_id: str, cwd: str | None) -> Session:
        sid, folder, loaded = await read_stored(self.stores.archive(), self.editor, session_id, cwd)
        settings = dataclasses.replace(
            self.settings, model=loaded.model or self.settings.model,
            provider=loaded.provider or self.settings.provider,
        )
        info = SessionInfo(session_id=sid, cwd=folder, model=settings.model,
                           provider=settings.provider, title=loaded.title)
        await read_ahead(self.adapters.prefix, folder, settings)
        session = self._open(info, settings)
        self.stores.skipped[sid] = (loaded.torn_lines, loaded.skipped_values)
        if sid != session_id:
            self.sessions[session_id] = session
        session.restore(loaded.messages)
        await session.permissions.restore(loaded.permission_mode)
        self.start_hooks.start(session, "resume")
        return session

    async def list_sessions(self, p: ListSessionsParams) -> SessionList:
        return await listed(self.stores.archive(), self.sessions.values(), p.cwd)

    async def close_session(self, p: SessionParams) -> Empty:
        await self._close(self.get(p.session_id))
        return {}

    async def _close(self, session: Session) -> None:
        await self._cancel(session.id, wait=True)
        session.persist_state()
        await session.close_provider()
        await session.resources.aclose()
        self.sessions.pop(session.id, None)
        self.models.closed(session.id)
        self.mcp.unlink(session.id)
        self.stores.writer().close_session(session.id, session.info.cwd)

    async def delete_session(self, p: SessionParams) -> Empty:
        session_id = p.session_id
        if session_id in self.sessions:
            await self._close(self.sessions[session_id])
        if not await asyncio.to_thread(self.stores.archive().delete, session_id):
            raise SessionNotFound(f"Unknown session {session_id!r}", data={"sessionId": session_id})
        return {}

    async def set_title(self, p: SetTitleParams) -> Empty:
        """``session/set_title``: a new title for an open or stored session. It is stored
        with the session, and an open one tells its client with ``session_info_update``."""
        title = p.title.strip()
        if not title:
            raise InvalidParams("title must not be blank", data={"field": "title"})
        session = self.sessions.get(p.session_id)
        if session is None:
            if not await asyncio.to_thread(self.stores.archive().retitle, p.session_id, title):
                raise SessionNotFound(f"Unknown session {p.session_id!r}", data={"sessionId": p.session_id})
            return {}
        session.info.title = title
        session.persist_state()
        session.update(session_info_update(title=title))
        return {}

    def set_mode(self, p: SetModeParams) -> Empty:
        """``session/set_mode``: a permission mode for the session (it persists with it)."""
        self.get(p.session_id).permissions.choose(p.mode_id)
        return {}

    def gauge(self, p: SessionParams) -> Gauge:
        return self.get(p.session_id).gauge(bump=False)

    # ----- turns --------------------------------------------------------------------

    async def prompt(self, p: PromptParams) -> PromptResult:
        session = self.get(p.session_id)
        # A key pasted into the prompt goes no further: not to history, model or transcript.
        hold_configured(session.settings, self.environ)
        blocks: list[Block] = redact_value(p.prompt)
        if session.busy:
            raise SessionBusy("A turn is already running in this session; cancel it or wait",
                              data={"sessionId": session.id})
        session.busy = True
        try:
            self.stores.remember_loop()
            text = "".join(b.get("text", "") for b in blocks if b.get("type") == "text").strip()
            self.prompt_history.record(session, blocks)
            # Opening a reopened transcript (seal, scan back for the chain) reads the file:
            # do it in a worker thread so the appends during the turn only write.
            await asyncio.to_thread(self.stores.writer().prepare, session.id, session.info.cwd)
            await self.start_hooks.started(session)
            if text.startswith("/"):
                handled = await run_command(self, session, text)
                if handled is not None:
                    return {"stopReason": handled, "gauge": session.gauge(bump=False)}
            self.models.check_provider(session.settings_for_call(), session.id)
            checkpoint = self.checkpoints.take(session, text)
            blocks, attached = await editor_attachments(session, blocks)
            for record in attached:
                session.append(record)
            await self._sdk_ready(session.settings_for_call().provider)
            self.editor.status("normal", True, "Thinking…")
            stop = cast(StopReason, await session.run_turn(blocks))
            result: PromptResult = {"stopReason": stop, "gauge": session.gauge(bump=False)}
            if checkpoint is not None:
                result["checkpointId"] = checkpoint
            return result
        finally:
            session.busy = False
            self.models.idle_status(session)

    async def cancel(self, p: SessionParams) -> None:
        """``session/cancel``: a running turn ends with stopReason "cancelled"."""
        await self._cancel(p.session_id)

    async def _cancel(self, session_id: str, wait: bool = False) -> None:
        session = self.sessions.get(session_id)
        if session is None:
            return
        session.cancel_event.set()
        session.tiers.cancel()
        if wait:
            for _ in range(100):
                if not session.busy:
                    break
                await asyncio.sleep(0.05)

    async def compact(self, p: CompactParams) -> Compacted:
        """``sidecar/compact``; with ``fromCheckpointId``, "summarize from here"."""
        session = self.get(p.session_id)
        await self.start_hooks.started(session)
        keep = (self.checkpoints.kept_before(session, p.from_checkpoint_id)
                if p.from_checkpoint_id is not None else None)
        return await self._compact(session, p.instructions, trigger="manual",
                                   work_done_token=p.work_done_token, keep=keep)

    async def _compact(self, session: Session, instructions: str | None, *,
                       trigger: CompactionTrigger, work_done_token: str | int | None = None,
                       keep: int | None = None) -> Compacted:
        if not session.settings.manualCompact:
            raise CompactionFailed(
                "Compaction is turned off (DISABLE_COMPACT is set); use /clear to start over",
                data={"tier": "full", "reason": "disabled"})
        await self._sdk_ready(session.settings_for_call().provider)
        return cast(Compacted, await session.tiers.compact_now(
            trigger=trigger, instructions=instructions, work_done_token=work_done_token,
            keep=keep))

    async def _sdk_ready(self, provider: str | None = None) -> None:
        if self.sdk_ready is not None:
            await self.sdk_ready(provider)

    async def shutdown(self) -> None:
        """Stop everything; succeeds whatever the disk does (failures are said, not raised)."""
        self.stores.remember_loop()
        await self.models.aclose()
        for session in list(self.sessions.values()):
            try:
                await self._cancel(session.id)
                await session.resources.aclose()
                session.persist_state()
                await session.close_provider()
            except Exception as exc:
                log.error("session %s not closed cleanly: %s", session.id, exc)
        await self.mcp.aclose()
        await self.documents.stop()
        await self.stores.close()


def _opened(session: Session) -> SessionOpened:
    return {"sessionId": session.id, "model": session.info.model,
            "provider": session.info.provider, "gauge": session.gauge(bump=False),
            "modes": {"currentModeId": session.permissions.mode, "availableModes": list(MODES)}}
