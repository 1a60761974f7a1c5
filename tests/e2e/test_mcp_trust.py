"""A workspace's own MCP servers (its ``.mcp.json``) run commands of the repository author's
choosing: through the real sidecar process, they start only once the user approved them
(asked once with session/request_permission, or by Claude Code's settings), the answer is
remembered in the sidecar's storage and not in the repository, and neither the question nor
its answer holds up a session or a turn. Servers of the user's own mcpServers setting start
as before."""

from __future__ import annotations

import asyncio
import json
import os
import sys
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
from tests.e2e.test_mcp import servers, tool_names, wait_status
from tests.mcp_servers.helpers import REPO, probe_stdio, write_mcp_json

pytestmark = pytest.mark.asyncio

TITLE = "Start the MCP server 'probe' from .mcp.json?"


def marking(marker: Path) -> dict[str, Any]:
    """A stdio entry whose only effect is to leave ``marker``: proof it was run."""
    return {"command": sys.executable,
            "args": ["-c", f"open({str(marker)!r}, 'w').write('ran')"]}


class Sidecar:
    """One sidecar process with an isolated home (no Claude Code settings of the machine)."""

    def __init__(self, tmp: Path, llm_url: str, *, permission: bool = True,
                 servers: dict[str, Any] | None = None, untrusted: Path | None = None,
                 **mcp: Any) -> None:
        self.home = tmp / "home"
        self.home.mkdir(parents=True, exist_ok=True)
        self.store = tmp / "store"
        self.url = llm_url
        self.permission = permission
        self.mcp = mcp
        self.servers = servers or {}
        # A folder the editor does not trust (its Restricted Mode), as the workspace root.
        self.untrusted = untrusted
        self.client: Any = None
        self.rec: Any = None

    async def __aenter__(self) -> Sidecar:
        env = {**os.environ, "PROBE_ROOT": str(REPO), "HOME": str(self.home),
               "XDG_CONFIG_HOME": str(self.home / ".config")}
        env.pop("CLAUDE_CONFIG_DIR", None)
        env.pop("CONTEXT_SIDECAR_SETTINGS", None)
        self.client = await start_client(env=env)
        settings = settings_for("anthropic", self.url, self.store, compactionBackend="local",
                                mcpServers=self.servers,
                                mcp={"startupTimeoutSeconds": 30, "maxRestarts": 1, **self.mcp})
        self.rec = await initialize(self.client, settings, permission=self.permission,
                                    root=self.untrusted,
                                    trusted=False if self.untrusted is not None else None)
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await stop_client(self.client)

    async def open(self, workspace: Path) -> str:
        res = await call(self.client, "session/new", {"cwd": str(workspace)})
        return str(res["sessionId"])

    async def slash(self, sid: str, text: str) -> str:
        before = len(self.rec.of("agent_message_chunk"))
        await prompt(self.client, sid, text)
        return "".join(u["content"]["text"] for u in self.rec.of("agent_message_chunk")[before:])


def asked(rec: Any) -> list[str]:
    return [p["toolCall"]["title"] for p in rec.permission_requests]


