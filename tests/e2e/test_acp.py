"""``context-sidecar serve --acp`` against the ACP Python SDK's client and the fake LLM server.

One sidecar process serves the module (its client does not ask for compaction updates);
the load test starts a second one on the same storage directory, whose client does.
"""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from acp import RequestError, text_block
from acp.schema import AgentMessageChunk, AgentPlanUpdate, ToolCallProgress, ToolCallStart, UsageUpdate

from sidecar.fake_llm import Reply
from sidecar.fake_llm.script import web_fetch, web_search
from tests.e2e.acp_client import acp_agent

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def agent(fake_llm: Any, tmp_path_factory: Any) -> Any:
    root = tmp_path_factory.mktemp("acp")
    store = root / "store"
    async with acp_agent(store, fake_llm.url, root / "sidecar.log") as (conn, client, init):
        yield {"conn": conn, "client": client, "init": init, "store": store, "root": root}


@pytest_asyncio.fixture(loop_scope="module")
async def session(agent: dict[str, Any], llm: Any, workspace: Path) -> dict[str, Any]:
    res = await agent["conn"].new_session(cwd=str(workspace), mcp_servers=[])
    return {**agent, "sid": res.session_id, "new": res, "ws": workspace}


async def ask(s: dict[str, Any], text: str) -> Any:
    return await asyncio.wait_for(s["conn"].prompt(session_id=s["sid"], prompt=[text_block(text)]), 30)


def no_schema_rejects(client: Any, sid: str) -> None:
    """Every update the SDK could not parse is missing from the typed list."""
    sent = [u for u in client.updates(sid) if u["sessionUpdate"] != "compaction_update"]
    assert len(client.typed_for(sid)) == len(sent), [u["sessionUpdate"] for u in sent]


async def test_initialize_advertises_acp_capabilities(agent: dict[str, Any]) -> None:
    init = agent["init"]
    assert init.protocol_version == 1
    caps = init.agent_capabilities
    assert caps.load_session is True
    assert caps.prompt_capabilities.image and caps.prompt_capabilities.embedded_context
    sc = caps.session_capabilities
    assert sc.list is not None and sc.resume is not None and sc.close is not None
    assert init.agent_info.name == "context-sidecar" and init.agent_info.version
    assert "_sidecar/compact" in caps.field_meta["sidecar"]["methods"]


async def test_new_session_announces_commands_then_usage(session: dict[str, Any]) -> None:
    client, sid = session["client"], session["sid"]
    assert session["new"].field_meta["sidecar"]["gauge"]["size"] == 1_000_000  # Sonnet 5.5
    commands = await client.wait_for(lambda: client.updates(sid, "available_commands_update"))
    names = {c["name"] for c in commands[0]["availableCommands"]}
    assert {"compact", "context"} <= names
    usage = await client.wait_for(lambda: client.updates(sid, "usage_update"))
    assert usage[0]["size"] == 1_000_000 and usage[0]["used"] > 0
    assert usage[0]["_meta"]["sidecar"]["sessionId"] == sid
    # The client learns the id from the answer, so the answer comes first on the wire.
    answer_at = next(i for i, m in enumerate(client.wire) if (m.get("result") or {}).get("sessionId") == sid)
    first_update = next(i for i, m in enumerate(client.wire)
                        if m.get("method") == "session/update" and m["params"]["sessionId"] == sid)
    assert answer_at < first_update
    await client.wait_for(lambda: len(client.typed_for(sid)) >= 2)
    no_schema_rejects(client, sid)


async def test_prompt_with_tool_call_and_permission(session: dict[str, Any], llm: Any) -> None:
    client, sid = session["client"], session["sid"]
    client.permission_answer = "allow_once"
    llm.queue(Reply(content=[{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "echo hi"}}]))
    llm.queue(Reply.text("The command printed hi.", chunk_size=3))
    res = await ask(session, "run echo")
    assert res.stop_reason == "end_turn"
    assert res.field_meta["sidecar"]["gauge"]["sessionId"] == sid

    [asked] = [r for r in client.permission_requests if r["sessionId"] == sid]
    assert asked["toolCall"].tool_call_id == "t1"
    assert {o.kind for o in asked["options"]} >= {"allow_once", "reject_once"}

    typed = client.typed_for(sid)
    start = [u for u in typed if isinstance(u, ToolCallStart)]
    assert start and start[0].tool_call_id == "t1" and start[0].kind == "execute"
    done = [u for u in typed if isinstance(u, ToolCallProgress) and u.status == "completed"]
    assert done and "hi" in done[-1].content[0].content.text
    text = "".join(u.content.text for u in typed if isinstance(u, AgentMessageChunk))
    assert text == "The command printed hi."
    usage = [u for u in typed if isinstance(u, UsageUpdate)]
    # One after the prompt is added, one after each of the two model responses.
    assert len(usage) >= 3
    assert usage[-1].field_meta["sidecar"]["source"] == "provider" and usage[-1].cost is not None
    assert usage[-1].used == usage[-1].field_meta["sidecar"]["used"]
    # The model saw the command's output.
    results = [b for m in llm.requests[-1].body["messages"] for b in (m["content"] if isinstance(m["content"], list) else [])
               if b.get("type") == "tool_result"]
    assert "hi" in str(results[-1]["content"])
    no_schema_rejects(client, sid)


