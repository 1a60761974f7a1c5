"""The session service: every request a transport receives lands on one method here.

Public methods take the contract's params (decoded and checked by the transport's dispatch)
and return its results; ``sidecar.routes`` says which method serves which wire method.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import time
from pathlib import Path
from typing import Any, Awaitable, Callable, Mapping, cast

from sidecar.contract.errors import (
    CompactionFailed,
    InvalidParams,
    ProviderNotConfigured,
    SessionBusy,
    SessionNotFound,
)
from sidecar.contract.params import (
    CompactParams,
    DocumentChangeParams,
    DocumentCloseParams,
    DocumentOpenParams,
    FilesChangedParams,
    HistoryListParams,
    ListSessionsParams,
    LoadSessionParams,
    NewSessionParams,
    NoParams,
    PromptParams,
    SessionParams,
    SetModelParams,
    SetModeParams,
    SetTitleParams,
)
from sidecar.contract.results import (
    Compacted,
    ContextView,
    Empty,
    Gauge,
    HistoryList,
    HistoryUndone,
    ModelSet,
    PromptResult,
    SessionList,
    SessionModes,
    SessionOpened,
    SessionSummary,
    SkillInfo,
    StopReason,
)
from sidecar.contract.updates import (
    CompactionTrigger,
    available_commands_update,
    session_info_update,
)
from sidecar.core.commands import announced, run_command
from sidecar.core.conversation.history_replay import replay_history
from sidecar.core.conversation.messages import Block, new_uuid
from sidecar.core.conversation.normalize import normalize_for_api
from sidecar.core.conversation.session_ids import is_valid_session_id
from sidecar.core.models.registry import CACHE_FILE, ModelRegistry, endpoint_key
from sidecar.core.models.status import ModelStatus, model_status, today_utc
from sidecar.core.permissions.modes import MODE_IDS, MODES, is_mode
from sidecar.core.ports import (
    Adapters,
    Editor,
    McpServers,
    ModelDescription,
    PromptHistoryStore,
    Provider,
    SessionArchive,
    TranscriptStore,
    WorkspaceWatcher,
)
from sidecar.core.secrets.held_keys import ProcessEnvironment, hold_configured
from sidecar.core.secrets.redaction import RedactingEditor, redact_exception, redact_value
from sidecar.core.session import Session, SessionInfo
from sidecar.core.settings import Settings, storage_dir
from sidecar.core.storage_health import StorageHealth
from sidecar.core.turns.error_advice import configuration_advice, status_line
from sidecar.core.workspace.editor_context import editor_attachments, editor_context_view
from sidecar.core.workspace.prefix import read_ahead
from sidecar.core.workspace.trust import TrustBook

log = logging.getLogger(__name__)

# How long one background look at a provider's models endpoint may take in all (the
# adapters give each request a shorter timeout of their own).
DESCRIBE_TIMEOUT_SECONDS = 30.0

def _redacting_errors(cls: type) -> type:
    """Every public method's errors leave with held keys redacted: a provider's error text
    can echo a credential, and the transports turn these errors into replies as they are."""
    import functools
    import inspect

    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        if inspect.iscoroutinefunction(fn):
            @functools.wraps(fn)
            async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
                try:
                    return await fn(*args, **kwargs)
                except Exception as exc:
                    raise redact_exception(exc)

            return async_wrapper

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            try:
                return fn(*args, **kwargs)
            except Exception as exc:
                raise redact_exception(exc)

        return wrapper

    for name, value in list(vars(cls).items()):
        if not name.startswith("_") and inspect.isfunction(value):
            setattr(cls, name, wrap(value))
    return cls


@_redacting_errors
class SessionService:
    def __init__(self, editor: Editor, settings: Settings, *, adapters: Adapters,
                 environ: Mapping[str, str] | None = None) -> None:
        self.adapters = adapters
        # Whatever leaves through the editor is redacted of the keys the sidecar holds.
        self.editor: Editor = RedactingEditor(editor)  # type: ignore[assignment]
        self.settings = settings
        self.environ = environ if environ is not None else ProcessEnvironment()
        self.sessions: dict[str, Session] = {}
        self._writer: TranscriptStore | None = None
        self._history: PromptHistoryStore | None = None
        self.watchers: dict[str, WorkspaceWatcher] = {}  # one per workspace folder
        # Set by the transport: waits, off the event loop, until the provider SDKs are imported.
        self.sdk_ready: Callable[[], Awaitable[None]] | None = None
        # Told of every context-management event of every session (replay's report).
        self.tier_observers: list[Callable[[dict[str, Any]], None]] = []
        self.storage_health = StorageHealth(self._storage_notice)
        self._skipped: dict[str, tuple[int, int]] = {}  # session id -> (lines, values) at load
        self._loop: asyncio.AbstractEventLoop | None = None
        # What the providers' models endpoints said (read and refreshed after a session
        # opens, never before), the refreshes under way, and per session the lifecycle
        # sentence last said, so a deprecated model is announced once, not on every turn.
        self._models: ModelRegistry | None = None
        self._model_refreshes: dict[str, asyncio.Task[None]] = {}
        self._said: dict[str, str | None] = {}
        # Per session, why its provider cannot be reached (no key, no base URL), until fixed.
        self._not_configured: dict[str, ProviderNotConfigured] = {}
        self.today = today_utc
        # Per session, the SessionStart hooks still running (their context joins the first
        # request, so a prompt waits for them).
        self._starting: dict[str, asyncio.Task[None]] = {}
        # Whether a folder is trusted: until it is, what it ships runs nothing.
        self.trust = TrustBook(lambda: self.storage_dir)
        self.mcp: McpServers = adapters.mcp(self.trust.of)
        self.trust.listeners.append(self.mcp.trusted)
        hold_configured(settings, self.environ)

    # ----- configuration ------------------------------------------------------------

    @property
    def storage_dir(self) -> Path:
        return storage_dir(self.settings)

    def writer(self) -> TranscriptStore:
        if self._writer is None:
            self._writer = self.adapters.transcripts(self.storage_dir, self.storage_health)
        return self._writer

    def history(self) -> PromptHistoryStore:
        if self._history is None:
            self._history = self.adapters.history(self.storage_dir, self.settings,
                                                  self.storage_health)
        return self._history

    def archive(self) -> SessionArchive:
        return self.adapters.archive(self.storage_dir)

    def _storage_notice(self, level: str, message: str, status: str) -> None:
        """Storage failures and recoveries, for the user. Writers may call from a worker
        thread (the history's flush timer); the editor is only spoken to on the loop."""
        def say() -> None:
            self.editor.show_message(level, message)
            self.editor.status("error" if level == "error" else "normal", False, status)

        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is not None or self._loop is None or self._loop.is_closed():
            say()
        else:
            self._loop.call_soon_threadsafe(say)

    def _remember_loop(self) -> None:
        try:
            self._loop = asyncio.get_running_loop()
        except RuntimeError:
            pass

    def storage_view(self, session_id: str) -> dict[str, Any]:
        """The ``storage`` section of sidecar/context."""
        lines, values = self._skipped.get(session_id, (0, 0))
        return {"skippedTranscriptLines": lines, "skippedTranscriptValues": values,
                **self.storage_health.snapshot()}

    def update_settings(self, settings: Settings) -> None:
        old_dir = self.storage_dir
        mcp_changed = (settings.mcpServers, settings.mcp) != (self.settings.mcpServers,
                                                             self.settings.mcp)
        hold_configured(settings, self.environ)
        self.settings = settings
        if self.storage_dir != old_dir:
            self._writer = None
            self._history = None
            self._models = None
        for session in self.sessions.values():
            session.set_model(session.info.model, session.info.provider,
                              dataclasses.replace(settings, model=session.info.model,
                                                  provider=session.info.provider))
            session.rebuild_ledger()
            session.send_usage_update()
            if session.id in self._not_configured:
                try:  # the new settings may fix what was missing
                    self.check_provider(session.settings_for_call(), session.id)
                except ProviderNotConfigured:
                    pass
                if not session.busy:
                    self._idle_status(session)
            self._refresh_models_later(session.settings_for_call())
        if mcp_changed:
            self.mcp.reconfigure(list(self.sessions.values()))

    def provider_factory(self) -> Callable[[Settings], Provider]:
        def make(settings: Settings) -> Provider:
            return self.adapters.provider(settings, self.environ)

        return make

    def check_provider(self, settings: Settings, session_id: str | None = None) -> None:
        """Raise ProviderNotConfigured early, and say so on the status bar (where it stays
        until the configuration is fixed: see ``_idle_status``)."""
        try:
            self.provider_factory()(settings)
        except ProviderNotConfigured as exc:
            advice = configuration_advice(exc)
            if session_id is not None:
                self._not_configured[session_id] = advice
            self.editor.status("error", False, status_line(advice))
            raise advice from exc
        if session_id is not None:
            self._not_configured.pop(session_id, None)

    # ----- sessions -----------------------------------------------------------------

    def _make_session(self, info: SessionInfo, settings: Settings) -> Session:
        from sidecar.core.compaction.pipeline import ContextTiers
        from sidecar.core.conversation.file_state import FileReadState

        self._remember_loop()
        session = Session(
            info, settings, editor=self.editor, writer=self.writer(),
            prefix=self.adapters.prefix(Path(info.cwd), settings), file_state=FileReadState(),
            tools=self.adapters.tools(settings), provider_factory=self.provider_factory(),
            describe=self.described, workspace_trust=lambda: self.trust.of(info.cwd),
        )
        session.tiers = ContextTiers(session)
        session.tiers.observers.extend(self.tier_observers)
        self.sessions[info.session_id] = session
        self._ensure_watcher(info.cwd, session.prefix)
        self.mcp.link(session)
        return session

    def _ensure_watcher(self, cwd: str, prefix: Any) -> None:
        """Watch the workspace's CLAUDE.md files and git state (one watcher per folder)."""
        make = self.adapters.watcher
        if cwd in self.watchers or prefix is None or make is None or \
                self.environ.get("CONTEXT_SIDECAR_NO_WATCH"):
            return
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return
        watcher = make(prefix)
        self.watchers[cwd] = watcher
        asyncio.ensure_future(watcher.start())

    # ----- what the editor reports ---------------------------------------------------

    def document_opened(self, p: DocumentOpenParams) -> None:
        """The editor holds ``text`` for the file now: where a session read other text, its
        read is stale (the same text, such as the echo of the sidecar's own edit, is not)."""
        self._buffer_changed(p.path, p.text)

    def document_changed(self, p: DocumentChangeParams) -> None:
        """An edit in the editor; without the whole text (a ranged edit) it always counts."""
        self._buffer_changed(p.path, p.whole_text)

    def document_closed(self, p: DocumentCloseParams) -> None:
        """Nothing a session holds depends on the open buffer: the next read takes the text
        from the disk and compares its digest with the one recorded."""

    def files_changed(self, p: FilesChangedParams) -> None:
        """Changes the editor's file watcher reports join the watchers' own stream."""
        for watcher in self.watchers.values():
            watcher.feed(list(p.paths))

    def _buffer_changed(self, path: Path, text: str | None) -> None:
        for session in self.sessions.values():
            session.file_state.mark_stale(path, text)

    # ----- sessions -------------------------------------------------------------------

    def get(self, session_id: str) -> Session:
        session = self.sessions.get(session_id)
        if session is None:
            raise SessionNotFound(f"Unknown session {session_id!r}", data={"sessionId": session_id})
        return session

    def new_session(self, p: NewSessionParams) -> SessionOpened:
        settings = dataclasses.replace(
            self.settings, model=p.model or self.settings.model,
            provider=p.provider or self.settings.provider,
        )
        info = SessionInfo(session_id=new_uuid(), cwd=p.cwd, model=settings.model,
                           provider=settings.provider, title=p.title)
        session = self._make_session(info, settings)
        session.rebuild_ledger()
        self._announce(session)
        self._start_hooks(session, "startup")
        return {"sessionId": session.id, "model": info.model, "provider": info.provider,
                "gauge": _gauge(session), "modes": _modes(session)}

    # ----- SessionStart hooks -------------------------------------------------------

    def _start_hooks(self, session: Session, source: str) -> None:
        from sidecar.core.workspace.hooks import may_have_hooks

        if not may_have_hooks(session.settings, Path(session.info.cwd), Path.home(), "SessionStart"):
            return
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return
        self._starting[session.id] = asyncio.ensure_future(self._run_start_hooks(session, source))

    async def _run_start_hooks(self, session: Session, source: str) -> None:
        from sidecar.core.workspace.hooks import session_start

        try:
            for record in await session_start(session, source):
                session.append(record)
        except Exception as exc:  # a hook never fails a session
            log.warning("SessionStart hooks failed: %s", exc)

    async def _started(self, session: Session) -> None:
        task = self._starting.pop(session.id, None)
        if task is not None:
            await task

    def _announce(self, session: Session) -> None:
        session.update(available_commands_update(announced()))
        session.send_usage_update()
        try:
            self.check_provider(session.settings_for_call(), session.id)
        except ProviderNotConfigured:  # said on the status bar; a prompt answers it too
            pass
        except Exception as exc:
            self.editor.status("error", False, getattr(exc, "message", str(exc)))
        else:
            self._said.pop(session.id, None)
            self._say_model_status(session)
        self._refresh_models_later(session.settings_for_call())

    # ----- what the provider says of its models ---------------------------------------

    def models(self) -> ModelRegistry:
        """The registry of what the providers' models endpoints said (no I/O to make it)."""
        if self._models is None:
            self._models = ModelRegistry(self.storage_dir / CACHE_FILE)
        return self._models

    def described(self, settings: Settings) -> ModelDescription | None:
        """What the endpoint ``settings`` point at said of ``settings.model``, from memory."""
        return self.models().describe(endpoint_key(settings, self.environ), settings.model)

    def model_status(self, session: Session) -> ModelStatus:
        return model_status(session.info.model, session.info.provider, session.described(),
                            self.today())

    def _idle_status(self, session: Session) -> None:
        """The status bar between turns: the provider and model, or why the model is not
        current (the warning stays for as long as the model is in use), or what is missing
        to reach the provider at all (the error stays until the settings fix it)."""
        missing = self._not_configured.get(session.id)
        if missing is not None:
            self.editor.status("error", False, status_line(missing))
            return
        sentence = self.model_status(session).message(self.today())
        if sentence:
            self.editor.status("warning", False, f"{session.info.provider} · {sentence}")
        else:
            self.editor.status("normal", False, f"{session.info.provider} · {session.info.model}")

    def _say_model_status(self, session: Session) -> None:
        """Say a deprecated or retired model when the session starts, switches model, or
        the provider has just said so. A retired model also gets a message: its requests
        will fail, and the user should know before the first prompt."""
        status = self.model_status(session)
        sentence = status.message(self.today())
        if session.id in self._said and self._said[session.id] == sentence:
            return
        self._said[session.id] = sentence
        if not session.busy:
            self._idle_status(session)
        if sentence and status.lifecycle == "retired":
            self.editor.show_message("warning", sentence)

    def _refresh_models_later(self, settings: Settings) -> None:
        """Ask the session's provider about its models in a background task: the cache on
        disk first, the endpoint only when the cache has nothing fresh for it."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        key = endpoint_key(settings, self.environ)
        running = self._model_refreshes.get(key)
        if running is not None and not running.done():
            return
        task = loop.create_task(self._refresh_models(key, settings))
        self._model_refreshes[key] = task

    async def _refresh_models(self, key: str, settings: Settings) -> None:
        registry = self.models()
        try:
            await asyncio.to_thread(registry.load)
            self._apply_models()
            if not registry.needs_refresh(key):
                return
            registry.note_attempt(key)
            await self._sdk_ready()
            provider = self.provider_factory()(settings)
            try:
                described = await asyncio.wait_for(provider.describe_models(),
                                                   DESCRIBE_TIMEOUT_SECONDS)
            finally:
                await provider.aclose()
            if described:
                await asyncio.to_thread(registry.store, key, described)
                self._apply_models()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # no key, unreachable, a broken answer: the catalog stands
            log.info("models of %s not refreshed: %s", key, redact_value(str(exc)))

    def _apply_models(self) -> None:
        """Sessions whose window changed get new thresholds and a usage_update; a model the
        provider calls deprecated or retired is said."""
        for session in list(self.sessions.values()):
            if session.refresh_window():
                session.send_usage_update()
            if session.id in self._said:
                self._say_model_status(session)

    async def load_session(self, p: LoadSessionParams) -> SessionOpened:
        """Open a stored session by id, or a transcript file by path. ``cwd`` is the
        workspace the client named: it becomes the session's folder when the transcript
        names none it can use, because tools must never fall back to wherever the sidecar
        happened to be started."""
        session_id, cwd = p.session_id, p.cwd
        self._remember_loop()
        if session_id in self.sessions:
            session = self.sessions[session_id]
        else:
            # Finding and reading a transcript is file I/O: off the event loop.
            archive = self.archive()
            path = await asyncio.to_thread(archive.find, session_id)
            # Only an absolute path: a relative one would resolve against the directory the
            # sidecar was launched from, which the client neither knows nor chose.
            if path is None and os.path.isabs(session_id) and os.path.isfile(session_id):
                path = Path(session_id)
            if path is None and not is_valid_session_id(session_id):
                raise InvalidParams(
                    "sessionId must be a session id (letters, digits, '_', '-' and '.') or "
                    "the absolute path of a transcript file", data={"field": "sessionId"})
            if path is None:
                raise SessionNotFound(f"Unknown session {session_id!r}", data={"sessionId": session_id})
            try:
                loaded = await asyncio.to_thread(archive.read, path)
            except OSError as exc:
                raise InvalidParams(f"cannot read the transcript {path}: {exc.strerror or exc}",
                                    data={"field": "sessionId"}) from exc
            if loaded.warnings:
                self.editor.show_message("warning", f"{path.name}: " + "; ".join(loaded.warnings))
            sid = loaded.session_id or _id_for_file(path, session_id)
            if not is_valid_session_id(sid):
                raise InvalidParams(
                    f"the transcript's sessionId {sid!r} is not a safe file name; it cannot be "
                    "continued", data={"field": "sessionId", "path": str(path)})
            if _usable_cwd(loaded.cwd):
                folder = str(loaded.cwd)
            elif cwd is not None:
                folder = cwd
            else:
                raise InvalidParams(
                    f"{path.name} names no usable working directory; pass cwd (the workspace "
                    "folder) to load it", data={"field": "cwd", "path": str(path)})
            settings = dataclasses.replace(
                self.settings, model=loaded.model or self.settings.model,
                provider=loaded.provider or self.settings.provider,
            )
            info = SessionInfo(session_id=sid, cwd=folder, model=settings.model,
                               provider=settings.provider, title=loaded.title)
            await read_ahead(self.adapters.prefix, folder, settings)
            session = self._make_session(info, settings)
            self._skipped[sid] = (loaded.torn_lines, loaded.skipped_values)
            if sid != session_id:
                self.sessions[session_id] = session
            session.restore(loaded.messages)
            if is_mode(loaded.permission_mode):
                session.set_mode(str(loaded.permission_mode), restored=True)
            plan = session.plan_file()
            session.planned = session.planned or (plan is not None and await asyncio.to_thread(plan.exists))
            self._start_hooks(session, "resume")
        replay_history(session)
        self._announce(session)
        return {"sessionId": session.id, "model": session.info.model,
                "provider": session.info.provider, "gauge": _gauge(session), "modes": _modes(session)}

    async def list_sessions(self, p: ListSessionsParams) -> SessionList:
        cwd = p.cwd
        # Listing reads the heads and tails of transcript files: off the event loop.
        stored = await asyncio.to_thread(lambda: [x.to_json() for x in self.archive().list(cwd)])
        found = {s["sessionId"]: cast(SessionSummary, s) for s in stored}
        out = list(found.values())
        for session in self.sessions.values():
            if session.id in found:
                # An open session's size is the gauge's, newer than its last state record.
                found[session.id]["used"] = session.ledger.used()
                found[session.id]["size"] = session.thresholds.size
                continue
            if cwd and session.info.cwd != cwd:
                continue
            out.append({
                "sessionId": session.id, "title": session.info.title, "cwd": session.info.cwd,
                "model": session.info.model, "provider": session.info.provider,
                "createdAt": _iso(session.info.created_at), "updatedAt": _iso(session.updated_at),
                "used": session.ledger.used(), "size": session.thresholds.size,
            })
        out.sort(key=lambda s: s.get("updatedAt") or "", reverse=True)
        return {"sessions": out}

    async def close_session(self, p: SessionParams) -> Empty:
        await self._close(self.get(p.session_id))
        return {}

    async def _close(self, session: Session) -> None:
        await self._cancel(session.id, wait=True)
        session.persist_state()
        await session.close_provider()
        self.sessions.pop(session.id, None)
        self._said.pop(session.id, None)
        self._not_configured.pop(session.id, None)
        self.mcp.unlink(session.id)
        self.writer().close_session(session.id, session.info.cwd)

    async def delete_session(self, p: SessionParams) -> Empty:
        session_id = p.session_id
        if session_id in self.sessions:
            await self._close(self.sessions[session_id])
        if not await asyncio.to_thread(self.archive().delete, session_id):
            raise SessionNotFound(f"Unknown session {session_id!r}", data={"sessionId": session_id})
        return {}

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
            self._remember_loop()
            text = "".join(b.get("text", "") for b in blocks if b.get("type") == "text").strip()
            self._record_history(session, blocks)
            # Opening a reopened transcript (seal, scan back for the chain) reads the file:
            # do it in a worker thread so the appends during the turn only write.
            await asyncio.to_thread(self.writer().prepare, session.id, session.info.cwd)
            await self._started(session)
            if text.startswith("/"):
                handled = await self._slash(session, text)
                if handled is not None:
                    return {"stopReason": handled, "gauge": _gauge(session)}
            self.check_provider(session.settings_for_call(), session.id)
            blocks, attached = await editor_attachments(session, blocks)
            for record in attached:
                session.append(record)
            await self._sdk_ready()
            self.editor.status("normal", True, "Thinking…")
            stop = cast(StopReason, await session.run_turn(blocks))
            return {"stopReason": stop, "gauge": _gauge(session)}
        finally:
            session.busy = False
            self._idle_status(session)

    def _record_history(self, session: Session, blocks: list[Block]) -> None:
        if self.environ.get("CLAUDE_CODE_SKIP_PROMPT_HISTORY"):
            return
        try:
            self.history().add_prompt(blocks, project=session.info.cwd, session_id=session.id)
        except Exception as exc:  # history is a convenience; never fail a turn on it
            log.warning("prompt history not recorded: %s", exc)

    async def _slash(self, session: Session, text: str) -> StopReason | None:
        return await run_command(self, session, text)

    async def cancel(self, p: SessionParams) -> None:
        """``session/cancel``: a running turn ends with stopReason "cancelled"."""
        await self._cancel(p.session_id)

    async def _cancel(self, session_id: str, wait: bool = False) -> None:
        session = self.sessions.get(session_id)
        if session is None:
            return
        session.cancel_event.set()
        if session.tiers is not None:
            session.tiers.cancel()
        if wait:
            for _ in range(100):
                if not session.busy:
                    break
                await asyncio.sleep(0.05)

    def set_model(self, p: SetModelParams) -> ModelSet:
        session = self.get(p.session_id)
        self._set_model(session, p.model, p.provider)
        return {"gauge": _gauge(session)}

    def _set_model(self, session: Session, model: str, provider: str | None) -> None:
        session.set_model(model, provider, dataclasses.replace(
            session.settings, model=model, provider=provider or session.info.provider))
        session.rebuild_ledger()
        session.send_usage_update()
        session.persist_state()
        self._said.pop(session.id, None)
        self._say_model_status(session)
        self._refresh_models_later(session.settings_for_call())

    def set_mode(self, p: SetModeParams) -> Empty:
        """``session/set_mode``: a permission mode for the session (it persists with it)."""
        self._set_mode(self.get(p.session_id), p.mode_id)
        return {}

    def _set_mode(self, session: Session, mode: str) -> None:
        if not is_mode(mode):
            raise InvalidParams(f"unknown mode {mode!r}; the modes are {', '.join(MODE_IDS)}",
                                data={"field": "modeId"})
        session.set_mode(mode)

    async def set_title(self, p: SetTitleParams) -> Empty:
        """``session/set_title``: a new title for an open or stored session. It is stored
        with the session, and an open one tells its client with ``session_info_update``."""
        title = p.title.strip()
        if not title:
            raise InvalidParams("title must not be blank", data={"field": "title"})
        session = self.sessions.get(p.session_id)
        if session is None:
            if not await asyncio.to_thread(self.archive().retitle, p.session_id, title):
                raise SessionNotFound(f"Unknown session {p.session_id!r}", data={"sessionId": p.session_id})
            return {}
        session.info.title = title
        session.persist_state()
        session.update(session_info_update(title=title))
        return {}

    def gauge(self, p: SessionParams) -> Gauge:
        return _gauge(self.get(p.session_id))

    async def compact(self, p: CompactParams) -> Compacted:
        session = self.get(p.session_id)
        await self._started(session)
        return await self._compact(session, p.instructions, trigger="manual",
                                   work_done_token=p.work_done_token)

    async def _compact(self, session: Session, instructions: str | None, *,
                       trigger: CompactionTrigger,
                       work_done_token: str | int | None = None) -> Compacted:
        if not session.settings.manualCompact:
            raise CompactionFailed(
                "Compaction is turned off (DISABLE_COMPACT is set); use /clear to start over",
                data={"tier": "full", "reason": "disabled"})
        assert session.tiers is not None
        await self._sdk_ready()
        return cast(Compacted, await session.tiers.compact_now(
            trigger=trigger, instructions=instructions, work_done_token=work_done_token))

    async def context_view(self, p: SessionParams) -> ContextView:
        return await self._context_view(self.get(p.session_id))

    async def _context_view(self, session: Session) -> ContextView:
        from sidecar.core.accounting.context_view import withheld_view

        trust, skipped, withheld = await asyncio.to_thread(
            withheld_view, self.trust, session.settings, session.info.cwd)
        prefix: dict[str, Any] = {"parts": session.prefix_parts(), "memoryFiles": []}
        if session.prefix_view is not None:
            prefix["memoryFiles"] = session.prefix_view.memory_files()
        messages = [m.to_json() for m in normalize_for_api(session.transcript.since_boundary(), session.tool_names())]
        return cast(ContextView, {
            "gauge": _gauge(session),
            "exact": await self._exact_count(session),
            "watcher": self.watchers[session.info.cwd].mode if session.info.cwd in self.watchers else "off",
            "prefix": prefix,
            "fileReadState": session.file_state.snapshot(),
            "messages": messages,
            "storage": self.storage_view(session.id),
            "lastCompaction": session.transcript.last_compaction(),
            "editorContext": editor_context_view(session),
            "modelStatus": self.model_status(session).to_json(self.today()),
            "skills": await self._skills_view(session),
            "mcpServers": self.mcp.statuses(session),
            "skippedHookFiles": skipped,
            "workspaceTrust": {"trusted": trust.trusted, "source": trust.source,
                               "withheld": withheld},
        })

    async def _skills_view(self, session: Session) -> list[SkillInfo]:
        from sidecar.core.workspace.skills import discover_skills, invoked_skill_names

        skills = await asyncio.to_thread(discover_skills, Path(session.info.cwd), Path.home())
        invoked = set(invoked_skill_names(session.transcript.records))
        return [{"name": s.name, "description": s.description, "source": s.source,
                 "invoked": s.name in invoked} for s in skills]

    async def _sdk_ready(self) -> None:
        if self.sdk_ready is not None:
            await self.sdk_ready()

    async def _exact_count(self, session: Session) -> dict[str, Any] | None:
        """The next request counted exactly: the provider's count-tokens endpoint where it
        has one, else tiktoken over the request's text; None when neither is available."""
        await self._sdk_ready()
        # Labelled a count: it is no turn of the conversation, so the prefix rules of the
        # conversation's own requests do not apply to it.
        request = session.build_request(call="count")
        try:
            counted = await asyncio.wait_for(session.provider().count_tokens(request), 10)
            if counted is not None:
                return {"tokens": int(counted), "source": "count_tokens"}
        except Exception as exc:  # no key, provider down: the estimate stands
            log.info("count_tokens unavailable: %s", exc)
        from sidecar.core.accounting.tokens import load_encoding

        enc = load_encoding(session.info.model)
        if enc is None:
            return None
        import json as _json

        text = _json.dumps([b for b in request.system]) + _json.dumps(
            [s.__dict__ for s in request.tools]) + _json.dumps([m.to_json() for m in request.messages])
        return {"tokens": len(enc.encode_ordinary(text)), "source": f"tiktoken:{enc.name}"}

    async def history_list(self, p: HistoryListParams) -> HistoryList:
        history = self.history()
        entries = await asyncio.to_thread(
            history.list, limit=p.limit or self.settings.history.maxItems, project=p.project)
        return cast(HistoryList, {"entries": [e.to_json() for e in entries]})

    async def history_undo(self, p: NoParams) -> HistoryUndone:
        # Undo takes the history's file lock, which another process may hold for a while.
        removed = await asyncio.to_thread(self.history().undo)
        return cast(HistoryUndone, {"removed": removed.to_json() if removed is not None else None})

    async def shutdown(self) -> None:
        """Stop everything; succeeds whatever the disk does (failures are said, not raised)."""
        self._remember_loop()
        refreshes = [t for t in self._model_refreshes.values() if not t.done()]
        for task in refreshes:
            task.cancel()
        await asyncio.gather(*refreshes, return_exceptions=True)
        for session in list(self.sessions.values()):
            try:
                await self._cancel(session.id)
                session.persist_state()
                await session.close_provider()
            except Exception as exc:
                log.error("session %s not closed cleanly: %s", session.id, exc)
        await self.mcp.aclose()
        for watcher in self.watchers.values():
            try:
                await watcher.stop()
            except Exception as exc:
                log.debug("watcher stop failed: %s", exc)
        for store in (self._history, self._writer):
            if store is None:
                continue
            try:
                await asyncio.to_thread(store.close)
            except Exception as exc:
                log.error("storage not closed cleanly: %s", exc)


def _id_for_file(path: Path, requested: str) -> str:
    """The id of a transcript whose records name none: the one asked for, else the file's
    name (Claude Code names files by session id), else a new one, never a path."""
    for candidate in (requested, path.stem):
        if is_valid_session_id(candidate):
            return candidate
    return new_uuid()


def _gauge(session: Session) -> Gauge:
    # build_gauge is typed loosely; the contract's Gauge is the shape it builds.
    return session.gauge(bump=False)


def _modes(session: Session) -> SessionModes:
    return {"currentModeId": session.mode, "availableModes": list(MODES)}


def _usable_cwd(value: Any) -> bool:
    return isinstance(value, str) and os.path.isabs(value) and "\x00" not in value


def _iso(ts: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ts)) + f".{int(ts * 1000) % 1000:03d}Z"
