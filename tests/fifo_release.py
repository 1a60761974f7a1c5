"""Unblocking a FIFO a test left in a workspace: a sidecar that wrongly opens one on its event
loop would hang the test forever; this opens both ends over and over after a delay, so the
blocked open returns and the test fails on the time it took instead."""

from __future__ import annotations

import os
import threading
from pathlib import Path


def release_later(fifo: Path, after: float) -> threading.Event:
    """Start releasing ``fifo`` after ``after`` seconds; set the returned event to stop."""
    stop = threading.Event()

    def run() -> None:
        if stop.wait(after):
            return
        while not stop.is_set():
            try:
                r = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
                w = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
                os.close(w)
                os.close(r)
            except OSError:
                pass
            stop.wait(0.2)

    threading.Thread(target=run, daemon=True).start()
    return stop
