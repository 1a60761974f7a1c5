"""The terminal prints the model's task list whole each time it changes: done tasks ticked,
the one in progress as it reads while being done."""

from __future__ import annotations

import io

from sidecar.core.todos import todo_update, todos_from_input
from sidecar.terminal.screen import Screen
from sidecar.terminal.style import Style
from sidecar.terminal.updates import UpdatePrinter


def test_the_list_is_printed_with_its_marks() -> None:
    out = io.StringIO()
    printer = UpdatePrinter(Screen(out, Style.for_stream(out)))
    todos = todos_from_input({"todos": [
        {"content": "Read the code", "status": "completed", "activeForm": "Reading the code"},
        {"content": "Fix the bug", "status": "in_progress", "activeForm": "Fixing the bug"},
        {"content": "Run the tests", "status": "pending", "activeForm": "Running the tests"}]})
    printer.handle({"sessionId": "s", "update": dict(todo_update(todos or []))})
    assert out.getvalue().splitlines() == ["tasks:", "  ✔ Read the code", "  ▸ Fixing the bug", "  ☐ Run the tests"]
