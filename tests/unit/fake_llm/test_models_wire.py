"""The fake's models endpoints, read through the official SDKs and checked against their types."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from typing import Any

import anthropic
import openai
import pytest
from anthropic.types import ModelInfo
from openai.types import Model

from sidecar.fake_llm import FakeLLMServer
from sidecar.fake_llm.models_wire import DEFAULT_ANTHROPIC_MODELS, DEFAULT_OPENAI_MODELS, FakeModel

ANTHROPIC_HEADERS = {"x-api-key": "k", "anthropic-version": "2023-06-01"}


@pytest.fixture
def srv() -> Iterator[FakeLLMServer]:
    with FakeLLMServer() as server:
        yield server


def get(server: FakeLLMServer, path: str, headers: dict[str, str] | None = None,
        method: str = "GET", body: Any = None) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.request(method, path, body=json.dumps(body) if body is not None else None,
                     headers=headers or {})
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"null")
    finally:
        conn.close()


def test_anthropic_list_is_model_info_with_every_capability(srv: FakeLLMServer) -> None:
    status, page = get(srv, "/v1/models?limit=1000&lifecycle[]=active&lifecycle[]=deprecated"
                            "&lifecycle[]=retired", ANTHROPIC_HEADERS)
    assert status == 200 and set(page) == {"data", "has_more", "first_id", "last_id"}
    for raw in page["data"]:
        # Strict validation: every field the SDK's type requires is present and well typed
        # (the SDK itself parses leniently, so this is the stricter check).
        info = ModelInfo.model_validate(raw)
        assert info.capabilities is not None
        assert set(raw["capabilities"]) == set(type(info.capabilities).model_fields)
    assert [m["id"] for m in page["data"]] == [m.id for m in DEFAULT_ANTHROPIC_MODELS]
    assert page["has_more"] is False


def test_the_sdk_pages_through_and_filters_by_lifecycle(srv: FakeLLMServer) -> None:
    client = anthropic.Anthropic(api_key="k", base_url=srv.url, max_retries=0)
    listed = [m.id for m in client.models.list(limit=3)]
    # Without a filter the API lists active and deprecated models, never retired ones.
    assert listed == [m.id for m in DEFAULT_ANTHROPIC_MODELS if m.lifecycle != "retired"]
    every = list(client.models.list(limit=4, lifecycle=["active", "deprecated", "retired"]))
    assert len(every) == len(DEFAULT_ANTHROPIC_MODELS)
    retired = [m for m in every if m.lifecycle == "retired"]
    assert retired and all(m.retires_at is not None and m.deprecated_at for m in retired)
    first = client.models.list(limit=2)
    assert first.has_more and first.last_id == every[1].id
    page = client.models.list(limit=2, before_id=every[4].id)
    assert [m.id for m in page.data] == [every[2].id, every[3].id]
    assert srv.requests == []  # models requests are not model calls


def test_retrieve_and_a_missing_model(srv: FakeLLMServer) -> None:
    client = anthropic.Anthropic(api_key="k", base_url=srv.url, max_retries=0)
    info = client.models.retrieve("claude-sonnet-5-5")
    assert (info.max_input_tokens, info.max_tokens, info.lifecycle, info.line) == (
        1_000_000, 128_000, "active", "sonnet")
    with pytest.raises(anthropic.NotFoundError):
        client.models.retrieve("claude-nothing-1")
    status, body = get(srv, "/v1/models", {"anthropic-version": "2023-06-01"})
    assert status == 401 and body["error"]["type"] == "authentication_error"


@pytest.mark.parametrize("flavor, extra", [
    ("openai", {"shutdown_date"}),
    ("vllm", {"max_model_len", "root", "parent"}),
    ("llamacpp", {"meta"}),
    ("ollama", set()),
])
def test_openai_wire_flavors_are_the_sdks_model(srv: FakeLLMServer, flavor: str,
                                                extra: set[str]) -> None:
    srv.configure_models({"flavor": flavor})
    status, body = get(srv, "/v1/models", {"authorization": "Bearer k"})
    assert status == 200 and body["object"] == "list"
    for raw in body["data"]:
        Model.model_validate(raw)
        assert set(raw) - {"id", "object", "created", "owned_by"} == extra
    client = openai.OpenAI(api_key="k", base_url=srv.openai_base_url, max_retries=0)
    assert [m.id for m in client.models.list()] == [m.id for m in DEFAULT_OPENAI_MODELS]


def test_openai_shutdown_dates_mark_the_deprecated(srv: FakeLLMServer) -> None:
    client = openai.OpenAI(api_key="k", base_url=srv.openai_base_url, max_retries=0)
    dates = {m.id: m.shutdown_date for m in client.models.list()}
    assert dates["gpt-4o"] == "2027-01-14" and dates["gpt-5.6-terra"] is None


def test_openrouter_entries(srv: FakeLLMServer) -> None:
    srv.configure_models({"flavor": "openrouter", "models": [
        {"id": "anthropic/claude-sonnet-5.5", "context_window": 1_000_000, "max_output": 128_000}]})
    client = openai.OpenAI(api_key="k", base_url=srv.openai_base_url, max_retries=0)
    (entry,) = list(client.models.list())
    assert entry.model_extra is not None
    assert entry.model_extra["context_length"] == 1_000_000
    assert entry.model_extra["top_provider"]["max_completion_tokens"] == 128_000


def test_llamacpp_props_and_ollama_show(srv: FakeLLMServer) -> None:
    model = {"id": "qwen3-coder:30b", "context_window": 262_144, "max_output": 8_192,
             "arch": "qwen3moe", "num_ctx": 32_768}
    srv.configure_models({"flavor": "llamacpp", "models": [model]})
    status, props = get(srv, "/props")
    assert status == 200 and props["default_generation_settings"]["n_ctx"] == 262_144
    assert get(srv, "/api/show", method="POST", body={"model": "qwen3-coder:30b"})[0] == 404
    srv.configure_models({"flavor": "ollama"})
    status, show = get(srv, "/api/show", method="POST", body={"model": "qwen3-coder:30b"})
    assert status == 200
    assert show["model_info"]["general.architecture"] == "qwen3moe"
    assert show["model_info"]["qwen3moe.context_length"] == 262_144
    assert "num_ctx 32768" in show["parameters"]
    assert get(srv, "/api/show", method="POST", body={"model": "other"})[0] == 404
    assert get(srv, "/props")[0] == 404
    assert srv.model_requests == ["GET /props", "POST /api/show", "POST /api/show",
                                  "POST /api/show", "GET /props"]


def test_control_endpoint_configures_and_reset_restores(srv: FakeLLMServer) -> None:
    status, state = get(srv, "/_fake/models", method="POST", body={
        "models": [{"id": "claude-only-1", "context_window": 50_000, "max_output": 4_000,
                    "lifecycle": "deprecated", "line": "sonnet"}],
        "fault": 503, "delay_seconds": 0})
    assert status == 200 and state["models"][0]["id"] == "claude-only-1"
    assert get(srv, "/v1/models", ANTHROPIC_HEADERS)[0] == 503
    get(srv, "/_fake/models", method="POST", body={"fault": None})
    _, page = get(srv, "/v1/models", ANTHROPIC_HEADERS)
    assert [m["id"] for m in page["data"]] == ["claude-only-1"]
    for bad in ({"flavor": "tgi"}, {"models": [{"id": "x"}]},
                {"models": [{"id": "x", "context_window": 1, "max_output": 1, "color": 1}]},
                {"models": [{"id": "x", "context_window": 1, "max_output": 1,
                             "lifecycle": "zombie"}]}):
        assert get(srv, "/_fake/models", method="POST", body=bad)[0] == 400, bad
    srv.reset()
    _, state = get(srv, "/_fake/models")
    assert state == {"models": None, "flavor": "openai", "fault": None, "delay_seconds": 0.0,
                     "requests": []}


def test_constructor_models_survive_a_reset() -> None:
    mine = [FakeModel("m-1", 10_000, 1_000)]
    with FakeLLMServer(models=mine, models_flavor="vllm") as server:
        server.configure_models({"flavor": "openai", "models": None})
        server.reset()
        _, body = get(server, "/v1/models", {"authorization": "Bearer k"})
        assert body["data"][0]["max_model_len"] == 10_000
