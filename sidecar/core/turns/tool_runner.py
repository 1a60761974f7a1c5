"""Running the tool calls of one model response, with the editor watching: in order, but
neighbouring calls of tools marked ``concurrent`` (Task) at once, their results still in the
model's order.

Every result is redacted of the keys the sidecar holds before the model, the transcript or
the editor sees it: a file, a command or an error text can carry one. A result too large for
the room left in the window is saved to a file and replaced by a preview (see
``sidecar.core.turns.result_budget``), once, as it is appended.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sidecar.contract.updates import tool_call, tool_call_update
from sidecar.core.conversation.messages import Block, Message, json_object, tool_result_block
from sidecar.core.permissions.modes import CallView, Verdict, decide
from sidecar.core.secrets.redaction import redact_api_keys, redact_value
from sidecar.core.turns.result_budget import SavedResult, preview, result_budget, saved_result_text
from sidecar.core.turns.tool_context import SessionToolContext, ToolHost

if TYPE_CHECKING:
    from sidecar.contract.updates import SessionUpdate
    from sidecar.core.ports import Tool

log = logging.getLogger(__name__)
INTERRUPTED_TOOL = "Interrupted by the user before the tool finished."
UPDATE_TEXT_LIMIT = 20_000


@dataclass
class ToolRun:
    content: str | list[Block]
    is_error: bool
    raw_output: dict[str, Any] = field(default_factory=dict)
    display: list[dict[str, Any]] | None = None  # tool_call_update content, when the tool has its own
    updates: list[SessionUpdate] = field(default_factory=list)  # sent after the call's own

    def update_content(self) -> list[dict[str, Any]]:
        if self.display is not None:
            return self.display
        text = self.content if isinstance(self.content, str) else "".join(
            b.get("text", "") for b in self.content if isinstance(b, dict))
        return [{"type": "content", "content": {"type": "text", "text": text[:UPDATE_TEXT_LIMIT]}}]


INTERRUPTED = ToolRun(INTERRUPTED_TOOL, True)


async def run_tool_calls(session: ToolHost, tool_uses: list[Block], message_id: str) -> None:
    """Run the calls, report each, and append all results as one user message, in the
    model's order. Calls run one after another, except that neighbouring calls of tools
    marked ``concurrent`` (Task) run at once."""
    by_name = {t.name: t for t in session.tools}
    results: list[Block] = []
    added = [0]  # tokens the results of this response already add
    for group in _groups(tool_uses, by_name):
        if len(group) == 1:
            results.append(await _call(session, group[0], by_name, added))
        else:
            results += await asyncio.gather(*(_call(session, use, by_name, added) for use in group))
    session.append(Message(kind="user", content=results, extra={"sourceToolMessageId": message_id}))


def _groups(tool_uses: list[Block], by_name: dict[str, Tool]) -> list[list[Block]]:
    """The calls in runs: each alone, but neighbouring concurrent ones together."""
    groups: list[list[Block]] = []
    for use in tool_uses:
        together = _concurrent(by_name.get(str(use.get("name"))))
        if together and groups and _concurrent(by_name.get(str(groups[-1][-1].get("name")))):
            groups[-1].append(use)
        else:
            groups.append([use])
    return groups


def _concurrent(tool: Tool | None) -> bool:
    return bool(getattr(tool, "concurrent", False))


async def _call(session: ToolHost, use: Block, by_name: dict[str, Tool], added: list[int]) -> Block:
    """Run one call, report it, and return its result block."""
    ctx = SessionToolContext(session)
    tid = str(use.get("id"))
    raw_input = json_object(use.get("input"))
    shown_input = redact_value(raw_input)
    tool = by_name.get(str(use.get("name")))
    if session.cancel_event.is_set():
        return tool_result_block(tid, INTERRUPTED_TOOL, is_error=True)
    title = tool.title(shown_input, ctx.roots) if tool else str(use.get("name"))
    session.update(tool_call(tid, title, tool.kind if tool else "other", "pending", shown_input,
                             tool.locations(raw_input, ctx.roots) if tool else []))
    if tool is None:
        run = ToolRun(f"Unknown tool {use.get('name')!r}; available: {', '.join(sorted(by_name))}", True)
    else:
        verdict = _verdict(session, tool, raw_input, ctx)
        session.update(tool_call_update(tid, "in_progress"))
        if verdict.action == "refuse":
            # The reason can quote the command, and so a key typed into it.
            run = _redacted(ToolRun(verdict.reason, True, {"error": verdict.reason, "mode": session.permissions.mode}))
        else:
            ctx.must_ask = verdict.action == "ask"
            ctx.current_tool_call = {"toolCallId": tid, "title": title, "kind": tool.kind,
                                     "rawInput": shown_input}
            run = _redacted(await _run_one(session, tool, raw_input, ctx))
            if tool.kind == "execute" and session.changes is not None:
                session.changes.shell_ran(str(raw_input.get("command", "")))
            run = await _within_budget(session, tid, run, added[0])
    added[0] += _tokens(session, run.content)
    session.update(tool_call_update(tid, "failed" if run.is_error else "completed",
                                    content=run.update_content(), raw_output=run.raw_output))
    for update in run.updates:
        session.update(update)
    return tool_result_block(tid, run.content, is_error=run.is_error)


def _verdict(session: ToolHost, tool: Tool, raw_input: dict[str, Any],
             ctx: SessionToolContext) -> Verdict:
    """What the session's permission mode lets this call do."""
    # An editor that cannot show a permission request applies edits unasked, as before
    # permission modes; its shell commands are still asked about (or refused).
    can_ask = bool(getattr(session.editor, "permission_requests", True))
    return decide(CallView(mode=session.permissions.mode, tool=tool.name, kind=tool.kind, input=raw_input,
                           roots=ctx.roots, plan_file=ctx.plan_file(), can_ask=can_ask,
                           edits_accepted=session.permissions.edits_accepted))


