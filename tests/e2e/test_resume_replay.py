"""Resuming a session: ``session/load`` in a new process shows the conversation exactly as
it ran live (the same rows, statuses, outputs, compactions and permission answers)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sidecar.fake_llm import Reply
from tests.e2e.session_client import (
    call,
    initialize,
    prompt,
    settings_for,
    start_client,
    stop_client,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")


def rows(updates: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """What a client draws from a stream of updates: merged agent text, one row per tool
    call with its final state, one per finished compaction, and user messages."""
    out: list[tuple[Any, ...]] = []
    calls: dict[str, dict[str, Any]] = {}
    for u in updates:
        kind = u["sessionUpdate"]
        if kind == "agent_message_chunk":
            if out and out[-1][0] == "agent":
                out[-1] = ("agent", out[-1][1] + u["content"]["text"])
            else:
                out.append(("agent", u["content"]["text"]))
        elif kind == "user_message_chunk":
            out.append(("user", u["content"]["text"]))
        elif kind == "tool_call":
            calls[u["toolCallId"]] = u
        elif kind == "tool_call_update" and u["status"] in ("completed", "failed"):
            start = calls[u["toolCallId"]]
            out.append(("tool", start["title"], start["kind"], start["rawInput"],
                        start.get("locations"), u["status"], u.get("content"),
                        u.get("permission"), u.get("rawOutput")))
        elif kind == "compaction_update" and u["status"] == "completed":
            out.append(("compaction", u["trigger"], u["tier"], u["tokensBefore"],
                        u["tokensAfter"], u["summary"]))
    return out


async def test_load_replays_as_live(llm: Any, tmp_path: Path, workspace: Path) -> None:
    store = tmp_path / "store"
    settings = settings_for("anthropic", llm.url, store)
    client = await start_client()
    rec = await initialize(client, settings)
    try:
        sid = (await call(client, "session/new", {"cwd": str(workspace)}))["sessionId"]
        # Enough text that a summary makes room.
        (workspace / "hello.py").write_text("".join(f"def f{i}(x):\n    return x * {i}\n" for i in range(600)))
        llm.queue(Reply(content=[{"type": "text", "text": "Reading it."},
                                 {"type": "tool_use", "id": "toolu_ok", "name": "Read",
                                  "input": {"file_path": "hello.py"}}]))
        llm.queue(Reply.text("It says hi."))
        await prompt(client, sid, "read hello.py")
        llm.queue(Reply.tool_use("Read", {"file_path": "missing.py"}, id="toolu_missing"))
        llm.queue(Reply.text("No such file."))
        await prompt(client, sid, "read missing.py")
        rec.permission_answer = lambda p: {"outcome": {"outcome": "selected", "optionId": "reject_once"}}
        llm.queue(Reply.tool_use("Bash", {"command": "echo rejected"}, id="toolu_rejected"))
        llm.queue(Reply.text("You said no."))
        await prompt(client, sid, "run echo rejected")
        rec.permission_answer = lambda p: {"outcome": {"outcome": "selected", "optionId": "allow_once"}}
        llm.queue(Reply.tool_use("Bash", {"command": "echo ran-$((40+2))"}, id="toolu_allowed"))
        llm.queue(Reply.text("It printed ran-42."))
        await prompt(client, sid, "run echo")
        # An edit is asked about with its diff; the answer shows like a command's.
        llm.queue(Reply.tool_use("Edit", {"file_path": "hello.py", "old_string": "def f0(x):",
                                          "new_string": "def g0(x):"}, id="toolu_edit"))
        llm.queue(Reply.text("Renamed."))
        await prompt(client, sid, "rename f0")
        compacted = await call(client, "sidecar/compact", {"sessionId": sid})
        assert compacted["status"] == "completed"
        llm.queue(Reply.text("Continuing after the summary."))
        await prompt(client, sid, "go on")
        live = list(rec.updates)
        live_view = await call(client, "sidecar/context", {"sessionId": sid})
    finally:
        await stop_client(client)

    live_rows = rows(live)
    tools = [r for r in live_rows if r[0] == "tool"]
    assert [t[5] for t in tools] == ["completed", "failed", "failed", "completed", "completed"]
    # The permission answered is on the final update, live.
    assert [t[7] for t in tools] == [None, None, {"optionId": "reject_once", "name": "Reject"},
                                     {"optionId": "allow_once", "name": "Allow once"},
                                     {"optionId": "allow_once", "name": "Accept"}]
    assert "ran-42" in str(tools[3][6])
    # What a row shows beside the title (a Read's line count) comes from rawOutput.
    assert isinstance(tools[0][8], dict) and "numLines" in tools[0][8]

    client = await start_client()
    rec = await initialize(client, settings)
    try:
        await call(client, "session/load", {"sessionId": sid, "cwd": str(workspace)})
        replayed = [u for u in rec.updates if u.get("replay")]
        view = await call(client, "sidecar/context", {"sessionId": sid})
    finally:
        await stop_client(client)

    kinds = {u["sessionUpdate"] for u in replayed}
    assert kinds <= {"user_message_chunk", "agent_message_chunk", "agent_thought_chunk",
                     "tool_call", "tool_call_update", "compaction_update"}
    # Every replayed update is marked, and nothing of the history comes unmarked.
    assert not [u for u in rec.updates if u["sessionUpdate"] in kinds and not u.get("replay")]
    replay_rows = rows(replayed)
    users = [r[1] for r in replay_rows if r[0] == "user"]
    assert users == ["read hello.py", "read missing.py", "run echo rejected", "run echo", "rename f0",
                     "go on"]
    assert [r for r in replay_rows if r[0] != "user"] == live_rows
    # The context view after the load holds what it held live.
    assert view["messages"] and len(view["messages"]) == len(live_view["messages"])
    assert view["lastCompaction"] == live_view["lastCompaction"]
    for key in ("used", "lastTurn", "cost", "compactions", "breakdown"):
        assert view["gauge"][key] == live_view["gauge"][key], key
