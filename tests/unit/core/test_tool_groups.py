"""Which calls of one answer run together: neighbouring calls of tools marked concurrent
(Task), every other call alone and in the model's order."""

from __future__ import annotations

from typing import Any

from sidecar.core.settings import Settings
from sidecar.core.turns.tool_runner import _groups
from sidecar.tools.registry import default_tools


def use(name: str, n: int) -> dict[str, Any]:
    return {"type": "tool_use", "id": f"t{n}", "name": name, "input": {}}


def test_only_neighbouring_task_calls_run_together() -> None:
    by_name = {t.name: t for t in default_tools(Settings())}
    calls = [use(n, i) for i, n in enumerate(
        ["Read", "Task", "Task", "Edit", "Task", "Nope", "Grep", "Grep"])]
    groups = [[u["id"] for u in g] for g in _groups(calls, by_name)]
    assert groups == [["t0"], ["t1", "t2"], ["t3"], ["t4"], ["t5"], ["t6"], ["t7"]]
