"""The real sidecar process: initialize, sessions, the gauge, errors, bad input."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient

from sidecar import PROTOCOL_VERSION
from tests.e2e.conftest import client_capabilities, raw_json

SERVER = [sys.executable, "-m", "sidecar", "serve", "--stdio"]


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient, tmp_path: Path) -> Any:
    # The environment is fixed per process: configure through initializationOptions here.
    raw_json(lsp_client)
    lsp_client.updates = []  # type: ignore[attr-defined]

    @lsp_client.feature("session/update")
    def on_update(params: Any) -> None:
        lsp_client.updates.append(params)  # type: ignore[attr-defined]

    result = await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities(),
        initialization_options={"settings": {"storageDir": str(tmp_path / "store"),
                                             "apiKeyEnv": "NO_SUCH_KEY_FOR_TESTS"}},
    ))
    lsp_client.init_result = result  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


async def request(client: LanguageClient, method: str, params: Any) -> Any:
    return await client.protocol.send_request_async(method, params)


async def test_initialize_advertises_protocol(client: LanguageClient) -> None:
    result = client.init_result  # type: ignore[attr-defined]
    assert result.server_info.name == "context-sidecar"
    sidecar = result.capabilities.experimental["contextSidecar"]
    assert sidecar["protocolVersion"] == PROTOCOL_VERSION == 8
    assert "anthropic" in sidecar["providers"]


async def test_new_session_gauge_200k(client: LanguageClient, tmp_path: Path) -> None:
    usage = client.protocol.wait_for_notification_async("session/update")
    res = await request(client, "session/new", {"cwd": str(tmp_path), "model": "claude-haiku-4-5"})
    gauge = res["gauge"]
    assert gauge["size"] == 200_000
    assert gauge["effectiveWindow"] == 180_000
    assert gauge["autoCompactAt"] == 167_000
    assert gauge["warningAt"] == gauge["errorAt"] == 147_000
    assert gauge["blockingAt"] == 177_000
    assert gauge["level"] == "ok" and gauge["source"] == "estimate"
    assert gauge["windowSource"] == "model catalog"  # no key here: nothing is asked
    assert gauge["used"] > 0  # the system prompt and tools are counted before any call
    await asyncio.wait_for(usage, 5)
    kinds = [u["update"]["sessionUpdate"] for u in client.updates]  # type: ignore[attr-defined]
    assert "usage_update" in kinds and "available_commands_update" in kinds
    again = await request(client, "sidecar/gauge", {"sessionId": res["sessionId"]})
    assert again["used"] == gauge["used"]


async def test_gauge_1m_model(client: LanguageClient, tmp_path: Path) -> None:
    res = await request(client, "session/new", {"cwd": str(tmp_path), "model": "claude-opus-4-6[1m]"})
    g = res["gauge"]
    assert (g["size"], g["effectiveWindow"], g["autoCompactAt"], g["blockingAt"]) == (
        1_000_000, 980_000, 967_000, 977_000)


async def test_unknown_session_and_bad_params(client: LanguageClient, tmp_path: Path) -> None:
    with pytest.raises(JsonRpcException) as err:
        await request(client, "sidecar/gauge", {"sessionId": "nope"})
    assert err.value.code == -33001
    with pytest.raises(JsonRpcException) as err:
        await request(client, "session/new", {"cwd": 42})
    assert err.value.code == -32602 and "cwd" in err.value.message
    res = await request(client, "session/new", {"cwd": str(tmp_path)})
    with pytest.raises(JsonRpcException) as err:
        await request(client, "session/prompt", {"sessionId": res["sessionId"], "prompt": "hi"})
    assert err.value.code == -32602 and "prompt" in err.value.message


async def test_missing_key_is_provider_not_configured(client: LanguageClient, tmp_path: Path) -> None:
    res = await request(client, "session/new", {"cwd": str(tmp_path)})
    with pytest.raises(JsonRpcException) as err:
        await request(client, "session/prompt", {"sessionId": res["sessionId"],
                                                 "prompt": [{"type": "text", "text": "hi"}]})
    assert err.value.code == -33002
    assert "NO_SUCH_KEY_FOR_TESTS" in err.value.message + str(err.value.data)


async def test_list_and_close(client: LanguageClient, tmp_path: Path) -> None:
    a = await request(client, "session/new", {"cwd": str(tmp_path), "title": "first"})
    listed = await request(client, "session/list", {})
    assert any(s["sessionId"] == a["sessionId"] for s in listed["sessions"])
    assert await request(client, "session/close", {"sessionId": a["sessionId"]}) == {}
    with pytest.raises(JsonRpcException) as err:
        await request(client, "sidecar/gauge", {"sessionId": a["sessionId"]})
    assert err.value.code == -33001
