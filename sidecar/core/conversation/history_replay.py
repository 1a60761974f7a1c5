"""Replaying a session's history to the client as ``session/update`` (``session/load``).

The replay shows the conversation as it ran live, every update marked ``"replay": true``:
user prompts as ``user_message_chunk``; answers and thinking as agent chunks; each tool call
as ``tool_call`` then its final ``tool_call_update`` (status, shown output, the permission
answer when one was asked); each compaction as a completed ``compaction_update`` with its
summary and sizes, never as a user message. What the model saw but the user never typed
(summaries, re-injected files, context attachments, a compaction's verbatim copy of the
last round) is not replayed.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from sidecar.contract.results import CompactionBackend, CompactionTier
from sidecar.contract.updates import (
    CompactionTrigger,
    SessionUpdate,
    agent_message_chunk,
    agent_thought_chunk,
    compaction_update,
    hook_result_update,
    replayed,
    tool_call,
    tool_call_update,
    user_message_chunk,
)
from sidecar.core.checkpoints.records import CHECKPOINT, meta_of
from sidecar.core.compaction.prompts import summary_of_message
from sidecar.core.conversation import server_tools
from sidecar.core.conversation.messages import Block, Message, is_compact_boundary, json_object
from sidecar.core.conversation.tool_record import recorded, result_content
from sidecar.core.secrets.redaction import redact_value
from sidecar.core.todos import TODO_TOOL, todo_update, todos_from_input
from sidecar.core.workspace.hooks import result_of

if TYPE_CHECKING:
    from sidecar.core.session import Session


def replay_history(session: Session) -> None:
    """Send the history as replayed session/update notifications."""
    for update in history_updates(session):
        session.editor.session_update(session.id, replayed(update))


def history_updates(session: Session) -> list[SessionUpdate]:
    records = session.transcript.records
    results = _results_by_id(records)
    tools = {t.name: t for t in session.tools}
    roots = [Path(session.info.cwd).resolve()]
    out: list[SessionUpdate] = []
    checkpoint: str | None = None  # the checkpoint the next typed prompt follows
    for i, m in enumerate(records):
        taken = meta_of(m, CHECKPOINT)
        if taken is not None:
            checkpoint = str(taken.get("checkpointId"))
            continue
        if is_compact_boundary(m):
            row = _compaction(m, records[i + 1:])
            if row is not None:
                out.append(row)
            continue
        hook = result_of(m)
        if hook is not None and not (m.attachment or {}).get("carried"):
            out.append(hook_result_update(hook.event, hook.command, hook.output, hook.exit_code))
            continue
        if m.is_meta or m.is_virtual or m.is_compact_summary or m.kind not in ("user", "assistant") \
                or "keptFrom" in m.extra:
            continue
        for block in m.content:
            kind = block.get("type")
            if kind == "text" and block.get("text"):
                if m.kind == "assistant":
                    out.append(agent_message_chunk(block["text"], m.message_id or m.uuid))
                elif not block.get("context"):
                    out.append(user_message_chunk(block["text"], checkpoint))
                    checkpoint = None
            elif kind == "thinking" and block.get("thinking"):
                out.append(agent_thought_chunk(block["thinking"], m.message_id or m.uuid))
            elif kind == "tool_use" and m.kind == "assistant":
                out.extend(_tool_rows(block, results, tools, roots))
            elif server_tools.starts_call(block) and m.kind == "assistant":
                out.extend(server_tools.call_updates(m.content, str(block.get("id"))))
    return out


def _results_by_id(records: list[Message]) -> dict[str, tuple[Block, Message]]:
    found: dict[str, tuple[Block, Message]] = {}
    for m in records:
        if m.kind == "user" and "keptFrom" not in m.extra:
            for block in m.tool_results():
                found.setdefault(str(block.get("tool_use_id")), (block, m))
    return found


def _tool_rows(block: Block, results: dict[str, tuple[Block, Message]], tools: dict[str, Any],
               roots: list[Path]) -> list[SessionUpdate]:
    # The id as the record holds it (Claude Code and the sidecar always write one).
    tid = cast(str, block.get("id"))
    raw = json_object(block.get("input"))
    shown = redact_value(raw)
    tool = tools.get(str(block.get("name")))
    title = tool.title(shown, roots) if tool else str(block.get("name"))
    start = tool_call(tid, title, tool.kind if tool else "other", "pending", shown,
                      tool.locations(raw, roots) if tool else [])
    found = results.get(tid)
    if found is None:  # the call never finished (a crash or a cut turn)
        return [start, tool_call_update(tid, "failed")]
    result, holder = found
    note = recorded(holder, tid)
    content = note.get("content")
    end = tool_call_update(
        tid, "failed" if result.get("is_error") else "completed",
        content=content if isinstance(content, list) else result_content(result),
        raw_output=note.get("rawOutput") if isinstance(note.get("rawOutput"), dict) else None,
        permission=note.get("permission") if isinstance(note.get("permission"), dict) else None)
    todos = todos_from_input(raw) if block.get("name") == TODO_TOOL and not result.get("is_error") else None
    return [start, end] if todos is None else [start, end, todo_update(todos)]


def _compaction(boundary: Message, after: list[Message]) -> SessionUpdate | None:
    """A compaction's row; None for a /clear (live, it shows as the command's answer)."""
    meta = json_object(boundary.extra.get("compactMetadata"))
    trigger = meta.get("trigger")
    if trigger == "clear":
        return None
    summary_msg = next((m for m in after[:3] if m.is_compact_summary), None)
    post = meta.get("postTokens")
    pre = meta.get("preTokens")
    return compaction_update(
        f"cmp_{boundary.uuid.replace('-', '')[:12]}",
        trigger=cast(CompactionTrigger, trigger if trigger in ("auto", "manual") else "auto"),
        status="completed",
        tier=cast(CompactionTier, meta.get("tier") if meta.get("tier") in ("full", "session_memory") else "full"),
        tokens_before=pre if isinstance(pre, int) else None,
        tokens_after=post if isinstance(post, int) else None,
        summary=_summary_text(summary_msg) if summary_msg is not None else None,
        backend=cast(CompactionBackend, meta.get("backend") if meta.get("backend") in ("local", "server") else "local"),
    )


def _summary_text(message: Message) -> str:
    """The summary as it showed live: our summary's text, or the provider's readable one."""
    if message.extra.get("serverCompaction"):
        parts = [b.get("content") for b in message.content if b.get("type") == "compaction"]
        return "".join(p for p in parts if isinstance(p, str))
    return summary_of_message(message.text())