async def test_a_web_search_and_fetch_are_acp_tool_calls_with_resource_links(
        session: dict[str, Any], llm: Any) -> None:
    """The provider's own search and fetch: ACP ``search`` and ``fetch`` tool calls whose
    content lists the pages read as ``resource_link`` blocks (title as name, the URL)."""
    client, sid = session["client"], session["sid"]
    pages = [("Python 3.14", "https://docs.python.org/3.14/"), ("PEP 779", "https://peps.python.org/pep-0779/")]
    llm.queue(Reply(content=[*web_search("python news", pages),
                             *web_fetch(pages[1][1], "PEP text", title=pages[1][0]),
                             {"type": "text", "text": "Free threading is supported."}]))
    assert (await ask(session, "python news?")).stop_reason == "end_turn"
    typed = client.typed_for(sid)
    starts = [u for u in typed if isinstance(u, ToolCallStart)]
    assert [(u.kind, u.title) for u in starts] == [
        ("search", "Web search: python news"), ("fetch", f"Web fetch: {pages[1][1]}")]
    done = [u for u in typed if isinstance(u, ToolCallProgress) and u.status == "completed"]
    shown = [[(c.content.name, c.content.uri) for c in u.content or []] for u in done]
    assert shown == [pages, [pages[1]]]
    assert all(c.content.type == "resource_link" for u in done for c in u.content or [])
    no_schema_rejects(client, sid)


async def test_the_task_list_is_acps_plan(session: dict[str, Any], llm: Any) -> None:
    client, sid = session["client"], session["sid"]
    todos = [{"content": "Read the code", "status": "completed", "activeForm": "Reading the code"},
             {"content": "Fix the bug", "status": "in_progress", "activeForm": "Fixing the bug"}]
    llm.queue(Reply.tool_use("TodoWrite", {"todos": todos}, id="t_todo"))
    llm.queue(Reply.text("On it."))
    assert (await ask(session, "fix it")).stop_reason == "end_turn"
    [plan] = [u for u in client.typed_for(sid) if isinstance(u, AgentPlanUpdate)]
    assert [(e.content, e.status, e.priority) for e in plan.entries] == [
        ("Read the code", "completed", "medium"), ("Fix the bug", "in_progress", "medium")]
    assert plan.entries[1].field_meta == {"sidecar": {"activeForm": "Fixing the bug"}}
    no_schema_rejects(client, sid)


async def test_rejected_permission_keeps_the_command_from_running(session: dict[str, Any], llm: Any) -> None:
    client, sid = session["client"], session["sid"]
    client.permission_answer = "reject_once"
    marker = session["ws"] / "ran.txt"
    llm.queue(Reply(content=[{"type": "tool_use", "id": "t2", "name": "Bash",
                              "input": {"command": f"touch {marker}"}}]))
    llm.queue(Reply.text("ok"))
    res = await ask(session, "touch it")
    assert res.stop_reason == "end_turn"
    assert not marker.exists()
    failed = [u for u in client.updates(sid, "tool_call_update") if u.get("status") == "failed"]
    assert failed and failed[-1]["toolCallId"] == "t2"


