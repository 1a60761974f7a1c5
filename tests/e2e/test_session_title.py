"""session/set_title through the real sidecar process: an open session's title changes at
once (session_info_update) and is stored; a stored session's title is stored too."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.e2e.conftest import client_capabilities, raw_json

SERVER = [sys.executable, "-m", "sidecar", "serve", "--stdio"]


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient, tmp_path: Path) -> Any:
    raw_json(lsp_client)
    lsp_client.updates = []  # type: ignore[attr-defined]

    @lsp_client.feature("session/update")
    def on_update(params: Any) -> None:
        lsp_client.updates.append(params)  # type: ignore[attr-defined]

    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities(),
        initialization_options={"settings": {"storageDir": str(tmp_path / "store"),
                                             "apiKeyEnv": "NO_SUCH_KEY_FOR_TESTS"}},
    ))
    yield
    await lsp_client.shutdown_session()


async def request(client: LanguageClient, method: str, params: Any) -> Any:
    return await client.protocol.send_request_async(method, params)


def titles(listed: dict[str, Any]) -> dict[str, Any]:
    return {s["sessionId"]: s["title"] for s in listed["sessions"]}


async def test_set_title_open_then_stored(client: LanguageClient, tmp_path: Path) -> None:
    cwd = str(tmp_path)
    sid = (await request(client, "session/new", {"cwd": cwd}))["sessionId"]

    assert await request(client, "session/set_title", {"sessionId": sid, "title": "  Fix the flaky test "}) == {}
    info = [u["update"] for u in client.updates  # type: ignore[attr-defined]
            if u["sessionId"] == sid and u["update"]["sessionUpdate"] == "session_info_update"]
    assert info[-1]["title"] == "Fix the flaky test"
    assert titles(await request(client, "session/list", {"cwd": cwd}))[sid] == "Fix the flaky test"

    # Closed, the session is only on disk: the new title is stored and listed, and it is
    # the title the session has when it is opened again.
    await request(client, "session/close", {"sessionId": sid})
    assert titles(await request(client, "session/list", {"cwd": cwd}))[sid] == "Fix the flaky test"
    assert await request(client, "session/set_title", {"sessionId": sid, "title": "Renamed on disk"}) == {}
    assert titles(await request(client, "session/list", {"cwd": cwd}))[sid] == "Renamed on disk"
    await request(client, "session/load", {"sessionId": sid, "cwd": cwd})
    assert titles(await request(client, "session/list", {"cwd": cwd}))[sid] == "Renamed on disk"


async def test_set_title_refuses_unknown_sessions_and_blank_titles(client: LanguageClient, tmp_path: Path) -> None:
    with pytest.raises(JsonRpcException) as err:
        await request(client, "session/set_title", {"sessionId": "no-such-session", "title": "x"})
    assert err.value.code == -33001
    sid = (await request(client, "session/new", {"cwd": str(tmp_path)}))["sessionId"]
    with pytest.raises(JsonRpcException) as err:
        await request(client, "session/set_title", {"sessionId": sid, "title": "   "})
    assert err.value.code == -32602
