"""A server's state in words a user understands, what can be done about it, and the count of
tools offered to the model: the count of what the next request carries, not of the session's
tools array (which takes the servers' changes only at a turn's start)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from sidecar.mcp.approval import REJECTED, RESTRICTED, WAITING
from sidecar.mcp.config import ServerConfig
from sidecar.mcp.connection import ServerConnection
from sidecar.mcp.manager import McpManager
from sidecar.mcp.words import actions, label, state_of
from sidecar.mcp.workspaces import McpWorkspaces
from tests.unit.mcp.test_limits import FakeSession, manager_with


def test_each_state_is_said_as_what_it_means() -> None:
    assert state_of("failed", WAITING) == "waiting"
    assert state_of("failed", RESTRICTED) == "untrusted"
    assert state_of("failed", f"{REJECTED} (your answer, remembered)") == "rejected"
    assert state_of("failed", None) == "failed"
    assert state_of("starting", None) == "starting"
    assert label("waiting") == "waiting for your approval"
    assert label("untrusted") == "not used: the folder is not trusted"
    assert label("rejected") == "rejected for this workspace"
    assert label("starting") == "connecting…"
    assert label("connected", tools=8, offered=8) == "connected · 8 tools"
    assert label("connected", tools=1, offered=1) == "connected · 1 tool"
    assert label("connected", tools=8, offered=5) == "connected · 8 tools, 5 offered to the model"
    assert label("failed", error="it exited (gave up after 2 attempts)") == \
        "failed: it exited (gave up after 2 attempts)"
    assert label("stopped") == "stopped"


def test_what_can_be_done_about_each() -> None:
    assert actions("waiting") == ["approve", "reject"]
    assert actions("rejected") == ["approve"]
    assert actions("failed") == ["retry"]
    assert actions("failed", can_start=False) == []  # its configuration is wrong
    assert actions("untrusted") == [] and actions("connected") == [] and actions("starting") == []


def _held(manager: McpManager, name: str, why: str) -> None:
    conn = ServerConnection(ServerConfig(name, "stdio", command="x", workspace=True),
                            manager.limits, "/tmp", dict, lambda: None)
    conn.hold(why)
    manager.connections[name] = conn


def test_statuses_carry_the_words_and_a_waiting_server_is_no_failure() -> None:
    manager = manager_with(docs=3)
    _held(manager, "probe", WAITING)
    _held(manager, "other", RESTRICTED)
    by = {s["name"]: s for s in manager.statuses()}
    assert by["docs"]["state"] == "connected" and by["docs"]["label"] == "connected · 3 tools"
    assert by["docs"]["offered"] == 3 and by["docs"]["workspace"] is False
    probe = by["probe"]
    # status stays the connection's (failed, for clients of before), state says why.
    assert probe["status"] == "failed" and probe["state"] == "waiting"
    assert probe["label"] == "waiting for your approval"
    assert probe["actions"] == ["approve", "reject"] and probe["workspace"] is True
    assert by["other"]["label"] == "not used: the folder is not trusted"
    assert by["other"]["actions"] == []


def test_the_offered_count_is_what_the_next_request_carries() -> None:
    """The report said "offered 0 MCP tool(s)" while 8 were connected: it counted the
    session's tools array, which a server connected after the session opened joins only at
    the next turn's start. It counts what that turn's request will carry."""
    manager = manager_with(probe=8)
    session = FakeSession(200_000)
    link = _link_session(manager, session)
    assert session.tools == []  # no turn yet
    text = McpWorkspaces().render(session)  # type: ignore[arg-type]
    assert "- probe (stdio): connected · 8 tools" in text
    assert "The model is offered 8 MCP tool(s)" in text
    link.sync(session)  # the next turn's start
    assert len(session.tools) == 8


def test_the_offered_count_leaves_out_what_does_not_fit() -> None:
    manager = manager_with(small=2, big=400)
    session = FakeSession(20_000)
    link = _link_session(manager, session)
    offered = link.offered(session)
    text = McpWorkspaces().render(session)  # type: ignore[arg-type]
    assert f"The model is offered {len(offered)} MCP tool(s)" in text
    big = {s["name"]: s for s in manager.statuses()}["big"]
    kept = sum(1 for t in offered if t.server.config.name == "big")
    assert big["offered"] == kept < 400
    assert big["label"] == f"connected · 400 tools, {kept} offered to the model"
    link.sync(session)
    assert len(session.tools) == len(offered)


def _link_session(manager: McpManager, session: FakeSession) -> Any:
    from sidecar.mcp.announce import McpLink

    link = McpLink(manager)
    session.mcp = link  # type: ignore[attr-defined]
    session.info = SimpleNamespace(model="claude-sonnet-5-5", cwd=str(Path("/tmp")))
    return link


def test_the_terminal_says_the_words_and_the_commands_that_act() -> None:
    from sidecar.terminal.updates import mcp_line

    waiting = {"name": "probe", "status": "failed", "error": WAITING, "state": "waiting",
               "label": "waiting for your approval", "actions": ["approve", "reject"]}
    assert mcp_line(waiting) == ("mcp: probe waiting for your approval "
                                 "(/mcp approve probe, /mcp reject probe)", "yellow")
    connected = {"name": "probe", "status": "connected", "tools": ["a"] * 8, "state": "connected",
                 "label": "connected · 8 tools", "actions": []}
    assert mcp_line(connected) == ("mcp: probe connected · 8 tools", "green")
    # A sidecar without the words: its status and error.
    assert mcp_line({"name": "db", "status": "failed", "error": "exited"}) == \
        ("mcp: db failed: exited", "red")
