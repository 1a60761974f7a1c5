"""The session service, called through the route table as both transports call it, answers
and updates in the shapes the contract declares: the TypedDicts describe what is sent, not
what was once meant to be."""

from __future__ import annotations

from pathlib import Path
from typing import Any, get_type_hints

import pytest
from contract_shapes import mismatches

from sidecar.composition import default_adapters
from sidecar.contract.updates import SessionUpdate
from sidecar.core.permissions.choice import PermissionChoice
from sidecar.core.service import SessionService
from sidecar.core.settings import Settings
from sidecar.fake_llm import FakeLLMServer, Reply
from sidecar.routes import REQUESTS, ROUTES


class RecordingEditor:
    def __init__(self) -> None:
        self.updates: list[dict[str, Any]] = []

    def session_update(self, session_id: str, update: Any) -> None:
        self.updates.append(update)

    def status(self, kind: str, busy: bool, message: str) -> None:
        pass

    def show_message(self, level: str, text: str) -> None:
        pass

    async def request_permission(self, session_id: str, tool_call: dict[str, Any],
                                 options: list[dict[str, str]]) -> PermissionChoice:
        return PermissionChoice("allow_once")

    async def apply_edit(self, path: Path, new_text: str, label: str, exists: bool) -> bool | None:
        return None

    def buffer_text(self, path: Path) -> str | None:
        return None

    async def progress(self, token: str | None, kind: str, title: str, message: str = "",
                       percentage: int | None = None) -> str | None:
        return None


@pytest.fixture
def fake_llm() -> Any:
    srv = FakeLLMServer().start()
    yield srv
    srv.stop()


async def test_answers_and_updates_have_the_contracts_shapes(tmp_path: Path, fake_llm: Any) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    line = "def function_{i}(value):\n    return value * {i}\n"
    (workspace / "big.py").write_text("".join(line.format(i=i) for i in range(400)))
    # A server that never starts (its command names a variable that is not set).
    (workspace / ".mcp.json").write_text(
        '{"mcpServers": {"probe": {"command": "${CONTRACT_TEST_UNSET_VARIABLE}"}}}')
    editor = RecordingEditor()
    settings = Settings(provider="anthropic", model="claude-sonnet-4-5", baseUrl=fake_llm.url,
                        apiKeyEnv="CONTRACT_TEST_KEY", storageDir=str(tmp_path / "store"))
    svc = SessionService(editor, settings, adapters=default_adapters(),
                         environ={"CONTRACT_TEST_KEY": "key", "CONTEXT_SIDECAR_NO_WATCH": "1"})
    answered: list[str] = []

    async def call(method: str, params: dict[str, Any]) -> Any:
        route = ROUTES[method]
        answer = await route.serve(svc, params)
        assert mismatches(answer, get_type_hints(route.call)["return"]) == [], method
        answered.append(method)
        return answer

    try:
        sid = (await call("session/new", {"cwd": str(workspace), "title": None}))["sessionId"]
        fake_llm.queue(Reply.tool_use("Read", {"file_path": "big.py"}, text="Reading it."))
        fake_llm.queue(Reply.text("It defines four hundred functions."))
        prompted = await call("session/prompt", {"sessionId": sid, "prompt": [
            {"type": "text", "text": "read big.py"}]})
        listed = await call("sidecar/checkpoints", {"sessionId": sid})
        assert [c["checkpointId"] for c in listed["checkpoints"]] == [prompted["checkpointId"]]
        await call("sidecar/rewind", {"sessionId": sid, "checkpointId": prompted["checkpointId"],
                                      "restore": "both", "preview": True})
        await call("sidecar/fork", {"sessionId": sid, "title": "A fork"})
        await call("sidecar/gauge", {"sessionId": sid})
        await call("sidecar/models", {"sessionId": sid})
        await call("session/set_model", {"sessionId": sid, "model": "claude-sonnet-4-5"})
        await call("session/set_mode", {"sessionId": sid, "modeId": "acceptEdits"})
        await call("session/set_title", {"sessionId": sid, "title": "Read big.py"})
        await call("sidecar/context", {"sessionId": sid})
        await call("session/list", {"cwd": str(workspace)})
        await call("sidecar/compact", {"sessionId": sid, "instructions": "keep the file name"})
        await call("sidecar/history/list", {"limit": 5})
        await call("sidecar/history/undo", {})
        await call("sidecar/trustWorkspace", {"cwd": str(workspace)})
        retried = await call("sidecar/mcpAction", {"sessionId": sid, "server": "probe",
                                                   "action": "retry"})
        assert retried["done"] is False and "CONTRACT_TEST_UNSET_VARIABLE" in retried["message"]
        await call("session/close", {"sessionId": sid})
        await call("session/load", {"sessionId": sid})
        await call("session/delete", {"sessionId": sid})
    finally:
        await svc.shutdown()
    assert sorted(answered) == sorted(route.method for route in REQUESTS)
    assert fake_llm.take_violations() == []
    for update in editor.updates:
        assert mismatches(update, SessionUpdate) == [], update["sessionUpdate"]
    kinds = {u["sessionUpdate"] for u in editor.updates}
    # agent_thought_chunk needs a thinking model; its constructor is the one shared above.
    assert kinds == {"user_message_chunk", "agent_message_chunk", "tool_call", "tool_call_update",
                     "usage_update", "compaction_update", "session_info_update",
                     "available_commands_update", "current_mode_update", "mcp_status_update"}
