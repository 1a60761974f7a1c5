"""Reading MCP servers in Claude Code's formats, with variables expanded, and naming their tools."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sidecar.fake_llm.request_rules import _ANTHROPIC_TOOL_NAME, _OPENAI_TOOL_NAME
from sidecar.mcp.config import expand, load_configs
from sidecar.mcp.names import MAX_LENGTH, tool_name

ENV = {"HOME_DIR": "/home/u", "TOKEN": "t0k", "EMPTY": ""}


def test_expand_forms() -> None:
    assert expand("${HOME_DIR}/bin", ENV) == "/home/u/bin"
    assert expand("${MISSING:-fallback}", ENV) == "fallback"
    assert expand("${EMPTY:-used-when-empty}", ENV) == "used-when-empty"
    assert expand("${EMPTY}", ENV) == ""
    assert expand("plain $TOKEN stays", ENV) == "plain $TOKEN stays"


def test_mcp_json_and_setting_merge_with_expansion(tmp_path: Path) -> None:
    (tmp_path / ".mcp.json").write_text(json.dumps({"mcpServers": {
        "files": {"command": "${HOME_DIR}/srv", "args": ["--token", "${TOKEN}"],
                  "env": {"A": "${MISSING:-d}"}},
        "web": {"type": "http", "url": "https://x/${TOKEN}", "headers": {"Authorization": "Bearer ${TOKEN}"}},
        "replaced": {"command": "old"},
    }}))
    loaded = load_configs(str(tmp_path), {"replaced": {"command": "new"},
                                         "bad": {"command": "${NOPE}"},
                                         "sse": {"type": "sse", "url": "http://x"}}, ENV)
    by = {s.name: s for s in loaded.servers}
    assert by["files"].command == "/home/u/srv" and by["files"].args == ("--token", "t0k")
    assert dict(by["files"].env) == {"A": "d"}
    assert by["web"].transport == "http" and by["web"].url == "https://x/t0k"
    assert dict(by["web"].headers) == {"Authorization": "Bearer t0k"}
    assert by["replaced"].command == "new"
    assert by["bad"].error and "${NOPE}" in by["bad"].error
    assert by["sse"].error and "SSE" in by["sse"].error


def test_broken_mcp_json_is_a_warning(tmp_path: Path) -> None:
    (tmp_path / ".mcp.json").write_text("{not json")
    loaded = load_configs(str(tmp_path), None, ENV)
    assert loaded.servers == [] and "not readable JSON" in loaded.warnings[0]


@pytest.mark.parametrize("server,tool", [("probe", "echo"), ("my server", "get.thing/v2"),
                                         ("x" * 50, "y" * 50), ("ünï", "tööl")])
def test_tool_names_pass_every_api(server: str, tool: str) -> None:
    name = tool_name(server, tool)
    assert name.startswith("mcp__") and len(name) <= MAX_LENGTH
    assert _ANTHROPIC_TOOL_NAME.match(name) and _OPENAI_TOOL_NAME.match(name)


def test_long_names_stay_apart() -> None:
    assert tool_name("s" * 40, "a" * 40 + "1") != tool_name("s" * 40, "a" * 40 + "2")


def test_a_fifo_in_place_of_mcp_json_is_refused_without_blocking(tmp_path: Path) -> None:
    import os

    os.mkfifo(tmp_path / ".mcp.json")
    loaded = load_configs(str(tmp_path), {"a": {"command": "x"}}, ENV)
    assert [s.name for s in loaded.servers] == ["a"]
    assert "not a regular file" in loaded.warnings[0]
