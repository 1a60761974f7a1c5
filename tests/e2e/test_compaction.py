"""Context management through the real process and the fake LLM server."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from pygls.exceptions import JsonRpcException

from sidecar.fake_llm import Reply, default_reply
from tests.e2e.session_client import (
    call,
    initialize,
    prompt,
    sent_conversation,
    settings_for,
    start_client,
    stop_client,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")

# A 60K window: effective 40,000, auto-compact at 27,000, blocking at 37,000.
SMALL = {"contextWindow": 60_000}


def big_file(workspace: Path, name: str, kb: int) -> str:
    line = "def function_{i}(value):\n    return value * {i} + len('{name}')\n"
    text = "".join(line.format(i=i, name=name) for i in range(kb * 1024 // 55))
    (workspace / name).write_text(text)
    return name


def read_reply(name: str, tid: str) -> Reply:
    return Reply(content=[{"type": "text", "text": f"Reading {name}."},
                          {"type": "tool_use", "id": tid, "name": "Read", "input": {"file_path": name}}])


async def start(llm: Any, tmp_path: Path, workspace: Path, **settings: Any) -> Any:
    client = await start_client()
    client.rec = await initialize(client, settings_for("anthropic", llm.url, tmp_path / "store", **settings))
    res = await call(client, "session/new", {"cwd": str(workspace)})
    client.sid = res["sessionId"]
    return client


SMALL_NO_MEMORY = {**SMALL, "sessionMemory": {"enabled": False}}


@pytest_asyncio.fixture(loop_scope="module")
async def small(sidecars: Any, workspace: Path) -> Any:
    """A session of its own on the module's one process with these settings."""
    return await sidecars.session(workspace, **SMALL_NO_MEMORY)


async def fill(client: Any, llm: Any, workspace: Path, files: int, kb: int = 12, start: int = 0) -> None:
    for i in range(start, start + files):
        name = big_file(workspace, f"mod{i}.py", kb)
        llm.queue(read_reply(name, f"toolu_r{i}"))
        llm.queue(Reply.text(f"mod{i} defines many functions."))
        await prompt(client, client.sid, f"read mod{i}.py")


async def test_manual_compact_shrinks_and_records(small: Any, llm: Any, workspace: Path) -> None:
    await fill(small, llm, workspace, 2)
    before = (await call(small, "sidecar/gauge", {"sessionId": small.sid}))["used"]
    res = await call(small, "sidecar/compact", {"sessionId": small.sid, "instructions": "keep file names"})
    assert res["status"] == "completed" and res["tier"] == "full"
    assert res["tokensBefore"] == before and res["tokensAfter"] < before
    updates = small.rec.of("compaction_update")
    assert [u["status"] for u in updates] == ["in_progress", "completed"]
    assert updates[-1]["summary"] and updates[-1]["trigger"] == "manual"
    # The summarizer saw the instructions, and the analysis scratchpad was stripped.
    asked = summary_text(llm.requests[-1])
    assert "keep file names" in asked and "Primary Request and Intent" in asked
    assert "<analysis>" not in updates[-1]["summary"]
    usage = small.rec.of("usage_update")[-1]["_meta"]["sidecar"]
    assert usage["source"] == "estimate" and usage["compactions"] == {"full": 1}
    # The next request starts from the summary, with the transcript path to read back.
    llm.queue(Reply.text("continuing"))
    await prompt(small, small.sid, "go on")
    first = json.dumps(llm.requests[-1].body["messages"][:2])
    assert "continues an earlier conversation" in first and ".jsonl" in first
    assert "toolu_r0" not in json.dumps(llm.requests[-1].body["messages"])
    transcript = next((small.store / "projects").rglob(f"{small.sid}.jsonl"))
    records = [json.loads(line) for line in transcript.read_text().splitlines()]
    kinds = [(r.get("type"), r.get("subtype"), r.get("isCompactSummary")) for r in records]
    assert ("system", "compact_boundary", None) in kinds and any(k[2] for k in kinds)


