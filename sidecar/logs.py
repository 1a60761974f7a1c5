"""Logs go to stderr and a file; stdout is the wire."""

from __future__ import annotations

import logging
import os
from logging.handlers import RotatingFileHandler
from pathlib import Path

# Libraries log what a client sent (pygls, a request id it cannot match); a client sending
# megabytes must not make the log megabytes. Tracebacks are apart and stay whole.
MAX_LOG_CHARS = 2000


class _CapLength(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if len(message) > MAX_LOG_CHARS:
            record.msg = f"{message[:MAX_LOG_CHARS]}… ({len(message):,} chars)"
            record.args = None
        return True


def setup_logging(log_file: str | None, level: str) -> None:
    root = logging.getLogger()
    root.setLevel(getattr(logging, level.upper(), logging.INFO))
    fmt = logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    cap = _CapLength()
    stderr = logging.StreamHandler()
    stderr.setFormatter(fmt)
    stderr.addFilter(cap)
    root.addHandler(stderr)
    path = log_file or os.environ.get("CONTEXT_SIDECAR_LOG_FILE")
    if not path:
        import platformdirs

        path = str(Path(platformdirs.user_log_dir("context-sidecar")) / "sidecar.log")
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        handler = RotatingFileHandler(path, maxBytes=5_000_000, backupCount=2)
        handler.setFormatter(fmt)
        handler.addFilter(cap)
        root.addHandler(handler)
    except OSError as exc:
        root.warning("cannot open log file %s: %s", path, exc)
    # pygls logs every message at DEBUG/INFO; keep it quieter unless asked.
    logging.getLogger("pygls").setLevel(logging.WARNING)
