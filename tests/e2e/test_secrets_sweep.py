"""A distinctive 8-character key goes everywhere it can, and nowhere it should.

The key is in a workspace file the model reads, in the prompt and a long paste the user
sends, in a provider error's text (the fake server echoes it), and in the sidecar's own
environment at start. A shell command the user approves prints its environment and both
``/proc/$PPID/environ`` and ``/proc/<sidecar pid>/environ``. Then every byte the sidecar
wrote is searched: the storage directory, the log file, stderr, stdout (every response
and notification), and every request body the fake LLM server received.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from sidecar.fake_llm import Reply
from tests.e2e.raw_client import RawClient, RpcFailed, initialize_params

pytestmark = pytest.mark.asyncio

KEY = "Qz7-vK2w"  # 8 characters: no pattern would catch it
KEY_ENV = "SWEEP_LLM_KEY"


def _settings(url: str, store: Path) -> dict[str, Any]:
    return {"provider": "anthropic", "model": "claude-sonnet-5-5", "baseUrl": url,
            "apiKeyEnv": KEY_ENV, "storageDir": str(store),
            "retry": {"maxRetries": 1, "baseDelayMs": 10, "maxDelayMs": 20}}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
async def test_the_key_leaks_nowhere(llm: Any, tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "config.env").write_text(f"API_KEY={KEY}\nDEBUG=1\n")
    store = tmp_path / "store"
    log = tmp_path / "sidecar.log"
    env = {**os.environ, KEY_ENV: KEY, "CONTEXT_SIDECAR_LOG_FILE": str(log),
           "CONTEXT_SIDECAR_NO_WATCH": "1", "XDG_CONFIG_HOME": str(tmp_path / "config")}
    env.pop("CONTEXT_SIDECAR_KEEP_ENVIRONMENT", None)
    client = await RawClient.start(env)
    client.requests_from_server["session/request_permission"] = lambda p: {
        "outcome": {"outcome": "selected", "optionId": "allow_once"}}
    pid = client.proc.pid
    try:
        await client.request("initialize", initialize_params(_settings(llm.url, store), ws))
        client.notify("initialized", {})
        sid = (await client.request("session/new", {"cwd": str(ws)}))["sessionId"]

        # 1. Tool output: a file holding the key, and a shell looking for it everywhere.
        command = (f"cat config.env; env; echo ---parent; tr '\\0' '\\n' < /proc/$PPID/environ; "
                   f"echo ---sidecar; tr '\\0' '\\n' < /proc/{pid}/environ; echo ---done")
        llm.queue(Reply(content=[
            {"type": "tool_use", "id": "r1", "name": "Read", "input": {"file_path": "config.env"}},
            {"type": "tool_use", "id": "b1", "name": "Bash", "input": {"command": command}},
        ]))
        llm.queue(Reply.text("Checked."))
        # 2. The user types the key, pastes it in bulk, and sends a selection holding it.
        paste = "\n".join(f"line {i}: token={KEY}" for i in range(200))
        await client.request("session/prompt", {"sessionId": sid, "prompt": [
            {"type": "text", "text": f"my key is {KEY}, check config.env\n{paste}"},
            {"type": "resource", "resource": {"uri": "file:///selection", "text": paste}},
        ]})
        shell = [u for u in client.updates("tool_call_update") if u["toolCallId"] == "b1"
                 and u.get("status") in ("completed", "failed")][-1]
        shell_text = json.dumps(shell)
        assert "---sidecar" in shell_text and "---done" in shell_text  # the command ran whole
        assert "PATH=" in shell_text  # and printed the environment blocks it could reach
        assert f"{KEY_ENV}=" not in shell_text  # the variable itself is gone, not just its value
        read = [u for u in client.updates("tool_call_update") if u["toolCallId"] == "r1"
                and u.get("status") == "completed"][-1]
        assert "[REDACTED_API_KEY]" in json.dumps(read)  # the key was there, and was taken out

        # 3. A provider error that echoes the key (retried once, then answered as an error).
        def echo_key(request: Any) -> Any:
            raise RuntimeError(f"invalid x-api-key {KEY}")

        llm.responder = echo_key
        with pytest.raises(RpcFailed) as err:
            await client.request("session/prompt", {"sessionId": sid,
                                                    "prompt": [{"type": "text", "text": "again"}]})
        assert err.value.code == -33004 and "[REDACTED_API_KEY]" in err.value.message
        llm.responder = None

        # 4. What the user can look at afterwards.
        llm.queue(Reply.text("ok"))
        await client.request("session/prompt", {"sessionId": sid,
                                                "prompt": [{"type": "text", "text": "/context"}]})
        await client.request("sidecar/history/list", {"limit": 10})
        await client.request("sidecar/context", {"sessionId": sid})
    finally:
        await client.stop()

    # The fake answers 401 without credentials: 200s mean the key was sent, as a header.
    assert any(r.status == 200 and r.path == "/v1/messages" for r in llm.requests)
    written: dict[str, bytes] = {
        "stdout (responses and notifications)": bytes(client.stdout),
        "stderr": bytes(client.stderr),
        "log file": log.read_bytes() if log.exists() else b"",
        "request bodies": json.dumps([r.body for r in llm.requests]).encode(),
    }
    for path in store.rglob("*"):
        if path.is_file():
            written[str(path)] = path.read_bytes()
    assert any("history.jsonl" in name for name in written)
    assert any(name.endswith(".jsonl") and "projects" in name for name in written)
    assert written["log file"], "the sidecar logged nothing: the sweep would prove nothing"
    leaks = [name for name, data in written.items() if KEY.encode() in data]
    assert leaks == []