async def test_auto_compact_fires_before_blocking(small: Any, llm: Any, workspace: Path) -> None:
    await fill(small, llm, workspace, 8)
    compactions = [u for u in small.rec.of("compaction_update") if u["status"] == "completed"]
    assert compactions and compactions[0]["trigger"] == "auto"
    assert all(r.input_tokens < 37_000 for r in llm.requests if r.usage)
    # The gauge's stage ramps up towards the auto-compact point, where level (warning and
    # error both at 7,000 with the default buffers) turns red at once.
    kinds = [u["sessionUpdate"] for u in small.rec.updates]
    first = kinds.index("compaction_update")
    before = [u["_meta"]["sidecar"] for u in small.rec.updates[:first]
              if u["sessionUpdate"] == "usage_update"]
    order = ["normal", "warning", "error", "blocking"]
    stages = [g["stage"] for g in before]
    assert [order.index(x) for x in stages] == sorted(order.index(x) for x in stages)
    assert "warning" in stages and stages[0] == "normal"
    # Level is red well before the auto-compact point; the stage the clients colour by is not.
    red = next(g for g in before if g["level"] == "error")
    assert red["stage"] in ("normal", "warning") and red["used"] < 0.9 * 27_000, red
    for g in before:
        expected = ("in " in g["next"] and "27K" in g["next"]) if g["used"] < 27_000 else "before the next request" in g["next"]
        assert expected and "summarized" in g["next"], g["next"]
        assert g["stage"] == ("warning" if 0.6 * 27_000 <= g["used"] < 0.9 * 27_000 else g["stage"])


async def test_failed_compaction_changes_nothing(small: Any, llm: Any, workspace: Path) -> None:
    await fill(small, llm, workspace, 1)
    before = await call(small, "sidecar/context", {"sessionId": small.sid})
    llm.queue(Reply(fault={"fault": "server_error"}))
    llm.queue(Reply(fault={"fault": "server_error"}))
    llm.queue(Reply(fault={"fault": "server_error"}))
    with pytest.raises(JsonRpcException) as err:
        await call(small, "sidecar/compact", {"sessionId": small.sid})
    assert err.value.code == -33005
    assert small.rec.of("compaction_update")[-1]["status"] == "failed"
    after = await call(small, "sidecar/context", {"sessionId": small.sid})
    assert after["messages"] == before["messages"]


async def test_disabled_auto_compact_blocks_with_hint(llm: Any, tmp_path: Path, workspace: Path) -> None:
    client = await start(llm, tmp_path, workspace, **SMALL, autoCompact={"enabled": False})
    try:
        with pytest.raises(JsonRpcException) as err:
            await fill(client, llm, workspace, 10)
        assert err.value.code == -33003 and "/compact" in err.value.message
        assert not client.rec.of("compaction_update")
        gauges = [u["_meta"]["sidecar"] for u in client.rec.of("usage_update")]
        assert gauges[-1]["stage"] == "blocking" and "/compact" in gauges[-1]["next"]
        # Short of the limit, the gauge says auto-compact is off and what to do.
        earlier = [g for g in gauges if g["used"] < g["blockingAt"]]
        assert earlier and all(g["next"].startswith("Auto-compact is off: run /compact") for g in earlier)
    finally:
        await stop_client(client)


def summary_text(req: Any) -> str:
    """What a summary request asks: the prompt that ends a local one, or the instructions of
    a server-side compaction."""
    return json.dumps(req.body.get("messages", [])[-1:]) + json.dumps(req.body.get("compaction"))


def summary_request(req: Any) -> bool:
    """A forked call over the conversation: a summary, or a session-notes update."""
    return req.call in ("summary", "memory")


def scripted(replies: list[Reply], on_summary: Any = None) -> Any:
    """A responder: summary calls get ``on_summary`` (or the default), the rest the script."""
    script = list(replies)

    def respond(req: Any) -> Any:
        if summary_request(req):
            return on_summary(req) if on_summary else default_reply(req)
        return script.pop(0) if script else Reply.text("ok")

    return respond


