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


def test_a_subagents_calls_print_under_their_task_call() -> None:
    from sidecar.contract.updates import tool_call, tool_call_update

    out = io.StringIO()
    printer = UpdatePrinter(Screen(out, Style.for_stream(out)))
    nested = {"_meta": {"sidecar": {"parentToolCallId": "task1"}}}
    for update in (dict(tool_call("task1", "Find the loader", "think", "pending", {})),
                   {**tool_call("r1", "Read src/config.py", "read", "pending", {}), **nested},
                   {**tool_call_update("r1", "completed"), **nested},
                   dict(tool_call_update("task1", "completed"))):
        printer.handle({"sessionId": "s", "update": update})
    lines = [line for line in out.getvalue().splitlines() if line.strip()]
    assert lines[0].startswith("      ↳ ") and "Read src/config.py" in lines[0]
    assert lines[1].startswith("  ") and not lines[1].startswith("      ") and "Find the loader" in lines[1]
