"""One session's permission state: its mode, whether it has ever planned, what the user
allowed for the rest of the session or the running turn, and the notes that tell the model
of a mode change with the next request."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Callable

from sidecar.contract.errors import InvalidParams
from sidecar.contract.updates import SessionUpdate, current_mode_update
from sidecar.core.conversation.messages import Message
from sidecar.core.permissions.modes import MODE_IDS, is_mode
from sidecar.core.permissions.plan import PLAN_FILE_NAME, plan_entered_note, plan_left_note


class SessionPermissions:
    def __init__(self, mode: str, *, results_dir: Callable[[], Path | None],
                 announce: Callable[[SessionUpdate], None], persist: Callable[[], None]) -> None:
        # The permission mode (sidecar.core.permissions.modes); whether it has ever been plan
        # mode in this process; whether the user accepted every edit of the running turn;
        # the tools the user allowed for the rest of the session.
        self.mode = mode
        self.planned = mode == "plan"
        self.edits_accepted = False
        self.allowed_always: set[str] = set()
        # Where the session saves tool results (None: not stored; the plan sits beside
        # them); how the client hears of a mode change; how the session stores it.
        self._results_dir = results_dir
        self._announce = announce
        self._persist = persist
        # What the model is told of a mode change, sent with the next request.
        self._notes: list[Message] = [plan_entered_note(self.plan_file())] if self.planned else []

    def plan_file(self) -> Path | None:
        """Where plan mode writes this session's plan (beside its transcript), when stored."""
        results = self._results_dir()
        return results.parent / PLAN_FILE_NAME if results is not None else None

    def choose(self, mode: str) -> None:
        """The user's choice of mode (``session/set_mode``, ``/mode``, ``/plan``)."""
        if not is_mode(mode):
            raise InvalidParams(f"unknown mode {mode!r}; the modes are {', '.join(MODE_IDS)}",
                                data={"field": "modeId"})
        self.set_mode(mode)

    def set_mode(self, mode: str, *, restored: bool = False, tell_model: bool = True) -> bool:
        """Enter ``mode`` (an id of sidecar.core.permissions.modes.MODES); False when already in
        it. The client hears of the change; the model is told with the next request when
        plan mode starts or ends (an approved plan's tool result says so itself). A restored
        mode (a loaded session's) is no news to either."""
        if mode == self.mode:
            return False
        before, self.mode = self.mode, mode
        if mode == "plan":
            self.planned = True
        if restored:
            self._notes.clear()
            return True
        if mode == "plan":
            self._notes.append(plan_entered_note(self.plan_file()))
        elif before == "plan" and tell_model:
            self._notes.append(plan_left_note(mode, self.plan_file()))
        self._announce(current_mode_update(mode))
        self._persist()
        return True

    async def restore(self, stored_mode: object) -> None:
        """A loaded session's stored mode, and whether it planned before (its plan file is
        there)."""
        if is_mode(stored_mode):
            self.set_mode(str(stored_mode), restored=True)
        plan = self.plan_file()
        self.planned = self.planned or (plan is not None and await asyncio.to_thread(plan.exists))

    def take_notes(self) -> list[Message]:
        """The mode changes the model has not been told of yet, once."""
        notes, self._notes = self._notes, []
        return notes

    def turn_started(self) -> None:
        """"Accept all edits this turn" ends with the turn."""
        self.edits_accepted = False