async def test_session_memory_tier(llm: Any, tmp_path: Path, workspace: Path) -> None:
    client = await start(llm, tmp_path, workspace, **SMALL, sessionMemory={
        "initTokens": 4000, "updateTokens": 2000, "updateToolCalls": 1,
        "startPercent": 1, "updatePercent": 1, "minTokens": 3000, "maxTokens": 9000})
    try:
        replies: list[Reply] = []
        for i in range(8):
            big_file(workspace, f"mem{i}.py", 10)
            replies += [read_reply(f"mem{i}.py", f"toolu_m{i}"), Reply.text(f"mem{i} read.")]
        llm.responder = scripted(replies)
        for i in range(8):
            await prompt(client, client.sid, f"read mem{i}.py")
        done = [u for u in client.rec.of("compaction_update") if u["status"] == "completed"]
        assert done and done[0]["tier"] == "session_memory"
        memory_calls = [r for r in llm.requests if r.call == "memory"]
        assert memory_calls  # the memory was written by forked calls, not at compaction time
        gauge = await call(client, "sidecar/gauge", {"sessionId": client.sid})
        assert gauge["compactions"].get("session_memory", 0) >= 1
        # The kept tail still pairs every tool_use with its result in the next request.
        msgs = llm.requests[-1].body["messages"]
        uses = {b["id"] for m in msgs for b in m["content"] if isinstance(b, dict) and b.get("type") == "tool_use"}
        results = {b["tool_use_id"] for m in msgs for b in m["content"]
                   if isinstance(b, dict) and b.get("type") == "tool_result"}
        assert uses == results
    finally:
        await stop_client(client)


async def test_ptl_retry_drops_oldest_groups(small: Any, llm: Any, workspace: Path) -> None:
    await fill(small, llm, workspace, 3, kb=8)
    llm.context_window = 9_000  # the summary request will not fit the provider's window
    try:
        res = await call(small, "sidecar/compact", {"sessionId": small.sid})
    finally:
        llm.context_window = 200_000
    assert res["status"] == "completed"
    too_long = [r for r in llm.requests if r.status == 400]
    assert 1 <= len(too_long) <= 3
    assert "earlier conversation truncated for compaction retry" in json.dumps(llm.requests[-1].body)
    transcript = next((small.store / "projects").rglob(f"{small.sid}.jsonl"))
    boundary = [json.loads(x) for x in transcript.read_text().splitlines() if '"compact_boundary"' in x][-1]
    assert boundary["compactMetadata"]["ptlRetries"] == len(too_long)


async def test_breaker_opens_after_three_failures(small: Any, llm: Any, workspace: Path) -> None:
    replies = []
    for i in range(7):
        big_file(workspace, f"b{i}.py", 12)
        replies += [read_reply(f"b{i}.py", f"toolu_b{i}"), Reply.text("ok")]
    llm.responder = scripted(replies, on_summary=lambda req: Reply(fault={"fault": "server_error"}))
    gauge: dict[str, Any] = {}
    for i in range(7):
        try:
            await prompt(small, small.sid, f"read b{i}.py")
        except JsonRpcException as err:
            assert err.code == -33003  # blocked once compaction can no longer help
            break
        if (await call(small, "sidecar/gauge", {"sessionId": small.sid}))["autoCompact"]["circuitBreaker"] == "open":
            break
    gauge = await call(small, "sidecar/gauge", {"sessionId": small.sid})
    assert gauge["autoCompact"]["circuitBreaker"] == "open"
    assert gauge["autoCompact"]["consecutiveFailures"] == 3
    assert "off after 3 failed compactions" in gauge["next"] and "/compact" in gauge["next"]
    failed = [u for u in small.rec.of("compaction_update") if u["status"] == "failed"]
    assert len(failed) == 3


async def test_confirm_asks_first(llm: Any, tmp_path: Path, workspace: Path) -> None:
    client = await start(llm, tmp_path, workspace, **SMALL, sessionMemory={"enabled": False},
                         autoCompact={"confirm": True})
    try:
        client.rec.permission_answer = lambda p: {"outcome": {"outcome": "selected", "optionId": "allow_once"}}
        await fill(client, llm, workspace, 6)
        asked = [p for p in client.rec.permission_requests if "Compact" in p["toolCall"]["title"]]
        assert asked
        assert [u for u in client.rec.of("compaction_update") if u["status"] == "completed"]
    finally:
        await stop_client(client)


