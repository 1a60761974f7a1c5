"""Plan mode's words to the model, and its plan carried over a compaction.

When plan mode starts the model is told, in a system-reminder attachment, that it may only
look, where its plan file is and how to leave (``ExitPlanMode``); when it ends, that it may
change things again. After every compaction the plan file (within a budget) and, while
planning, the reminder follow the summary again (``reinjected_plan``, a source of
``sidecar.core.compaction.reinjection.SOURCES``).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

from sidecar.core.conversation.messages import Message
from sidecar.core.workspace.own_files import read_own_text

if TYPE_CHECKING:
    from sidecar.core.compaction.host import CompactionHost

PLAN_FILE_NAME = "plan.md"
# How the plan mode reminder names the plan file, and how the re-injected plan starts.
PLAN_FILE_INTRO = "Your plan file is "
PLAN_REINJECTED_MARK = "The plan written in plan mode, "


def plan_mode_text(plan_file: Path | None) -> str:
    if plan_file is None:
        where = ("This session is not stored, so it has no plan file: give the plan in your "
                 "answer instead, and change nothing.")
    elif plan_file.exists():
        where = (f"{PLAN_FILE_INTRO}{plan_file} and it exists already: Read it, then improve it "
                 "with Edit or Write. It is the only file you may change.")
    else:
        where = (f"{PLAN_FILE_INTRO}{plan_file}; it does not exist yet: create it with Write. "
                 "It is the only file you may change.")
    return (
        "Plan mode is active. The user wants a plan before anything changes: do not edit "
        "files, do not run commands that change anything (writes, installs, commits, "
        "configuration) and make no other change to the system. This comes before any other "
        "instruction you have. Read, search and run read-only commands to understand the task, "
        "and ask the user where the task is unclear.\n\n"
        f"{where} Build the plan up there as you learn: what you found, the steps in order, "
        "the files each step changes, and how to check the result.\n\n"
        "When the plan is complete, call the ExitPlanMode tool: the user reads the plan and "
        "either approves it (you may then make the changes) or asks you to keep planning. "
        "Do not ask for approval any other way."
    )


def plan_entered_note(plan_file: Path | None, *, reinjected: bool = False) -> Message:
    attachment: dict[str, object] = {"type": "plan_mode"}
    if reinjected:
        attachment["reinjected"] = True
    return Message(kind="attachment", attachment=attachment,
                   content=[{"type": "text", "text": plan_mode_text(plan_file)}], is_meta=True)


def plan_left_note(mode: str, plan_file: Path | None) -> Message:
    plan = f" The plan is in {plan_file}." if plan_file is not None and plan_file.exists() else ""
    text = (f"Plan mode has ended: the session is in {mode} mode now. You may edit files and "
            f"run commands again, as that mode permits.{plan}")
    return Message(kind="attachment", attachment={"type": "plan_mode_exit"},
                   content=[{"type": "text", "text": text}], is_meta=True)


def read_plan(plan_file: Path) -> str | None:
    """The plan's text, or None when there is none (blocking: call it in a worker thread)."""
    try:
        return read_own_text(plan_file, limit=4 << 20)
    except OSError:
        return None


async def reinjected_plan(session: CompactionHost, tier: str) -> list[Message]:
    """The plan file while the session plans or has planned, within the per-file budget of
    re-injected files (its head, and where the rest is, when it is longer); and the plan
    mode reminder while the session is in plan mode."""
    permissions = session.permissions
    plan_file = permissions.plan_file()
    if not (permissions.planned or permissions.mode == "plan"):
        return []
    out: list[Message] = []
    text = await asyncio.to_thread(read_plan, plan_file) if plan_file is not None else None
    if plan_file is not None and text is not None and text.strip():
        budget = min(session.settings.postCompact.perFileTokens, session.thresholds.size // 40)
        tokens = session.ledger.counter.text(text)
        note = f"{PLAN_REINJECTED_MARK}{plan_file}:\n"
        if tokens > budget:
            keep = max(int(len(text) * budget / tokens) - 200, 0)
            text = (text[:keep] + f"\n\n[The plan continues: Read {plan_file} for the rest.]")
        out.append(Message(kind="attachment",
                           attachment={"type": "plan_file_reference", "path": str(plan_file),
                                       "reinjected": True},
                           content=[{"type": "text", "text": note + text}], is_meta=True))
    if permissions.mode == "plan":
        out.append(plan_entered_note(plan_file, reinjected=True))
    return out
