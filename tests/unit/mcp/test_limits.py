"""The bounds on what an MCP server can do to the sidecar: its tool definitions' share of the
window, the size of one message, its life past the sidecar's; and the approval question's
account of the environment's values that go to a server."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from types import SimpleNamespace
from typing import Any

import mcp.shared.message  # noqa: F401 - imported here, not in the timed part
import pytest

from sidecar.core.accounting.tokens import TokenLedger, make_counter
from sidecar.core.turns.deferred_tools import TOOL_SEARCH
from sidecar.core.turns.tool_offering import ToolOffering
from sidecar.mcp.announce import McpLink, fit_tools
from sidecar.mcp.config import ServerConfig, parse_server
from sidecar.mcp.connection import ListedTool, McpLimits, ServerConnection
from sidecar.mcp.manager import McpManager
from sidecar.mcp.stdio import Reaper, StdioEnd, bounded_stdio_client
from sidecar.mcp.tool import McpTool
from sidecar.mcp.trust import command_line


def manager_with(tool_search: str = "off", **servers: int) -> McpManager:
    """Servers (connected, as a connection leaves them) with this many tools each."""
    manager = McpManager("/tmp", {}, McpLimits(1, 1, 0, max_tool_definition_percent=10,
                                               tool_search=tool_search), 1000, dict)
    for name, count in servers.items():
        conn = ServerConnection(ServerConfig(name, "stdio", command="x"), manager.limits,
                                "/tmp", dict, lambda: None)
        conn.connects, conn.status = 1, "connected"
        conn.tools = [ListedTool(f"tool_{i}", f"Tool {i} of {name}. " * 10, {"type": "object"})
                      for i in range(count)]
        manager.connections[name] = conn
    return manager


class FakeSession:
    def __init__(self, window: int) -> None:
        self.tools: list[Any] = []
        self.ledger = TokenLedger(make_counter("bytes4", "claude-sonnet-5-5"))
        self.thresholds = SimpleNamespace(size=window)
        self.info = SimpleNamespace(model="claude-sonnet-5-5")
        self.offering = ToolOffering(self.tools)
        self.shown: list[str] = []
        self.editor = SimpleNamespace(show_message=lambda level, text: self.shown.append(text))
        self.messages: list[Any] = []
        self.rewrites = 0

    def append(self, message: Any) -> Any:
        self.messages.append(message)
        return message

    def tools_changed(self) -> None:
        self.rewrites += 1


def test_fit_keeps_whole_servers_first_then_the_first_tools_of_the_others() -> None:
    manager = manager_with(big=10, small=2, mid=3)
    tools = manager.tools()
    offered, left = fit_tools(tools, 6, lambda t: 1)
    names = [(t.server.config.name, t.listed.name) for t in offered]
    # small and mid fit whole (5); big gets its first tool in what is left.
    assert names == [("big", "tool_0"), ("small", "tool_0"), ("small", "tool_1"),
                     ("mid", "tool_0"), ("mid", "tool_1"), ("mid", "tool_2")]
    assert len(left) == 9 and all(t.server.config.name == "big" for t in left)
    assert fit_tools(tools, 100, lambda t: 1) == (tools, [])


def test_sync_sends_what_fits_and_says_what_is_left_out_once() -> None:
    manager = manager_with(big=400, small=2)
    changes: list[int] = []
    manager.listeners.append(lambda: changes.append(1))
    session = FakeSession(window=20_000)
    link = McpLink(manager)
    link.sync(session)  # type: ignore[arg-type]
    sent = [t for t in session.tools if isinstance(t, McpTool)]
    counter = session.ledger.counter
    from sidecar.mcp.announce import definition_text

    assert sum(counter.text(definition_text(t)) for t in sent) <= 2_000
    assert {"mcp__small__tool_0", "mcp__small__tool_1"} <= {t.name for t in sent}
    left = 400 - sum(1 for t in sent if t.server.config.name == "big")
    status = {s["name"]: s for s in manager.statuses()}
    assert f"{left} of its 400 tools are left out" in status["big"]["error"]
    assert "mcp.maxToolDefinitionPercent" in status["big"]["error"]
    assert "error" not in status["small"]
    assert len(session.shown) == 1 and "'big'" in session.shown[0] and changes
    delta = session.messages[-1]
    assert "are left out of the requests" in delta.content[0]["text"]
    # Nothing changed: no second warning, no rewrite.
    rewrites = session.rewrites
    link.sync(session)  # type: ignore[arg-type]
    assert session.rewrites == rewrites and len(session.shown) == 1
    # A window large enough: everything is sent, the note is gone.
    session.thresholds.size = 10_000_000
    link.sync(session)  # type: ignore[arg-type]
    assert len([t for t in session.tools if isinstance(t, McpTool)]) == 402
    assert all("error" not in s for s in manager.statuses())


def test_with_tool_search_the_tools_past_the_share_are_deferred_not_left_out() -> None:
    manager = manager_with("auto", big=400, small=2)
    session = FakeSession(window=20_000)
    link = McpLink(manager)
    link.sync(session)  # type: ignore[arg-type]
    mcp_tools = [t for t in session.tools if isinstance(t, McpTool)]
    # Every tool is kept, deferred, and the search tool joins them; nobody is warned.
    assert len(mcp_tools) == 402 and session.tools[-1].name == TOOL_SEARCH
    deferral = session.offering.deferral
    assert deferral.names == {t.name for t in mcp_tools} and deferral.count == 402
    counter = session.ledger.counter
    from sidecar.mcp.announce import definition_text

    assert deferral.tokens == round(sum(counter.text(definition_text(t)) for t in mcp_tools))
    assert all("error" not in s for s in manager.statuses()) and not session.shown
    delta = session.messages[-1].content[0]["text"]
    assert "400 tools of the MCP server 'big'" in delta and "tool search" in delta
    assert "tool_0:" not in delta  # the deferred tools are not described one by one
    # The search finds them.
    search = session.tools[-1]
    from sidecar.tools.tool_search import search as find

    assert {t.server.config.name for t in find("small", search._deferred())} == {"small"}
    # A window large enough: nothing is deferred any more, the search tool goes.
    session.thresholds.size = 10_000_000
    link.sync(session)  # type: ignore[arg-type]
    assert session.offering.deferral.count == 0
    assert TOOL_SEARCH not in {t.name for t in session.tools}
    # Back to the small window: the same tools, deferred again, and the model is told.
    session.thresholds.size = 20_000
    link.sync(session)  # type: ignore[arg-type]
    assert session.offering.deferral.count == 402
    assert "400 tools of the MCP server 'big'" in session.messages[-1].content[0]["text"]


def test_tool_search_always_defers_a_small_set_and_off_never_does() -> None:
    for mode, deferred in (("always", 2), ("off", 0)):
        session = FakeSession(window=10_000_000)
        McpLink(manager_with(mode, small=2)).sync(session)  # type: ignore[arg-type]
        assert session.offering.deferral.count == deferred


def test_the_approval_text_names_the_variables_never_their_values() -> None:
    environ = {"GITHUB_TOKEN": "ghp_SECRET", "EMPTY": ""}
    http = parse_server("gh", {"type": "http", "url": "https://api.example.com/mcp",
                               "headers": {"Authorization": "Bearer ${GITHUB_TOKEN}",
                                           "X-Mode": "${MODE:-fast}", "X-Empty": "${EMPTY}"}},
                        environ, ".mcp.json")
    text = command_line(http)
    assert "ghp_SECRET" not in text
    assert "${GITHUB_TOKEN} into the header Authorization" in text
    assert "The value of GITHUB_TOKEN will be sent to https://api.example.com/mcp" in text
    assert "X-Mode" in text and "MODE" not in text.split("from your environment:")[1]
    stdio = parse_server("s", {"command": "npx", "args": ["srv", "--token=${GITHUB_TOKEN}"],
                               "env": {"TOKEN": "${GITHUB_TOKEN}", "PLAIN": "yes"}},
                         environ, ".mcp.json")
    text = command_line(stdio)
    assert "ghp_SECRET" not in text
    assert "'--token=${GITHUB_TOKEN}'" in text and "TOKEN='${GITHUB_TOKEN}'" in text
    assert "PLAIN=yes" in text
    assert "into the argument 2" in text and "into the environment variable TOKEN" in text
    assert "will be given to the command npx" in text
    plain = parse_server("p", {"command": "srv", "args": ["--x"]}, environ, ".mcp.json")
    assert command_line(plain) == "srv --x"


def _run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_a_line_past_the_limit_ends_the_connection_with_the_reason() -> None:
    script = ("import sys, time\n"
              "sys.stdout.write('{\"jsonrpc\": \"2.0\", \"method\": \"ping\", \"id\": 1}\\n')\n"
              "sys.stdout.write('x' * 5_000_000); sys.stdout.flush(); time.sleep(60)\n")

    async def main() -> tuple[list[Any], StdioEnd, float]:
        end = StdioEnd()
        got: list[Any] = []
        with open(os.devnull, "w") as errlog:
            async with bounded_stdio_client(sys.executable, ["-c", script], dict(os.environ),
                                            "/tmp", errlog, 100_000, end) as (read, _write):
                async for item in read:
                    got.append(item)
                stopping = time.monotonic()
        return got, end, time.monotonic() - stopping

    got, end, took = _run(main())
    assert len(got) == 1 and got[0].message.method == "ping"
    assert end.reason is not None and "larger than 100,000 bytes" in end.reason
    assert took < 1.5  # the server was stopped at once, not given the grace of a clean exit


@pytest.mark.skipif(sys.platform == "win32", reason="process groups")
def test_the_reaper_ends_the_groups_when_the_sidecar_goes() -> None:
    reaper = Reaper()
    child = subprocess.Popen([sys.executable, "-c",
                              "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN);"
                              " print('ready', flush=True); time.sleep(60)"],
                             start_new_session=True, stdout=subprocess.PIPE)
    try:
        assert child.stdout is not None and child.stdout.readline() == b"ready\n"
        reaper.watch(child.pid)
        assert reaper._proc is not None and reaper._proc.stdin is not None
        reaper._proc.stdin.close()  # what the sidecar's death does to the pipe
        assert child.wait(10) == -signal.SIGKILL
        reaper._proc.wait(10)
    finally:
        if child.poll() is None:
            child.kill()


def test_a_tool_list_past_the_limit_fails_the_start_with_the_reason() -> None:
    config = ServerConfig("big", "stdio", command=sys.executable,
                          args=("-m", "tests.mcp_servers.hostile_server", "--tools", "300"),
                          env=(("PYTHONPATH", os.getcwd()),))
    limits = McpLimits(10, 10, 0, max_message_bytes=100_000)

    async def main() -> ServerConnection:
        conn = ServerConnection(config, limits, os.getcwd(), lambda: dict(os.environ),
                                lambda: None)
        conn.start()
        for _ in range(400):
            if conn.status == "failed":
                break
            await asyncio.sleep(0.05)
        await conn.stop()
        return conn

    conn = _run(main())
    assert conn.status == "failed" and conn.error is not None
    assert "larger than 100,000 bytes" in conn.error and "gave up" in conn.error, conn.error