async def test_cancel_compaction(small: Any, llm: Any, workspace: Path) -> None:
    await fill(small, llm, workspace, 2)
    llm.responder = scripted([], on_summary=lambda req: Reply.text(
        "<summary>" + "slow " * 3000 + "</summary>", chunk_size=5, chunk_delay_ms=5))
    task = asyncio.ensure_future(call(small, "sidecar/compact", {"sessionId": small.sid}))
    await small.rec.wait_for(lambda: bool(small.rec.of("compaction_update")), timeout=30)
    small.protocol.notify("session/cancel", {"sessionId": small.sid})
    with pytest.raises(JsonRpcException) as err:
        await asyncio.wait_for(task, 20)
    assert err.value.code == -33005
    assert small.rec.of("compaction_update")[-1]["status"] == "cancelled"


async def test_anthropic_request_carries_context_management(
        llm: Any, tmp_path: Path, workspace: Path) -> None:
    client = await start(llm, tmp_path, workspace,
                         apiContextManagement={"triggerTokens": 3000, "keepTokens": 1000})
    try:
        await fill(client, llm, workspace, 5, kb=6)
        req = llm.requests[-1]
        assert "context-management-2025-06-27" in req.headers.get("anthropic-beta", "")
        # Thinking is off, so there is no thinking to clear (the API refuses the edit then).
        (edit,) = req.body["context_management"]["edits"]
        assert edit["type"] == "clear_tool_uses_20250919"
        assert edit["trigger"] == {"type": "input_tokens", "value": 3000}
        assert edit["clear_at_least"] == {"type": "input_tokens", "value": 2000}
        assert any(r.applied_edits for r in llm.requests), "the server never applied the edits"
        # Nothing but public block types: the results stay in our messages, cleared
        # server-side only, and the cached prefix survived the edit.
        blocks = [b for m in req.body["messages"] for b in m["content"] if isinstance(b, dict)]
        assert {b["type"] for b in blocks} <= {"text", "tool_use", "tool_result"}
        assert any(b.get("type") == "tool_result" and b.get("tool_use_id") == "toolu_r0"
                   and "function_1" in json.dumps(b) for b in blocks)
        assert req.usage["cache_read_input_tokens"] > 0
    finally:
        await stop_client(client)


async def test_thinking_from_settings_and_its_clearing(
        llm: Any, tmp_path: Path, workspace: Path) -> None:
    client = await start(llm, tmp_path, workspace,
                         thinking={"mode": "budget", "budgetTokens": 4000, "effort": "high"})
    try:
        llm.queue(Reply(content=[{"type": "thinking", "thinking": "Read it first."},
                                 {"type": "tool_use", "id": "toolu_t1", "name": "Read",
                                  "input": {"file_path": "hello.py"}}]))
        llm.queue(Reply(content=[{"type": "thinking", "thinking": "It says hi."},
                                 {"type": "text", "text": "It returns 'hi'."}]))
        res = await prompt(client, client.sid, "what does hello.py return?")
        assert res["stopReason"] == "end_turn"
        first, second = llm.requests[-2:]
        for req in (first, second):
            assert req.body["thinking"] == {"type": "enabled", "budget_tokens": 4000}
            assert req.body["output_config"] == {"effort": "high"}
            betas = req.headers.get("anthropic-beta", "")
            assert "effort-2025-11-24" in betas and "context-management-2025-06-27" in betas
            # While the cache is warm every thinking turn is kept; the edit goes first.
            edits = req.body["context_management"]["edits"]
            assert edits[0] == {"type": "clear_thinking_20251015", "keep": "all"}
        # The tool loop handed the signed thinking back, first in its turn, as the API wants.
        turn = second.body["messages"][-2]["content"]
        assert turn[0]["type"] == "thinking" and turn[0]["signature"]
    finally:
        await stop_client(client)


