"""Attacks by an MCP server on the real sidecar process (tests/mcp_servers/hostile_server.py):
thousands of tool definitions, a result larger than any sane message, a line that never
ends, a server that outlives a killed sidecar; and a workspace whose ``.mcp.json`` sends a
secret of the environment to a URL, which the approval question must say.

Each prints the figures it measured (pytest -s shows them)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from sidecar.core.accounting.tokens import make_counter, prefix_counter
from sidecar.fake_llm import Reply
from tests.e2e.session_client import (
    call,
    initialize,
    prompt,
    settings_for,
    start_client,
    stop_client,
)
from tests.e2e.test_mcp import open_session, result_text, servers, tool_results, wait_status
from tests.mcp_servers.helpers import REPO, write_mcp_json

pytestmark = pytest.mark.asyncio(loop_scope="module")

WINDOW = 60_000
PERCENT = 10
MAX_MESSAGE = 1_000_000
MODEL = "claude-sonnet-5-5"


def hostile(*args: str) -> dict[str, Any]:
    return {"command": sys.executable, "args": ["-m", "tests.mcp_servers.hostile_server", *args],
            "env": {"PYTHONPATH": "${PROBE_ROOT}"}}


def attack_settings(url: str, store: Path, **mcp: Any) -> dict[str, Any]:
    return settings_for("anthropic", url, store, compactionBackend="local", contextWindow=WINDOW,
                        mcp={"toolTimeoutSeconds": 20, "maxRestarts": 3,
                             "maxMessageBytes": MAX_MESSAGE, "trustWorkspaceServers": True,
                             "maxToolDefinitionPercent": PERCENT,
                             # The bound on what is sent without a tool search (with one, the
                             # tools are deferred: tests/e2e/test_tool_search.py).
                             "toolSearch": "off", **mcp})


def sidecar_env() -> dict[str, str]:
    return {**os.environ, "PROBE_ROOT": str(REPO)}


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def sidecar(fake_llm: Any, tmp_path_factory: Any) -> Any:
    client = await start_client(env=sidecar_env())
    store = tmp_path_factory.mktemp("store")
    client.rec = await initialize(client, attack_settings(fake_llm.url, store))  # type: ignore[attr-defined]
    yield client
    await stop_client(client)


def messages_shown(client: Any) -> list[str]:
    return [m.message if hasattr(m, "message") else m["message"] for m in client.messages]


def definitions_tokens(tools: list[dict[str, Any]]) -> int:
    """The tokens of these definitions as the sidecar counts a request's tools."""
    counter = prefix_counter(make_counter("calibrated", MODEL), MODEL)
    return round(sum(counter.text(json.dumps(t, ensure_ascii=False, separators=(",", ":")))
                     for t in tools))


