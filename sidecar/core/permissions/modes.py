"""What a tool call may do in each permission mode: the one place that decides it.

The modes are Claude Code's: ``default`` asks before edits and shell commands,
``acceptEdits`` lets edits through and asks before shell commands, ``plan`` is read-only
(no edit except to the session's plan file; a shell command runs only when
``sidecar.core.permissions.readonly_shell`` finds it read-only, after asking when it reads outside the
workspace) and ``bypassPermissions`` asks nothing. ``decide`` gives one call's verdict before it runs:
refused (with the sentence the model reads), run after asking the user, or run as is.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from sidecar.contract.results import PERMISSION_MODES as MODES
from sidecar.core.permissions.readonly_shell import vet

Mode = Literal["default", "acceptEdits", "plan", "bypassPermissions"]
MODE_IDS: tuple[str, ...] = tuple(m["id"] for m in MODES)
# Tool kinds that only look (ACP's ToolKind names).
_LOOKING = frozenset({"read", "search", "think", "fetch"})
_CHANGING = frozenset({"edit", "delete", "move"})
EXIT_PLAN_TOOL = "ExitPlanMode"
# Ending one of the session's own background shells stops a command that was already
# allowed (or ran read-only in plan mode): never asked about, in any mode, plan mode too, as
# in Claude Code. (BashOutput, reading one, is a "read" tool and goes through as such.)
KILL_SHELL_TOOL = "KillBash"

# The tools that change the one file their ``file_path`` names (Claude Code's names); the
# sidecar's own are these, of kind "edit".
FILE_EDIT_TOOLS = frozenset({"Write", "Edit", "MultiEdit"})


def only_looks(kind: str) -> bool:
    """Whether a tool of this kind only looks (what plan mode lets through unasked)."""
    return kind in _LOOKING


def is_mode(value: object) -> bool:
    return isinstance(value, str) and value in MODE_IDS


@dataclass(frozen=True)
class Verdict:
    action: Literal["allow", "ask", "refuse"]
    reason: str = ""  # why a call is refused, for the model


ALLOW = Verdict("allow")
ASK = Verdict("ask")


@dataclass(frozen=True)
class CallView:
    """What the decision looks at of one call and of its session."""

    mode: str
    tool: str
    kind: str
    input: dict[str, Any]
    roots: Sequence[Path]
    plan_file: Path | None
    # The client can show a permission request (an edit is not asked about otherwise).
    can_ask: bool = True
    # The user accepted every edit of this turn ("allow_turn").
    edits_accepted: bool = False


def decide(call: CallView) -> Verdict:
    if call.tool == EXIT_PLAN_TOOL:
        if call.mode != "plan":
            return Verdict("refuse", "Not in plan mode: ExitPlanMode is only for leaving plan mode.")
        return ALLOW  # the tool itself asks the user
    if call.tool == KILL_SHELL_TOOL:
        return ALLOW
    if call.kind in _LOOKING:
        return ALLOW
    if call.kind in _CHANGING:
        if call.plan_file is not None and targets(call.input, call.roots) == call.plan_file:
            return ALLOW  # the session's own plan, in any mode
        if call.mode == "plan":
            where = f" The only file you may write is the plan file, {call.plan_file}." if call.plan_file else ""
            return Verdict("refuse", f"Plan mode is read-only: {call.tool} is not allowed until the user "
                                     f"approves the plan (call ExitPlanMode).{where}")
        if call.mode in ("acceptEdits", "bypassPermissions") or call.edits_accepted or not call.can_ask:
            return ALLOW
        return ASK
    if call.kind == "execute":
        if call.mode == "plan":
            vetting = vet(str(call.input.get("command", "")), call.roots)
            if vetting.action == "allow":
                return ALLOW
            if vetting.action == "ask":
                return ASK  # read-only, but outside the workspace: as Read, the user says
            return Verdict("refuse", f"Plan mode is read-only: this command was not run because "
                                     f"{vetting.reason}. Only read-only commands run in plan mode; the "
                                     "rest can run after the user approves the plan (call ExitPlanMode).")
        return ALLOW if call.mode == "bypassPermissions" else ASK
    return ALLOW


def targets(args: dict[str, Any], roots: Sequence[Path]) -> Path | None:
    """The absolute, normalized path an edit names (relative to the first root)."""
    raw = args.get("file_path")
    if not isinstance(raw, str) or not raw.strip() or "\x00" in raw:
        return None
    text = os.path.expanduser(raw.strip())
    if not os.path.isabs(text):
        if not roots:
            return None
        text = os.path.join(os.fspath(roots[0]), text)
    return Path(os.path.normpath(text))
