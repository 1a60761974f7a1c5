"""The task list the model keeps with TodoWrite: one source, the conversation's own records.

The list is the input of the last TodoWrite call since the last ``/clear`` that did not fail,
read back from the transcript (which keeps every call, compacted or not), so a reloaded or
resumed session has it without state of its own. Clients see it as ACP's ``plan`` update;
after a compaction it follows the summary within a budget (``reinjected_todos``, a source
of ``sidecar.core.compaction.reinjection.SOURCES``), as Claude Code puts its list back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, cast

from sidecar.contract.updates import PlanEntry, plan_update
from sidecar.core.conversation.messages import Message, since_clear

if TYPE_CHECKING:
    from sidecar.contract.updates import SessionUpdate
    from sidecar.core.compaction.host import CompactionHost

TODO_TOOL = "TodoWrite"
TodoStatus = Literal["pending", "in_progress", "completed"]
STATUSES: tuple[TodoStatus, ...] = ("pending", "in_progress", "completed")
MARKS: dict[TodoStatus, str] = {"pending": "[ ]", "in_progress": "[~]", "completed": "[x]"}
# At most this share of the window goes back after a summary; completed tasks go first.
REINJECTED_SHARE = 0.01
REINJECTED_INTRO = ("Your task list (TodoWrite), as it stood before the summary; keep it up to "
                    "date with TodoWrite as you work:")


@dataclass(frozen=True)
class Todo:
    content: str
    status: TodoStatus
    active_form: str = ""

    def wire(self) -> dict[str, str]:
        """Claude Code's shape, as the tool takes it."""
        return {"content": self.content, "status": self.status, "activeForm": self.active_form}


def todos_from_input(raw: Any) -> list[Todo] | None:
    """The list a TodoWrite input holds; None when it is not one (the tool refuses it)."""
    items = raw.get("todos") if isinstance(raw, dict) else None
    if not isinstance(items, list):
        return None
    todos: list[Todo] = []
    for item in items:
        if not isinstance(item, dict):
            return None
        content, status, active = item.get("content"), item.get("status"), item.get("activeForm", "")
        if not isinstance(content, str) or not content.strip() or status not in STATUSES:
            return None
        todos.append(Todo(content.strip(), cast(TodoStatus, status),
                          active.strip() if isinstance(active, str) else ""))
    return todos


def current_todos(records: list[Message]) -> list[Todo]:
    """The list as the last TodoWrite since the last /clear left it (empty when none)."""
    calls: dict[str, list[Todo]] = {}
    latest: list[Todo] = []
    for m in since_clear(records):
        if m.kind == "assistant":
            for block in m.tool_uses():
                if block.get("name") == TODO_TOOL:
                    todos = todos_from_input(block.get("input"))
                    if todos is not None:
                        calls[str(block.get("id"))] = todos
        elif m.kind == "user":
            for block in m.tool_results():
                todos = calls.pop(str(block.get("tool_use_id")), None)
                if todos is not None and not block.get("is_error"):
                    latest = todos
    return latest


def plan_entries(todos: list[Todo]) -> list[PlanEntry]:
    """ACP's plan entries (the list has no priorities: every entry is "medium"); the task's
    "-ing" form rides in ``_meta`` for the clients that show what is being done."""
    entries: list[PlanEntry] = []
    for todo in todos:
        entry: PlanEntry = {"content": todo.content, "priority": "medium", "status": todo.status}
        if todo.active_form:
            entry["_meta"] = {"sidecar": {"activeForm": todo.active_form}}
        entries.append(entry)
    return entries


def todo_update(todos: list[Todo]) -> SessionUpdate:
    return plan_update(plan_entries(todos))


def todo_lines(todos: list[Todo]) -> list[str]:
    return [f"{i}. {MARKS[t.status]} {t.content}" for i, t in enumerate(todos, 1)]


async def reinjected_todos(session: CompactionHost, tier: str) -> list[Message]:
    """The list after a summary of either tier, within ``REINJECTED_SHARE`` of the window:
    the open tasks first, then as many completed ones as fit (counted, when left out)."""
    todos = current_todos(session.transcript.records)
    if not todos:
        return []
    counter = session.ledger.counter
    budget = max(200, int(session.thresholds.size * REINJECTED_SHARE))
    used = counter.text(REINJECTED_INTRO)
    lines = todo_lines(todos)
    kept: set[int] = set()
    for i in sorted(range(len(todos)), key=lambda i: todos[i].status == "completed"):
        tokens = counter.text(lines[i])
        if used + tokens <= budget:
            used += tokens
            kept.add(i)
    left_out = len(todos) - len(kept)
    text = "\n".join([REINJECTED_INTRO, *(line for i, line in enumerate(lines) if i in kept)]
                     + ([f"({left_out} more tasks not shown: send the whole list again with TodoWrite)"]
                        if left_out else []))
    return [Message(kind="attachment",
                    attachment={"type": "todo_list", "reinjected": True, "todos": [t.wire() for t in todos]},
                    content=[{"type": "text", "text": text}], is_meta=True)]
