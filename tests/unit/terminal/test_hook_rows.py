"""The terminal shows each hook's run as one line, failures in red."""

from __future__ import annotations

import io

from sidecar.contract.updates import hook_result_update
from sidecar.terminal.screen import Screen
from sidecar.terminal.style import Style
from sidecar.terminal.updates import UpdatePrinter


def shown(update: dict) -> str:  # type: ignore[type-arg]
    out = io.StringIO()
    printer = UpdatePrinter(Screen(out, Style.for_stream(out)))
    printer.handle({"sessionId": "s", "update": update})
    return out.getvalue()


def test_a_hook_run_is_one_line() -> None:
    ok = shown(dict(hook_result_update("SessionStart", "cat notes.md", "frozen\nsecond line", 0)))
    assert ok.strip() == "hook SessionStart `cat notes.md`: frozen"
    failed = shown(dict(hook_result_update("PostCompact", "exit 3", "", 3)))
    assert failed.strip() == "hook PostCompact `exit 3` (exit 3)"
    slow = shown(dict(hook_result_update("PreCompact", "sleep 9", "the hook timed out", None)))
    assert slow.strip() == "hook PreCompact `sleep 9` (did not finish): the hook timed out"