async def test_write_then_edit_go_through_the_client(session: dict[str, Any], llm: Any) -> None:
    client, sid, ws = session["client"], session["sid"], session["ws"]
    client.permission_answer = "allow_once"  # default mode: each edit is asked about, as a diff
    target = ws / "notes.md"
    llm.queue(Reply(content=[{"type": "tool_use", "id": "w1", "name": "Write",
                              "input": {"file_path": str(target), "content": "alpha\n"}}]))
    llm.queue(Reply(content=[{"type": "tool_use", "id": "e1", "name": "Edit",
                              "input": {"file_path": str(target), "old_string": "alpha", "new_string": "beta"}}]))
    llm.queue(Reply.text("edited"))
    res = await ask(session, "write and edit notes")
    assert res.stop_reason == "end_turn"
    # Both changes landed in the client's buffer; the sidecar did not write the disk itself,
    # and the Edit saw the unsaved text of the Write (the buffer cache), not the disk.
    assert client.writes == [(str(target), "alpha\n"), (str(target), "beta\n")]
    assert not target.exists()
    statuses = {u["toolCallId"]: u["status"] for u in client.updates(sid, "tool_call_update") if u["status"] != "in_progress"}
    assert statuses == {"w1": "completed", "e1": "completed"}
    asked = [r for r in client.permission_requests if r["sessionId"] == sid]
    assert [r["toolCall"].tool_call_id for r in asked] == ["w1", "e1"]
    assert all(r["toolCall"].kind == "edit" for r in asked)
    diffs = [r["toolCall"].content[0] for r in asked]
    assert [(d.path, d.old_text, d.new_text) for d in diffs] == [
        (str(target), None, "alpha\n"), (str(target), "alpha\n", "beta\n")]
    assert [o.option_id for o in asked[0]["options"]] == ["allow_once", "allow_turn", "reject_once"]


async def test_session_modes_over_acp(session: dict[str, Any], llm: Any) -> None:
    client, sid, conn, ws = session["client"], session["sid"], session["conn"], session["ws"]
    modes = session["new"].modes
    assert modes.current_mode_id == "default"
    assert [m.id for m in modes.available_modes] == ["default", "acceptEdits", "plan", "bypassPermissions"]
    await asyncio.wait_for(conn.set_session_mode(session_id=sid, mode_id="plan"), 30)
    changed = await client.wait_for(lambda: client.updates(sid, "current_mode_update"))
    assert changed[0]["currentModeId"] == "plan"
    target = ws / "notes.md"
    llm.queue(Reply(content=[{"type": "tool_use", "id": "w1", "name": "Write",
                              "input": {"file_path": str(target), "content": "alpha\n"}}]))
    llm.queue(Reply.text("I may not write it."))
    res = await ask(session, "write notes")
    assert res.stop_reason == "end_turn"
    assert not [w for w in client.writes if w[0] == str(target)] and not target.exists()
    assert not [r for r in client.permission_requests if r["sessionId"] == sid]
    failed = await client.wait_for(
        lambda: [u for u in client.updates(sid, "tool_call_update") if u.get("status") == "failed"])
    assert failed[-1]["toolCallId"] == "w1"
    assert "Plan mode is read-only" in failed[-1]["content"][0]["content"]["text"]
    no_schema_rejects(client, sid)


async def test_cancel_mid_stream(session: dict[str, Any], llm: Any) -> None:
    client, sid = session["client"], session["sid"]
    llm.queue(Reply.text("word " * 2000, chunk_size=5, chunk_delay_ms=20))
    turn = asyncio.ensure_future(ask(session, "talk a lot"))
    await client.wait_for(lambda: client.updates(sid, "agent_message_chunk"))
    started = time.monotonic()
    await session["conn"].cancel(session_id=sid)
    res = await turn
    assert res.stop_reason == "cancelled"
    assert time.monotonic() - started < 5
    llm.queue(Reply.text("next"))
    assert (await ask(session, "again")).stop_reason == "end_turn"


async def test_cancel_request_on_a_prompt_answers_cancelled(session: dict[str, Any], llm: Any) -> None:
    client, sid = session["client"], session["sid"]
    llm.queue(Reply.text("word " * 2000, chunk_size=5, chunk_delay_ms=20))
    turn = asyncio.ensure_future(ask(session, "talk again"))
    await client.wait_for(lambda: client.updates(sid, "agent_message_chunk"))
    rid = client.outgoing_id("session/prompt")
    await session["conn"]._conn.send_notification("$/cancel_request", {"requestId": rid})
    assert (await turn).stop_reason == "cancelled"


async def test_cancel_request_stops_an_extension_method(session: dict[str, Any], llm: Any) -> None:
    client, sid, conn = session["client"], session["sid"], session["conn"]
    llm.queue(Reply.text("Some answer worth summarizing later."))
    await ask(session, "something to compact")
    seen = len(llm.requests)
    llm.queue(Reply(fault={"fault": "hang", "seconds": 3}))
    call = asyncio.ensure_future(conn.ext_method("sidecar/compact", {"sessionId": sid}))
    await asyncio.wait_for(asyncio.to_thread(llm.wait_for_requests, seen + 1, 10), 15)
    rid = client.outgoing_id("_sidecar/compact")
    await conn._conn.send_notification("$/cancel_request", {"requestId": rid})
    with pytest.raises(RequestError) as err:
        await asyncio.wait_for(call, 10)
    assert err.value.code == -32800
    # No compaction_update reached this client: it did not ask for them.
    assert not client.updates(sid, "compaction_update")


