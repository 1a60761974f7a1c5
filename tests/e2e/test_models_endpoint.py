"""The real sidecar process and the providers' models endpoints (served by the fake): windows
in the gauge, lifecycles on the status bar and in /context, and nothing on the start-up path."""

from __future__ import annotations

import asyncio
import socket
import time
from pathlib import Path
from typing import Any

import pytest

from sidecar.fake_llm import FakeLLMServer, Reply
from tests.e2e.session_client import (
    call,
    initialize,
    prompt,
    settings_for,
    start_client,
    stop_client,
)

# Longer than the SDKs take to import after start-up, when a refresh could first run.
QUIET_SECONDS = 5.0


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def messages(client: Any) -> list[str]:
    return [m.message if hasattr(m, "message") else m["message"] for m in client.messages]


async def open_session(llm_url: str, tmp_path: Path, workspace: Path, **settings: Any
                       ) -> tuple[Any, str]:
    client = await start_client()
    client.rec = await initialize(
        client, {**settings_for("anthropic", llm_url, tmp_path / "store"), **settings})
    opened = await call(client, "session/new", {"cwd": str(workspace)})
    return client, opened["sessionId"]


async def gauge_from(client: Any, sid: str, source: str) -> dict[str, Any]:
    """The usage_update whose gauge says the window came from ``source``."""
    def found() -> list[dict[str, Any]]:
        return [u["_meta"]["sidecar"] for u in client.rec.of("usage_update")
                if u["_meta"]["sidecar"].get("windowSource") == source]

    await client.rec.wait_for(lambda: bool(found()))
    return found()[-1]


async def status_with(client: Any, text: str) -> dict[str, Any]:
    await client.rec.wait_for(lambda: any(text in s["message"] for s in client.rec.status))
    return next(s for s in client.rec.status if text in s["message"])


async def test_the_providers_window_beats_the_catalog(llm: Any, tmp_path: Path,
                                                      workspace: Path) -> None:
    llm.configure_models({"models": [{"id": "claude-sonnet-5-5", "context_window": 400_000,
                                      "max_output": 32_000, "line": "sonnet"}]})
    client, sid = await open_session(llm.url, tmp_path, workspace)
    try:
        gauge = await gauge_from(client, sid, "anthropic /v1/models")
        assert (gauge["size"], gauge["effectiveWindow"], gauge["autoCompactAt"]) == (
            400_000, 380_000, 367_000)
        assert (await call(client, "sidecar/gauge", {"sessionId": sid}))["size"] == 400_000
        llm.queue(Reply.text("hello"))
        await prompt(client, sid, "hi")
        assert llm.requests[-1].body["max_tokens"] == 32_000  # the provider's output limit
        client.rec.reset()
        await prompt(client, sid, "/context")
        assert "Window 400,000 tokens, from anthropic /v1/models" in client.rec.text()
        assert llm.model_requests == ["GET /v1/models"]
    finally:
        await stop_client(client)


async def test_a_retired_model_is_said_before_the_first_prompt(llm: Any, tmp_path: Path,
                                                               workspace: Path) -> None:
    llm.configure_models({"models": [
        {"id": "claude-opus-5-5", "context_window": 1_000_000, "max_output": 128_000,
         "line": "opus"},
        {"id": "claude-opus-4-6", "context_window": 1_000_000, "max_output": 128_000,
         "line": "opus", "lifecycle": "retired", "retires_at": "2026-11-01T00:00:00Z"}]})
    client, sid = await open_session(llm.url, tmp_path, workspace, model="claude-opus-4-6")
    try:
        said = ("claude-opus-4-6 was retired on 2026-11-01: requests to it fail; "
                "move to claude-opus-5-5.")
        status = await status_with(client, said)
        assert status["kind"] == "warning" and status["busy"] is False
        await client.rec.wait_for(lambda: said in messages(client))
        assert llm.requests == []  # no prompt was needed to learn it
        view = await call(client, "sidecar/context", {"sessionId": sid})
        assert view["modelStatus"]["lifecycle"] == "retired"
    finally:
        await stop_client(client)


