"""After a compaction, recently read files are read again for re-injection: only regular
files, only inside the workspace, never blocking on a FIFO swapped in since."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from sidecar.core.compaction.full import read_regular_file


def test_a_regular_file_inside_is_read(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("print('hi')\n")
    assert read_regular_file(tmp_path / "a.py", tmp_path, 1000) == "print('hi')\n"
    assert read_regular_file(tmp_path / "gone.py", tmp_path, 1000) is None
    assert read_regular_file(tmp_path / "a.py", tmp_path, 5) is None  # over the budget


def test_a_file_swapped_for_a_link_out_is_not_read(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    secret = tmp_path / "secret.txt"
    secret.write_text("top secret\n")
    (ws / "notes.txt").symlink_to(secret)
    assert read_regular_file(ws / "notes.txt", ws, 1000) is None


def test_a_fifo_swapped_in_does_not_block(tmp_path: Path) -> None:
    fifo = tmp_path / "notes.txt"
    os.mkfifo(fifo)
    # If the read opened the FIFO it would wait for a writer forever; a watchdog writer
    # keeps a regression from hanging the suite (it then shows as text, and fails).
    watchdog = threading.Timer(3.0, lambda: fifo.write_text("late writer\n"))
    watchdog.start()
    try:
        assert read_regular_file(fifo, tmp_path, 1000) is None
    finally:
        watchdog.cancel()
