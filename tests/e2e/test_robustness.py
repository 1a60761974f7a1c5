"""Bad input on the wire, cancellation of tools and requests, loading Claude Code sessions,
and the prompt history, through the real process."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException

from sidecar.fake_llm import Reply
from tests.e2e.session_client import (
    call,
    initialize,
    prompt,
    settings_for,
    start_client,
    stop_client,
)

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"

# The async tests run on the module's loop, where its shared sidecar lives (``sidecars``).
module_loop = pytest.mark.asyncio(loop_scope="module")


def frame(payload: dict[str, Any] | bytes) -> bytes:
    body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    return b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body


def read_message(proc: subprocess.Popen[bytes]) -> dict[str, Any]:
    assert proc.stdout is not None
    length = 0
    while True:
        line = proc.stdout.readline()
        if not line:
            raise EOFError("the sidecar closed stdout")
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
        elif line in (b"\r\n", b"\n") and length:
            return json.loads(proc.stdout.read(length))


def test_garbage_and_broken_framing_do_not_stop_the_server(tmp_path: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "sidecar", "serve"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            env={**os.environ, "CONTEXT_SIDECAR_NO_WATCH": "1",
                                 "CONTEXT_SIDECAR_LOG_FILE": str(tmp_path / "log")})
    assert proc.stdin is not None
    try:
        proc.stdin.write(b"\x00\xff garbage that is not a header\r\n\r\n")
        proc.stdin.write(b"Content-Type: nothing\r\n\r\n")
        proc.stdin.write(frame(b"{this is not json"))
        proc.stdin.write(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                "params": {"capabilities": {},
                                           "initializationOptions": {"settings": {"storageDir": str(tmp_path)}}}}))
        proc.stdin.flush()
        answer = read_message(proc)
        while answer.get("id") != 1:
            answer = read_message(proc)
        assert answer["result"]["serverInfo"]["name"] == "context-sidecar"
        proc.stdin.write(frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
        proc.stdin.write(frame({"jsonrpc": "2.0", "id": 2, "method": "no/such/method", "params": {}}))
        proc.stdin.write(frame({"jsonrpc": "2.0", "id": 3, "method": "sidecar/gauge", "params": [1, 2]}))
        proc.stdin.write(frame({"jsonrpc": "2.0", "id": 4, "method": "session/list", "params": {}}))
        proc.stdin.flush()
        seen: dict[int, dict[str, Any]] = {}
        while 4 not in seen:
            msg = read_message(proc)
            if "id" in msg and "method" not in msg:
                seen[msg["id"]] = msg
        assert seen[2]["error"]["code"] == -32601
        assert seen[3]["error"]["code"] == -32602
        assert seen[4]["result"]["sessions"] == []
    finally:
        proc.kill()
        proc.wait()


@module_loop
async def test_cancel_midway_through_a_tool(sidecars: Any, llm: Any, workspace: Path) -> None:
    client = await sidecars.session(workspace)
    sid = client.sid
    rec = client.rec
    rec.permission_answer = lambda p: {"outcome": {"outcome": "selected", "optionId": "allow_once"}}
    llm.queue(Reply(content=[{"type": "tool_use", "id": "slow", "name": "Bash",
                              "input": {"command": "sleep 30; echo finished"}}]))
    task = asyncio.ensure_future(prompt(client, sid, "run the slow thing"))
    await rec.wait_for(lambda: any(u.get("status") == "in_progress" for u in rec.of("tool_call_update")), 40)
    await asyncio.sleep(0.3)
    started = asyncio.get_running_loop().time()
    client.protocol.notify("session/cancel", {"sessionId": sid})
    res = await asyncio.wait_for(task, 15)
    assert res["stopReason"] == "cancelled"
    assert asyncio.get_running_loop().time() - started < 8
    final = [u for u in rec.of("tool_call_update") if u["toolCallId"] == "slow"][-1]
    assert final["status"] == "failed"
    # The transcript stays consistent: the next request carries a result for the tool call.
    llm.queue(Reply.text("ok"))
    await prompt(client, sid, "and now?")
    results = [b for m in llm.requests[-1].body["messages"] for b in m["content"]
               if isinstance(b, dict) and b.get("tool_use_id") == "slow"]
    assert len(results) == 1 and results[0]["is_error"]
    assert "Interrupted" in json.dumps(results[0]) and "Exit code" not in json.dumps(results[0])


@module_loop
async def test_cancel_request_on_a_compaction(sidecars: Any, llm: Any, workspace: Path) -> None:
    client = await sidecars.session(workspace)
    sid = client.sid
    llm.queue(Reply.text("first answer " * 50))
    await prompt(client, sid, "hello")
    llm.queue(Reply(fault={"fault": "hang", "seconds": 20}))
    fut = client.protocol.send_request("sidecar/compact", {"sessionId": sid}, msg_id="compact-1")
    await asyncio.sleep(1.0)
    client.protocol.notify("$/cancelRequest", types.CancelParams(id="compact-1"))
    with pytest.raises(JsonRpcException) as err:
        await asyncio.wait_for(asyncio.wrap_future(fut), 15)
    assert err.value.code == -32800


@pytest.mark.skipif(not (CORPUS / "spotter-2.jsonl").exists(), reason="corpus not present")
@module_loop
async def test_claude_code_session_loads_and_continues(sidecars: Any, llm: Any,
                                                      tmp_path: Path) -> None:
    copy = tmp_path / "spotter-2.jsonl"
    shutil.copy(CORPUS / "spotter-2.jsonl", copy)
    client = await sidecars.client()
    rec = client.rec
    res = await call(client, "session/load", {"sessionId": str(copy)})
    sidecars.opens(client, res["sessionId"])
    assert res["gauge"]["source"] == "provider" and res["gauge"]["used"] > 20_000
    assert rec.of("user_message_chunk") and rec.of("agent_message_chunk")
    llm.queue(Reply.text("Continuing the recorded work."))
    out = await prompt(client, res["sessionId"], "please continue")
    assert out["stopReason"] == "end_turn"
    sent = llm.requests[-1].body["messages"]
    assert len(sent) > 3 and "please continue" in json.dumps(sent[-1])


@module_loop
async def test_prompt_history_list_and_undo(llm: Any, tmp_path: Path, workspace: Path) -> None:
    # A process of its own: the prompt history is the store's, whatever the session.
    client = await start_client()
    await initialize(client, settings_for("anthropic", llm.url, tmp_path / "store"))
    sid = (await call(client, "session/new", {"cwd": str(workspace)}))["sessionId"]
    try:
        pasted = "x" * 3000
        for text in ("first prompt", f"second with paste {pasted}"):
            llm.queue(Reply.text("ok"))
            await prompt(client, sid, text)
        listed = await call(client, "sidecar/history/list", {"limit": 10})
        displays = [e["display"] for e in listed["entries"]]
        # A prompt over the paste limit is kept as a paste, referenced from the line.
        assert displays == ["[Pasted text #1 +1 lines]", "first prompt"]
        (paste,) = listed["entries"][0]["pastedContents"].values()
        assert paste["content"] == f"second with paste {pasted}"
        undone = await call(client, "sidecar/history/undo", {})
        assert undone["removed"]["display"] == "[Pasted text #1 +1 lines]"
        listed = await call(client, "sidecar/history/list", {})
        assert [e["display"] for e in listed["entries"]][0] == "first prompt"
    finally:
        await stop_client(client)


@module_loop
async def test_context_view_counts_exactly_with_the_provider(sidecars: Any, llm: Any, workspace: Path) -> None:
    client = await sidecars.session(workspace)
    sid = client.sid
    llm.queue(Reply.text("hello"))
    await prompt(client, sid, "hi")
    view = await call(client, "sidecar/context", {"sessionId": sid})
    assert view["exact"]["source"] == "count_tokens"
    counted = [r for r in llm.requests if r.path.endswith("count_tokens")]
    assert counted and view["exact"]["tokens"] == counted[-1].input_tokens


@module_loop
async def test_workspace_configuration_and_invalid_values_warn(llm: Any, tmp_path: Path, workspace: Path) -> None:
    client = await start_client()
    raw_settings = {**settings_for("anthropic", llm.url, tmp_path / "store"),
                    "contextWindow": -5, "autoCompact": {"bufferTokens": "lots"}}

    client.set_configuration(raw_settings, section="contextSidecar")

    from tests.e2e.conftest import raw_json

    raw_json(client)
    caps = types.ClientCapabilities(workspace=types.WorkspaceClientCapabilities(configuration=True))
    await client.initialize_session(types.InitializeParams(capabilities=caps))
    try:
        def messages() -> list[str]:
            return [m.message if hasattr(m, "message") else m["message"] for m in client.messages]

        # Each invalid value is its own warning; wait for both, not for the first.
        for _ in range(50):
            if all(any(key in m for m in messages()) for key in ("contextWindow", "bufferTokens")):
                break
            await asyncio.sleep(0.1)
        assert any("contextSidecar.contextWindow" in m for m in messages())
        assert any("autoCompact.bufferTokens" in m for m in messages())
        gauge = (await call(client, "session/new", {"cwd": str(workspace)}))["gauge"]
        # Invalid values fell back to the defaults; the valid ones (the fake's URL) apply.
        assert gauge["size"] == 1_000_000 and gauge["autoCompactAt"] == 967_000
        llm.queue(Reply.text("configured"))
        assert (await prompt(client, gauge["sessionId"], "hi"))["stopReason"] == "end_turn"
    finally:
        await stop_client(client)


@module_loop
async def test_first_turn_does_not_hold_other_requests_while_the_sdk_loads(
        llm: Any, tmp_path: Path, workspace: Path) -> None:
    """The first turn needs the provider SDK (about two seconds to import); meanwhile the
    loop keeps answering: a gauge sent as the turn starts comes back at once. (File
    watching is off: starting a watcher is loop work of its own, measured elsewhere.)"""
    client = await start_client(env={**os.environ, "CONTEXT_SIDECAR_NO_WATCH": "1"})
    await initialize(client, settings_for("anthropic", llm.url, tmp_path / "store"))
    try:
        sid = (await call(client, "session/new", {"cwd": str(workspace)}))["sessionId"]
        llm.queue(Reply.text("hello"))
        turn = asyncio.ensure_future(prompt(client, sid, "hi"))
        await asyncio.sleep(0.05)  # the turn is past its checks and waits for the SDK
        loop = asyncio.get_running_loop()
        started = loop.time()
        gauge = await call(client, "sidecar/gauge", {"sessionId": sid})
        took = loop.time() - started
        assert gauge["sessionId"] == sid
        assert not turn.done(), "the turn ended before the gauge was asked: nothing was measured"
        assert took < 0.1, f"sidecar/gauge took {took * 1000:.0f} ms while the first turn started"
        assert (await asyncio.wait_for(turn, 30))["stopReason"] == "end_turn"
    finally:
        await stop_client(client)
