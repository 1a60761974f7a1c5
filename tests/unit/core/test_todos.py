"""The model's task list: read back from the records (the last TodoWrite that did not fail,
since the last /clear), shown as ACP's plan, and carried past a compaction within a budget."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sidecar.core.conversation.messages import Message
from sidecar.core.todos import current_todos, plan_entries, reinjected_todos, todos_from_input
from sidecar.tools.todo_write import DONE, TodoWriteTool
from tests.unit.core.core_builders import CountingLedger, WindowThresholds


def todo(content: str, status: str = "pending", active: str = "") -> dict[str, str]:
    return {"content": content, "status": status, "activeForm": active or content + "…"}


def call(tid: str, todos: list[dict[str, Any]]) -> Message:
    return Message(kind="assistant", content=[{"type": "tool_use", "id": tid, "name": "TodoWrite",
                                               "input": {"todos": todos}}])


def result(tid: str, error: bool = False) -> Message:
    return Message(kind="user", content=[{"type": "tool_result", "tool_use_id": tid, "content": "ok",
                                          "is_error": error}])


def clear() -> Message:
    return Message(kind="system", content=[], subtype="compact_boundary",
                   extra={"compactMetadata": {"trigger": "clear"}})


def test_the_list_is_the_last_call_that_did_not_fail() -> None:
    first = [todo("Find the bug", "in_progress"), todo("Fix it")]
    second = [todo("Find the bug", "completed"), todo("Fix it", "in_progress", "Fixing it")]
    records = [call("a", first), result("a"), call("b", second), result("b"),
               call("c", [todo("Broken")]), result("c", error=True), call("d", [todo("never answered")])]
    todos = current_todos(records)
    assert [(t.content, t.status, t.active_form) for t in todos] == [
        ("Find the bug", "completed", "Find the bug…"), ("Fix it", "in_progress", "Fixing it")]
    assert current_todos([*records, clear()]) == []  # a cleared conversation carries nothing


def test_an_input_that_is_no_list_is_refused_and_the_old_shape_is_read() -> None:
    assert todos_from_input({"todos": [{"content": "x", "status": "done"}]}) is None
    assert todos_from_input({"todos": "x"}) is None
    assert todos_from_input({"todos": [{"content": " ", "status": "pending"}]}) is None
    # Claude Code's earlier shape (id, priority, no activeForm), as recorded sessions hold it.
    old = todos_from_input({"todos": [{"id": "1", "content": "Fix", "status": "pending", "priority": "high"}]})
    assert old is not None and old[0].content == "Fix" and old[0].active_form == ""


def test_plan_entries_are_acps_with_the_active_form_in_meta() -> None:
    entries = plan_entries(todos_from_input({"todos": [todo("Run the tests", "in_progress", "Running the tests"),
                                                       {"content": "Ship", "status": "pending"}]}) or [])
    assert entries == [
        {"content": "Run the tests", "priority": "medium", "status": "in_progress",
         "_meta": {"sidecar": {"activeForm": "Running the tests"}}},
        {"content": "Ship", "priority": "medium", "status": "pending"},
    ]


@dataclass
class Transcript:
    records: list[Message]


@dataclass
class Host:
    transcript: Transcript
    thresholds: WindowThresholds = field(default_factory=WindowThresholds)
    ledger: CountingLedger = field(default_factory=CountingLedger)


async def test_both_tiers_carry_the_list_and_a_long_one_keeps_the_open_tasks() -> None:
    todos = [todo("Find the bug", "completed"), todo("Fix it", "in_progress"), todo("Test it")]
    host = Host(Transcript([call("a", todos), result("a")]))
    for tier in ("full", "session_memory"):
        [record] = await reinjected_todos(host, tier)  # type: ignore[arg-type]
        text = record.content[0]["text"]
        assert record.attachment == {"type": "todo_list", "reinjected": True, "todos": todos}
        assert "1. [x] Find the bug" in text and "2. [~] Fix it" in text and "3. [ ] Test it" in text
    # 2,000 "tokens" of budget in a 200K window: of 300 long tasks, the open ones stay first.
    many = [todo(f"done task {i} " + "x" * 60, "completed") for i in range(250)] + \
           [todo(f"open task {i} " + "y" * 60) for i in range(50)]
    [record] = await reinjected_todos(Host(Transcript([call("m", many), result("m")])), "full")  # type: ignore[arg-type]
    text = record.content[0]["text"]
    assert all(f"open task {i} " in text for i in range(50))
    assert "more tasks not shown" in text and len(text) / 4 <= 2_000 + 50
    assert await reinjected_todos(Host(Transcript([])), "full") == []  # type: ignore[arg-type]


async def test_the_tool_answers_as_claude_code_and_sends_the_list() -> None:
    tool = TodoWriteTool()
    outcome = await tool.run({"todos": [todo("Fix it", "in_progress", "Fixing it")]}, None)  # type: ignore[arg-type]
    assert not outcome.is_error and outcome.text() == DONE
    assert outcome.raw_output == {"newTodos": [todo("Fix it", "in_progress", "Fixing it")]}
    assert outcome.updates == [{"sessionUpdate": "plan", "entries": [
        {"content": "Fix it", "priority": "medium", "status": "in_progress",
         "_meta": {"sidecar": {"activeForm": "Fixing it"}}}]}]
    bad = await tool.run({"todos": [{"content": "x", "status": "later", "activeForm": "x"}]}, None)  # type: ignore[arg-type]
    assert bad.is_error and not bad.updates