async def test_a_deprecated_model_names_its_replacement(llm: Any, tmp_path: Path,
                                                        workspace: Path) -> None:
    llm.configure_models({"models": [
        {"id": "claude-sonnet-5-5", "context_window": 1_000_000, "max_output": 128_000,
         "line": "sonnet"},
        {"id": "claude-sonnet-5", "context_window": 1_000_000, "max_output": 128_000,
         "line": "sonnet", "lifecycle": "deprecated", "retires_at": "2027-03-01T00:00:00Z"}]})
    client, sid = await open_session(llm.url, tmp_path, workspace, model="claude-sonnet-5")
    try:
        said = "claude-sonnet-5 is deprecated and retires on 2027-03-01; move to claude-sonnet-5-5."
        assert (await status_with(client, said))["kind"] == "warning"
        view = await call(client, "sidecar/context", {"sessionId": sid})
        assert view["modelStatus"] == {
            "model": "claude-sonnet-5", "lifecycle": "deprecated",
            "replacement": "claude-sonnet-5-5", "retiresAt": "2027-03-01",
            "source": "anthropic /v1/models", "message": said}
        client.rec.reset()
        await prompt(client, sid, "/context")
        assert f"**Model** {said} (per anthropic /v1/models)" in client.rec.text()
        assert said not in messages(client)  # a deprecated model still works: no pop-up
        # Switching to the replacement clears the warning.
        client.rec.reset()
        await call(client, "session/set_model", {"sessionId": sid, "model": "claude-sonnet-5-5"})
        await client.rec.wait_for(lambda: bool(client.rec.status))
        assert client.rec.status[-1] == {"kind": "normal", "busy": False,
                                         "message": "anthropic · claude-sonnet-5-5"}
    finally:
        await stop_client(client)


async def test_an_unreachable_endpoint_falls_back_to_the_catalog_at_once(
        tmp_path: Path, workspace: Path) -> None:
    url = f"http://127.0.0.1:{closed_port()}"
    started = time.monotonic()
    client, sid = await open_session(url, tmp_path, workspace, model="claude-sonnet-4-0")
    try:
        assert time.monotonic() - started < 15  # a cold interpreter start, no waiting on the net
        gauge = await call(client, "sidecar/gauge", {"sessionId": sid})
        assert (gauge["size"], gauge["windowSource"]) == (200_000, "model catalog")
        # The catalog knows this model is retired, and says so with the endpoint down.
        said = ("claude-sonnet-4-0 was retired on 2026-06-15: requests to it fail; "
                "move to claude-sonnet-5-5.")
        assert (await status_with(client, said))["kind"] == "warning"
        view = await call(client, "sidecar/context", {"sessionId": sid})
        assert view["modelStatus"]["source"] == "model catalog"
    finally:
        await stop_client(client)


@pytest.mark.parametrize("flavor, source", [("vllm", "vllm max_model_len"),
                                            ("llamacpp", "llama.cpp n_ctx")])
async def test_a_compatible_server_reports_its_own_window(llm: Any, tmp_path: Path,
                                                          workspace: Path, flavor: str,
                                                          source: str) -> None:
    # A model the catalog does not know: without the server's word, a 128K guess.
    llm.configure_models({"flavor": flavor, "models": [
        {"id": "house-coder-7b", "context_window": 32_768, "max_output": 8_192}]})
    client = await start_client()
    client.rec = await initialize(client, {
        **settings_for("openai", llm.url, tmp_path / "store"),
        "provider": "openai-compatible", "model": "house-coder-7b"})
    try:
        opened = await call(client, "session/new", {"cwd": str(workspace)})
        assert opened["gauge"]["windowSource"] == "OpenAI-compatible fallback"
        gauge = await gauge_from(client, opened["sessionId"], source)
        assert (gauge["size"], gauge["effectiveWindow"]) == (32_768, 16_384)  # half: small window
        llm.queue(Reply.text("from the local server"))
        assert (await prompt(client, opened["sessionId"], "hi"))["stopReason"] == "end_turn"
    finally:
        await stop_client(client)


async def test_nothing_is_asked_on_the_start_up_path(tmp_path: Path, workspace: Path) -> None:
    """While the sidecar starts, answers initialize and settles (the SDKs import in the
    background meanwhile), the provider's port refuses connections. Had the sidecar asked
    then, the failed attempt would hold off the next one for ten minutes: the window below
    arrives only because the endpoint is first asked once the session is open."""
    port = closed_port()
    client = await start_client()
    client.rec = await initialize(client, settings_for(
        "anthropic", f"http://127.0.0.1:{port}", tmp_path / "store"))
    server = FakeLLMServer(port=port, models=None)
    try:
        await asyncio.sleep(QUIET_SECONDS)
        server.start()
        server.configure_models({"models": [{"id": "claude-sonnet-5-5", "context_window": 640_000,
                                             "max_output": 64_000, "line": "sonnet"}]})
        assert server.model_requests == []
        opened = await call(client, "session/new", {"cwd": str(workspace)})
        assert opened["gauge"]["windowSource"] == "model catalog"  # the answer did not wait
        gauge = await gauge_from(client, opened["sessionId"], "anthropic /v1/models")
        assert gauge["size"] == 640_000
        assert server.model_requests == ["GET /v1/models"]
    finally:
        await stop_client(client)
        server.stop()