def _text_of(content: str | list[Block]) -> str | None:
    """The text of a result; None when it holds more than text (an image stays whole)."""
    if isinstance(content, str):
        return content
    if all(b.get("type") == "text" for b in content):
        return "".join(str(b.get("text", "")) for b in content)
    return None


def _tokens(session: ToolHost, content: str | list[Block]) -> int:
    text = _text_of(content)
    return round(session.ledger.counter.text(text)) if text is not None else 0


async def _within_budget(session: ToolHost, tid: str, run: ToolRun, added: int) -> ToolRun:
    """``run``, or a preview of it with the path of its saved whole when it is too large for
    the room left under the auto-compact point."""
    text = _text_of(run.content)
    if text is None:
        return run
    tokens = round(session.ledger.counter.text(text))
    budget = result_budget(session.thresholds, session.ledger.used(),
                           session.settings.tools.resultBudgetPercent, added)
    if tokens <= budget:
        return run
    path = await session.save_result(tid, text)
    if path is None:
        return run
    saved = SavedResult(str(path), len(text), len(text.encode("utf-8", "surrogatepass")),
                        tokens, budget)
    raw = {**run.raw_output, "savedTo": saved.path, "savedTokens": tokens}
    read_path = run.raw_output.get("path")
    if isinstance(read_path, str):
        # The model saw a preview, not the range: a re-read must return content again.
        session.file_state.forget_results([read_path])
    return dataclasses.replace(run, content=saved_result_text(saved, preview(text)), raw_output=raw)


def _redacted(run: ToolRun) -> ToolRun:
    content = redact_api_keys(run.content) if isinstance(run.content, str) else [
        b if b.get("type") == "image" else redact_value(b) for b in run.content]
    return dataclasses.replace(run, content=content, raw_output=redact_value(run.raw_output),
                               display=redact_value(run.display) if run.display is not None else None,
                               updates=[redact_value(u) for u in run.updates])


async def _run_one(session: ToolHost, tool: Tool, raw_input: dict[str, Any], ctx: Any) -> ToolRun:
    task = asyncio.ensure_future(tool.run(raw_input, ctx))
    cancel_wait = asyncio.ensure_future(session.cancel_event.wait())
    await asyncio.wait({task, cancel_wait}, return_when=asyncio.FIRST_COMPLETED)
    cancel_wait.cancel()
    if not task.done():
        # The tool sees the cancel event too (the shell kills its process group).
        try:
            await asyncio.wait_for(asyncio.shield(task), timeout=5)
        except (asyncio.TimeoutError, asyncio.CancelledError):
            task.cancel()
            return INTERRUPTED
    try:
        outcome = task.result()
    except asyncio.CancelledError:
        return INTERRUPTED
    except Exception as exc:  # a tool bug must not break the transcript
        log.exception("tool %s failed", tool.name)
        return ToolRun(f"{tool.name} failed: {exc}", True)
    if session.cancel_event.is_set() and outcome.is_error:
        return ToolRun(INTERRUPTED_TOOL, True, outcome.raw_output)
    return ToolRun(outcome.content, outcome.is_error, outcome.raw_output, outcome.acp_content(),
                   outcome.updates)