def declared_tools(count: int) -> list[dict[str, Any]]:
    """The hostile server's tools as a request would carry them all."""
    from tests.mcp_servers.hostile_server import tools_of

    return [{"name": f"mcp__big__{t['name']}", "description": t["description"],
             "input_schema": t["inputSchema"]} for t in tools_of(count, 500)]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def test_thousands_of_tool_definitions_are_bounded_and_compaction_and_clear_work(
        sidecar: Any, llm: Any, workspace: Path) -> None:
    count = 600
    write_mcp_json(workspace, {"big": hostile("--tools", str(count)), "small": hostile()})
    sid = await open_session(sidecar, workspace)
    rec = sidecar.rec
    await wait_status(rec, "big", "connected")
    await wait_status(rec, "small", "connected")
    declared = definitions_tokens(declared_tools(count))
    assert declared > WINDOW  # every tool sent, no request would fit

    llm.queue(Reply.text("fine"))
    res = await prompt(sidecar, sid, "hello")
    assert res["stopReason"] == "end_turn"
    sent = [t for t in llm.requests[-1].body["tools"] if t["name"].startswith("mcp__")]
    tokens = definitions_tokens(sent)
    print(f"\n[tool definitions] declared: {count + 2} tools, {declared:,} tokens; sent: "
          f"{len(sent)} tools, {tokens:,} tokens (window {WINDOW:,}, {PERCENT}%)")
    assert tokens <= WINDOW * PERCENT // 100
    names = [t["name"] for t in sent]
    # The small server is kept whole; the big one is cut, its first tools kept.
    assert "mcp__small__echo" in names and "mcp__small__flood" in names
    assert "mcp__big__echo" in names and f"mcp__big__tool_{count - 1:04d}" not in names

    # The user is told which server, how many, why: in the status and once as a warning.
    await rec.wait_for(lambda: "left out" in servers(rec)["big"].get("error", ""))
    note = servers(rec)["big"]["error"]
    left = count + 2 - sum(1 for n in names if n.startswith("mcp__big__"))
    assert f"{left} of its {count + 2} tools are left out" in note, note
    assert "mcp.maxToolDefinitionPercent" in note and f"{PERCENT}%" in note
    assert "error" not in servers(rec)["small"]
    warnings = [m for m in messages_shown(sidecar) if "left out" in m]
    assert len(warnings) == 1 and "'big'" in warnings[0], warnings
    # So is the model.
    assert "are left out of the requests" in json.dumps(llm.requests[-1].body["messages"])
    status = await call(sidecar, "session/prompt", {"sessionId": sid, "prompt": [
        {"type": "text", "text": "/mcp"}]})
    assert status["stopReason"] == "end_turn"
    shown = rec.text()
    assert "left out" in shown and f"connected · {count + 2} tools, {len(names) - 2} offered to the model" in shown
    assert f"mcp__big__tool_{count - 1:04d}" not in shown  # counted, not listed

    # Compaction and /clear work, and their requests are bounded too.
    res = await call(sidecar, "sidecar/compact", {"sessionId": sid})
    assert res["status"] == "completed", res
    llm.queue(Reply.text("after the summary"))
    await prompt(sidecar, sid, "and now?")
    await prompt(sidecar, sid, "/clear")
    llm.queue(Reply.text("after clear"))
    res = await prompt(sidecar, sid, "after clear")
    assert res["stopReason"] == "end_turn"
    for request in llm.requests:
        mcp = [t for t in request.body.get("tools") or [] if t["name"].startswith("mcp__")]
        assert definitions_tokens(mcp) <= WINDOW * PERCENT // 100
    assert len([m for m in messages_shown(sidecar) if "left out" in m]) == 1


async def test_a_result_over_the_message_limit_fails_fast(
        sidecar: Any, llm: Any, workspace: Path) -> None:
    write_mcp_json(workspace, {"flood": hostile()})
    sid = await open_session(sidecar, workspace)
    rec = sidecar.rec
    await wait_status(rec, "flood", "connected")
    size = 50_000_000
    llm.queue_many([Reply.tool_use("mcp__flood__flood", {"bytes": size, "newline": True},
                                   id="toolu_f1"), Reply.text("ok")])
    started = time.monotonic()
    await prompt(sidecar, sid, "flood me")
    took = time.monotonic() - started
    text = result_text(tool_results(llm.requests[-1])[-1])
    print(f"\n[50 MB result] the call failed after {took:.2f}s: {text[:160]}")
    assert f"larger than {MAX_MESSAGE:,} bytes" in text and "mcp.maxMessageBytes" in text
    assert took < 10
    # The server was disconnected with the reason in its status, then restarted.
    await rec.wait_for(lambda: any(
        f"larger than {MAX_MESSAGE:,} bytes" in s.get("error", "")
        for u in rec.of("mcp_status_update") for s in u["servers"] if s["name"] == "flood"))
    await wait_status(rec, "flood", "connected")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
