"""End-to-end fixtures: the real sidecar process (pytest-lsp) and the fake LLM server."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any, AsyncIterator

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from sidecar.providers.fake_llm import FakeLLMServer

KEY_ENV = "FAKE_LLM_KEY"


@pytest.fixture(scope="session")
def fake_llm() -> Any:
    srv = FakeLLMServer().start()
    yield srv
    srv.stop()


@pytest.fixture()
def llm(fake_llm: Any) -> Any:
    fake_llm.reset()
    return fake_llm


@pytest.fixture()
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "hello.py").write_text("def hello():\n    return 'hi'\n")
    return ws


def sidecar_env(tmp_path: Path, fake_url: str, **settings: Any) -> dict[str, str]:
    env = dict(os.environ)
    env[KEY_ENV] = "test-key"
    env["CONTEXT_SIDECAR_LOG_FILE"] = str(tmp_path / "sidecar.log")
    env["XDG_CONFIG_HOME"] = str(tmp_path / "config")
    base = {"provider": "anthropic", "model": "claude-sonnet-4-5", "baseUrl": fake_url,
            "apiKeyEnv": KEY_ENV, "storageDir": str(tmp_path / "store"),
            "retry": {"maxRetries": 2, "baseDelayMs": 10, "maxDelayMs": 50}}
    base.update(settings)
    env["CONTEXT_SIDECAR_SETTINGS"] = json.dumps(base)
    return env


def client_capabilities(permission: bool = True) -> types.ClientCapabilities:
    return types.ClientCapabilities(
        workspace=types.WorkspaceClientCapabilities(apply_edit=True, configuration=False),
        window=types.WindowClientCapabilities(work_done_progress=True),
        experimental={"contextSidecar": {"protocolVersion": 1, "permissionRequests": permission,
                                         "compactionUpdates": True}},
    )


def raw_json(client: LanguageClient) -> None:
    """Keep custom payloads as plain dicts on the test client (pygls makes namedtuples)."""
    from pygls.protocol import JsonRPCNotification, JsonRPCRequestMessage, JsonRPCResponseMessage

    def keep(obj: dict[str, Any], cls: type) -> Any:
        return cls(**obj)

    for cls in (JsonRPCRequestMessage, JsonRPCNotification, JsonRPCResponseMessage):
        client.protocol._converter.register_structure_hook(cls, keep)
