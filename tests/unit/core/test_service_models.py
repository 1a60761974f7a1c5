"""The session service and the providers' models endpoints: asked after a session opens, in
the background, cached, and what they say reaching the gauge, the status bar and /context."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sidecar.composition import default_adapters
from sidecar.contract.params import NewSessionParams, PromptParams, SessionParams, SetModelParams
from sidecar.core.accounting.context_view import render_context
from sidecar.core.models.registry import CACHE_FILE, TTL_SECONDS
from sidecar.core.service import SessionService
from sidecar.core.settings import Settings
from sidecar.fake_llm import FakeLLMServer, Reply
from tests.unit.core.engine_builders import RecordingEditor as Editor

KEY_ENV = "FAKE_MODELS_KEY"
TODAY = dt.date(2026, 12, 1)
SONNET_5 = {"id": "claude-sonnet-5", "context_window": 1_000_000, "max_output": 128_000,
            "line": "sonnet", "lifecycle": "deprecated", "retires_at": "2027-03-01T00:00:00Z"}
SONNET_5_5 = {"id": "claude-sonnet-5-5", "context_window": 1_000_000, "max_output": 128_000,
              "line": "sonnet"}


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeLLMServer]:
    with FakeLLMServer() as server:
        yield server


@pytest.fixture
def srv(fake: FakeLLMServer) -> FakeLLMServer:
    fake.reset()
    return fake


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def service(store: Path, url: str, **settings: Any) -> tuple[SessionService, Editor]:
    editor = Editor()
    svc = SessionService(editor, Settings(storageDir=str(store), baseUrl=url, apiKeyEnv=KEY_ENV,
                                          **settings),
                         adapters=default_adapters(),
                         environ={KEY_ENV: "k", "CONTEXT_SIDECAR_NO_WATCH": "1"})
    svc.models.today = lambda: TODAY
    return svc, editor


async def settled(svc: SessionService) -> None:
    """Wait for the background refreshes (tests only: nothing in the sidecar waits)."""
    await asyncio.gather(*svc.models.refreshes.values())


def usage_updates(editor: Editor) -> list[dict[str, Any]]:
    return [u for u in editor.updates if u.get("sessionUpdate") == "usage_update"]


async def test_opening_a_session_asks_nothing_until_after_it_answered(
        srv: FakeLLMServer, tmp_path: Path) -> None:
    svc, editor = service(tmp_path, srv.url)
    opened = svc.new_session(NewSessionParams(cwd=str(tmp_path)))
    # The answer is built from the catalog alone: no request, no file read or written yet.
    assert srv.model_requests == [] and not (tmp_path / CACHE_FILE).exists()
    assert opened["gauge"]["windowSource"] == "model catalog"
    assert editor.statuses[-1] == ("normal", False, "anthropic · claude-sonnet-5-5")
    await settled(svc)
    assert srv.model_requests == ["GET /v1/models"]
    cached = json.loads((tmp_path / CACHE_FILE).read_text())
    assert list(cached["endpoints"]) == [f"anthropic {srv.url}"]
    gauge = svc.gauge(SessionParams(session_id=opened["sessionId"]))
    assert (gauge["size"], gauge["windowSource"]) == (1_000_000, "anthropic /v1/models")
    await svc.shutdown()


async def test_the_provider_wins_over_the_catalog_and_a_usage_update_says_so(
        srv: FakeLLMServer, tmp_path: Path) -> None:
    srv.configure_models({"models": [dict(SONNET_5_5, context_window=400_000,
                                          max_output=32_000)]})
    svc, editor = service(tmp_path, srv.url)
    sid = svc.new_session(NewSessionParams(cwd=str(tmp_path)))["sessionId"]
    before = len(usage_updates(editor))
    await settled(svc)
    update = usage_updates(editor)[before]
    assert update["size"] == 400_000
    assert update["_meta"]["sidecar"]["windowSource"] == "anthropic /v1/models"
    session = svc.get(sid)
    assert (session.thresholds.size, session.thresholds.effective_window) == (400_000, 380_000)
    assert session.requests.build().max_tokens == 32_000
    # An override still wins over the provider.
    svc.update_settings(Settings(storageDir=str(tmp_path), baseUrl=srv.url, apiKeyEnv=KEY_ENV,
                                 contextWindow=90_000))
    assert svc.gauge(SessionParams(session_id=sid))["windowSource"] == "setting contextWindow"
    await svc.shutdown()


async def test_the_cache_answers_the_next_start_until_its_day_is_up(
        srv: FakeLLMServer, tmp_path: Path) -> None:
    srv.configure_models({"models": [dict(SONNET_5_5, context_window=300_000)]})
    first, _ = service(tmp_path, srv.url)
    first.new_session(NewSessionParams(cwd=str(tmp_path)))
    await settled(first)
    await first.shutdown()
    assert srv.model_requests == ["GET /v1/models"]

    svc, editor = service(tmp_path, srv.url)
    sid = svc.new_session(NewSessionParams(cwd=str(tmp_path)))["sessionId"]
    await settled(svc)
    assert srv.model_requests == ["GET /v1/models"]  # read from disk, not asked again
    assert svc.gauge(SessionParams(session_id=sid))["size"] == 300_000

    later = time.time() + TTL_SECONDS + 1
    svc.models.registry().clock = lambda: later
    srv.configure_models({"models": [dict(SONNET_5_5, context_window=350_000)]})
    svc.models.set_model(SetModelParams(session_id=sid, model="claude-sonnet-5-5"))
    await settled(svc)
    assert srv.model_requests == ["GET /v1/models", "GET /v1/models"]
    assert svc.gauge(SessionParams(session_id=sid))["size"] == 350_000
    await svc.shutdown()


async def test_an_unreachable_endpoint_leaves_the_catalog_without_delay(tmp_path: Path) -> None:
    svc, editor = service(tmp_path, f"http://127.0.0.1:{closed_port()}")
    started = time.monotonic()
    opened = svc.new_session(NewSessionParams(cwd=str(tmp_path)))
    assert time.monotonic() - started < 0.5
    await settled(svc)
    gauge = svc.gauge(SessionParams(session_id=opened["sessionId"]))
    assert (gauge["size"], gauge["windowSource"]) == (1_000_000, "model catalog")
    assert not (tmp_path / CACHE_FILE).exists()
    assert editor.messages == [] and editor.statuses[-1][0] == "normal"
    # Not asked again at the next session: one attempt per ten minutes.
    assert not svc.models.registry().needs_refresh(f"anthropic {svc.settings.baseUrl}")
    await svc.shutdown()


async def test_a_deprecated_model_names_its_replacement(srv: FakeLLMServer, tmp_path: Path) -> None:
    srv.configure_models({"models": [SONNET_5_5, SONNET_5]})
    svc, editor = service(tmp_path, srv.url, model="claude-sonnet-5")
    sid = svc.new_session(NewSessionParams(cwd=str(tmp_path)))["sessionId"]
    assert editor.statuses[-1] == ("normal", False, "anthropic · claude-sonnet-5")  # nothing known yet
    await settled(svc)
    said = ("claude-sonnet-5 is deprecated and retires on 2027-03-01; move to claude-sonnet-5-5.")
    assert editor.statuses[-1] == ("warning", False, f"anthropic · {said}")
    assert editor.messages == []  # deprecated still works: the status bar is enough
    view = await svc.report.context_view(SessionParams(session_id=sid))
    assert view["modelStatus"] == {"model": "claude-sonnet-5", "lifecycle": "deprecated",
                                   "replacement": "claude-sonnet-5-5", "retiresAt": "2027-03-01",
                                   "source": "anthropic /v1/models", "message": said}
    text = render_context(view)
    assert f"**Model** {said} (per anthropic /v1/models)" in text
    assert "Window 1,000,000 tokens, from anthropic /v1/models" in text
    # After a turn the status bar goes back to the warning, not to "normal".
    srv.queue(Reply.text("ok"))
    await svc.prompt(PromptParams(session_id=sid, prompt=[{"type": "text", "text": "hi"}]))
    assert editor.statuses[-1] == ("warning", False, f"anthropic · {said}")
    assert len([s for s in editor.statuses if said in s[2]]) == 2
    await svc.shutdown()


async def test_a_retired_model_is_said_before_the_first_prompt(srv: FakeLLMServer,
                                                               tmp_path: Path) -> None:
    srv.configure_models({"models": [
        {"id": "claude-opus-5-5", "context_window": 1_000_000, "max_output": 128_000,
         "line": "opus"},
        {"id": "claude-opus-4-6", "context_window": 1_000_000, "max_output": 128_000,
         "line": "opus", "lifecycle": "retired", "retires_at": "2026-11-01T00:00:00Z"}]})
    svc, editor = service(tmp_path, srv.url, model="claude-opus-4-6")
    svc.new_session(NewSessionParams(cwd=str(tmp_path)))
    await settled(svc)
    said = ("claude-opus-4-6 was retired on 2026-11-01: requests to it fail; "
            "move to claude-opus-5-5.")
    assert editor.messages == [("warning", said)]
    assert editor.statuses[-1] == ("warning", False, f"anthropic · {said}")
    assert srv.requests == []  # said before any model call
    await svc.shutdown()


async def test_a_retired_models_message_comes_once_a_day_not_per_session_or_restart(
        tmp_path: Path) -> None:
    from sidecar.core.models.notices import NOTICES_FILE, QUIET_SECONDS

    url = f"http://127.0.0.1:{closed_port()}"
    svc, editor = service(tmp_path, url, model="claude-sonnet-4-0")
    for _ in range(3):  # New session, New session, New session
        svc.new_session(NewSessionParams(cwd=str(tmp_path)))
    assert len(editor.messages) == 1
    assert len([s for s in editor.statuses if "retired" in s[2]]) == 3  # the status bar says it each time
    await svc.shutdown()
    # A window reload: a new sidecar on the same storage.
    svc, editor = service(tmp_path, url, model="claude-sonnet-4-0")
    svc.new_session(NewSessionParams(cwd=str(tmp_path)))
    assert editor.messages == []
    await svc.shutdown()
    # A day later it is said again.
    noted = tmp_path / NOTICES_FILE
    shown = json.loads(noted.read_text())
    assert list(shown) == ["claude-sonnet-4-0 was retired on 2026-06-15: requests to it fail; "
                           "move to claude-sonnet-5-5."]
    noted.write_text(json.dumps({k: v - QUIET_SECONDS - 60 for k, v in shown.items()}))
    svc, editor = service(tmp_path, url, model="claude-sonnet-4-0")
    svc.new_session(NewSessionParams(cwd=str(tmp_path)))
    assert len(editor.messages) == 1
    await svc.shutdown()


async def test_the_catalog_says_it_when_the_provider_cannot(tmp_path: Path) -> None:
    svc, editor = service(tmp_path, f"http://127.0.0.1:{closed_port()}", model="claude-sonnet-4-0")
    sid = svc.new_session(NewSessionParams(cwd=str(tmp_path)))["sessionId"]
    said = ("claude-sonnet-4-0 was retired on 2026-06-15: requests to it fail; "
            "move to claude-sonnet-5-5.")
    # At once, from the catalog: no background work needed.
    assert editor.messages == [("warning", said)]
    assert editor.statuses[-1] == ("warning", False, f"anthropic · {said}")
    view = await svc.report.context_view(SessionParams(session_id=sid))
    assert view["modelStatus"]["source"] == "model catalog"
    assert "(per model catalog)" in render_context(view)
    await settled(svc)
    assert editor.messages == [("warning", said)]  # said once, not again per refresh
    await svc.shutdown()


async def test_a_slow_models_endpoint_never_holds_a_turn(srv: FakeLLMServer, tmp_path: Path) -> None:
    srv.configure_models({"delay_seconds": 3})
    svc, _ = service(tmp_path, srv.url)
    sid = svc.new_session(NewSessionParams(cwd=str(tmp_path)))["sessionId"]
    srv.queue(Reply.text("quick"))
    started = time.monotonic()
    result = await svc.prompt(PromptParams(session_id=sid, prompt=[{"type": "text", "text": "hi"}]))
    assert result["stopReason"] == "end_turn"
    assert time.monotonic() - started < 2.5
    assert not all(t.done() for t in svc.models.refreshes.values())  # still asking
    started = time.monotonic()
    await svc.shutdown()  # and shutting down does not wait for it either
    assert time.monotonic() - started < 2.5


async def test_switching_to_another_endpoint_asks_that_one(srv: FakeLLMServer, tmp_path: Path) -> None:
    svc, _ = service(tmp_path, srv.url)
    sid = svc.new_session(NewSessionParams(cwd=str(tmp_path)))["sessionId"]
    await settled(svc)
    srv.configure_models({"flavor": "vllm", "models": [
        {"id": "qwen3-coder", "context_window": 32_768, "max_output": 8_192}]})
    svc.update_settings(Settings(storageDir=str(tmp_path), baseUrl=srv.openai_base_url,
                                 apiKeyEnv=KEY_ENV, provider="openai-compatible"))
    svc.models.set_model(SetModelParams(session_id=sid, model="qwen3-coder", provider="openai-compatible"))
    await settled(svc)
    gauge = svc.gauge(SessionParams(session_id=sid))
    assert (gauge["size"], gauge["windowSource"]) == (32_768, "vllm max_model_len")
    # Asked at the start, after the settings moved the base URL (the session was still on
    # anthropic), and after the switch to the compatible server: each endpoint once.
    assert srv.model_requests == ["GET /v1/models"] * 3
    assert len(json.loads((tmp_path / CACHE_FILE).read_text())["endpoints"]) == 3
    await svc.shutdown()
