"""The re-announcement after a compaction stays within its budget, whole when it fits."""

from __future__ import annotations

from typing import Any

from sidecar.core.accounting.tokens import TokenLedger, make_counter
from sidecar.mcp.announce import REANNOUNCE_MARK, McpLink, reannouncement
from sidecar.mcp.config import ServerConfig
from sidecar.mcp.connection import ListedTool, McpLimits, ServerConnection
from sidecar.mcp.manager import McpManager


def manager_with(instructions: str, tools: int) -> McpManager:
    """A manager whose one server has connected and listed ``tools`` tools (set as a
    connection leaves them, without a process)."""
    manager = McpManager("/tmp", {}, McpLimits(1, 1, 0), 1000, dict)
    conn = ServerConnection(ServerConfig("docs", "stdio", command="x"), manager.limits, "/tmp",
                            dict, lambda: None)
    conn.instructions, conn.connects, conn.status = instructions, 1, "connected"
    conn.tools = [ListedTool(f"tool_{i}", f"Does thing {i}. " * 20, {"type": "object"})
                  for i in range(tools)]
    manager.connections["docs"] = conn
    return manager


def linked(manager: McpManager) -> McpLink:
    link = McpLink(manager)
    link.sent = {t.name: "" for t in manager.tools()}
    return link


def ledger() -> Any:
    return TokenLedger(make_counter("bytes4", "claude-sonnet-5-5"))


def test_whole_when_it_fits() -> None:
    text = reannouncement(linked(manager_with("Use docs for API questions.", 3)), ledger(), 200_000)
    assert text is not None and text.startswith(REANNOUNCE_MARK)
    assert "Use docs for API questions." in text and "mcp__docs__tool_2: Does thing 2." in text


def test_cut_to_the_budget_with_every_tool_named() -> None:
    led = ledger()
    text = reannouncement(linked(manager_with("Very long instructions. " * 5000, 40)), led, 200_000)
    assert text is not None
    assert led.counter.text(text) <= 4_000
    assert all(f"mcp__docs__tool_{i}" in text for i in range(40))
    assert "Very long instructions." in text  # a share of them is kept


def test_a_small_window_shrinks_the_budget() -> None:
    led = ledger()
    text = reannouncement(linked(manager_with("Rules. " * 2000, 5)), led, 50_000)
    assert text is not None and led.counter.text(text) <= 50_000 // 50
