"""MCP servers over ACP: a strict ACP client sees a server connect as agent thought (the
whole status list goes as ``_sidecar/mcpStatus`` only to a client that asks for it), and the
MCP tools work the same."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from acp import text_block

from sidecar.fake_llm import Reply
from tests.e2e.acp_client import acp_agent
from tests.mcp_servers.helpers import REPO, probe_stdio, write_mcp_json

pytestmark = pytest.mark.asyncio


def agent_text(client: Any, sid: str) -> str:
    return "".join(u["content"].get("text", "") for u in client.updates(sid, "agent_message_chunk"))


async def test_acp_client_without_the_capability_gets_no_status_update(
        llm: Any, workspace: Path, tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setenv("PROBE_ROOT", str(REPO))
    write_mcp_json(workspace, {"probe": probe_stdio()})
    async with acp_agent(tmp_path / "store", llm.url, tmp_path / "sidecar.log") as (conn, client, _):
        sid = (await conn.new_session(cwd=str(workspace), mcp_servers=[])).session_id
        for _ in range(120):  # /mcp until the server is connected
            await asyncio.wait_for(conn.prompt(session_id=sid, prompt=[text_block("/mcp")]), 30)
            if "probe (stdio): connected" in agent_text(client, sid):
                break
            await asyncio.sleep(0.5)
        assert "probe (stdio): connected" in agent_text(client, sid)
        llm.queue_many([Reply.tool_use("mcp__probe__echo", {"text": "over acp"}, id="toolu_a1"),
                        Reply.text("done")])
        await asyncio.wait_for(conn.prompt(session_id=sid, prompt=[text_block("echo")]), 60)
        results = [b for m in llm.requests[-1].body["messages"] for b in m["content"]
                   if isinstance(m["content"], list) and b.get("type") == "tool_result"]
        assert "echo: over acp" in str(results[-1]["content"])
        # Asked to start the workspace's server (the client's default answer approved it for
        # this run), and asked before the tool call, as for Bash.
        titles = [r["toolCall"].title for r in client.permission_requests]
        assert titles[0] == "Start the MCP server 'probe' from .mcp.json?", titles
        assert client.permission_requests[0]["sessionId"] == sid
        assert len(titles) == 2, titles
        assert not client.mcp_status(sid)
        assert any("MCP server 'probe' connected" in u["content"]["text"]
                   for u in client.updates(sid, "agent_thought_chunk"))
        sent = [u for u in client.updates(sid) if u["sessionUpdate"] != "compaction_update"]
        assert len(client.typed_for(sid)) == len(sent)


async def test_acp_client_that_asks_gets_status_updates(
        llm: Any, workspace: Path, tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setenv("PROBE_ROOT", str(REPO))
    write_mcp_json(workspace, {"probe": probe_stdio()})
    async with acp_agent(tmp_path / "store", llm.url, tmp_path / "sidecar.log",
                         meta={"mcpStatusUpdates": True}) as (conn, client, _):
        sid = (await conn.new_session(cwd=str(workspace), mcp_servers=[])).session_id
        # Before, the status updates were lost: they were held with the session/new answer's.
        await client.wait_for(lambda: any(
            s["status"] == "connected" for servers in client.mcp_status(sid) for s in servers), 90)