async def test_openai_gets_the_same_edit_client_side(llm: Any, tmp_path: Path, workspace: Path) -> None:
    client = await start_client()
    client.rec = await initialize(client, settings_for("openai", llm.url, tmp_path / "store",
                                                       apiContextManagement={"triggerTokens": 6000, "keepTokens": 2000}))
    res = await call(client, "session/new", {"cwd": str(workspace)})
    client.sid = res["sessionId"]
    try:
        await fill(client, llm, workspace, 4, kb=6)
        assert llm.requests[-1].path == "/v1/responses"
        sent = json.dumps(sent_conversation(llm.requests[-1]))
        assert "[Old tool result content cleared]" in sent
        view = await call(client, "sidecar/context", {"sessionId": client.sid})
        assert "[Old tool result content cleared]" not in json.dumps(view["messages"])
    finally:
        await stop_client(client)


async def test_time_based_microcompact_after_a_break(llm: Any, tmp_path: Path, workspace: Path) -> None:
    from sidecar.core.conversation.messages import Message, Usage, tool_result_block, user_text
    from sidecar.storage.transcript import TranscriptWriter

    store = tmp_path / "store"
    sid = "0b5e7f4e-1111-4222-8333-944455556666"
    old = "2020-01-01T10:00:00.000Z"
    writer = TranscriptWriter(store)
    msgs = [user_text("look at two files", timestamp=old)]
    for i in range(3):
        name = big_file(workspace, f"old{i}.py", 4)
        msgs.append(Message(kind="assistant", content=[{"type": "tool_use", "id": f"toolu_o{i}", "name": "Read",
                                                         "input": {"file_path": name}}],
                            message_id=f"msg_o{i}", model="claude-sonnet-4-5", timestamp=old,
                            usage=Usage(input_tokens=3000 + i * 1500, output_tokens=20)))
        msgs.append(Message(kind="user", content=[tool_result_block(f"toolu_o{i}", (workspace / name).read_text())],
                            timestamp=old))
    msgs.append(Message(kind="assistant", content=[{"type": "text", "text": "Both read."}], message_id="msg_end",
                        model="claude-sonnet-4-5", timestamp=old, usage=Usage(input_tokens=7600, output_tokens=5)))
    for m in msgs:
        writer.append(m, sid, str(workspace))
    writer.close()
    client = await start_client()
    client.rec = await initialize(client, settings_for("anthropic", llm.url, store))
    try:
        await call(client, "session/load", {"sessionId": sid})
        assert client.rec.of("user_message_chunk")  # the history was replayed
        llm.queue(Reply.text("back again"))
        await prompt(client, sid, "continue")
        sent = llm.requests[-1].body["messages"]
        results = {b["tool_use_id"]: json.dumps(b["content"]) for m in sent for b in m["content"]
                   if isinstance(b, dict) and b.get("type") == "tool_result"}
        assert "Old tool result content cleared" in results["toolu_o0"]
        assert "Old tool result content cleared" in results["toolu_o1"]
        assert "function_1" in results["toolu_o2"]  # the most recent result is kept
    finally:
        await stop_client(client)


async def test_session_list_sizes_follow_a_compaction(small: Any, llm: Any, workspace: Path) -> None:
    await fill(small, llm, workspace, 2)
    await call(small, "sidecar/compact", {"sessionId": small.sid})
    gauge = await call(small, "sidecar/gauge", {"sessionId": small.sid})
    listed = await call(small, "session/list", {"cwd": str(workspace)})
    [entry] = [s for s in listed["sessions"] if s["sessionId"] == small.sid]
    assert entry["used"] == gauge["used"]
    await call(small, "session/close", {"sessionId": small.sid})
    # Another process reads the size the session had when it was left.
    client = await start_client()
    await initialize(client, settings_for("anthropic", llm.url, small.store, **SMALL))
    try:
        listed = await call(client, "session/list", {"cwd": str(workspace)})
        [entry] = [s for s in listed["sessions"] if s["sessionId"] == gauge["sessionId"]]
        assert entry["used"] == gauge["used"]
    finally:
        await stop_client(client)


