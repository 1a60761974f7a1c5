"""The one decision of what a tool call may do in each permission mode (the read-only
command check plan mode relies on is tested in test_readonly_shell)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sidecar.core.permissions.modes import CallView, decide

ROOT = Path("/ws")
PLAN = Path("/store/projects/-ws/s1/plan.md")


def verdict(mode: str, tool: str, kind: str, **input: Any) -> str:
    view = CallView(mode=mode, tool=tool, kind=kind, input=input, roots=[ROOT], plan_file=PLAN)
    return decide(view).action


@pytest.mark.parametrize("mode,edit,bash", [
    ("default", "ask", "ask"), ("acceptEdits", "allow", "ask"),
    ("bypassPermissions", "allow", "allow"), ("plan", "refuse", "refuse"),
])
def test_each_mode_decides_edits_and_shell(mode: str, edit: str, bash: str) -> None:
    assert verdict(mode, "Edit", "edit", file_path="a.py") == edit
    assert verdict(mode, "Bash", "execute", command="make install") == bash
    assert verdict(mode, "Read", "read", file_path="a.py") == "allow"
    assert verdict(mode, "Grep", "search", pattern="x") == "allow"


def test_the_plan_file_is_writable_in_every_mode_and_exit_only_in_plan() -> None:
    for mode in ("default", "plan", "acceptEdits"):
        assert verdict(mode, "Write", "edit", file_path=str(PLAN)) == "allow"
    assert verdict("plan", "Write", "edit", file_path="../store/x.md") == "refuse"
    assert verdict("plan", "ExitPlanMode", "switch_mode") == "allow"
    assert verdict("default", "ExitPlanMode", "switch_mode") == "refuse"


@pytest.mark.parametrize("mode", ["default", "acceptEdits", "plan", "bypassPermissions"])
def test_the_sessions_own_background_shells_are_read_and_ended_unasked(mode: str) -> None:
    assert verdict(mode, "BashOutput", "read", bash_id="bash_1") == "allow"
    assert verdict(mode, "KillBash", "execute", shell_id="bash_1") == "allow"


def test_accepted_turns_and_clients_that_cannot_ask_let_edits_through() -> None:
    base = dict(mode="default", tool="Edit", kind="edit", input={"file_path": "a.py"}, roots=[ROOT],
                plan_file=PLAN)
    assert decide(CallView(**base, edits_accepted=True)).action == "allow"  # type: ignore[arg-type]
    assert decide(CallView(**base, can_ask=False)).action == "allow"  # type: ignore[arg-type]
    assert decide(CallView(**{**base, "mode": "plan"}, can_ask=False)).action == "refuse"  # type: ignore[arg-type]


def test_plan_mode_runs_read_only_commands_asks_outside_and_refuses_the_rest() -> None:
    assert verdict("plan", "Bash", "execute", command="ls -la && git status") == "allow"
    assert verdict("plan", "Bash", "execute", command="cat ../outside/secret.txt") == "ask"
    assert verdict("plan", "Bash", "execute", command="cd .. && ls") == "ask"
    view = CallView(mode="plan", tool="Bash", kind="execute",
                    input={"command": "sort --compress-program=sh data.txt"}, roots=[ROOT], plan_file=PLAN)
    refused = decide(view)
    assert refused.action == "refuse"
    assert refused.reason.startswith("Plan mode is read-only: this command was not run because `sort "
                                     "--compress-program` is not one of the options")
