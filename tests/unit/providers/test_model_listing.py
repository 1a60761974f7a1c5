"""What each provider adapter reads from a models endpoint, against the fake through the SDKs."""

from __future__ import annotations

import asyncio
import datetime as dt
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest
from anthropic.types import ModelInfo

from sidecar.core.ports import ModelDescription
from sidecar.fake_llm import FakeLLMServer
from sidecar.fake_llm.models_wire import FakeModel, model_info
from sidecar.providers.anthropic_messages import AnthropicProvider
from sidecar.providers.model_listing import (
    capability_names,
    describe_anthropic,
    describe_llamacpp_props,
    describe_ollama_show,
    describe_openai_entry,
    server_root,
)
from sidecar.providers.openai_chat import OpenAIChatProvider

TODAY = dt.date(2026, 12, 1)


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeLLMServer]:
    with FakeLLMServer() as server:
        yield server


@pytest.fixture
def srv(fake: FakeLLMServer) -> FakeLLMServer:
    fake.reset()
    return fake


def run(coro: Any) -> Any:
    return asyncio.run(coro)


async def anthropic_models(url: str) -> list[ModelDescription]:
    provider = AnthropicProvider("k", base_url=url)
    try:
        return await provider.describe_models()
    finally:
        await provider.aclose()


async def openai_models(url: str, name: str = "openai-compatible") -> list[ModelDescription]:
    provider = OpenAIChatProvider("k", base_url=url, name=name)  # type: ignore[arg-type]
    try:
        return await provider.describe_models()
    finally:
        await provider.aclose()


# ----- Anthropic ------------------------------------------------------------------------


def test_anthropic_windows_lifecycles_and_replacements(srv: FakeLLMServer) -> None:
    got = {d.model: d for d in run(anthropic_models(srv.url))}
    assert srv.model_requests == ["GET /v1/models"]  # every lifecycle in one page
    sonnet = got["claude-sonnet-5-5"]
    assert (sonnet.context_window, sonnet.max_output_tokens, sonnet.lifecycle, sonnet.source) == (
        1_000_000, 128_000, "active", "anthropic /v1/models")
    assert {"thinking.types.adaptive", "context_management.compact_20260112"} <= sonnet.capabilities
    assert "thinking.types.enabled" not in sonnet.capabilities
    old = got["claude-sonnet-4-5-20250929"]
    assert (old.lifecycle, old.replacement, old.retires_at) == (
        "retired", "claude-sonnet-5-5", "2026-11-30")
    opus = got["claude-opus-4-5-20251101"]
    assert (opus.lifecycle, opus.replacement, opus.context_window) == (
        "deprecated", "claude-opus-5-5", 200_000)


def test_the_replacement_is_the_newest_active_model_of_the_line_never_a_guess() -> None:
    def info(id: str, line: str | None, lifecycle: str = "active") -> ModelInfo:
        raw = model_info(FakeModel(id, 200_000, 8_000, lifecycle=lifecycle, line=line))
        return ModelInfo.model_validate(raw)

    described = describe_anthropic([
        info("claude-opus-9", "opus"), info("claude-opus-8", "opus"),
        info("claude-opus-7", "opus", "deprecated"), info("claude-odd-1", None, "retired"),
        info("claude-haiku-2", "haiku", "retired"),
    ])
    replacement = {d.model: d.replacement for d in described}
    assert replacement == {"claude-opus-9": None, "claude-opus-8": None,
                           "claude-opus-7": "claude-opus-9", "claude-odd-1": None,
                           "claude-haiku-2": None}


def test_anthropic_endpoint_failures_say_nothing(srv: FakeLLMServer) -> None:
    srv.configure_models({"fault": 404})
    assert run(anthropic_models(srv.url)) == []
    srv.configure_models({"fault": 500})
    assert run(anthropic_models(srv.url)) == []


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_an_unreachable_endpoint_answers_empty_and_fast() -> None:
    url = f"http://127.0.0.1:{closed_port()}"
    started = time.monotonic()
    assert run(anthropic_models(url)) == []
    assert run(openai_models(url + "/v1")) == []
    assert time.monotonic() - started < 5


