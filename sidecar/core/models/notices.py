"""Which model warnings the user was shown, so a toast is said once a day, not on every
session or window reload.

A retired model's sentence is shown as a message (``window/showMessage``) as well as on the
status bar. The status bar keeps it in view; the message is an interruption, so the same
sentence is shown again only after ``QUIET_SECONDS``. What was said is kept in
``<storageDir>/model-notices.json`` (sentence -> when), written beside the models cache;
a file that cannot be read or written only means the message may come again.
"""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path

from sidecar.core.json_files import write_json

log = logging.getLogger(__name__)

NOTICES_FILE = "model-notices.json"
QUIET_SECONDS = 24 * 3600
_KEEP = 64  # sentences remembered at most: old ones fall out first


class ShownNotices:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._shown: dict[str, float] | None = None

    def first_today(self, sentence: str) -> bool:
        """Whether ``sentence`` is due to be shown (not shown in the last day), noting it
        as shown now when it is."""
        shown = self._load()
        now = time.time()
        last = shown.get(sentence)
        if last is not None and 0 <= now - last < QUIET_SECONDS:
            return False
        shown[sentence] = now
        for old in sorted(shown, key=shown.__getitem__)[:-_KEEP]:
            del shown[old]
        self._save(shown)
        return True

    def _load(self) -> dict[str, float]:
        if self._shown is None:
            try:
                raw = json.loads(self.path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                raw = {}
            self._shown = {k: float(v) for k, v in raw.items()
                           if isinstance(k, str) and isinstance(v, (int, float))} \
                if isinstance(raw, dict) else {}
        return self._shown

    def _save(self, shown: dict[str, float]) -> None:
        try:
            write_json(self.path, shown, indent=1)
        except OSError as exc:
            log.info("could not note the model notice as shown: %s", exc)
