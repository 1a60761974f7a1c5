"""The terminal client shows MCP servers' status changes briefly, and /mcp lists them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sidecar.fake_llm import Reply
from tests.e2e.test_terminal import ChatProcess, chat_env
from tests.mcp_servers.helpers import REPO, probe_stdio, write_mcp_json


def test_terminal_prints_mcp_status(fake_llm: Any, tmp_path: Path) -> None:
    fake_llm.reset()
    ws = tmp_path / "ws"
    ws.mkdir()
    write_mcp_json(ws, {"probe": probe_stdio(), "broken": {"command": str(ws / "absent")}})
    env = chat_env(tmp_path, fake_llm.url)
    env["PROBE_ROOT"] = str(REPO)
    # About showing the status, not approving: the workspace's servers are trusted.
    settings = json.loads(env["CONTEXT_SIDECAR_SETTINGS"])
    env["CONTEXT_SIDECAR_SETTINGS"] = json.dumps({**settings, "mcp": {"trustWorkspaceServers": True}})
    chat = ChatProcess(ws, env)
    try:
        chat.wait_for("]> ")
        chat.wait_for("mcp: probe connected · 8 tools", timeout=90)
        chat.wait_for("mcp: broken failed: cannot start it", timeout=30)
        fake_llm.queue(Reply.text("plain answer"))
        chat.send("hello")
        chat.wait_for("plain answer")
        chat.send("/mcp")
        chat.wait_for("- probe (stdio): connected · 8 tools")
        assert chat.finish() == 0
    finally:
        if chat.proc.poll() is None:
            chat.proc.kill()
