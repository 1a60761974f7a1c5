"""MCP servers as a client's panel handles them, through the real sidecar process and the
probe server: a workspace server waiting for approval is approved or rejected from the
client (``sidecar/mcpAction``), and what reaches the model follows (the fake's recorded
request offers the server's tools after Approve, not after Reject); a ``.mcp.json`` added,
changed or removed while the sidecar runs is picked up without a restart; a folder the
editor does not trust keeps its servers off whatever the client asks."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from sidecar.fake_llm import Reply
from tests.e2e.session_client import call, prompt
from tests.e2e.test_mcp import servers, tool_names
from tests.e2e.test_mcp_trust import TITLE, Sidecar, asked
from tests.mcp_servers.helpers import probe_stdio, write_mcp_json

pytestmark = pytest.mark.asyncio

PROBE_TOOLS = 8


async def wait_state(rec: Any, name: str, state: str, timeout: float = 60) -> dict[str, Any]:
    await rec.wait_for(lambda: servers(rec).get(name, {}).get("state") == state, timeout)
    return servers(rec)[name]


async def offered_tools(sc: Sidecar, llm: Any, sid: str) -> list[str]:
    """The MCP tools of the model's next request (one turn against the fake)."""
    llm.queue(Reply.text("ok"))
    res = await asyncio.wait_for(prompt(sc.client, sid, "hello"), 60)
    assert res["stopReason"] == "end_turn"
    return [n for n in tool_names(llm.requests[-1]) if n.startswith("mcp__")]


async def act(sc: Sidecar, sid: str, server: str, action: str) -> dict[str, Any]:
    return await call(sc.client, "sidecar/mcpAction",  # type: ignore[no-any-return]
                      {"sessionId": sid, "server": server, "action": action})


async def test_approve_and_reject_from_the_client_decide_what_the_model_is_offered(
        llm: Any, workspace: Path, tmp_path: Path) -> None:
    write_mcp_json(workspace, {"probe": probe_stdio()})
    async with Sidecar(tmp_path, llm.url) as sc:
        # The user dismisses the question: the server waits, shown as waiting, not failed.
        sc.rec.permission_answer = lambda p: {"outcome": {"outcome": "cancelled"}}
        sid = await sc.open(workspace)
        probe = await wait_state(sc.rec, "probe", "waiting")
        assert probe["label"] == "waiting for your approval"
        assert probe["actions"] == ["approve", "reject"] and probe["workspace"] is True
        assert await offered_tools(sc, llm, sid) == []

        # Approve from the panel: connected, and the next request offers its tools.
        done = await act(sc, sid, "probe", "approve")
        assert done["done"] is True and "Approved" in done["message"]
        probe = await wait_state(sc.rec, "probe", "connected")
        assert probe["label"] == f"connected · {PROBE_TOOLS} tools"
        assert probe["offered"] == PROBE_TOOLS
        # What /mcp says is offered is what the request then carries.
        text = await sc.slash(sid, "/mcp")
        assert f"The model is offered {PROBE_TOOLS} MCP tool(s)" in text
        offered = await offered_tools(sc, llm, sid)
        assert len(offered) == PROBE_TOOLS and all(n.startswith("mcp__probe__") for n in offered)

        # Reject: stopped, and the next request offers none of them.
        done = await act(sc, sid, "probe", "reject")
        assert done["done"] is True
        probe = await wait_state(sc.rec, "probe", "rejected")
        assert probe["label"] == "rejected for this workspace" and probe["actions"] == ["approve"]
        assert await offered_tools(sc, llm, sid) == []
        assert "'/mcp approve probe' starts it" in await sc.slash(sid, "/mcp")

        # A rejected server approved again.
        await act(sc, sid, "probe", "approve")
        await wait_state(sc.rec, "probe", "connected")
        assert len(await offered_tools(sc, llm, sid)) == PROBE_TOOLS

        # Retry restarts it; an unknown name is an error naming the field.
        assert (await act(sc, sid, "probe", "retry"))["done"] is True
        await wait_state(sc.rec, "probe", "connected")
        with pytest.raises(Exception) as refused:
            await act(sc, sid, "nosuch", "approve")
        assert "nosuch" in str(refused.value)


async def test_a_mcp_json_written_while_running_is_picked_up(
        llm: Any, workspace: Path, tmp_path: Path) -> None:
    async with Sidecar(tmp_path, llm.url) as sc:
        sc.rec.permission_answer = lambda p: {"outcome": {"outcome": "selected",
                                                          "optionId": "allow_once"}}
        sid = await sc.open(workspace)
        assert await offered_tools(sc, llm, sid) == []

        # Added: the new server asks for approval, then connects, and the model gets it.
        write_mcp_json(workspace, {"probe": probe_stdio()})
        await sc.rec.wait_for(lambda: asked(sc.rec) == [TITLE], 60)
        await wait_state(sc.rec, "probe", "connected")
        assert len(await offered_tools(sc, llm, sid)) == PROBE_TOOLS

        # Changed: the server added is asked about; the one approved is not asked again.
        write_mcp_json(workspace, {"probe": probe_stdio(), "second": probe_stdio()})
        await sc.rec.wait_for(lambda: len(asked(sc.rec)) == 2, 60)
        assert asked(sc.rec)[1] == "Start the MCP server 'second' from .mcp.json?"
        await wait_state(sc.rec, "second", "connected")
        await wait_state(sc.rec, "probe", "connected")
        offered = await offered_tools(sc, llm, sid)
        assert len(offered) == 2 * PROBE_TOOLS

        # Removed: the servers go, and so do their tools.
        (workspace / ".mcp.json").unlink()
        await sc.rec.wait_for(lambda: servers(sc.rec) == {}, 60)
        assert await offered_tools(sc, llm, sid) == []
        assert len(asked(sc.rec)) == 2


async def test_an_untrusted_folder_keeps_its_servers_off_whatever_the_client_asks(
        llm: Any, workspace: Path, tmp_path: Path) -> None:
    write_mcp_json(workspace, {"probe": probe_stdio()})
    # The editor says the folder is not trusted (its Restricted Mode).
    async with Sidecar(tmp_path, llm.url, untrusted=workspace) as sc:
        sid = await sc.open(workspace)
        probe = await wait_state(sc.rec, "probe", "untrusted")
        assert probe["label"] == "not used: the folder is not trusted" and probe["actions"] == []
        done = await act(sc, sid, "probe", "approve")
        assert done["done"] is False and "not trusted" in done["message"]
        await asyncio.sleep(1)
        assert servers(sc.rec)["probe"]["state"] == "untrusted"
        assert await offered_tools(sc, llm, sid) == [] and sc.rec.permission_requests == []
