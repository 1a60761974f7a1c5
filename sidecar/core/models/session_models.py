"""The model of every open session in one place: switching it, whether its provider can be
reached, what the providers' models endpoints say of it (asked in the background, after a
session opens), and the status bar's and messages' account of it."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Awaitable, Callable, Mapping

from sidecar.contract.errors import ProviderNotConfigured
from sidecar.contract.params import SessionParams, SetModelParams
from sidecar.contract.results import ModelList, ModelSet
from sidecar.core.models.listing import model_list
from sidecar.core.models.notices import NOTICES_FILE, ShownNotices
from sidecar.core.models.registry import CACHE_FILE, ModelRegistry, endpoint_key
from sidecar.core.models.status import ModelStatus, model_status, today_utc
from sidecar.core.ports import Editor, ModelDescription, Provider
from sidecar.core.secrets.redacting import redacting_errors
from sidecar.core.secrets.redaction import redact_value
from sidecar.core.settings import Settings
from sidecar.core.turns.error_advice import configuration_advice, status_line

if TYPE_CHECKING:
    from sidecar.core.session import Session

log = logging.getLogger(__name__)

# How long one background look at a provider's models endpoint may take in all (the
# adapters give each request a shorter timeout of their own).
DESCRIBE_TIMEOUT_SECONDS = 30.0
# How long ``sidecar/models`` waits for a stale list's refresh before answering from what
# it has (the refresh goes on, and the next ask gets its answer).
LIST_WAIT_SECONDS = 10.0


@redacting_errors
class SessionModels:
    def __init__(self, *, editor: Editor, sessions: Mapping[str, Session],
                 get: Callable[[str], Session],
                 provider: Callable[[Settings], Provider], storage_dir: Callable[[], Path],
                 environ: Mapping[str, str], ready: Callable[[], Awaitable[None]],
                 settings: Callable[[], Settings] | None = None) -> None:
        self._editor = editor
        self._sessions = sessions
        self._get = get
        # Makes the provider of a settings' endpoint (ProviderNotConfigured when it cannot).
        self.provider = provider
        self._storage_dir = storage_dir
        self._environ = environ
        self._ready = ready
        self._settings = settings
        self.today = today_utc
        # What the providers' models endpoints said (read and refreshed after a session
        # opens, never before), the refreshes under way, and per session the lifecycle
        # sentence last said, so a deprecated model is announced once, not on every turn.
        self._registry: ModelRegistry | None = None
        self.refreshes: dict[str, asyncio.Task[None]] = {}
        self._said: dict[str, str | None] = {}
        self._notices: ShownNotices | None = None
        # Per session, why its provider cannot be reached (no key, no base URL), until fixed.
        self._not_configured: dict[str, ProviderNotConfigured] = {}
        # Per workspace, the model (and provider) the user last switched a session to: a
        # new session there opens on it, as /model persists in Claude Code, until the
        # settings name another model than they did then (kept with the pick).
        self._picks: dict[str, tuple[str, str, tuple[str, str] | None]] = {}

    # ----- switching ------------------------------------------------------------------

    def set_model(self, p: SetModelParams) -> ModelSet:
        """``session/set_model``."""
        session = self._get(p.session_id)
        self.switch(session, p.model, p.provider)
        return {"gauge": session.gauge(bump=False)}

    def switch(self, session: Session, model: str, provider: str | None) -> None:
        """Give ``session`` another model (and provider); it is stored with the session."""
        session.set_model(model, provider, dataclasses.replace(
            session.settings, model=model, provider=provider or session.info.provider))
        session.rebuild_ledger()
        session.send_usage_update()
        session.persist_state()
        self._picks[session.info.cwd] = (session.info.model, session.info.provider,
                                         self._configured())
        self._said.pop(session.id, None)
        self._say_status(session)
        self.refresh_later(session.settings_for_call())

    def picked(self, cwd: str) -> tuple[str, str] | None:
        """The model and provider last chosen in a session of ``cwd``, unless the settings
        have named another model since (then the settings win)."""
        pick = self._picks.get(cwd)
        if pick is None or pick[2] != self._configured():
            return None
        return pick[0], pick[1]

    def _configured(self) -> tuple[str, str] | None:
        settings = self._settings() if self._settings is not None else None
        return (settings.model, settings.provider) if settings is not None else None

    # ----- what a session can switch to -----------------------------------------------

    def choices(self, session: Session) -> ModelList:
        """The models ``session`` can switch to, from what is in memory (no I/O)."""
        listed = self.registry().listed(endpoint_key(session.settings_for_call(), self._environ))
        return model_list(session.info.provider, session.info.model, listed,
                          session.described(), self.today())

    async def list_models(self, p: SessionParams) -> ModelList:
        """``sidecar/models``: the provider's list, refreshed first when stale."""
        return await self.fresh_choices(self._get(p.session_id))

    async def fresh_choices(self, session: Session) -> ModelList:
        settings = session.settings_for_call()
        self.refresh_later(settings)
        task = self.refreshes.get(endpoint_key(settings, self._environ))
        if task is not None and not task.done():
            try:
                await asyncio.wait_for(asyncio.shield(task), LIST_WAIT_SECONDS)
            except asyncio.TimeoutError:
                log.info("models list answered before its refresh ended")
        return self.choices(session)

    def settings_changed(self, session: Session, settings: Settings) -> None:
        """New settings for an open session: its model keeps, the rest follows them."""
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
                self.idle_status(session)
        self.refresh_later(session.settings_for_call())

    def opened(self, session: Session) -> None:
        """A session opened: say what is wrong with its provider or model, if anything."""
        try:
            self.check_provider(session.settings_for_call(), session.id)
        except ProviderNotConfigured:  # said on the status bar; a prompt answers it too
            pass
        except Exception as exc:
            self._editor.status("error", False, getattr(exc, "message", str(exc)))
        else:
            self._said.pop(session.id, None)
            self._say_status(session)
        self.refresh_later(session.settings_for_call())

    def closed(self, session_id: str) -> None:
        self._said.pop(session_id, None)
        self._not_configured.pop(session_id, None)

    def storage_moved(self) -> None:
        """The registry's cache is read anew from the new storage directory."""
        self._registry = None

    def check_provider(self, settings: Settings, session_id: str | None = None) -> None:
        """Raise ProviderNotConfigured early, and say so on the status bar (where it stays
        until the configuration is fixed: see ``idle_status``)."""
        try:
            self.provider(settings)
        except ProviderNotConfigured as exc:
            advice = configuration_advice(exc)
            if session_id is not None:
                self._not_configured[session_id] = advice
            self._editor.status("error", False, status_line(advice))
            raise advice from exc
        if session_id is not None:
            self._not_configured.pop(session_id, None)

    # ----- what the provider says of its models ---------------------------------------

    def notices(self) -> ShownNotices:
        """The messages about models already shown today (kept beside the models cache)."""
        path = self._storage_dir() / NOTICES_FILE
        if self._notices is None or self._notices.path != path:
            self._notices = ShownNotices(path)
        return self._notices

    def registry(self) -> ModelRegistry:
        """The registry of what the providers' models endpoints said (no I/O to make it)."""
        if self._registry is None:
            self._registry = ModelRegistry(self._storage_dir() / CACHE_FILE)
        return self._registry

    def described(self, settings: Settings) -> ModelDescription | None:
        """What the endpoint ``settings`` point at said of ``settings.model``, from memory."""
        return self.registry().describe(endpoint_key(settings, self._environ), settings.model)

    def status(self, session: Session) -> ModelStatus:
        return model_status(session.info.model, session.info.provider, session.described(),
                            self.today())

    def idle_status(self, session: Session) -> None:
        """The status bar between turns: the provider and model, or why the model is not
        current (the warning stays for as long as the model is in use), or what is missing
        to reach the provider at all (the error stays until the settings fix it)."""
        missing = self._not_configured.get(session.id)
        if missing is not None:
            self._editor.status("error", False, status_line(missing))
            return
        sentence = self.status(session).message(self.today())
        if sentence:
            self._editor.status("warning", False, f"{session.info.provider} · {sentence}")
        else:
            self._editor.status("normal", False, f"{session.info.provider} · {session.info.model}")

    def _say_status(self, session: Session) -> None:
        """Say a deprecated or retired model when the session starts, switches model, or
        the provider has just said so. A retired model also gets a message: its requests
        will fail, and the user should know before the first prompt."""
        status = self.status(session)
        sentence = status.message(self.today())
        if session.id in self._said and self._said[session.id] == sentence:
            return
        self._said[session.id] = sentence
        if not session.busy:
            self.idle_status(session)
        if sentence and status.lifecycle == "retired" and self.notices().first_today(sentence):
            self._editor.show_message("warning", sentence)

    def refresh_later(self, settings: Settings) -> None:
        """Ask the session's provider about its models in a background task: the cache on
        disk first, the endpoint only when the cache has nothing fresh for it."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        key = endpoint_key(settings, self._environ)
        running = self.refreshes.get(key)
        if running is not None and not running.done():
            return
        task = loop.create_task(self._refresh(key, settings))
        self.refreshes[key] = task

    async def _refresh(self, key: str, settings: Settings) -> None:
        registry = self.registry()
        try:
            await asyncio.to_thread(registry.load)
            self._apply()
            if not registry.needs_refresh(key):
                return
            registry.note_attempt(key)
            await self._ready()
            provider = self.provider(settings)
            try:
                described = await asyncio.wait_for(provider.describe_models(),
                                                   DESCRIBE_TIMEOUT_SECONDS)
            finally:
                await provider.aclose()
            if described:
                await asyncio.to_thread(registry.store, key, described)
                self._apply()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # no key, unreachable, a broken answer: the catalog stands
            log.info("models of %s not refreshed: %s", key, redact_value(str(exc)))

    def _apply(self) -> None:
        """Sessions whose window changed get new thresholds and a usage_update; a model the
        provider calls deprecated or retired is said."""
        for session in list(self._sessions.values()):
            if session.refresh_window():
                session.send_usage_update()
            if session.id in self._said:
                self._say_status(session)

    async def aclose(self) -> None:
        """Stop the refreshes under way."""
        refreshes = [t for t in self.refreshes.values() if not t.done()]
        for task in refreshes:
            task.cancel()
        await asyncio.gather(*refreshes, return_exceptions=True)
