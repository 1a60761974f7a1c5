"""Reads terminal lines on a daemon thread so the event loop keeps streaming meanwhile.

A daemon thread rather than ``asyncio.to_thread``: a read blocked in ``input()`` must not
keep the process from exiting after Ctrl-D or a fatal error.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import queue
import sys
import threading
from typing import Any


class LineReader:
    def __init__(self) -> None:
        self._requests: queue.Queue[tuple[str, str]] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._pending: concurrent.futures.Future[str | None] | None = None
        self.interactive = sys.stdin.isatty()
        self._readline: Any = None
        if self.interactive:
            try:
                import readline  # line editing and history for input()
                self._readline = readline
            except ImportError:
                pass

    @property
    def can_prefill(self) -> bool:
        """Whether a line can start with text the user then edits (readline on a terminal)."""
        return self._readline is not None and hasattr(self._readline, "set_startup_hook")

    def _run(self) -> None:
        while True:
            prompt, initial = self._requests.get()
            future = self._pending
            hook = self._readline if initial and self.can_prefill else None
            if hook is not None:
                hook.set_startup_hook(lambda: hook.insert_text(initial))
            try:
                line: str | None = input(prompt)
            except EOFError:
                line = None
            except Exception as exc:  # a closed or broken stdin ends the conversation
                line = None
                sys.stderr.write(f"cannot read input: {exc}\n")
            finally:
                if hook is not None:
                    hook.set_startup_hook(None)
            if future is not None and not future.done():
                future.set_result(line)

    async def readline(self, prompt: str, initial: str = "") -> str | None:
        """The next line without its newline, or None at end of input; ``initial`` is the
        line's text to start from, where readline can put it there."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="terminal-input", daemon=True)
            self._thread.start()
        if self._pending is None or self._pending.done():
            self._pending = concurrent.futures.Future()
            self._requests.put((prompt, initial))
        else:
            # A read abandoned by Ctrl-C is still waiting: its line answers this one.
            sys.stdout.write(prompt)
            sys.stdout.flush()
        return await asyncio.wrap_future(self._pending)
