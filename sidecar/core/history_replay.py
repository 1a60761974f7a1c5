"""Replaying a session's visible history to the client as ``session/update``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, cast

from sidecar.contract.updates import (
    agent_message_chunk,
    agent_thought_chunk,
    hook_result_update,
    tool_call,
    user_message_chunk,
)

from sidecar.core.hooks import result_of
from sidecar.core.messages import json_object

if TYPE_CHECKING:
    from sidecar.core.session import Session


def replay_history(session: Session) -> None:
    """Send the visible history as session/update notifications (session/load)."""
    tools = {t.name: t for t in session.tools}
    roots = [Path(session.info.cwd)]
    for m in session.transcript.records:
        hook = result_of(m)
        if hook is not None and not (m.attachment or {}).get("carried"):
            session.update(hook_result_update(hook.event, hook.command, hook.output,
                                              hook.exit_code, replay=True))
            continue
        if m.is_meta or m.is_virtual or m.kind not in ("user", "assistant"):
            continue
        for block in m.content:
            kind = block.get("type")
            if kind == "text" and block.get("text"):
                if m.kind == "assistant":
                    session.update(agent_message_chunk(block["text"], m.message_id or m.uuid))
                else:
                    session.update(user_message_chunk(block["text"]))
            elif kind == "thinking" and block.get("thinking"):
                session.update(agent_thought_chunk(block["thinking"], m.message_id or m.uuid))
            elif kind == "tool_use":
                tool = tools.get(str(block.get("name")))
                raw = json_object(block.get("input"))
                # The id as the record holds it (Claude Code and the sidecar always write one).
                session.update(tool_call(cast(str, block.get("id")),
                                         tool.title(raw, roots) if tool else str(block.get("name")),
                                         tool.kind if tool else "other", "completed", raw))
