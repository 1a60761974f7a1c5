"""A finished answer is rendered as markdown on a terminal; a pipe gets the raw text."""

from __future__ import annotations

import io
import subprocess
import sys

from sidecar.terminal.screen import Screen
from sidecar.terminal.style import Style
from sidecar.terminal.updates import UpdatePrinter

ANSWER = ("# Plan\n\nChange **one** line in `notes.py`:\n\n```python\nVALUE = 43\n```\n\n"
          "| file | lines |\n|---|---|\n| notes.py | 1 |\n")


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def chunks(text: str, size: int = 4) -> list[dict]:  # type: ignore[type-arg]
    return [{"sessionId": "s", "update": {"sessionUpdate": "agent_message_chunk",
                                          "content": {"type": "text", "text": text[i:i + size]}}}
            for i in range(0, len(text), size)]


def test_a_terminal_gets_the_answer_rendered_once_it_is_whole() -> None:
    out = FakeTerminal()
    printer = UpdatePrinter(Screen(out, Style(colour=True, unicode=True)))
    for params in chunks(ANSWER):
        printer.handle(params)
    assert out.getvalue() == ""  # nothing half-rendered while it streams
    printer.end_message()
    shown = out.getvalue()
    assert "\x1b[" in shown  # styled
    for raw in ("**", "```", "# Plan", "|---|", "`notes.py`"):
        assert raw not in shown, raw
    assert "Plan" in shown and "one" in shown and "VALUE" in shown and "notes.py" in shown
    assert "━" in shown or "─" in shown  # the table is drawn
    assert shown.endswith("\n") and printer.screen.at_line_start


def test_a_tool_call_ends_the_answer_before_its_line() -> None:
    out = FakeTerminal()
    printer = UpdatePrinter(Screen(out, Style(colour=True, unicode=True)))
    for params in chunks("Reading **it**."):
        printer.handle(params)
    printer.handle({"sessionId": "s", "update": {"sessionUpdate": "tool_call", "toolCallId": "t",
                                                 "title": "Read notes.py", "status": "completed"}})
    shown = out.getvalue()
    assert shown.index("Reading") < shown.index("Read notes.py") and "**" not in shown


def test_a_pipe_gets_the_raw_text_as_it_streams() -> None:
    out = io.StringIO()
    printer = UpdatePrinter(Screen(out, Style(colour=False, unicode=False)))
    params = chunks(ANSWER)
    printer.handle(params[0])
    assert out.getvalue() == ANSWER[:4]  # streamed, not held
    for p in params[1:]:
        printer.handle(p)
    printer.end_message()
    assert out.getvalue() == ANSWER


def test_rich_is_not_loaded_until_an_answer_is_rendered() -> None:
    code = ("import sys, sidecar.terminal.chat, sidecar.cli\n"
            "assert 'rich' not in sys.modules, sorted(m for m in sys.modules if m.startswith('rich'))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
