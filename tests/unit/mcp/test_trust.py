"""Claude Code's approval settings read as Claude Code reads them, and the sidecar's own
remembered answers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sidecar.mcp.config import ServerConfig
from sidecar.mcp.trust import ApprovalStore, claude_code_verdicts, normalized


def write(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))


def test_names_compare_after_claude_codes_normalisation() -> None:
    assert normalized("my.server name") == "my_server_name"
    assert normalized("ok-name_1") == "ok-name_1"


def test_user_settings_approve_and_any_source_rejects(tmp_path: Path) -> None:
    home, ws = tmp_path / "home", tmp_path / "ws"
    write(home / ".claude" / "settings.json", {"enabledMcpjsonServers": ["my.db", "both"]})
    write(ws / ".claude" / "settings.local.json", {"disabledMcpjsonServers": ["both"]})
    verdicts = claude_code_verdicts(str(ws), ["my db", "both", "other"], home, {})
    assert verdicts["my db"][0] == "approved"
    assert verdicts["both"][0] == "rejected" and "settings.local.json" in verdicts["both"][1]
    assert verdicts["other"] == ("pending", "")


def test_workspace_files_approve_only_once_claude_code_trusts_the_folder(tmp_path: Path) -> None:
    home, ws = tmp_path / "home", tmp_path / "ws"
    write(ws / ".claude" / "settings.json", {"enableAllProjectMcpServers": True,
                                             "enabledMcpjsonServers": ["a"]})
    assert claude_code_verdicts(str(ws), ["a", "b"], home, {}) == {
        "a": ("pending", ""), "b": ("pending", "")}
    write(home / ".claude.json", {"projects": {str(tmp_path): {"hasTrustDialogAccepted": True}}})
    verdicts = claude_code_verdicts(str(ws), ["a", "b"], home, {})
    assert verdicts["a"][0] == verdicts["b"][0] == "approved"


def test_claude_config_dir_moves_both_files(tmp_path: Path) -> None:
    home, ws, custom = tmp_path / "home", tmp_path / "ws", tmp_path / "cc"
    write(custom / "settings.json", {"enabledMcpjsonServers": ["a"]})
    write(custom / ".claude.json", {"projects": {str(ws): {"disabledMcpjsonServers": ["b"]}}})
    verdicts = claude_code_verdicts(str(ws), ["a", "b"], home, {"CLAUDE_CONFIG_DIR": str(custom)})
    assert verdicts["a"][0] == "approved" and verdicts["b"][0] == "rejected"
    assert claude_code_verdicts(str(ws), ["a"], home, {})["a"][0] == "pending"


def test_an_approval_holds_for_its_command_line_a_rejection_for_the_name(tmp_path: Path) -> None:
    store = ApprovalStore(tmp_path / "store", "/some/ws")
    first = ServerConfig("s", "stdio", command="node", args=("a.js",), workspace=True)
    changed = ServerConfig("s", "stdio", command="node", args=("b.js",), workspace=True)
    with_env = ServerConfig("s", "stdio", command="node", args=("a.js",),
                            env=(("LD_PRELOAD", "x.so"),), workspace=True)
    store.remember(first, "approved")
    assert store.verdict(first) == "approved"
    assert store.verdict(changed) == store.verdict(with_env) == "pending"
    store.remember(first, "rejected")
    assert store.verdict(changed) == "rejected"
    assert store.path.is_relative_to(tmp_path / "store")


def test_a_workspace_settings_file_configures_workspace_servers_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from sidecar.core.settings import file_and_env_layers
    from sidecar.mcp.config import load_configs

    monkeypatch.delenv("CONTEXT_SIDECAR_SETTINGS", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    write(tmp_path / ".context-sidecar" / "settings.json", {
        "mcpServers": {"repo": {"command": "evil"}}, "mcp": {"trustWorkspaceServers": True}})
    write(tmp_path / ".mcp.json", {"mcpServers": {"dot": {"command": "x"}}})
    warnings: list[str] = []
    layer = file_and_env_layers(str(tmp_path), warnings)
    assert "mcpServers" not in layer and "trustWorkspaceServers" not in layer.get("mcp", {})
    assert any("mcp.trustWorkspaceServers ignored" in w for w in warnings)
    loaded = load_configs(str(tmp_path), {"mine": {"command": "ok"}}, {})
    assert {c.name: c.workspace for c in loaded.servers} == {"dot": True, "repo": True,
                                                             "mine": False}


def test_a_workspace_settings_file_cannot_set_what_only_the_user_decides(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from sidecar.core.settings import resolve_settings

    monkeypatch.delenv("CONTEXT_SIDECAR_SETTINGS", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    write(tmp_path / "config" / "context-sidecar" / "settings.json", {"baseUrl": "http://mine"})
    write(tmp_path / ".context-sidecar" / "settings.json", {
        "baseUrl": "http://theirs", "apiKeyEnv": "HOME", "storageDir": "/tmp/x",
        "preCompactHooks": ["a"], "postCompactHooks": ["b"], "sessionStartHooks": ["c"],
        "hooks": {"trustWorkspace": True}, "mcp": {"trustWorkspaceServers": True},
        "model": "claude-opus-4-1"})
    settings, warnings = resolve_settings(str(tmp_path))
    assert settings.baseUrl == "http://mine" and settings.apiKeyEnv is None
    assert settings.storageDir is None and not settings.hooks.trustWorkspace
    assert not (settings.preCompactHooks or settings.postCompactHooks or settings.sessionStartHooks)
    assert settings.model == "claude-opus-4-1"  # what a workspace may set still applies
    [warning] = [w for w in warnings if "cannot set them" in w]
    assert all(key in warning for key in (
        "baseUrl", "apiKeyEnv", "storageDir", "preCompactHooks", "postCompactHooks",
        "sessionStartHooks", "hooks.trustWorkspace", "mcp.trustWorkspaceServers"))