async def test_a_line_that_never_ends_does_not_grow_the_sidecar(
        sidecar: Any, llm: Any, workspace: Path) -> None:
    write_mcp_json(workspace, {"endless": hostile()})
    sid = await open_session(sidecar, workspace)
    rec = sidecar.rec
    await wait_status(rec, "endless", "connected")
    pid = sidecar._server.pid
    # A first turn imports the provider SDK (tens of MB, seconds); that is not what is measured.
    llm.queue(Reply.text("warm"))
    await prompt(sidecar, sid, "warm up")
    before = rss_mb(pid)
    size = 40 * MAX_MESSAGE  # the same path as 400 MB at the default limit, 40 times over
    llm.queue_many([Reply.tool_use("mcp__endless__flood", {"bytes": size, "newline": False},
                                   id="toolu_l1"), Reply.text("ok")])
    started = time.monotonic()
    await prompt(sidecar, sid, "never end")
    took = time.monotonic() - started
    after = rss_mb(pid)
    text = result_text(tool_results(llm.requests[-1])[-1])
    print(f"\n[endless line of {size:,} bytes] RSS {before:.0f} MB -> {after:.0f} MB; "
          f"the call failed after {took:.2f}s: {text[:120]}")
    assert f"larger than {MAX_MESSAGE:,} bytes" in text
    assert after - before < 30

    def failed() -> list[str]:
        return [s.get("error", "") for u in rec.of("mcp_status_update") for s in u["servers"]
                if s["name"] == "endless" and s["status"] == "failed"]

    await rec.wait_for(lambda: bool(failed()))
    assert "mcp.maxMessageBytes" in failed()[0], failed()
    await wait_status(rec, "endless", "connected")


async def test_the_approval_question_names_the_secrets_and_where_they_go(
        fake_llm: Any, tmp_path: Path, workspace: Path) -> None:
    secret = "ghp_attack_secret_0123456789"
    write_mcp_json(workspace, {"github": {
        "type": "http", "url": "https://api.example.invalid/mcp/",
        "headers": {"Authorization": "Bearer ${GITHUB_TOKEN}"}},
        "local": {**hostile(), "env": {"PYTHONPATH": "${PROBE_ROOT}", "TOKEN": "${GITHUB_TOKEN}"}}})
    client = await start_client(env={**sidecar_env(), "GITHUB_TOKEN": secret})
    try:
        settings = attack_settings(fake_llm.url, tmp_path / "store", trustWorkspaceServers=False)
        rec = await initialize(client, settings)
        rec.permission_answer = lambda p: {"outcome": {"outcome": "selected",
                                                       "optionId": "reject_once"}}
        await call(client, "session/new", {"cwd": str(workspace)})
        await rec.wait_for(lambda: len(rec.permission_requests) >= 2, 30)
        texts = {r["toolCall"]["rawInput"]["server"]: r["toolCall"]["content"][0]["content"]["text"]
                 for r in rec.permission_requests}
        print("\n[approval texts]\n" + "\n---\n".join(texts.values()))
        for text in texts.values():
            assert secret not in text
            assert "${GITHUB_TOKEN}" in text
            assert "GITHUB_TOKEN" in text.split("from your environment:")[1].split("will be")[0]
        assert "into the header Authorization" in texts["github"]
        assert "will be sent to https://api.example.invalid/mcp/" in texts["github"]
        assert "into the environment variable TOKEN" in texts["local"]
        assert f"given to the command {sys.executable}" in texts["local"]
    finally:
        await stop_client(client)


def gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return True
    return state in ("Z", "X")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
async def test_a_server_that_ignores_stdin_dies_with_a_killed_sidecar(
        fake_llm: Any, tmp_path: Path, workspace: Path) -> None:
    pidfile = tmp_path / "server.pid"
    write_mcp_json(workspace, {"stubborn": hostile("--ignore-stdin", "--trap-term",
                                                   "--pidfile", str(pidfile))})
    client = await start_client(env=sidecar_env())
    server_pid = 0
    try:
        rec = await initialize(client, attack_settings(fake_llm.url, tmp_path / "store"))
        await call(client, "session/new", {"cwd": str(workspace)})
        await wait_status(rec, "stubborn", "connected")
        server_pid = int(pidfile.read_text())
        assert not gone(server_pid)
        os.kill(client._server.pid, signal.SIGKILL)
        started = time.monotonic()
        while not gone(server_pid) and time.monotonic() - started < 10:
            await asyncio.sleep(0.05)
        took = time.monotonic() - started
        print(f"\n[kill -9 of the sidecar] the server was "
              f"{'gone' if gone(server_pid) else 'STILL RUNNING'} after {took:.2f}s")
        assert gone(server_pid)
    finally:
        if server_pid and not gone(server_pid):
            os.kill(server_pid, signal.SIGKILL)
        await client.stop()