async def test_step_clearing_once_as_a_prompt_goes_out_then_frozen(
        llm: Any, tmp_path: Path, workspace: Path) -> None:
    """Results of an answered turn are cleared in one step as the next prompt goes out; the
    request after it keeps the step and reads the conversation before it from the cache."""
    client = await start(llm, tmp_path, workspace, sessionMemory={"enabled": False},
                         microcompact={"stepClearing": {"triggerTokens": 3_000,
                                                        "keepTokens": 0}})
    try:
        name = big_file(workspace, "mod0.py", 12)
        llm.queue(read_reply(name, "toolu_s0"))
        llm.queue(Reply.text("mod0 defines many functions."))
        await prompt(client, client.sid, "read mod0.py")
        first = len(llm.requests)

        def results(request: Any) -> dict[str, str]:
            return {b["tool_use_id"]: json.dumps(b["content"]) for m in sent_conversation(request)
                    for b in m["content"] if isinstance(b, dict) and b.get("type") == "tool_result"}

        assert "function_1" in results(llm.requests[first - 1])["toolu_s0"]
        llm.queue(Reply.text("It defines functions."))
        await prompt(client, client.sid, "what does it define?")
        stepped = llm.requests[-1]
        assert "Old tool result content cleared" in results(stepped)["toolu_s0"]
        llm.queue(Reply.text("Nothing else."))
        await prompt(client, client.sid, "anything else?")
        later = llm.requests[-1]
        assert "Old tool result content cleared" in results(later)["toolu_s0"]
        # frozen: the step's request is the prefix of the next, which reads it from the cache
        assert later.body["messages"][:len(stepped.body["messages"]) - 1] == \
            stepped.body["messages"][:-1]
        assert later.usage["cache_read_input_tokens"] > stepped.usage["cache_read_input_tokens"]
    finally:
        await stop_client(client)


async def test_a_step_far_behind_the_end_rewrites_only_what_follows_its_first_result(
        llm: Any, tmp_path: Path, workspace: Path) -> None:
    """In a long turn a result becomes worth clearing only once the model has moved eight
    answers past it, by when more content blocks follow it than the provider's cache looks
    back over. The clearing pays only if the rewrite starts at it, not at the system
    prompt: the clearing request carries a breakpoint where the cache holds the
    conversation before it, and the fake reads that prefix from the cache."""
    client = await start(llm, tmp_path, workspace, sessionMemory={"enabled": False},
                         microcompact={"stepClearing": {"triggerTokens": 15_000}})
    try:
        llm.queue(Reply.text("Noted."))
        await prompt(client, client.sid, "context for later: " + " ".join(
            f"requirement {i} says the parser keeps field {i} as written" for i in range(400)))
        reads = [big_file(workspace, "mid.py", 9)]
        for i in range(11):
            (workspace / f"s{i}.py").write_text(f"x = {i}\n")
            reads.append(f"s{i}.py")
        for n, name in enumerate(reads):
            llm.queue(read_reply(name, f"toolu_{n}"))
        llm.queue(Reply.text("All read."))
        await prompt(client, client.sid, "read them all")

        def results(request: Any) -> dict[str, str]:
            return {b["tool_use_id"]: json.dumps(b["content"])
                    for m in sent_conversation(request) for b in m["content"]
                    if isinstance(b, dict) and b.get("type") == "tool_result"}

        at = next(i for i, r in enumerate(llm.requests)
                  if "Old tool result content cleared" in results(r).get("toolu_0", ""))
        stepped, before = llm.requests[at], llm.requests[at - 1]
        # One breakpoint sits on a message before the cleared read, one on the newest.
        messages = stepped.body["messages"]
        marked = [i for i, m in enumerate(messages)
                  if any(isinstance(b, dict) and "cache_control" in b for b in m["content"])]
        index = next(i for i, m in enumerate(messages) if any(
            b.get("tool_use_id") == "toolu_0" for b in m["content"] if isinstance(b, dict)))
        assert sum(len(m["content"]) for m in messages[index:]) > 20  # past the lookback
        assert marked[0] < index and marked[-1] == len(messages) - 1
        # Read from the cache: the system prompt, the tools and the pasted prompt (thousands
        # of tokens); written: only what follows the cleared read, far less than was read.
        usage = stepped.usage
        assert usage["cache_read_input_tokens"] > 4_000
        assert usage["cache_creation_input_tokens"] < usage["cache_read_input_tokens"] / 4
        assert usage["cache_read_input_tokens"] + usage["cache_creation_input_tokens"] \
            < before.usage["cache_read_input_tokens"] + before.usage["cache_creation_input_tokens"]
    finally:
        await stop_client(client)
