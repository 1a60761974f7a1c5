"""Logs go to stderr and a file; stdout is the wire.

The file is opened once the first answer is out (``open_log_file``): finding the log folder
loads platformdirs and the rotating handler loads ``logging.handlers``, which the editor
would otherwise wait for before ``initialize`` is answered. What is logged before is held
and written first when the file opens, or at exit if it never did.
"""

from __future__ import annotations

import atexit
import logging
import os

# Libraries log what a client sent (pygls, a request id it cannot match); a client sending
# megabytes must not make the log megabytes. Tracebacks are apart and stay whole.
MAX_LOG_CHARS = 2000
HELD_RECORDS = 1000  # records kept for the file before it opens

_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class _CapLength(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if len(message) > MAX_LOG_CHARS:
            record.msg = f"{message[:MAX_LOG_CHARS]}… ({len(message):,} chars)"
            record.args = None
        return True


class _HeldForFile(logging.Handler):
    """Keeps the first records until the log file opens."""

    def __init__(self, path: str | None) -> None:
        super().__init__()
        self.path = path
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if len(self.records) < HELD_RECORDS:
            self.records.append(record)


_held: _HeldForFile | None = None


def setup_logging(log_file: str | None, level: str) -> None:
    global _held
    root = logging.getLogger()
    root.setLevel(getattr(logging, level.upper(), logging.INFO))
    stderr = logging.StreamHandler()
    stderr.setFormatter(logging.Formatter(_FORMAT))
    stderr.addFilter(_CapLength())
    root.addHandler(stderr)
    _held = _HeldForFile(log_file or os.environ.get("CONTEXT_SIDECAR_LOG_FILE"))
    root.addHandler(_held)
    atexit.register(open_log_file)
    # pygls logs every message at DEBUG/INFO; keep it quieter unless asked.
    logging.getLogger("pygls").setLevel(logging.WARNING)


def open_log_file() -> None:
    """Open the log file (the storage folder's unless one was named) and write into it what
    was held; once, later calls do nothing."""
    global _held
    held, _held = _held, None
    if held is None:
        return
    from logging.handlers import RotatingFileHandler
    from pathlib import Path

    root = logging.getLogger()
    root.removeHandler(held)
    path = held.path
    if not path:
        import platformdirs

        path = str(Path(platformdirs.user_log_dir("context-sidecar")) / "sidecar.log")
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        handler = RotatingFileHandler(path, maxBytes=5_000_000, backupCount=2)
    except OSError as exc:
        root.warning("cannot open log file %s: %s", path, exc)
        return
    handler.setFormatter(logging.Formatter(_FORMAT))
    handler.addFilter(_CapLength())
    for record in held.records:
        handler.handle(record)
    root.addHandler(handler)
