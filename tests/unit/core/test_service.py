"""Loading sessions from bad files, and storage failures as the service reports them.

Before: a transcript with no usable cwd moved the session's tool root to the directory the
sidecar was launched from; a transcript naming an unsafe sessionId loaded, after which
every prompt failed; a failing disk made ``shutdown`` raise.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from sidecar.composition import default_adapters
from sidecar.contract.errors import InvalidParams
from sidecar.contract.params import (
    HistoryListParams,
    LoadSessionParams,
    NewSessionParams,
    SessionParams,
)
from sidecar.core.conversation.messages import user_text
from sidecar.core.permissions.choice import PermissionChoice
from sidecar.core.service import SessionService
from sidecar.core.settings import Settings
from sidecar.storage.history_entry import HistoryEntry

# The service holds the keys it is configured with; none from another test may leak in.
pytestmark = pytest.mark.usefixtures("no_held_keys")


class Editor:
    def __init__(self) -> None:
        self.messages: list[tuple[str, str]] = []
        self.statuses: list[tuple[str, bool, str]] = []
        self.updates: list[dict[str, Any]] = []

    def session_update(self, session_id: str, update: dict[str, Any]) -> None:
        self.updates.append(update)

    def status(self, kind: str, busy: bool, message: str) -> None:
        self.statuses.append((kind, busy, message))

    def show_message(self, level: str, text: str) -> None:
        self.messages.append((level, text))

    async def request_permission(self, session_id: str, tool_call: dict[str, Any],
                                 options: list[dict[str, str]]) -> PermissionChoice:
        return PermissionChoice("reject_once")

    async def apply_edit(self, path: Path, new_text: str, label: str, exists: bool) -> bool | None:
        return None

    def buffer_text(self, path: Path) -> str | None:
        return None

    async def progress(self, token: str | None, kind: str, title: str, message: str = "",
                       percentage: int | None = None) -> str | None:
        return None


def service(store: Path) -> tuple[SessionService, Editor]:
    editor = Editor()
    environ = {"CONTEXT_SIDECAR_NO_WATCH": "1"}  # no key: never touches the real environment
    return SessionService(editor, Settings(storageDir=str(store)), adapters=default_adapters(),
                          environ=environ), editor


@pytest.mark.parametrize("content", [b"", b"garbage\n\x00\x01\n", b'{"type":"user","cwd":"relative/dir"}\n'])
async def test_no_usable_cwd_needs_the_clients_workspace(
    tmp_path: Path, content: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    launch = tmp_path / "launch"
    launch.mkdir()
    monkeypatch.chdir(launch)  # where the sidecar "was started": must never become a root
    path = tmp_path / "broken.jsonl"
    path.write_bytes(content)
    svc, _ = service(tmp_path / "store")
    with pytest.raises(InvalidParams) as err:
        await svc.load_session(LoadSessionParams(session_id=str(path)))
    assert err.value.code == -32602 and err.value.data["field"] == "cwd"
    assert "cwd" in err.value.message and not svc.sessions
    workspace = tmp_path / "ws"
    workspace.mkdir()
    answer = await svc.load_session(LoadSessionParams(session_id=str(path), cwd=str(workspace)))
    session = svc.sessions[answer["sessionId"]]
    assert session.info.cwd == str(workspace)
    from sidecar.core.turns.tool_context import SessionToolContext

    assert SessionToolContext(session).roots == [workspace.resolve()]
    await svc.shutdown()


async def test_unsafe_session_ids_are_refused(tmp_path: Path) -> None:
    svc, _ = service(tmp_path / "store")
    record = {"type": "user", "sessionId": "../../escape", "cwd": str(tmp_path), "uuid": "u1",
              "message": {"role": "user", "content": "hi"}}
    path = tmp_path / "evil.jsonl"
    path.write_text(json.dumps(record) + "\n")
    with pytest.raises(InvalidParams) as err:
        await svc.load_session(LoadSessionParams(session_id=str(path)))
    assert err.value.code == -32602 and err.value.data["field"] == "sessionId"
    assert "sessionId" in err.value.message and not svc.sessions
    for bad in ("../../etc/passwd", "a/b", "x" * 300, ".hidden", "nul\x00byte"):
        with pytest.raises(InvalidParams) as err:
            await svc.load_session(LoadSessionParams(session_id=bad))
        assert err.value.data["field"] == "sessionId"
    await svc.shutdown()


async def test_context_reports_skipped_lines_and_values(tmp_path: Path) -> None:
    svc, editor = service(tmp_path / "store")
    good = {"type": "user", "sessionId": "s-1", "cwd": str(tmp_path), "uuid": "u1",
            "message": {"role": "user", "content": "hi"}}
    bad_usage = {"type": "assistant", "sessionId": "s-1", "cwd": str(tmp_path), "uuid": "u2",
                 "message": {"role": "assistant", "id": "m", "model": "claude-sonnet-4-5",
                             "content": "ok", "usage": {"input_tokens": 1}}}
    lines = [json.dumps(good), "not json", json.dumps(bad_usage).replace('"input_tokens": 1', '"input_tokens": 1e999'),
             "[" * 20_000 + "]" * 20_000]
    path = tmp_path / "s-1.jsonl"
    path.write_text("\n".join(lines) + "\n")
    answer = await svc.load_session(LoadSessionParams(session_id=str(path)))
    assert answer["sessionId"] == "s-1"
    assert any("unparseable" in text for _, text in editor.messages)
    view = await svc.report.context_view(SessionParams(session_id="s-1"))
    assert view["storage"] == {"skippedTranscriptLines": 2, "skippedTranscriptValues": 1,
                               "skippedHistoryLines": 0, "skippedHistoryValues": 0,
                               "pendingWrites": 0, "lastWriteError": None}
    from sidecar.core.accounting.context_view import render_context

    assert "2 lines and 1 value skipped" in render_context(view)
    await svc.shutdown()


async def test_failing_disk_is_reported_and_shutdown_still_succeeds(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where the storage directory's parent should be")
    svc, editor = service(blocker / "store")
    workspace = tmp_path / "ws"
    workspace.mkdir()
    sid = svc.new_session(NewSessionParams(cwd=str(workspace)))["sessionId"]
    session = svc.sessions[sid]
    session.append(user_text("a turn the disk did not take"))
    svc.prompt_history.record(session, [{"type": "text", "text": "a prompt the disk did not take"}])
    svc.stores.history().flush()
    errors = [text for level, text in editor.messages if level == "error"]
    assert any("transcript" in t and "Not a directory" in t for t in errors)
    assert any("prompt history" in t for t in errors)
    assert any(kind == "error" and "not saved" in text for kind, _, text in editor.statuses)
    view = await svc.report.context_view(SessionParams(session_id=sid))
    assert view["storage"]["pendingWrites"] == 2
    assert "Not a directory" in view["storage"]["lastWriteError"]
    await svc.shutdown()  # must not raise
    lost = [text for level, text in editor.messages if "are lost" in text or "is lost" in text]
    assert len(lost) == 2  # the transcript's records and the history entry, both said


async def test_history_list_survives_a_broken_history_file(tmp_path: Path) -> None:
    store = tmp_path / "store"
    store.mkdir()
    (store / "history.jsonl").write_bytes(
        b'{"display":"fine","timestamp":1}\n{"display":"inf","timestamp":1e999}\n'
        + b"[" * 30_000 + b"]" * 30_000 + b"\n")
    svc, _ = service(store)
    listed = await svc.prompt_history.history_list(HistoryListParams())
    assert [e["display"] for e in listed["entries"]] == ["inf", "fine"]
    workspace = tmp_path / "ws"
    workspace.mkdir()
    sid = svc.new_session(NewSessionParams(cwd=str(workspace)))["sessionId"]
    storage = (await svc.report.context_view(SessionParams(session_id=sid)))["storage"]
    assert storage["skippedHistoryLines"] == 1 and storage["skippedHistoryValues"] == 1
    svc.stores.history().add(HistoryEntry("x"))
    await svc.shutdown()
    assert os.path.exists(store / "history.jsonl")


async def test_workspace_settings_reach_new_sessions_and_hold_their_key(tmp_path: Path) -> None:
    """A workspace's settings (what ACP resolves per folder) go through ``update_settings``:
    the key they name is held, new sessions take them, open ones keep theirs."""
    from sidecar.core.secrets.redaction import redact_value

    editor = Editor()
    svc = SessionService(editor, Settings(storageDir=str(tmp_path / "store")),
                         adapters=default_adapters(),
                         environ={"WORKSPACE_TEST_KEY": "sk-workspace-secret-0123456789",
                                  "CONTEXT_SIDECAR_NO_WATCH": "1"})
    before = svc.new_session(NewSessionParams(cwd=str(tmp_path)))["sessionId"]
    workspace = Settings(storageDir=str(tmp_path / "store"), apiKeyEnv="WORKSPACE_TEST_KEY",
                         model="claude-haiku-4-5")
    svc.update_settings(workspace, open_sessions=False)
    # Held before any session uses it: a prompt may quote it first.
    assert "sk-workspace-secret-0123456789" not in redact_value("key sk-workspace-secret-0123456789")
    after = svc.new_session(NewSessionParams(cwd=str(tmp_path)))["sessionId"]
    assert svc.settings is workspace
    assert svc.get(before).settings.apiKeyEnv != "WORKSPACE_TEST_KEY"
    assert svc.get(after).settings.apiKeyEnv == "WORKSPACE_TEST_KEY"
    assert svc.get(after).info.model == "claude-haiku-4-5"
    await svc.shutdown()
