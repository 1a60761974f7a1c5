"""How storage is doing, said out loud: write failures reach the user, counts reach /context.

Writers call ``failed`` and ``recovered``; the service connects ``notify`` to the editor.
A failure is announced once when a store starts failing (or fails differently), not on
every record, and once more when its writes work again, so a full disk during a long
answer is one message, not hundreds. Writers may run in worker threads: ``notify`` is
called from whichever thread noticed, and the receiver takes care of getting to its loop.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)

# (level, message, status-bar text): level is "error" or "info".
Notify = Callable[[str, str, str], None]


@dataclass
class _Store:
    """One file (or store) that can fail on its own."""

    failing: str | None = None  # the error text while writes fail
    pending: int = 0  # records or entries kept in memory for the next attempt


class StorageHealth:
    def __init__(self, notify: Notify | None = None) -> None:
        self.notify = notify
        self._lock = threading.Lock()
        self._stores: dict[str, _Store] = {}
        self.last_write_error: str | None = None
        self.skipped_history_lines = 0
        self.skipped_history_values = 0

    # ----- writers report -----------------------------------------------------------------

    def failed(self, store: str, error: BaseException, pending: int, *, key: str | None = None,
               final: bool = False, consequence: str | None = None) -> None:
        """A write to ``store`` failed; ``pending`` records wait in memory for the next one.

        ``key`` tells apart files of one store (each transcript fails or works on its own).
        ``final`` means nothing will retry (shutdown): the pending records are lost, and the
        user is told so even if the failure was already announced.
        """
        text = describe(error)
        with self._lock:
            state = self._stores.setdefault(key or store, _Store())
            announce = final or state.failing != text
            state.failing = None if final else text
            state.pending = 0 if final else pending
            self.last_write_error = f"{store}: {text}"
        if consequence is not None:
            message = f"Could not write the {store} ({text}); {consequence}"
        elif final:
            message = (f"Could not write the {store} ({text}); {pending} "
                       f"{_plural(pending, 'record')} could not be saved and "
                       f"{'is' if pending == 1 else 'are'} lost.")
        else:
            message = (f"Could not write the {store} ({text}). {pending} "
                       f"{_plural(pending, 'record')} {'is' if pending == 1 else 'are'} kept in "
                       "memory and will be written with the next one.")
        if announce:
            log.error("%s", message)
            self._say("error", message, f"Storage: {store} not saved")
        else:
            log.debug("%s", message)

    def recovered(self, store: str, written: int, *, key: str | None = None) -> None:
        """A write to ``store`` succeeded; ``written`` held-back records went with it."""
        with self._lock:
            state = self._stores.get(key or store)
            if state is None or state.failing is None:
                return
            state.failing = None
            state.pending = 0
        message = f"The {store} is being written again" + (
            f"; {written} held-back {_plural(written, 'record')} saved." if written else ".")
        log.info("%s", message)
        self._say("info", message, f"Storage: {store} saved again")

    def set_pending(self, store: str, pending: int, *, key: str | None = None) -> None:
        with self._lock:
            self._stores.setdefault(key or store, _Store()).pending = pending

    def history_read(self, skipped_lines: int, skipped_values: int) -> None:
        with self._lock:
            self.skipped_history_lines = skipped_lines
            self.skipped_history_values = skipped_values

    # ----- readers ------------------------------------------------------------------------

    def failing(self) -> dict[str, str]:
        """Error text per failing file or store, keyed as reported."""
        with self._lock:
            return {name: s.failing for name, s in self._stores.items() if s.failing is not None}

    def snapshot(self) -> dict[str, Any]:
        with self._lock:
            return {
                "skippedHistoryLines": self.skipped_history_lines,
                "skippedHistoryValues": self.skipped_history_values,
                "pendingWrites": sum(state.pending for state in self._stores.values()),
                "lastWriteError": self.last_write_error,
            }

    def _say(self, level: str, message: str, status: str) -> None:
        notify = self.notify
        if notify is None:
            return
        try:
            notify(level, message, status)
        except Exception as exc:  # telling the user must never turn into a second failure
            log.debug("storage notice not delivered: %s", exc)


def describe(error: BaseException) -> str:
    """``[Errno 28] No space left on device: '/x'`` reads as ``No space left on device: /x``."""
    if isinstance(error, OSError) and error.strerror:
        where = f": {error.filename}" if error.filename else ""
        return f"{error.strerror}{where}"
    return str(error) or type(error).__name__


def _plural(n: int, word: str) -> str:
    return word if n == 1 else word + "s"
