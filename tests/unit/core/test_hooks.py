"""Hooks: Claude Code's settings format, matchers, stdin JSON, timeouts and context output."""

from __future__ import annotations

import dataclasses
import json
import time
from pathlib import Path

import pytest

from sidecar.core.settings import Hooks, Settings
from sidecar.core.workspace.hooks import (
    HookCommand,
    configured_hooks,
    matches,
    run_hook,
    skipped_hook_files,
)
from sidecar.core.workspace.trust import UNTRUSTED, Trust, TrustBook


def test_matchers_follow_claude_code() -> None:
    assert matches("", "auto") and matches("*", "manual")
    assert matches("manual|auto", "auto") and not matches("manual", "auto")
    assert matches("startup|compact", "compact") and not matches("startup", "resume")
    assert matches("[", "[")  # a broken regex matches itself only


def test_settings_and_claude_code_files_are_merged(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    ws, home = tmp_path / "ws", tmp_path / "home"
    (ws / ".claude").mkdir(parents=True)
    (home / ".claude").mkdir(parents=True)
    group = {"matcher": "compact", "hooks": [{"type": "command", "command": "cat notes", "timeout": 5}]}
    (home / ".claude" / "settings.json").write_text(json.dumps({"hooks": {"SessionStart": [group]}}))
    (ws / ".claude" / "settings.json").write_text(json.dumps({"hooks": {"SessionStart": [
        {"hooks": [{"type": "command", "command": "echo project"}, {"type": "prompt", "prompt": "x"}]}]}}))
    (ws / ".claude" / "settings.local.json").write_text("{not json")
    settings = dataclasses.replace(Settings(), sessionStartHooks=("echo mine",), hookTimeoutSeconds=7,
                                   hooks=Hooks(trustWorkspace=True))  # the project's file counts
    hooks = configured_hooks(settings, ws, home, "SessionStart", UNTRUSTED)
    assert [(h.command, h.matcher, h.timeout) for h in hooks] == [
        ("echo mine", "", 7.0), ("cat notes", "compact", 5.0), ("echo project", "", 7.0)]
    assert configured_hooks(settings, ws, home, "PostCompact", UNTRUSTED) == []
    # The editor's Restricted Mode holds over the user's setting.
    restricted = configured_hooks(settings, ws, home, "SessionStart", Trust(False, "editor"))
    assert "echo project" not in [h.command for h in restricted]


def test_workspace_hooks_run_only_in_a_trusted_folder(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    ws, home = tmp_path / "repo" / "ws", tmp_path / "home"
    (ws / ".claude").mkdir(parents=True)
    home.mkdir()
    (ws / ".claude" / "settings.local.json").write_text(json.dumps({"hooks": {"PreCompact": [
        {"hooks": [{"type": "command", "command": "curl evil"}]}]}}))
    settings = dataclasses.replace(Settings(), preCompactHooks=("echo mine",))
    book = TrustBook(lambda: tmp_path / "store", home=lambda: home, environ=lambda: {})
    assert [h.command for h in configured_hooks(settings, ws, home, "PreCompact", book.of(ws))] == ["echo mine"]
    assert skipped_hook_files(settings, ws, book.of(ws)) == [str(ws / ".claude" / "settings.local.json")]
    # Accepted for another folder, or not accepted: still skipped.
    (home / ".claude.json").write_text(json.dumps({"projects": {
        str(tmp_path / "other"): {"hasTrustDialogAccepted": True},
        str(ws): {"hasTrustDialogAccepted": False}}}))
    assert skipped_hook_files(settings, ws, book.of(ws)) != []
    # Accepted for a parent folder: the workspace's hooks run.
    (home / ".claude.json").write_text(json.dumps({"projects": {
        str(tmp_path / "repo"): {"hasTrustDialogAccepted": True}}}))
    assert [h.command for h in configured_hooks(settings, ws, home, "PreCompact", book.of(ws))] == [
        "echo mine", "curl evil"]
    assert skipped_hook_files(settings, ws, book.of(ws)) == []


def test_a_hook_reads_its_json_and_gives_context(tmp_path: Path) -> None:
    hook = HookCommand("SessionStart", "python3 -c 'import json,sys; d=json.load(sys.stdin); "
                       "print(d[\"hook_event_name\"], d[\"source\"])'", 10)
    result = run_hook(hook, {"hook_event_name": "SessionStart", "source": "compact"}, tmp_path, "compact")
    assert result.exit_code == 0 and result.context == "SessionStart compact"
    as_json = HookCommand("SessionStart", "echo '{\"hookSpecificOutput\": {\"additionalContext\": \"tabs\"}}'", 10)
    assert run_hook(as_json, {}, tmp_path, "startup").context == "tabs"
    # PostCompact output is for the user, and a failure gives no context.
    assert run_hook(HookCommand("PostCompact", "echo done", 10), {}, tmp_path, "auto").context == ""
    failed = run_hook(HookCommand("SessionStart", "echo oops >&2; exit 2", 10), {}, tmp_path, "startup")
    assert failed.exit_code == 2 and failed.output == "oops" and failed.context == ""


def test_a_slow_hook_is_stopped_at_its_timeout(tmp_path: Path) -> None:
    started = time.monotonic()
    result = run_hook(HookCommand("PreCompact", "sleep 30", 0.5), {}, tmp_path, "auto")
    assert time.monotonic() - started < 5
    assert result.exit_code is None and "timed out" in result.output


def test_a_large_claude_json_still_trusts_its_folders(tmp_path: Path) -> None:
    from sidecar.core.workspace.claude_config import workspace_trusted

    ws, home = tmp_path / "ws", tmp_path / "home"
    home.mkdir()
    # Claude Code's state file keeps much per folder: past a settings file's 1 MiB here.
    entries = {f"/elsewhere/{n}": {"history": ["x" * 1000] * 3} for n in range(400)}
    entries[str(ws)] = {"hasTrustDialogAccepted": True}
    (home / ".claude.json").write_text(json.dumps({"projects": entries}))
    assert (home / ".claude.json").stat().st_size > 1 << 20
    assert workspace_trusted(ws, home, {})
