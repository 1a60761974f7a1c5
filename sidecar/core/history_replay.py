"""Replaying a session's visible history to the client as ``session/update``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from sidecar.core.messages import json_object

if TYPE_CHECKING:
    from sidecar.core.session import Session


def replay_history(session: Session) -> None:
    """Send the visible history as session/update notifications (session/load)."""
    tools = {t.name: t for t in session.tools}
    roots = [Path(session.info.cwd)]
    for m in session.transcript.records:
        if m.is_meta or m.is_virtual or m.kind not in ("user", "assistant"):
            continue
        for block in m.content:
            kind = block.get("type")
            if kind == "text" and block.get("text"):
                update = "user_message_chunk" if m.kind == "user" else "agent_message_chunk"
                payload: dict[str, Any] = {"sessionUpdate": update,
                                           "content": {"type": "text", "text": block["text"]}}
                if m.kind == "assistant":
                    payload["messageId"] = m.message_id or m.uuid
                session.update(payload)
            elif kind == "thinking" and block.get("thinking"):
                session.update({"sessionUpdate": "agent_thought_chunk",
                                "content": {"type": "text", "text": block["thinking"]},
                                "messageId": m.message_id or m.uuid})
            elif kind == "tool_use":
                tool = tools.get(str(block.get("name")))
                raw = json_object(block.get("input"))
                session.update({"sessionUpdate": "tool_call", "toolCallId": block.get("id"),
                                "title": tool.title(raw, roots) if tool else str(block.get("name")),
                                "kind": tool.kind if tool else "other",
                                "status": "completed", "rawInput": raw})
