"""ExitPlanMode: the model asks the user to approve its plan and leave plan mode.

The plan is the session's plan file (written with Write and Edit while planning). The user
sees it in a ``switch_mode`` permission request: approving switches the session to
``acceptEdits`` or ``default`` as chosen; declining keeps it planning, and the model reads
the user's answer.
"""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

from sidecar.core.permissions.choice import refusal
from sidecar.core.permissions.plan import read_plan
from sidecar.core.ports import ToolContext, ToolOutcome
from sidecar.tools.base import BaseTool, ToolError

# The answers of the request, and the mode each approval switches to.
APPROVALS = {"accept_edits": "acceptEdits", "default": "default"}
KEEP_PLANNING = (
    "The user chose to keep planning: plan mode stays on and nothing may change yet. Ask "
    "the user what to change in the plan, or improve it in the plan file, then call "
    "ExitPlanMode again."
)
CANCELLED = "The user did not answer (the request was cancelled): plan mode stays on."


class ExitPlanModeTool(BaseTool):
    name = "ExitPlanMode"
    kind = "switch_mode"
    compactable = False
    description = (
        "In plan mode, once the plan in your plan file is complete: shows the user the plan "
        "and asks to leave plan mode; on approval you may make the changes. Only for plans "
        "of changes to files or commands, not for research questions."
    )
    input_schema: ClassVar[dict[str, Any]] = {"type": "object", "properties": {}}

    def title(self, input: dict[str, Any], roots: Any = ()) -> str:
        return "Leave plan mode"

    async def invoke(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        plan_file = ctx.plan_file()
        plan = await asyncio.to_thread(read_plan, plan_file) if plan_file is not None else None
        if plan_file is not None and (plan is None or not plan.strip()):
            raise ToolError(f"There is no plan yet: write it to {plan_file} first, then call "
                            "ExitPlanMode again.")
        plan = plan or ""
        answer = await ctx.ask_to_leave_plan(plan)
        mode = APPROVALS.get(answer.option_id)
        if mode is None:
            text = CANCELLED if answer.option_id == "cancelled" else refusal(KEEP_PLANNING, answer)
            return ToolOutcome.error(text, permission=answer.option_id)
        ctx.set_mode(mode)
        how = ("Edits go through without asking" if mode == "acceptEdits"
               else "The user is asked before each edit")
        where = f" The plan is in {plan_file}; keep it up to date as you work." if plan_file else ""
        return ToolOutcome(
            f"The user approved the plan and plan mode has ended (the session is in {mode} "
            f"mode now). {how}. Start carrying out the plan.{where}",
            raw_output={"approved": True, "mode": mode, "planFile": str(plan_file) if plan_file else None},
        )