async def test_extensions_and_errors(session: dict[str, Any]) -> None:
    conn, sid = session["conn"], session["sid"]
    gauge = await conn.ext_method("sidecar/gauge", {"sessionId": sid})
    assert gauge["sessionId"] == sid and gauge["size"] == 1_000_000
    view = await conn.ext_method("sidecar/context", {"sessionId": sid})
    assert view["gauge"]["sessionId"] == sid and "breakdown" in view["gauge"]
    with pytest.raises(RequestError) as err:
        await conn.ext_method("sidecar/gauge", {"sessionId": "nope"})
    assert err.value.code == -33001
    with pytest.raises(RequestError) as err:
        await conn.ext_method("sidecar/unknown", {})
    assert err.value.code == -32601
    with pytest.raises(RequestError) as err:
        await conn.prompt(session_id=sid, prompt=[])
    assert err.value.code == -32602


async def test_rewind_and_fork_over_acp(session: dict[str, Any], llm: Any) -> None:
    """The prompt's answer names its checkpoint; ``_sidecar/checkpoints`` and
    ``_sidecar/rewind`` work as over LSP; ACP's own ``session/fork`` forks at a checkpoint
    named in ``_meta`` (the schema's ForkSessionResponse, as every message here)."""
    conn, client, sid = session["conn"], session["client"], session["sid"]
    assert session["init"].agent_capabilities.session_capabilities.fork is not None
    llm.queue(Reply.text("First."))
    first = await ask(session, "the first question")
    llm.queue(Reply.text("Second."))
    second = await ask(session, "the second question")
    checkpoint = second.field_meta["sidecar"]["checkpointId"]
    listed = await conn.ext_method("sidecar/checkpoints", {"sessionId": sid})
    assert [c["checkpointId"] for c in listed["checkpoints"]] == [
        first.field_meta["sidecar"]["checkpointId"], checkpoint]
    forked = await conn.fork_session(session_id=sid, cwd=str(session["ws"]),
                                     sidecar={"checkpointId": checkpoint})
    assert forked.session_id != sid and forked.modes is not None
    llm.queue(Reply.text("On the fork."))
    await asyncio.wait_for(conn.prompt(session_id=forked.session_id,
                                       prompt=[text_block("on the fork")]), 30)
    sent = str(llm.requests[-1].body["messages"])
    assert "the first question" in sent and "the second question" not in sent
    rewound = await conn.ext_method("sidecar/rewind", {"sessionId": sid, "checkpointId": checkpoint,
                                                       "restore": "conversation"})
    assert rewound["conversation"] is True and rewound["prompt"] == "the second question"
    no_schema_rejects(client, sid)


async def test_set_title_over_acp(session: dict[str, Any]) -> None:
    """ACP has no rename: ``_sidecar/set_title`` renames the session, which says so."""
    client, conn, sid = session["client"], session["conn"], session["sid"]
    assert "_sidecar/set_title" in session["init"].agent_capabilities.field_meta["sidecar"]["methods"]
    assert await conn.ext_method("sidecar/set_title", {"sessionId": sid, "title": "Named over ACP"}) == {}
    info = await client.wait_for(lambda: [u for u in client.updates(sid, "session_info_update")
                                          if u.get("title") == "Named over ACP"])
    assert info
    listed = await conn.list_sessions(cwd=str(session["ws"]))
    assert [s.title for s in listed.sessions if s.session_id == sid] == ["Named over ACP"]
    no_schema_rejects(client, sid)


async def test_compact_without_capability_sends_usage_only(session: dict[str, Any], llm: Any) -> None:
    client, sid = session["client"], session["sid"]
    llm.queue(Reply.text("A long answer. " * 300))
    await ask(session, "please write a lot " * 100)
    before = len(client.updates(sid, "usage_update"))
    llm.queue(Reply.text("Summary: the user asked for a long answer."))
    res = await ask(session, "/compact")
    assert res.stop_reason == "end_turn"
    usage = client.updates(sid, "usage_update")
    assert len(usage) > before and usage[-1]["_meta"]["sidecar"]["compactions"]
    assert not client.updates(sid, "compaction_update")
    no_schema_rejects(client, sid)


