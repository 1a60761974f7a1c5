"""What the editor was shown of each tool call, kept so that a resumed session shows it again.

Live, a call ends with a ``tool_call_update`` carrying its status, its output (``content``)
and, when the user was asked, the option picked (``permission``). The transcript holds the
call (``tool_use``) and its result (``tool_result``, ``is_error``); what cannot be derived
from those is written beside the result, in the tool-results record's ``toolCalls`` extra:
the permission answer, the call's ``rawOutput`` when it is small (line counts, exit codes:
what a client's row shows), and the shown content when it is not the result's text (a diff,
or a result the model saw as a preview of a saved file). ``shown_content`` is the one rule for
what a result shows, so live and replay cap it the same way.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, cast

from sidecar.contract.updates import PermissionAnswer
from sidecar.core.permissions.choice import PermissionChoice

if TYPE_CHECKING:
    from sidecar.contract.updates import SessionUpdate
    from sidecar.core.conversation.messages import Block, Message

# The most text one tool call's update carries (the model's result is not affected).
SHOWN_TEXT_LIMIT = 20_000
EXTRA_KEY = "toolCalls"
# A rawOutput larger than this as JSON is not kept for replay (it would bloat the transcript).
RAW_OUTPUT_LIMIT = 2_000


def shown_content(content: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``content`` with its text capped at SHOWN_TEXT_LIMIT characters in all."""
    left = SHOWN_TEXT_LIMIT
    out: list[dict[str, Any]] = []
    for item in content:
        inner = item.get("content") if item.get("type") == "content" else None
        if isinstance(inner, dict) and isinstance(inner.get("text"), str):
            text = inner["text"]
            if len(text) > left:
                item = {**item, "content": {**inner, "text": text[:left]}}
                text = text[:left]
            left -= len(text)
        out.append(item)
    return out


def result_content(result: Block) -> list[dict[str, Any]]:
    """What a ``tool_result`` block shows when nothing else was recorded: its text."""
    body = result.get("content")
    if isinstance(body, str):
        return shown_content([{"type": "content", "content": {"type": "text", "text": body}}])
    blocks = body if isinstance(body, list) else []
    return shown_content([{"type": "content", "content": b} for b in blocks
                          if isinstance(b, dict) and b.get("type") == "text"])


class ToolNotes:
    """Per session: answers and shown content of the calls whose results are not appended yet."""

    def __init__(self) -> None:
        self._pending: dict[str, dict[str, Any]] = {}

    def note_permission(self, tool_call_id: str, answer: PermissionAnswer) -> None:
        self._pending.setdefault(tool_call_id, {})["permission"] = answer

    def on_update(self, update: SessionUpdate) -> SessionUpdate:
        """A final ``tool_call_update`` on its way out: its content capped, the answer added."""
        if update.get("sessionUpdate") != "tool_call_update" or \
                update.get("status") not in ("completed", "failed"):
            return update
        raw = cast(dict[str, Any], update)
        note = self._pending.setdefault(str(raw.get("toolCallId")), {})
        if isinstance(raw.get("content"), list):
            raw["content"] = shown_content(raw["content"])
            note["shown"] = raw["content"]
        if "permission" in note and "permission" not in raw:
            raw["permission"] = note["permission"]
        output = raw.get("rawOutput")
        if isinstance(output, dict) and output and len(json.dumps(output, default=str)) <= RAW_OUTPUT_LIMIT:
            note["rawOutput"] = output
        return update

    def on_append(self, message: Message) -> None:
        """The tool-results record is about to be written: what replay needs goes with it."""
        if message.kind != "user" or not self._pending:
            return
        notes: dict[str, Any] = {}
        for result in message.tool_results():
            tid = str(result.get("tool_use_id"))
            note = self._pending.pop(tid, None)
            if not note:
                continue
            kept: dict[str, Any] = {}
            if "permission" in note:
                kept["permission"] = note["permission"]
            if "rawOutput" in note:
                kept["rawOutput"] = note["rawOutput"]
            if "shown" in note and note["shown"] != result_content(result):
                kept["content"] = note["shown"]
            if kept:
                notes[tid] = kept
        if notes:
            message.extra[EXTRA_KEY] = notes


def note_permission(session: Any, tool_call_id: str, choice: PermissionChoice,
                    options: list[dict[str, Any]]) -> None:
    """Remember the option the user picked for ``tool_call_id`` (its final update and the
    transcript carry it). Sessions without notes (tests' hosts) ignore it."""
    notes = getattr(session, "tool_notes", None)
    if not isinstance(notes, ToolNotes) or not tool_call_id:
        return
    option_id = choice.option_id
    name = next((str(o.get("name")) for o in options if o.get("optionId") == option_id), option_id)
    answer: PermissionAnswer = {"optionId": option_id, "name": name}
    if choice.reason:
        answer["reason"] = choice.reason
    notes.note_permission(tool_call_id, answer)


def recorded(message: Message | None, tool_use_id: str) -> dict[str, Any]:
    """What the results record kept for one call (permission, content), or nothing."""
    if message is None:
        return {}
    notes = message.extra.get(EXTRA_KEY)
    note = notes.get(tool_use_id) if isinstance(notes, dict) else None
    return note if isinstance(note, dict) else {}