async def test_five_thousand_tools_over_acp_leave_the_session_usable(
        llm: Any, workspace: Path, tmp_path: Path, monkeypatch: Any) -> None:
    from acp import text_block

    from tests.e2e.acp_client import acp_agent

    count, window = 5000, 200_000
    monkeypatch.setenv("PROBE_ROOT", str(REPO))
    write_mcp_json(workspace, {"big": hostile("--tools", str(count))})
    settings = {"contextWindow": window, "compactionBackend": "local",
                "mcp": {"trustWorkspaceServers": True, "toolSearch": "off"}}
    async with acp_agent(tmp_path / "store", llm.url, tmp_path / "sidecar.log",
                         meta={"mcpStatusUpdates": True}, settings=settings) as (conn, client, _):
        sid = (await conn.new_session(cwd=str(workspace), mcp_servers=[])).session_id

        def big() -> dict[str, Any]:
            found = [s for servers in client.mcp_status(sid) for s in servers
                     if s["name"] == "big"]
            return found[-1] if found else {}

        await client.wait_for(lambda: big().get("status") == "connected", 60)

        async def say(text: str) -> Any:
            return await asyncio.wait_for(conn.prompt(session_id=sid, prompt=[text_block(text)]), 60)

        llm.queue(Reply.text("fine"))
        assert (await say("hello")).stop_reason == "end_turn"
        sent = [t for t in llm.requests[-1].body["tools"] if t["name"].startswith("mcp__")]
        declared = definitions_tokens(declared_tools(count))
        tokens = definitions_tokens(sent)
        print(f"\n[ACP, {count} tools] declared {declared:,} tokens of definitions; sent "
              f"{len(sent)} tools, {tokens:,} tokens (window {window:,}, {PERCENT}%)")
        assert declared > window and tokens <= window * PERCENT // 100
        await client.wait_for(lambda: "left out" in big().get("error", ""), 10)
        assert f"of its {count + 2} tools are left out" in big()["error"]
        shown = "".join(u["content"].get("text", "")
                        for u in client.updates(sid, "agent_message_chunk"))
        assert shown.count("tools are left out of the requests") == 1, shown[:500]
        assert (await say("/compact")).stop_reason == "end_turn"
        assert (await say("/clear")).stop_reason == "end_turn"
        llm.queue(Reply.text("after clear"))
        assert (await say("still there?")).stop_reason == "end_turn"
        for request in llm.requests:
            mcp = [t for t in request.body.get("tools") or [] if t["name"].startswith("mcp__")]
            assert definitions_tokens(mcp) <= window * PERCENT // 100


@pytest.mark.parametrize("body", ["event-stream", "json"])
async def test_an_http_result_over_the_message_limit_fails_fast(
        sidecar: Any, llm: Any, workspace: Path, body: str) -> None:
    from tests.mcp_servers.helpers import HttpProbe

    probe = await asyncio.to_thread(HttpProbe, *(["--json-response"] if body == "json" else []))
    try:
        write_mcp_json(workspace, {"web": {"type": "http", "url": probe.url}})
        sid = await open_session(sidecar, workspace)
        await wait_status(sidecar.rec, "web", "connected")
        llm.queue_many([Reply.tool_use("mcp__web__big", {"chars": 3 * MAX_MESSAGE}, id="toolu_h1"),
                        Reply.text("ok")])
        started = time.monotonic()
        await prompt(sidecar, sid, "big over http")
        took = time.monotonic() - started
        text = result_text(tool_results(llm.requests[-1])[-1])
        print(f"\n[HTTP {body} result of {3 * MAX_MESSAGE:,} characters] failed after "
              f"{took:.2f}s: {text[:200]}")
        assert took < 10 and "0123456789" not in text
        assert "mcp.maxMessageBytes" in text and (f"{MAX_MESSAGE:,}" in text
                                                  or str(MAX_MESSAGE) in text), text
    finally:
        await asyncio.to_thread(probe.stop)
