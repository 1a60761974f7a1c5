"""Provider and configuration errors say what to do, in plain words, and the server log keeps
one line for each expected failure (no traceback)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from pygls.exceptions import JsonRpcException

from sidecar.fake_llm import Reply
from tests.e2e.conftest import KEY_ENV
from tests.e2e.session_client import (
    call,
    initialize,
    prompt,
    settings_for,
    start_client,
    stop_client,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")

UNSET_KEY = "CONTEXT_SIDECAR_TEST_UNSET_KEY"


async def test_no_key_and_exhausted_retries_say_what_to_do(llm: Any, tmp_path: Path,
                                                            workspace: Path) -> None:
    log_file = tmp_path / "sidecar.log"
    env = {k: v for k, v in os.environ.items() if k != UNSET_KEY}
    env["CONTEXT_SIDECAR_LOG_FILE"] = str(log_file)
    settings = settings_for("anthropic", llm.url, tmp_path / "store", apiKeyEnv=UNSET_KEY)
    client = await start_client(env)
    rec = await initialize(client, settings)
    try:
        sid = (await call(client, "session/new", {"cwd": str(workspace)}))["sessionId"]
        # No key: the status bar says so, with the fix, as soon as the session opens ...
        assert rec.status and rec.status[-1]["kind"] == "error"
        assert UNSET_KEY in rec.status[-1]["message"]
        with pytest.raises(JsonRpcException) as err:
            await prompt(client, sid, "hello")
        assert err.value.code == -33002
        data = err.value.data
        assert UNSET_KEY in data["fix"] and data["retryable"] is False
        assert "-330" not in err.value.message and "JSON-RPC" not in err.value.message
        # ... and it stays said after the failed prompt, until the key is there.
        assert rec.status[-1]["kind"] == "error" and UNSET_KEY in rec.status[-1]["message"]
        client.workspace_did_change_configuration(  # type: ignore[attr-defined]
            __import__("lsprotocol").types.DidChangeConfigurationParams(
                settings={"contextSidecar": {**settings, "apiKeyEnv": KEY_ENV}}))
        await rec.wait_for(lambda: rec.status[-1]["kind"] != "error")

        # Retries used up: a plain message, what to do, and that a later try may work.
        for _ in range(3):
            llm.queue(Reply(fault={"fault": "overloaded"}))
        with pytest.raises(JsonRpcException) as err:
            await prompt(client, sid, "hello again")
        assert err.value.code == -33004
        data = err.value.data
        assert data["status"] == 529 and data["retryable"] is True and data["fix"]
        assert "overloaded" in err.value.message.lower() and "{" not in err.value.message
    finally:
        await stop_client(client)
    log = log_file.read_text()
    assert "Traceback" not in log
    assert sum(1 for line in log.splitlines() if "-33004" in line or "overloaded" in line.lower()) >= 1
