"""``sidecar/models``, ``/model`` without a name and ACP's model option: the one list of the
models a session can switch to, and a new session keeping the model the user chose."""

from __future__ import annotations

import datetime as dt
import time
from pathlib import Path
from typing import Any

from sidecar.acp.config_options import model_choices
from sidecar.contract.params import NewSessionParams, PromptParams, SessionParams, SetModelParams
from sidecar.core.models.listing import catalog_picks, model_list, render_model_list
from sidecar.core.models.registry import TTL_SECONDS
from sidecar.core.ports import ModelDescription
from sidecar.core.settings import Settings
from sidecar.fake_llm import FakeLLMServer
from tests.unit.core.test_service_models import (  # noqa: F401 (fixtures)
    KEY_ENV,
    SONNET_5_5,
    closed_port,
    fake,
    service,
    settled,
    srv,
)

TODAY = dt.date(2026, 12, 1)
OPUS_5_5 = {"id": "claude-opus-5-5", "context_window": 1_000_000, "max_output": 128_000,
            "line": "opus"}
OLD_SONNET = {"id": "claude-sonnet-4-5-20250929", "context_window": 200_000, "max_output": 64_000,
              "line": "sonnet", "lifecycle": "retired", "retires_at": "2026-11-30T00:00:00Z"}
OLD_OPUS = {"id": "claude-opus-4-5-20251101", "context_window": 200_000, "max_output": 64_000,
            "line": "opus", "lifecycle": "deprecated", "retires_at": "2027-01-22T00:00:00Z"}


def ids(listing: Any) -> list[str]:
    return [c["id"] for c in listing["models"]]


async def test_the_list_is_the_providers_without_its_retired_models(
        srv: FakeLLMServer, tmp_path: Path) -> None:  # noqa: F811 (the fixture)
    srv.configure_models({"models": [SONNET_5_5, OPUS_5_5, OLD_OPUS, OLD_SONNET]})
    svc, _ = service(tmp_path, srv.url)
    sid = svc.new_session(NewSessionParams(cwd=str(tmp_path)))["sessionId"]
    await settled(svc)  # the first refresh imports the SDK, which may outlast the list's wait
    listing = await svc.models.list_models(SessionParams(session_id=sid))
    assert listing["source"] == "provider" and listing["current"] == "claude-sonnet-5-5"
    assert ids(listing) == ["claude-sonnet-5-5", "claude-opus-5-5", "claude-opus-4-5-20251101"]
    first, _, old = listing["models"]
    assert first == {"id": "claude-sonnet-5-5", "displayName": "Claude Sonnet 5 5",
                     "lifecycle": "active", "contextWindow": 1_000_000}
    assert (old["lifecycle"], old["contextWindow"]) == ("deprecated", 200_000)
    await svc.shutdown()


async def test_the_catalog_answers_when_the_endpoint_cannot(tmp_path: Path) -> None:
    svc, _ = service(tmp_path, f"http://127.0.0.1:{closed_port()}")
    sid = svc.new_session(NewSessionParams(cwd=str(tmp_path)))["sessionId"]
    listing = await svc.models.list_models(SessionParams(session_id=sid))
    assert listing["source"] == "catalog"
    # claude-sonnet-4-5 is among the picks, but its announced retirement (2026-11-30) has
    # passed on TODAY: the catalog's own lifecycle leaves it out too.
    assert ids(listing) == [m for m in catalog_picks("anthropic") if m != "claude-sonnet-4-5"]
    assert all(c["contextWindow"] for c in listing["models"])
    await svc.shutdown()


async def test_a_stale_list_is_asked_again_before_answering(
        srv: FakeLLMServer, tmp_path: Path) -> None:  # noqa: F811 (the fixture)
    srv.configure_models({"models": [SONNET_5_5]})
    svc, _ = service(tmp_path, srv.url)
    sid = svc.new_session(NewSessionParams(cwd=str(tmp_path)))["sessionId"]
    await settled(svc)
    assert ids(await svc.models.list_models(SessionParams(session_id=sid))) == ["claude-sonnet-5-5"]
    assert srv.model_requests == ["GET /v1/models"]  # fresh: not asked again
    later = time.time() + TTL_SECONDS + 1
    svc.models.registry().clock = lambda: later
    srv.configure_models({"models": [SONNET_5_5, OPUS_5_5]})
    listing = await svc.models.list_models(SessionParams(session_id=sid))
    assert ids(listing) == ["claude-sonnet-5-5", "claude-opus-5-5"]
    assert srv.model_requests == ["GET /v1/models", "GET /v1/models"]
    await svc.shutdown()


def test_the_current_model_is_always_in_the_list() -> None:
    listed = [ModelDescription("claude-sonnet-5-5", 1_000_000, None, source="x"),
              ModelDescription("claude-sonnet-4-5-20250929", 200_000, None, lifecycle="retired")]
    # A retired current model stays (first), with its lifecycle said.
    retired = model_list("anthropic", "claude-sonnet-4-5-20250929", listed, listed[1], TODAY)
    assert ids(retired) == ["claude-sonnet-4-5-20250929", "claude-sonnet-5-5"]
    assert retired["models"][0]["lifecycle"] == "retired"
    # A model the provider does not list (a private deployment, a [1m] name) is first.
    custom = model_list("anthropic", "claude-opus-4-6[1m]", listed, None, TODAY)
    assert ids(custom) == ["claude-opus-4-6[1m]", "claude-sonnet-5-5"]
    assert custom["models"][0]["contextWindow"] == 1_000_000  # the catalog's word
    # A listed current model is not repeated.
    assert ids(model_list("anthropic", "claude-sonnet-5-5", listed, listed[0], TODAY)) \
        == ["claude-sonnet-5-5"]


