"""TodoWrite: the model's task list, in Claude Code's input shape.

The list lives in the conversation (``sidecar.core.todos`` reads it back from the records);
this tool checks it, answers as Claude Code does, and has the clients shown the new list.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from sidecar.core.ports import ToolContext, ToolOutcome
from sidecar.core.todos import TODO_TOOL, todo_update, todos_from_input
from sidecar.tools.base import BaseTool, ToolError

# What Claude Code answers, word for word: models trained on it expect it.
DONE = ("Todos have been modified successfully. Ensure that you continue to use the todo list "
        "to track your progress. Please proceed with the current tasks if applicable")


class TodoWriteTool(BaseTool):
    name = TODO_TOOL
    kind = "think"
    compactable = False  # small, and the model's own plan
    description = (
        "Keep a task list for the work at hand, shown to the user as it changes and kept "
        "across compactions. Use it for work of three steps or more, or when the user gives "
        "several tasks: write the tasks when you start, mark one in_progress before you begin "
        "it (only one at a time), and mark it completed as soon as it is done, not in batches. "
        "Send the whole list every time; it replaces the previous one. Each task has content "
        "(what to do, in the imperative: \"Run the tests\") and activeForm (the same, as it "
        "reads while being done: \"Running the tests\"). Not for single trivial steps or for "
        "answering questions."
    )
    input_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            "todos": {
                "type": "array",
                "description": "The whole updated task list",
                "items": {
                    "type": "object",
                    "properties": {
                        "content": {"type": "string", "minLength": 1},
                        "status": {"type": "string", "enum": ["pending", "in_progress", "completed"]},
                        "activeForm": {"type": "string", "minLength": 1},
                    },
                    "required": ["content", "status", "activeForm"],
                },
            },
        },
        "required": ["todos"],
    }

    def title(self, input: dict[str, Any], roots: Sequence[Path] = ()) -> str:
        return "Update the task list"

    async def invoke(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        todos = todos_from_input(args)
        if todos is None:
            raise ToolError("todos must be a list of {content, status, activeForm} with status "
                            "pending, in_progress or completed")
        return ToolOutcome(DONE, raw_output={"newTodos": [t.wire() for t in todos]},
                           updates=[todo_update(todos)])