async def test_load_in_a_second_process_replays(session: dict[str, Any], llm: Any, fake_llm: Any) -> None:
    conn, sid, ws = session["conn"], session["sid"], session["ws"]
    # Long enough that a short summary shrinks it.
    llm.queue(Reply.text("banana noted. " + "Bananas are yellow. " * 300))
    await ask(session, "remember the word banana. " + "Some filler context. " * 300)
    await conn.close_session(session_id=sid)

    root = session["root"]
    async with acp_agent(session["store"], fake_llm.url, root / "second.log",
                         meta={"compactionUpdates": True}) as (conn2, client2, _):
        listed = await conn2.list_sessions(cwd=str(ws))
        assert sid in [s.session_id for s in listed.sessions]
        loaded = await asyncio.wait_for(conn2.load_session(cwd=str(ws), session_id=sid, mcp_servers=[]), 30)
        assert loaded.field_meta["sidecar"]["sessionId"] == sid
        # Replay came before the answer.
        answer_at = next(i for i, m in enumerate(client2.wire) if (m.get("result") or {}).get("_meta", {})
                         .get("sidecar", {}).get("sessionId") == sid)
        replay = [i for i, m in enumerate(client2.wire) if m.get("method") == "session/update"
                  and m["params"]["update"]["sessionUpdate"] in ("user_message_chunk", "agent_message_chunk")]
        assert replay and max(replay) < answer_at
        users = [u["content"]["text"] for u in client2.updates(sid, "user_message_chunk")]
        agents = [u["content"]["text"] for u in client2.updates(sid, "agent_message_chunk")]
        assert any(u.startswith("remember the word banana") for u in users)
        assert any(a.startswith("banana noted") for a in agents)
        assert client2.updates(sid, "usage_update")

        # This client asked for compaction updates, so it gets them around a /compact.
        llm.queue(Reply.text("Summary: bananas were mentioned."))
        res = await asyncio.wait_for(conn2.prompt(session_id=sid, prompt=[text_block("/compact")]), 30)
        assert res.stop_reason == "end_turn"
        statuses = [u["status"] for u in client2.updates(sid, "compaction_update")]
        assert statuses[0] == "in_progress" and statuses[-1] == "completed"
        kinds = [u["sessionUpdate"] for u in client2.updates(sid)]
        assert kinds.index("usage_update", kinds.index("compaction_update")) > 0


async def test_read_buffer_asks_the_client_in_process(tmp_path: Path) -> None:
    """The editor's async read path over a real pipe pair, with the SDK client on the other end."""
    from asyncio.streams import FlowControlMixin

    from acp import connect_to_agent

    from sidecar.acp.editor import AcpEditor, current_session
    from sidecar.acp.rpc import JsonRpcPeer
    from tests.e2e.acp_client import RecordingClient

    loop = asyncio.get_running_loop()
    to_agent_r, to_agent_w = os.pipe()
    to_client_r, to_client_w = os.pipe()
    agent_reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(agent_reader), os.fdopen(to_agent_r, "rb"))
    agent_tx, _ = await loop.connect_write_pipe(asyncio.Protocol, os.fdopen(to_client_w, "wb"))
    client_reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(client_reader), os.fdopen(to_client_r, "rb"))
    client_tx, client_proto = await loop.connect_write_pipe(FlowControlMixin, os.fdopen(to_agent_w, "wb"))
    client_writer = asyncio.StreamWriter(client_tx, client_proto, None, loop)

    async def no_handler(method: str, params: Any) -> Any:
        raise AssertionError(method)

    peer = JsonRpcPeer(agent_reader, agent_tx.write, no_handler, no_handler)  # type: ignore[arg-type]
    editor = AcpEditor(peer)
    editor.configure({"fs": {"readTextFile": True, "writeTextFile": True}})
    client = RecordingClient()
    conn = connect_to_agent(client, client_writer, client_reader)
    running = asyncio.ensure_future(peer.run())
    token = current_session.set("s1")
    try:
        edited, pushed = tmp_path / "edited.py", tmp_path / "pushed.py"
        edited.write_text("on disk\n")
        client.buffers[str(edited)] = "unsaved in the editor\n"
        assert await asyncio.wait_for(editor.read_buffer(edited), 10) == "unsaved in the editor\n"
        assert editor.buffer_text(edited) == "unsaved in the editor\n"  # the sync path sees the cache
        editor.document_opened(pushed, "pushed text")
        assert await editor.read_buffer(pushed) == "pushed text"
        assert client.reads == [str(edited)]  # a pushed document needs no request
        assert await asyncio.wait_for(editor.read_buffer(tmp_path / "missing.py"), 10) is None
    finally:
        current_session.reset(token)
        await conn.close()
        running.cancel()
        agent_tx.close()
        client_tx.close()