def test_models_that_do_not_chat_are_left_out() -> None:
    listed = [ModelDescription(m, None, None, lifecycle_known=False)
              for m in ("gpt-6-sol", "text-embedding-3-large", "whisper-1", "tts-1", "gpt-image-1",
                        "omni-moderation-latest", "gpt-4o-realtime-preview", "nomic-embed-text")]
    listing = model_list("openai", "gpt-6-sol", listed, listed[0], TODAY)
    assert ids(listing) == ["gpt-6-sol"] and listing["source"] == "provider"
    # Nothing that chats at all: the catalog's picks, as when the endpoint said nothing.
    assert model_list("openai", "gpt-5.5", listed[1:], None, TODAY)["source"] == "catalog"


def test_acp_offers_the_same_list() -> None:
    listed = [ModelDescription("claude-opus-5-5", 1_000_000, None),
              ModelDescription("claude-sonnet-5-5", 1_000_000, None)]
    listing = model_list("anthropic", "claude-sonnet-5-5", listed, listed[1], TODAY)
    assert model_choices("anthropic", "claude-sonnet-5-5", listing) == ["claude-sonnet-5-5",
                                                                         "claude-opus-5-5"]
    assert model_choices("anthropic", "claude-x", None) == ["claude-x", *catalog_picks("anthropic")]


async def test_model_without_a_name_lists_the_models_in_words(
        srv: FakeLLMServer, tmp_path: Path) -> None:  # noqa: F811 (the fixture)
    srv.configure_models({"models": [SONNET_5_5, OPUS_5_5, OLD_OPUS, OLD_SONNET]})
    svc, editor = service(tmp_path, srv.url)
    sid = svc.new_session(NewSessionParams(cwd=str(tmp_path)))["sessionId"]
    await settled(svc)
    answer = await svc.prompt(PromptParams(session_id=sid, prompt=[{"type": "text", "text": "/model"}]))
    assert answer["stopReason"] == "end_turn"
    said = "".join(u["content"]["text"] for u in editor.updates
                   if u.get("sessionUpdate") == "agent_message_chunk")
    assert "Models (the provider's models list); /model NAME switches:" in said
    assert "- claude-sonnet-5-5 (current) · Claude Sonnet 5 5 · 1M context" in said
    assert "- claude-opus-4-5-20251101 · Claude Opus 4 5 20251101 · 200K context · deprecated" in said
    assert "claude-sonnet-4-5-20250929" not in said
    assert srv.requests == []  # answered by the sidecar, not the model
    await svc.shutdown()


def test_render_marks_the_current_model() -> None:
    text = render_model_list({"current": "a", "source": "catalog", "models": [
        {"id": "a", "displayName": None, "lifecycle": "active", "contextWindow": 128_000},
        {"id": "b", "displayName": None, "lifecycle": "active", "contextWindow": None}]})
    assert text.splitlines() == ["Models (the catalog (the provider listed none)); /model NAME switches:",
                                 "- a (current) · 128K context", "- b"]


async def test_a_new_session_keeps_the_model_last_chosen_in_its_workspace(
        srv: FakeLLMServer, tmp_path: Path) -> None:  # noqa: F811 (the fixture)
    here, there = tmp_path / "here", tmp_path / "there"
    here.mkdir()
    there.mkdir()
    svc, _ = service(tmp_path / "store", srv.url)
    sid = svc.new_session(NewSessionParams(cwd=str(here)))["sessionId"]
    svc.models.set_model(SetModelParams(session_id=sid, model="claude-opus-5-5"))
    assert svc.new_session(NewSessionParams(cwd=str(here)))["model"] == "claude-opus-5-5"
    # Another workspace, or a model the params name, is not affected.
    assert svc.new_session(NewSessionParams(cwd=str(there)))["model"] == "claude-sonnet-5-5"
    assert svc.new_session(NewSessionParams(cwd=str(here), model="claude-haiku-5-5"))["model"] \
        == "claude-haiku-5-5"
    # /model is a pick too.
    await svc.prompt(PromptParams(session_id=sid, prompt=[{"type": "text", "text": "/model claude-fable-5-2"}]))
    assert svc.new_session(NewSessionParams(cwd=str(here)))["model"] == "claude-fable-5-2"
    # Settings naming the same model keep the pick; settings naming another model win.
    same = Settings(storageDir=str(tmp_path / "store"), baseUrl=srv.url, apiKeyEnv=KEY_ENV,
                    contextWindow=90_000)
    svc.update_settings(same)
    assert svc.new_session(NewSessionParams(cwd=str(here)))["model"] == "claude-fable-5-2"
    svc.update_settings(Settings(storageDir=str(tmp_path / "store"), baseUrl=srv.url,
                                 apiKeyEnv=KEY_ENV, model="claude-haiku-5-5"))
    assert svc.new_session(NewSessionParams(cwd=str(here)))["model"] == "claude-haiku-5-5"
    await svc.shutdown()