async def test_workspace_server_waits_for_approval_then_is_remembered(
        llm: Any, workspace: Path, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    (workspace / ".mcp.json").write_text(json.dumps({"mcpServers": {
        "probe": probe_stdio(), "marker": marking(marker)}}))
    mine = {"mine": probe_stdio()}
    files = sorted(p.name for p in workspace.rglob("*"))
    async with Sidecar(tmp_path, llm.url, servers=mine) as sc:
        # The question waits for the user while everything else goes on.
        answers: dict[str, asyncio.Future[Any]] = {}

        async def hold(params: Any) -> Any:
            name = params["toolCall"]["rawInput"]["server"]
            answers[name] = asyncio.get_running_loop().create_future()
            return await answers[name]

        sc.rec.permission_answer = hold
        sid = await sc.open(workspace)
        await sc.rec.wait_for(lambda: "probe" in answers, 30)
        request = sc.rec.permission_requests[0]
        assert request["sessionId"] == sid
        tool_call = request["toolCall"]
        assert tool_call["title"] == TITLE and tool_call["kind"] == "other"
        shown = tool_call["content"][0]["content"]["text"]
        assert "tests.mcp_servers.probe_server" in shown and sys.executable in shown
        assert [o["optionId"] for o in request["options"]] == \
            ["allow_always", "allow_once", "reject_once", "reject_always"]
        assert [o["kind"] for o in request["options"]] == \
            ["allow_always", "allow_once", "reject_once", "reject_always"]
        # The user's own server starts as before; the workspace's waits.
        await wait_status(sc.rec, "mine", "connected")
        probe = servers(sc.rec)["probe"]
        assert probe["status"] == "failed" and probe["error"] == "waiting for approval"
        assert servers(sc.rec)["marker"]["error"] == "waiting for approval"
        # A turn runs while the question is open, without the waiting server's tools.
        llm.queue(Reply.text("still here"))
        res = await asyncio.wait_for(prompt(sc.client, sid, "hello"), 30)
        assert res["stopReason"] == "end_turn"
        names = tool_names(llm.requests[-1])
        assert "mcp__mine__echo" in names and not any(n.startswith("mcp__probe__") for n in names)
        text = await sc.slash(sid, "/mcp")
        assert "waiting for your approval" in text and "/mcp approve probe" in text
        # One question at a time: the next comes once this one is answered.
        assert asked(sc.rec) == [TITLE]
        answers["probe"].set_result({"outcome": {"outcome": "selected", "optionId": "allow_always"}})
        await wait_status(sc.rec, "probe", "connected")
        await sc.rec.wait_for(lambda: "marker" in answers, 30)
        answers["marker"].set_result({"outcome": {"outcome": "selected", "optionId": "reject_always"}})
        await sc.rec.wait_for(lambda: servers(sc.rec)["marker"]["error"].startswith(
            "not started: rejected"), 30)
        await asyncio.sleep(1)
        assert not marker.exists()
    # Remembered in the sidecar's storage, not in the repository.
    assert sorted(p.name for p in workspace.rglob("*")) == files
    remembered = list(sc.store.rglob("mcp-approvals.json"))
    assert len(remembered) == 1
    saved = json.loads(remembered[0].read_text())["servers"]
    assert saved["probe"]["answer"] == "approved" and saved["marker"]["answer"] == "rejected"

    # The next sidecar process: the approved one starts without a question, the rejected one
    # never starts and is not asked about again.
    async with Sidecar(tmp_path, llm.url) as sc:
        await sc.open(workspace)
        await wait_status(sc.rec, "probe", "connected")
        assert servers(sc.rec)["marker"]["error"].startswith("not started: rejected")
        await asyncio.sleep(1)
        assert sc.rec.permission_requests == [] and not marker.exists()

    # A changed command line is a different server: asked about again.
    (workspace / ".mcp.json").write_text(json.dumps({"mcpServers": {
        "probe": probe_stdio("--instructions", "changed")}}))
    async with Sidecar(tmp_path, llm.url) as sc:
        sc.rec.permission_answer = lambda p: {"outcome": {"outcome": "cancelled"}}
        await sc.open(workspace)
        await sc.rec.wait_for(lambda: asked(sc.rec) == [TITLE], 30)
        await asyncio.sleep(0.5)
        assert servers(sc.rec)["probe"]["error"] == "waiting for approval"


async def test_rejected_once_stays_off_for_the_run_and_allow_once_is_not_remembered(
        llm: Any, workspace: Path, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    (workspace / ".mcp.json").write_text(json.dumps({"mcpServers": {
        "marker": marking(marker), "probe": probe_stdio()}}))
    async with Sidecar(tmp_path, llm.url) as sc:
        sc.rec.permission_answer = lambda p: {"outcome": {"outcome": "selected", "optionId": (
            "reject_once" if p["toolCall"]["rawInput"]["server"] == "marker" else "allow_once")}}
        first = await sc.open(workspace)
        await wait_status(sc.rec, "probe", "connected")
        assert servers(sc.rec)["marker"]["error"].startswith("not started: rejected")
        # Closed and opened again in the same run: no new question, same answers.
        await call(sc.client, "session/close", {"sessionId": first})
        sc.rec.reset()
        await sc.open(workspace)
        await wait_status(sc.rec, "probe", "connected")
        await asyncio.sleep(1)
        assert sc.rec.permission_requests == [] and not marker.exists()
    assert not list(sc.store.rglob("mcp-approvals.json"))


async def test_claude_code_settings_are_honoured_as_claude_code_does(
        llm: Any, workspace: Path, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    (workspace / ".mcp.json").write_text(json.dumps({"mcpServers": {
        "probe": probe_stdio(), "disabled": marking(marker), "by-repo": probe_stdio()}}))
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    # The user's own Claude Code settings approve and reject ...
    (home / ".claude" / "settings.json").write_text(json.dumps(
        {"enabledMcpjsonServers": ["probe"]}))
    (home / ".claude.json").write_text(json.dumps({"projects": {str(workspace): {
        "disabledMcpjsonServers": ["disabled"]}}}))
    # ... the repository's own settings approve only once Claude Code's trust dialog was
    # accepted for the folder.
    (workspace / ".claude").mkdir()
    (workspace / ".claude" / "settings.json").write_text(json.dumps(
        {"enabledMcpjsonServers": ["by-repo"], "enableAllProjectMcpServers": True}))
    async with Sidecar(tmp_path, llm.url) as sc:
        sc.rec.permission_answer = lambda p: {"outcome": {"outcome": "selected",
                                                          "optionId": "reject_once"}}
        sid = await sc.open(workspace)
        await wait_status(sc.rec, "probe", "connected")
        await sc.rec.wait_for(lambda: asked(sc.rec) == [
            "Start the MCP server 'by-repo' from .mcp.json?"], 30)
        disabled = servers(sc.rec)["disabled"]
        assert disabled["status"] == "failed" and "disabledMcpjsonServers" in disabled["error"]
        text = await sc.slash(sid, "/mcp")
        assert "'/mcp approve disabled' starts it" in text
        await asyncio.sleep(1)
        assert not marker.exists()

    (home / ".claude.json").write_text(json.dumps({"projects": {
        str(workspace): {"disabledMcpjsonServers": ["disabled"]},
        str(workspace.parent): {"hasTrustDialogAccepted": True}}}))
    async with Sidecar(tmp_path, llm.url) as sc:
        await sc.open(workspace)
        await wait_status(sc.rec, "by-repo", "connected")
        await wait_status(sc.rec, "probe", "connected")
        assert servers(sc.rec)["disabled"]["status"] == "failed"
        assert sc.rec.permission_requests == [] and not marker.exists()


async def test_client_without_permission_requests_and_the_trust_setting(
        llm: Any, workspace: Path, tmp_path: Path) -> None:
    write_mcp_json(workspace, {"probe": probe_stdio()})
    # A workspace cannot trust its own servers through its settings file.
    (workspace / ".context-sidecar").mkdir()
    (workspace / ".context-sidecar" / "settings.json").write_text(json.dumps(
        {"mcp": {"trustWorkspaceServers": True}}))
    async with Sidecar(tmp_path, llm.url, permission=False) as sc:
        sid = await sc.open(workspace)
        await sc.rec.wait_for(lambda: servers(sc.rec).get("probe", {}).get("error")
                              == "waiting for approval", 30)
        await asyncio.sleep(1)
        assert servers(sc.rec)["probe"]["status"] == "failed"
        text = await sc.slash(sid, "/mcp")
        assert "this client cannot show permission requests" in text
        assert "/mcp approve probe" in text
        reply = await sc.slash(sid, "/mcp approve probe")
        assert "Approved" in reply
        await wait_status(sc.rec, "probe", "connected")
    async with Sidecar(tmp_path / "other", llm.url, permission=False,
                       trustWorkspaceServers=True) as sc:
        await sc.open(workspace)
        await wait_status(sc.rec, "probe", "connected")
        assert sc.rec.permission_requests == []
