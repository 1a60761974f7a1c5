"""Terminal output: streamed text, whole lines, and one transient status line (spinner).

Streamed model text and status lines share the terminal, so every write first clears the
transient line and remembers whether the cursor sits at the start of a line.
"""

from __future__ import annotations

import asyncio
import sys
import time
from typing import TextIO

from sidecar.terminal.style import Style


class Screen:
    def __init__(self, stream: TextIO | None = None, style: Style | None = None) -> None:
        self.stream = stream or sys.stdout
        self.style = style or Style.for_stream(self.stream)
        self.interactive = self._isatty()
        self.at_line_start = True
        self._transient = ""
        self._spinner: asyncio.Task[None] | None = None

    def _isatty(self) -> bool:
        try:
            return self.stream.isatty()
        except (AttributeError, ValueError):
            return False

    # ----- plain output -------------------------------------------------------------

    def write(self, text: str) -> None:
        """Streamed text: written as it comes, no newline added."""
        if not text:
            return
        self._clear_transient()
        self.stream.write(text)
        self.stream.flush()
        self.at_line_start = text.endswith("\n")

    def end_line(self) -> None:
        if not self.at_line_start:
            self.write("\n")

    def line(self, text: str = "") -> None:
        """A whole line of its own, after whatever was streamed."""
        self.end_line()
        self.write(text + "\n")

    # ----- the transient status line ------------------------------------------------

    def status(self, text: str) -> None:
        """Shown in place on a terminal and replaced by the next output; skipped in a pipe."""
        if not self.interactive:
            return
        self.end_line()
        self.stream.write("\r\x1b[2K" + text)
        self.stream.flush()
        self._transient = text

    def _clear_transient(self) -> None:
        if self._transient:
            self.stream.write("\r\x1b[2K")
            self._transient = ""

    def clear_status(self) -> None:
        self.stop_spinner()
        if self._transient:
            self._clear_transient()
            self.stream.flush()

    def start_spinner(self, label: str) -> None:
        """Animate ``label`` with elapsed seconds until the next line or ``stop_spinner``."""
        self.stop_spinner()
        if not self.interactive:
            return
        self._spinner = asyncio.ensure_future(self._spin(label))

    def stop_spinner(self) -> None:
        if self._spinner is not None:
            self._spinner.cancel()
            self._spinner = None

    async def _spin(self, label: str) -> None:
        frames = self.style.spinner_frames()
        started = time.monotonic()
        i = 0
        while True:
            frame = self.style.paint(frames[i % len(frames)], "cyan")
            self.status(f"{frame} {label} {time.monotonic() - started:.1f}s")
            i += 1
            await asyncio.sleep(0.1)
