"""What a repository ships decides nothing until the user trusts the folder: the settings
allow-list, the confined reads of the sidecar's own files, and who says a folder is trusted."""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

import pytest

from sidecar.core.settings import WORKSPACE_SETTINGS, resolve_settings
from sidecar.core.workspace.own_files import RefusedFile, is_own_file, read_own_text
from sidecar.core.workspace.trust import TrustBook


def write(path: Path, data: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))
    return path


@pytest.fixture()
def no_user_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CONTEXT_SIDECAR_SETTINGS", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


def test_the_workspace_file_sets_only_what_the_allow_list_names(tmp_path: Path, no_user_settings: None) -> None:
    ws = tmp_path / "ws"
    write(ws / ".context-sidecar" / "settings.json", {
        "permissions": {"defaultMode": "bypassPermissions"},
        "tools": {"allow": ["python3"], "shell": True, "readMaxLines": 100},
        "transport": {"maxMessageBytes": 64}, "retry": {"timeoutSeconds": 100000},
        "manualCompact": False, "provider": "openai", "hookTimeoutSeconds": 9999,
        "mcp": {"resultMaxChars": 10**9}, "history": {"maxItems": 5},
        "model": "claude-opus-4-1", "autoCompact": {"bufferTokens": 20000},
        "thinking": {"mode": "adaptive"}})
    settings, warnings = resolve_settings(str(ws))
    assert settings.permissions.defaultMode == "default"
    assert settings.tools.allow == () and settings.tools.readMaxLines == 100
    assert settings.transport.maxMessageBytes == 64 * 1024 * 1024
    assert settings.retry.timeoutSeconds == 600 and settings.manualCompact
    assert settings.provider == "anthropic" and settings.hookTimeoutSeconds == 60
    assert settings.model == "claude-opus-4-1" and settings.autoCompact.bufferTokens == 20000
    assert settings.thinking.mode == "adaptive" and settings.history.maxItems == 100
    [warning] = [w for w in warnings if "cannot set them" in w]
    for key in ("permissions.defaultMode", "tools.allow", "tools.shell", "transport.maxMessageBytes",
                "retry.timeoutSeconds", "manualCompact", "provider", "hookTimeoutSeconds",
                "mcp.resultMaxChars", "history.maxItems"):
        assert key in warning
    assert "model" not in warning.split(":")[1].split("ignored")[0].split(", ")
    # Shown once: a second resolution (a settings change) does not repeat it.
    assert not [w for w in resolve_settings(str(ws))[1] if "cannot set them" in w]


def test_the_user_file_and_the_editor_still_set_everything(tmp_path: Path, no_user_settings: None) -> None:
    write(tmp_path / "config" / "context-sidecar" / "settings.json",
          {"permissions": {"defaultMode": "acceptEdits"}})
    settings, _ = resolve_settings(str(tmp_path / "ws"), {"tools": {"allow": ["make"]}})
    assert settings.permissions.defaultMode == "acceptEdits" and settings.tools.allow == ("make",)


def test_every_allowed_name_is_a_setting() -> None:
    from sidecar.core.settings import Settings

    for dotted in WORKSPACE_SETTINGS:
        holder: object = Settings()
        for part in dotted.split("."):
            assert hasattr(holder, part), dotted
            holder = getattr(holder, part)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_settings_file_is_refused_at_once(tmp_path: Path, no_user_settings: None) -> None:
    ws = tmp_path / "ws"
    (ws / ".context-sidecar").mkdir(parents=True)
    os.mkfifo(ws / ".context-sidecar" / "settings.json")
    result: list[object] = []
    worker = threading.Thread(target=lambda: result.append(resolve_settings(str(ws))), daemon=True)
    started = time.monotonic()
    worker.start()
    worker.join(2.0)
    assert result, "reading a FIFO settings file blocked"
    assert time.monotonic() - started < 1.0
    _, warnings = result[0]  # type: ignore[misc]
    assert any("not a regular file" in w for w in warnings)


def test_reads_resolve_symlinks_before_they_are_trusted(tmp_path: Path) -> None:
    ws, outside = tmp_path / "ws", tmp_path / "outside"
    ws.mkdir()
    outside.mkdir()
    (outside / "secret").write_text("secret")
    (ws / "direct").symlink_to(outside / "secret")
    (ws / "up").symlink_to(tmp_path)
    (ws / "fine.md").write_text("fine")
    assert read_own_text(ws / "fine.md", [ws]) == "fine"
    for path in (ws / "direct", ws / "up" / "outside" / "secret", ws / ".." / "outside" / "secret"):
        with pytest.raises(RefusedFile):
            read_own_text(path, [ws])
        assert not is_own_file(path, [ws])
    with pytest.raises(RefusedFile):
        read_own_text(ws / "fine.md", [ws], limit=2)


def test_who_says_a_folder_is_trusted(tmp_path: Path) -> None:
    home, store, ws = tmp_path / "home", tmp_path / "store", tmp_path / "ws"
    home.mkdir()
    (ws / "sub").mkdir(parents=True)
    book = TrustBook(lambda: store, home=lambda: home, environ=lambda: {})
    assert (book.of(ws).trusted, book.of(ws).source) == (False, "none")
    # Claude Code's dialog accepted for the folder.
    write(home / ".claude.json", {"projects": {str(ws): {"hasTrustDialogAccepted": True}}})
    assert (book.of(ws / "sub").trusted, book.of(ws).source) == (True, "claude-code")
    # The editor's Restricted Mode holds over Claude Code's record...
    book.set_editor(ws, False)
    assert (book.of(ws / "sub").trusted, book.of(ws).source) == (False, "editor")
    # ...until the user trusts the folder, which a later process remembers.
    assert book.grant(ws).trusted
    assert (book.of(ws / "sub").trusted, book.of(ws).source) == (True, "sidecar")
    later = TrustBook(lambda: store, home=lambda: tmp_path / "nohome", environ=lambda: {})
    assert (later.of(ws).trusted, later.of(ws).source) == (True, "sidecar")
    assert not later.of(tmp_path).trusted
