"""MCP servers through the real sidecar process and the strict fake: the probe server (the
SDK's MCPServer) over stdio and streamable HTTP, and the reference 'everything' server from
npm. Each scenario is what a user coming from Claude Code meets: a tool call with its
permission prompt, a crash mid-call, a server that never answers, a tool added at run time,
variables expanded in the configuration, a server that cannot start, the servers'
instructions and tools re-announced after a compaction."""

from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from sidecar.core.turns.request_labels import EPOCH_HEADER
from sidecar.fake_llm import Reply
from tests.e2e.session_client import (
    call,
    initialize,
    prompt,
    settings_for,
    start_client,
    stop_client,
)
from tests.mcp_servers.helpers import (
    REPO,
    HttpProbe,
    NpmUnavailable,
    everything_server,
    probe_stdio,
    write_mcp_json,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")

INSTRUCTIONS = "Always answer like a pirate when you use the probe tools."
SECRET = "s3cret-value-42"


def mcp_settings(url: str, store: Path, **extra: Any) -> dict[str, Any]:
    # These scenarios are about running servers, not about approving them
    # (tests/e2e/test_mcp_trust.py): the workspace's servers are trusted.
    return settings_for("anthropic", url, store, compactionBackend="local",
                        mcp={"toolTimeoutSeconds": 4, "startupTimeoutSeconds": 30,
                             "maxRestarts": 2, "resultMaxChars": 20_000,
                             "trustWorkspaceServers": True}, **extra)


def sidecar_env() -> dict[str, str]:
    return {**os.environ, "PROBE_ROOT": str(REPO), "PROBE_SECRET": SECRET}


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def sidecar(fake_llm: Any, tmp_path_factory: Any) -> Any:
    client = await start_client(env=sidecar_env())
    store = tmp_path_factory.mktemp("store")
    client.rec = await initialize(client, mcp_settings(fake_llm.url, store))  # type: ignore[attr-defined]
    yield client
    await stop_client(client)


async def open_session(sidecar: Any, workspace: Path) -> str:
    """A new session, after closing the ones opened before it: the recorder keeps every
    session's updates, and an earlier session's server restarting must not be read as this
    one's status."""
    for old in getattr(sidecar, "opened", []):
        await call(sidecar, "session/close", {"sessionId": old})
    sidecar.rec.reset()
    res = await call(sidecar, "session/new", {"cwd": str(workspace)})
    sidecar.opened = [str(res["sessionId"])]
    return str(res["sessionId"])


def servers(rec: Any) -> dict[str, dict[str, Any]]:
    """The servers as the latest mcp_status_update says."""
    updates = rec.of("mcp_status_update")
    return {s["name"]: s for s in updates[-1]["servers"]} if updates else {}


async def wait_status(rec: Any, name: str, status: str, timeout: float = 60) -> dict[str, Any]:
    await rec.wait_for(lambda: servers(rec).get(name, {}).get("status") == status, timeout)
    return servers(rec)[name]


def tool_names(request: Any) -> list[str]:
    return [t["name"] for t in request.body.get("tools") or []]


def tool_results(request: Any) -> list[dict[str, Any]]:
    out = []
    for message in request.body.get("messages") or []:
        if isinstance(message.get("content"), list):
            out += [b for b in message["content"] if b.get("type") == "tool_result"]
    return out


def result_text(block: dict[str, Any]) -> str:
    content = block.get("content")
    if isinstance(content, str):
        return content
    return "".join(b.get("text", "") for b in content or [] if b.get("type") == "text")


def conversation_text(request: Any) -> str:
    return json.dumps(request.body.get("messages"))


async def test_stdio_tool_call_asks_permission_and_sees_expanded_env(
        sidecar: Any, llm: Any, workspace: Path) -> None:
    write_mcp_json(workspace, {"probe": probe_stdio(
        "--instructions", INSTRUCTIONS,
        env={"PROBE_TOKEN": "${PROBE_SECRET}", "PROBE_DEFAULTED": "${PROBE_UNSET:-fallback}"})})
    sid = await open_session(sidecar, workspace)
    rec = sidecar.rec
    status = await wait_status(rec, "probe", "connected")
    assert status["transport"] == "stdio" and "mcp__probe__echo" in status["tools"]

    llm.queue_many([Reply.tool_use("mcp__probe__echo", {"text": "hi"}, id="toolu_e1"),
                    Reply.text("Arr, done.")])
    res = await prompt(sidecar, sid, "echo hi")
    assert res["stopReason"] == "end_turn"
    first, second = llm.requests[-2], llm.requests[-1]
    assert "mcp__probe__echo" in tool_names(first) and "Read" in tool_names(first)
    # Built-in tools first, MCP tools after them.
    names = tool_names(first)
    assert names.index("Read") < names.index("mcp__probe__echo")
    # The server's instructions reached the model, and the tool set was announced.
    assert INSTRUCTIONS in conversation_text(first)
    assert "mcp__probe__echo" in conversation_text(first)
    # The user was asked, as for Bash, and the result came back.
    asked = rec.permission_requests[-1]
    assert asked["toolCall"]["title"].startswith("echo") and "probe" in asked["toolCall"]["title"]
    assert [o["optionId"] for o in asked["options"]] == ["allow_once", "allow_always", "reject_once"]
    assert result_text(tool_results(second)[-1]) == "echo: hi"

    # Reject: the model reads a refusal; always: asked once, then never again for that tool.
    rec.permission_requests.clear()
    rec.permission_answer = lambda p: {"outcome": {"outcome": "selected", "optionId": "reject_once"}}
    llm.queue_many([Reply.tool_use("mcp__probe__env_value", {"name": "PROBE_TOKEN"}, id="toolu_e2"),
                    Reply.text("ok")])
    await prompt(sidecar, sid, "show the token")
    refused = tool_results(llm.requests[-1])[-1]
    assert refused.get("is_error") and "Permission denied" in result_text(refused)

    rec.permission_answer = lambda p: {"outcome": {"outcome": "selected", "optionId": "allow_always"}}
    llm.queue_many([Reply.tool_use("mcp__probe__env_value", {"name": "PROBE_TOKEN"}, id="toolu_e3"),
                    Reply.tool_use("mcp__probe__env_value", {"name": "PROBE_DEFAULTED"}, id="toolu_e4"),
                    Reply.text("ok")])
    before = len(rec.permission_requests)
    await prompt(sidecar, sid, "show the token again")
    assert len(rec.permission_requests) == before + 1
    results = [result_text(b) for b in tool_results(llm.requests[-1])]
    assert results[-2:] == [SECRET, "fallback"]


async def test_openai_wire_takes_the_mcp_tools(fake_llm: Any, llm: Any, workspace: Path,
                                               tmp_path: Path) -> None:
    """The Responses API's stricter rules on tool names and schemas accept them too."""
    write_mcp_json(workspace, {"probe": probe_stdio()})
    client = await start_client(env=sidecar_env())
    try:
        client.rec = await initialize(client, settings_for("openai", fake_llm.url, tmp_path / "s"))  # type: ignore[attr-defined]
        sid = (await call(client, "session/new", {"cwd": str(workspace)}))["sessionId"]
        await wait_status(client.rec, "probe", "connected")  # type: ignore[attr-defined]
        llm.queue_many([Reply.tool_use("mcp__probe__picture", {}, id="call_p1"), Reply.text("a dot")])
        res = await prompt(client, sid, "show me the picture")
        assert res["stopReason"] == "end_turn"
        sent = json.dumps(llm.requests[-1].body)
        assert "mcp__probe__picture" in json.dumps(llm.requests[0].body["tools"])
        assert "image/png" in sent or "data:image/png" in sent
    finally:
        await stop_client(client)


async def test_http_server_with_expanded_url_and_headers(sidecar: Any, llm: Any,
                                                         workspace: Path) -> None:
    server = HttpProbe("--instructions", "Over HTTP.")
    try:
        url = server.url.replace("127.0.0.1", "${PROBE_HOST:-127.0.0.1}")
        write_mcp_json(workspace, {"web": {"type": "http", "url": url,
                                           "headers": {"X-Probe-Token": "Bearer ${PROBE_SECRET}"}}})
        sid = await open_session(sidecar, workspace)
        status = await wait_status(sidecar.rec, "web", "connected")
        assert status["transport"] == "http"
        llm.queue_many([Reply.tool_use("mcp__web__request_header", {"name": "X-Probe-Token"},
                                       id="toolu_h1"), Reply.text("seen")])
        await prompt(sidecar, sid, "which header?")
        assert result_text(tool_results(llm.requests[-1])[-1]) == f"Bearer {SECRET}"
    finally:
        server.stop()


async def test_crash_mid_call_is_a_tool_error_and_the_server_restarts(
        sidecar: Any, llm: Any, workspace: Path) -> None:
    write_mcp_json(workspace, {"probe": probe_stdio()})
    sid = await open_session(sidecar, workspace)
    rec = sidecar.rec
    await wait_status(rec, "probe", "connected")
    llm.queue_many([Reply.tool_use("mcp__probe__crash", {}, id="toolu_c1"), Reply.text("it broke")])
    res = await prompt(sidecar, sid, "crash it")
    assert res["stopReason"] == "end_turn"
    crashed = tool_results(llm.requests[-1])[-1]
    assert crashed.get("is_error") and "exited during the call" in result_text(crashed)
    await wait_status(rec, "probe", "failed")
    await wait_status(rec, "probe", "connected")
    seen = [s["servers"][0]["status"] for s in rec.of("mcp_status_update")]
    assert "failed" in seen and seen[-1] == "connected"
    failed = next(s["servers"][0] for s in rec.of("mcp_status_update")
                  if s["servers"][0]["status"] == "failed")
    assert "crashing on purpose" in failed["error"] and "restarting" in failed["error"]
    # The restarted server answers, and the crash did not change the tool set (no rewrite).
    epoch = llm.requests[-1].headers.get(EPOCH_HEADER)
    llm.queue_many([Reply.tool_use("mcp__probe__echo", {"text": "again"}, id="toolu_c2"),
                    Reply.text("fine")])
    await prompt(sidecar, sid, "again")
    assert result_text(tool_results(llm.requests[-1])[-1]) == "echo: again"
    assert llm.requests[-1].headers.get(EPOCH_HEADER) == epoch


async def test_a_server_that_never_answers_times_out(sidecar: Any, llm: Any, workspace: Path) -> None:
    write_mcp_json(workspace, {"probe": probe_stdio()})
    sid = await open_session(sidecar, workspace)
    await wait_status(sidecar.rec, "probe", "connected")
    llm.queue_many([Reply.tool_use("mcp__probe__hang", {}, id="toolu_t1"), Reply.text("gave up")])
    started = time.monotonic()
    res = await asyncio.wait_for(prompt(sidecar, sid, "hang"), 60)
    assert res["stopReason"] == "end_turn" and time.monotonic() - started < 30
    hung = tool_results(llm.requests[-1])[-1]
    assert hung.get("is_error") and "did not answer within 4s" in result_text(hung)
    assert "mcp.toolTimeoutSeconds" in result_text(hung)


async def test_a_tool_added_at_run_time_is_announced_and_callable(
        sidecar: Any, llm: Any, workspace: Path) -> None:
    write_mcp_json(workspace, {"probe": probe_stdio()})
    sid = await open_session(sidecar, workspace)
    await wait_status(sidecar.rec, "probe", "connected")
    llm.queue_many([Reply.tool_use("mcp__probe__add_tool", {"name": "late"}, id="toolu_l1"),
                    Reply.text("added")])
    await prompt(sidecar, sid, "add a tool")
    await sidecar.rec.wait_for(
        lambda: "mcp__probe__late" in servers(sidecar.rec)["probe"]["tools"], 30)
    before = llm.requests[-1]
    assert "mcp__probe__late" not in tool_names(before)
    llm.queue_many([Reply.tool_use("mcp__probe__late", {}, id="toolu_l2"), Reply.text("it works")])
    await prompt(sidecar, sid, "use it")
    after = llm.requests[-2]
    assert "mcp__probe__late" in tool_names(after)
    # One named rewrite; the delta attachment says what came.
    assert after.headers.get(EPOCH_HEADER) != before.headers.get(EPOCH_HEADER)
    assert "tools" in after.headers.get(EPOCH_HEADER, "")
    assert "The MCP tools changed" in conversation_text(after)
    assert result_text(tool_results(llm.requests[-1])[-1]) == "late works"


async def test_a_slow_server_delays_neither_the_session_nor_a_turn(
        sidecar: Any, llm: Any, workspace: Path) -> None:
    # A first turn elsewhere, so that this one times the MCP side, not the SDKs' import.
    plain = workspace.parent / "plain"
    plain.mkdir()
    llm.queue(Reply.text("warm"))
    await prompt(sidecar, await open_session(sidecar, plain), "warm up")
    write_mcp_json(workspace, {"slow": probe_stdio("--sleep-at-start", "20")})
    started = time.monotonic()
    sid = await open_session(sidecar, workspace)
    assert time.monotonic() - started < 3
    await wait_status(sidecar.rec, "slow", "starting")
    llm.queue(Reply.text("answered without waiting"))
    res = await prompt(sidecar, sid, "hello")
    assert res["stopReason"] == "end_turn"
    # The turn ran while the server was still starting, without its tools.
    assert not [n for n in tool_names(llm.requests[-1]) if n.startswith("mcp__")]
    assert servers(sidecar.rec)["slow"]["status"] == "starting"
    # Once connected, the next turn offers its tools (one named rewrite).
    await wait_status(sidecar.rec, "slow", "connected")
    llm.queue(Reply.text("now with tools"))
    await prompt(sidecar, sid, "again")
    assert "mcp__slow__echo" in tool_names(llm.requests[-1])
    assert llm.requests[-1].headers.get(EPOCH_HEADER, "").endswith(":tools")


async def test_failing_servers_leave_the_session_working(sidecar: Any, llm: Any,
                                                         workspace: Path) -> None:
    write_mcp_json(workspace, {
        "broken": probe_stdio("--exit-at-start"),
        "missing": {"command": str(workspace / "no-such-server")},
        "unset": {"command": "${PROBE_NOT_SET_ANYWHERE}"},
        "probe": probe_stdio(),
    })
    started = time.monotonic()
    sid = await open_session(sidecar, workspace)
    assert time.monotonic() - started < 5  # nothing waits for the servers
    rec = sidecar.rec
    broken = await wait_status(rec, "broken", "failed")
    await rec.wait_for(lambda: "gave up" in (servers(rec)["broken"].get("error") or ""), 90)
    await rec.wait_for(lambda: "gave up" in (servers(rec)["missing"].get("error") or ""), 90)
    broken, missing = servers(rec)["broken"], servers(rec)["missing"]
    assert "refusing to start" in broken["error"]
    assert "cannot start it" in missing["error"]
    assert "PROBE_NOT_SET_ANYWHERE" in servers(rec)["unset"]["error"]
    await wait_status(rec, "probe", "connected")
    llm.queue(Reply.text("still here"))
    res = await prompt(sidecar, sid, "hello")
    assert res["stopReason"] == "end_turn" and "still here" in rec.text()
    # /mcp and sidecar/context say the same.
    rec.updates.clear()
    await prompt(sidecar, sid, "/mcp")
    text = rec.text()
    assert "broken (stdio): failed" in text and "probe (stdio): connected" in text
    assert "mcp__probe__echo" in text
    view = await call(sidecar, "sidecar/context", {"sessionId": sid})
    by_name = {s["name"]: s for s in view["mcpServers"]}
    assert by_name["probe"]["status"] == "connected" and by_name["missing"]["status"] == "failed"


async def test_instructions_and_tools_are_reannounced_after_a_compaction(
        sidecar: Any, llm: Any, workspace: Path) -> None:
    write_mcp_json(workspace, {"probe": probe_stdio("--instructions", INSTRUCTIONS)})
    sid = await open_session(sidecar, workspace)
    await wait_status(sidecar.rec, "probe", "connected")
    llm.queue_many([Reply.tool_use("mcp__probe__big", {"chars": 30_000}, id="toolu_r1"),
                    Reply.text("first answer")])
    await prompt(sidecar, sid, "make something big")
    # Capped by the setting, with a note the model reads.
    capped = result_text(tool_results(llm.requests[-1])[-1])
    assert len(capped) < 20_200 and "output cut: 20,000 of 30,000 characters" in capped
    res = await call(sidecar, "sidecar/compact", {"sessionId": sid})
    assert res["status"] == "completed"
    llm.queue(Reply.text("after the summary"))
    await prompt(sidecar, sid, "what now?")
    after = llm.requests[-1]
    text = conversation_text(after)
    assert "re-announced after the summary" in text
    assert INSTRUCTIONS in text and "mcp__probe__echo" in text
    assert "mcp__probe__echo" in tool_names(after)


async def test_the_reference_everything_server_from_npm(sidecar: Any, llm: Any,
                                                        workspace: Path) -> None:
    try:
        command = await asyncio.to_thread(everything_server)
    except NpmUnavailable as exc:
        pytest.skip(str(exc))
    write_mcp_json(workspace, {"everything": {"command": command[0], "args": command[1:]}})
    sid = await open_session(sidecar, workspace)
    status = await wait_status(sidecar.rec, "everything", "connected", timeout=90)
    assert "mcp__everything__echo" in status["tools"]
    llm.queue_many([Reply.tool_use("mcp__everything__echo", {"message": "from npm"}, id="toolu_n1"),
                    Reply.tool_use("mcp__everything__get-tiny-image", {}, id="toolu_n2"),
                    Reply.text("done")])
    await prompt(sidecar, sid, "echo from npm")
    results = tool_results(llm.requests[-1])
    assert "from npm" in result_text(results[0]) and not results[0].get("is_error")
    images = [b for b in results[1]["content"] if b.get("type") == "image"]
    assert images and images[0]["source"]["media_type"] == "image/png"


async def test_servers_from_the_setting_follow_a_settings_change(sidecar: Any, llm: Any,
                                                                 workspace: Path) -> None:
    """Last in the module: it changes the shared sidecar's settings (and puts them back)."""
    from lsprotocol import types

    sid = await open_session(sidecar, workspace)
    rec = sidecar.rec

    def configure(servers: dict[str, Any]) -> None:
        sidecar.workspace_did_change_configuration(types.DidChangeConfigurationParams(
            settings={"contextSidecar": {"mcpServers": servers}}))

    configure({"cfg": probe_stdio()})
    await wait_status(rec, "cfg", "connected")
    llm.queue(Reply.text("with the setting's server"))
    await prompt(sidecar, sid, "hello")
    assert "mcp__cfg__echo" in tool_names(llm.requests[-1])
    assert llm.requests[-1].headers.get(EPOCH_HEADER, "").endswith(":tools")
    configure({})
    await rec.wait_for(lambda: rec.of("mcp_status_update")[-1]["servers"] == [], 30)
    llm.queue(Reply.text("without it"))
    await prompt(sidecar, sid, "again")
    assert not [n for n in tool_names(llm.requests[-1]) if n.startswith("mcp__")]
    assert "No longer available: mcp__cfg__" in conversation_text(llm.requests[-1])