def test_capability_names_are_dotted_supported_leaves() -> None:
    assert capability_names({"thinking": {"supported": True, "types": {
        "adaptive": {"supported": True}, "enabled": {"supported": False}}},
        "batch": {"supported": False}, "odd": "x"}) == {"thinking", "thinking.types.adaptive"}
    assert capability_names(None) == frozenset()


# ----- OpenAI and compatible servers ----------------------------------------------------


def test_openai_itself_says_lifecycles_but_no_windows(srv: FakeLLMServer) -> None:
    got = {d.model: d for d in run(openai_models(srv.openai_base_url, "openai"))}
    assert srv.model_requests == ["GET /v1/models"]  # nothing outside the OpenAI API
    assert got["gpt-5.6-terra"] == ModelDescription("gpt-5.6-terra", None, None,
                                                    source="openai /v1/models")
    gpt4o = got["gpt-4o"]
    assert (gpt4o.lifecycle, gpt4o.retires_at, gpt4o.context_window) == (
        "deprecated", "2027-01-14", None)


def test_a_past_shutdown_date_is_retired() -> None:
    entry = {"id": "gpt-4", "object": "model", "created": 1, "owned_by": "openai",
             "shutdown_date": "2026-10-23"}
    d = describe_openai_entry(entry, "openai", TODAY)
    assert d is not None and (d.lifecycle, d.retires_at) == ("retired", "2026-10-23")
    assert describe_openai_entry(entry, "openai-compatible", TODAY) is None
    assert describe_openai_entry({"object": "model"}, "openai", TODAY) is None


@pytest.mark.parametrize("flavor, source, window, out, asked", [
    ("vllm", "vllm max_model_len", 65_536, None, ["GET /v1/models"]),
    ("openrouter", "openrouter context_length", 65_536, 8_192, ["GET /v1/models"]),
    ("llamacpp", "llama.cpp n_ctx", 65_536, None, ["GET /v1/models", "GET /props"]),
    ("ollama", "ollama context_length", 65_536, None,
     ["GET /v1/models", "GET /props", "POST /api/show"]),
])
def test_compatible_servers_report_their_own_window(srv: FakeLLMServer, flavor: str,
                                                    source: str, window: int, out: int | None,
                                                    asked: list[str]) -> None:
    srv.configure_models({"flavor": flavor, "models": [
        {"id": "qwen3-coder", "context_window": window, "max_output": 8_192}]})
    (d,) = run(openai_models(srv.openai_base_url))
    assert (d.model, d.context_window, d.max_output_tokens, d.source) == (
        "qwen3-coder", window, out, source)
    assert d.lifecycle_known is False  # these servers say nothing of lifecycles
    assert srv.model_requests == asked


def test_ollama_runs_a_model_with_its_num_ctx(srv: FakeLLMServer) -> None:
    srv.configure_models({"flavor": "ollama", "models": [
        {"id": "llama3.1:8b", "context_window": 131_072, "max_output": 8_192, "num_ctx": 8_192},
        {"id": "qwen3:4b", "context_window": 40_960, "max_output": 8_192, "arch": "qwen3"}]})
    got = {d.model: (d.context_window, d.source) for d in run(openai_models(srv.openai_base_url))}
    assert got == {"llama3.1:8b": (8_192, "ollama num_ctx"),
                   "qwen3:4b": (40_960, "ollama context_length")}


def test_a_plain_server_with_no_window_anywhere_says_nothing(srv: FakeLLMServer) -> None:
    srv.configure_models({"flavor": "openai"})  # plain entries; no /props, no /api/show
    assert run(openai_models(srv.openai_base_url)) == []
    # One /api/show refused means "not Ollama": the other models are not asked about.
    assert srv.model_requests == ["GET /v1/models", "GET /props", "POST /api/show"]
    assert describe_llamacpp_props({"default_generation_settings": {}}, ["m"]) == []
    assert describe_ollama_show("m", {"model_info": {"general.architecture": "llama"}}) is None
    assert describe_ollama_show("m", {"parameters": "num_ctx 0"}) is None


def test_server_root_drops_the_openai_path() -> None:
    assert server_root("http://127.0.0.1:11434/v1/") == "http://127.0.0.1:11434"
    assert server_root("http://127.0.0.1:8080") == "http://127.0.0.1:8080"
    assert server_root(None) is None
