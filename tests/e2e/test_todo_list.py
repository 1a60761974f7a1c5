"""The model's task list (TodoWrite) through the real process and the strict fake, for each
wire: the client sees each new list as a ``plan`` update, the model reads Claude Code's
answer, the list follows a compaction's summary, and a session loaded in a new process
shows it again."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sidecar.core.todos import REINJECTED_INTRO
from sidecar.fake_llm import Reply
from sidecar.tools.todo_write import DONE
from tests.e2e.session_client import call, initialize, prompt, sent_conversation, settings_for, start_client, stop_client

pytestmark = pytest.mark.asyncio

PLAN = [
    {"content": "Find the failing test", "status": "completed", "activeForm": "Finding the failing test"},
    {"content": "Fix the off-by-one", "status": "in_progress", "activeForm": "Fixing the off-by-one"},
    {"content": "Run the tests", "status": "pending", "activeForm": "Running the tests"},
]


@pytest.mark.parametrize("provider", ["anthropic", "openai", "openai-compatible"])
async def test_the_task_list_is_shown_kept_past_compaction_and_reloaded(
        provider: str, llm: Any, tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "notes.py").write_text("".join(f"LINE_{i} = {i}  # a note worth reading\n" for i in range(600)))
    store = tmp_path / "store"
    client = await start_client()
    try:
        rec = await initialize(client, settings_for(provider, llm.url, store))
        sid = (await call(client, "session/new", {"cwd": str(workspace)}))["sessionId"]
        llm.queue(Reply.tool_use("TodoWrite", {"todos": PLAN}, id="toolu_t1"))
        llm.queue(Reply.tool_use("Read", {"file_path": "notes.py"}, id="toolu_r1"))
        llm.queue(Reply.text("Working on the off-by-one."))
        await prompt(client, sid, "fix the failing test")
        plans = rec.of("plan")
        assert plans == [{"sessionUpdate": "plan", "entries": [
            {"content": e["content"], "priority": "medium", "status": e["status"],
             "_meta": {"sidecar": {"activeForm": e["activeForm"]}}} for e in PLAN]}]
        # The model read Claude Code's own answer.
        assert DONE in json.dumps(sent_conversation(llm.requests[-1]))

        llm.queue(Reply.text("Summary: fixing an off-by-one; the test was found."))
        await call(client, "sidecar/compact", {"sessionId": sid})
        llm.queue(Reply.text("Carrying on."))
        await prompt(client, sid, "carry on")
        after = json.dumps(sent_conversation(llm.requests[-1]))
        assert REINJECTED_INTRO in after
        assert "2. [~] Fix the off-by-one" in after and "3. [ ] Run the tests" in after
    finally:
        await stop_client(client)

    # A new process loads the session: the list comes back with the replayed history.
    client = await start_client()
    try:
        rec = await initialize(client, settings_for(provider, llm.url, store))
        await call(client, "session/load", {"sessionId": sid, "cwd": str(workspace)})
        replayed = rec.of("plan")
        assert [u["entries"][1]["status"] for u in replayed] == ["in_progress"]
        assert all(u.get("replay") for u in replayed)
    finally:
        await stop_client(client)


async def test_the_task_list_follows_an_automatic_compaction_and_a_typed_compact(llm: Any, tmp_path: Path) -> None:
    """In a 60K window (auto-compact at 27,000 tokens) the model keeps a list, then reads files
    until the sidecar compacts by itself: the first main request after it carries the list;
    then /compact typed as a prompt does the same."""
    from tests.e2e.test_compaction import SMALL, big_file, read_reply

    workspace = tmp_path / "ws"
    workspace.mkdir()
    client = await start_client()
    try:
        rec = await initialize(client, settings_for("anthropic", llm.url, tmp_path / "store", **SMALL,
                                                    sessionMemory={"enabled": False}))
        sid = (await call(client, "session/new", {"cwd": str(workspace)}))["sessionId"]
        llm.queue(Reply.tool_use("TodoWrite", {"todos": PLAN}, id="toolu_t1"))
        llm.queue(Reply.text("Listed."))
        await prompt(client, sid, "plan the work")
        seen = len(llm.requests)
        for i in range(8):
            name = big_file(workspace, f"mod{i}.py", 12)
            llm.queue(read_reply(name, f"toolu_r{i}"))
            llm.queue(Reply.text(f"mod{i} read."))
            await prompt(client, sid, f"read mod{i}.py")
            if rec.of("compaction_update") and rec.of("compaction_update")[-1]["status"] == "completed":
                break
        done = [u for u in rec.of("compaction_update") if u["status"] == "completed"]
        assert done and done[0]["trigger"] == "auto", [u["status"] for u in rec.of("compaction_update")]
        main_after = [r for r in llm.requests[seen:] if r.call == "main"]
        boundary = next(i for i, r in enumerate(main_after) if r.headers.get("x-context-sidecar-epoch") !=
                        main_after[0].headers.get("x-context-sidecar-epoch"))
        first = json.dumps(sent_conversation(main_after[boundary]))
        assert REINJECTED_INTRO in first and "2. [~] Fix the off-by-one" in first

        llm.queue(Reply.text("Summary: reading modules; the list is kept."))
        await prompt(client, sid, "/compact")
        llm.queue(Reply.text("Carrying on."))
        await prompt(client, sid, "carry on")
        after = json.dumps(sent_conversation(llm.requests[-1]))
        assert REINJECTED_INTRO in after and "3. [ ] Run the tests" in after
    finally:
        await stop_client(client)
