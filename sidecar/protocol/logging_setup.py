"""Logs go to stderr and a file; stdout is the wire."""

from __future__ import annotations

import logging
import os
from logging.handlers import RotatingFileHandler
from pathlib import Path


def setup_logging(log_file: str | None, level: str) -> None:
    root = logging.getLogger()
    root.setLevel(getattr(logging, level.upper(), logging.INFO))
    fmt = logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    stderr = logging.StreamHandler()
    stderr.setFormatter(fmt)
    root.addHandler(stderr)
    path = log_file or os.environ.get("CONTEXT_SIDECAR_LOG_FILE")
    if not path:
        import platformdirs

        path = str(Path(platformdirs.user_log_dir("context-sidecar")) / "sidecar.log")
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        handler = RotatingFileHandler(path, maxBytes=5_000_000, backupCount=2)
        handler.setFormatter(fmt)
        root.addHandler(handler)
    except OSError as exc:
        root.warning("cannot open log file %s: %s", path, exc)
    # pygls logs every message at DEBUG/INFO; keep it quieter unless asked.
    logging.getLogger("pygls").setLevel(logging.WARNING)
