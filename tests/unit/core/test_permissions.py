"""The one decision of what a tool call may do in each permission mode, and the read-only
command check plan mode relies on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sidecar.core.permissions import CallView, decide, write_risk

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


def test_accepted_turns_and_clients_that_cannot_ask_let_edits_through() -> None:
    base = dict(mode="default", tool="Edit", kind="edit", input={"file_path": "a.py"}, roots=[ROOT],
                plan_file=PLAN)
    assert decide(CallView(**base, edits_accepted=True)).action == "allow"  # type: ignore[arg-type]
    assert decide(CallView(**base, can_ask=False)).action == "allow"  # type: ignore[arg-type]
    assert decide(CallView(**{**base, "mode": "plan"}, can_ask=False)).action == "refuse"  # type: ignore[arg-type]


@pytest.mark.parametrize("command", [
    "ls -la", "cat a.py | head -5", "git status && git log --oneline -5", "rg -n foo src",
    "find . -name '*.py'", "git diff HEAD~1 -- a.py", "wc -l a.py; pwd", "git branch -a",
    "git stash list", "sort -r a.txt", "grep -c x a.py || true",
])
def test_read_only_commands_pass(command: str) -> None:
    assert write_risk(command) is None, command


@pytest.mark.parametrize("command,why", [
    ("echo x > f", "'>'"), ("cat <<EOF", "'<'"), ("ls $(pwd)", "'$('"), ("sleep 9 &", "'&'"),
    ("rm -rf build", "`rm` is not one"), ("python -c 'print(1)'", "`python` is not one"),
    ("find . -delete", "`find -delete`"), ("find . -exec rm {} ;", "`find -exec`"),
    ("sort -ro out in", "`sort -o`"), ("git commit -m x", "`git commit"),
    ("git branch new", "`git branch new`"), ("git stash", "`git stash`"),
    ("git -C /tmp status", "before the subcommand"), ("git log --output=x", "writes a file"),
    ("FOO=1 ls", "sets a variable"), ("ls 'unbalanced", "unbalanced"), ("ls\nrm x", "line break"),
    ("rg --pre=sh x", "`rg --pre`"), ("cat a | xargs rm", "`xargs` is not one"),
    # Conservative: quoting is not parsed before the check, so a quoted '>' counts too.
    ("echo 'a > b'", "'>'"),
])
def test_commands_that_may_write_are_named(command: str, why: str) -> None:
    risk = write_risk(command)
    assert risk is not None and why in risk, (command, risk)
