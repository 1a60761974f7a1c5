"""The registry of what providers' models endpoints said: memory, the cache file, its TTL."""

from __future__ import annotations

import json
from pathlib import Path

from sidecar.core.models.registry import (
    CACHE_FILE,
    RETRY_SECONDS,
    TTL_SECONDS,
    ModelRegistry,
    description_from_json,
    description_to_json,
    endpoint_key,
)
from sidecar.core.ports import ModelDescription
from sidecar.core.settings import Settings

KEY = "anthropic http://127.0.0.1:9"
SONNET = ModelDescription("claude-sonnet-5-5", 1_000_000, 128_000,
                          capabilities=frozenset({"thinking", "thinking.types.adaptive"}),
                          source="anthropic /v1/models")
OLD = ModelDescription("claude-sonnet-4-5-20250929", 200_000, 64_000, lifecycle="retired",
                       replacement="claude-sonnet-5-5", source="anthropic /v1/models",
                       retires_at="2026-11-30")


class Clock:
    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def registry(tmp_path: Path, clock: Clock | None = None) -> ModelRegistry:
    return ModelRegistry(tmp_path / CACHE_FILE, clock=clock or Clock())


def test_nothing_known_until_stored_and_no_file_touched(tmp_path: Path) -> None:
    reg = registry(tmp_path)
    assert reg.describe(KEY, "claude-sonnet-5-5") is None
    assert reg.needs_refresh(KEY)
    assert not (tmp_path / CACHE_FILE).exists()


def test_store_describes_by_api_id_and_survives_a_restart(tmp_path: Path) -> None:
    reg = registry(tmp_path)
    reg.store(KEY, [SONNET, OLD])
    assert reg.describe(KEY, "claude-sonnet-5-5") == SONNET
    assert reg.describe(KEY, "Claude-Sonnet-5-5[1m]") == SONNET  # the API id: suffix ignored
    assert reg.describe("openai default", "claude-sonnet-5-5") is None  # per endpoint
    again = registry(tmp_path)
    assert again.describe(KEY, "claude-sonnet-5-5") is None  # nothing read before load()
    again.load()
    assert again.describe(KEY, "claude-sonnet-5-5") == SONNET
    assert again.describe(KEY, "claude-sonnet-4-5-20250929") == OLD


def test_an_alias_finds_its_one_dated_snapshot(tmp_path: Path) -> None:
    reg = registry(tmp_path)
    reg.store(KEY, [OLD, SONNET])
    assert reg.describe(KEY, "claude-sonnet-4-5") == OLD
    two = ModelDescription("claude-x-1-20250101", 1, 1), ModelDescription("claude-x-1-20260101", 2, 2)
    reg.store(KEY, list(two))
    assert reg.describe(KEY, "claude-x-1") is None  # ambiguous: no guess
    assert reg.describe(KEY, "claude-x") is None  # not a snapshot of "claude-x"


def test_fresh_for_a_day_then_asked_again(tmp_path: Path) -> None:
    clock = Clock()
    reg = registry(tmp_path, clock)
    reg.store(KEY, [SONNET])
    assert not reg.needs_refresh(KEY)
    clock.now += TTL_SECONDS - 1
    assert not reg.needs_refresh(KEY)
    clock.now += 2
    assert reg.needs_refresh(KEY)
    # Stale answers keep answering until a refresh replaces them.
    assert reg.describe(KEY, "claude-sonnet-5-5") == SONNET
    reloaded = registry(tmp_path, clock)
    reloaded.load()
    assert reloaded.needs_refresh(KEY)  # the TTL counts from the fetch, across restarts


def test_a_failed_attempt_is_not_repeated_for_ten_minutes(tmp_path: Path) -> None:
    clock = Clock()
    reg = registry(tmp_path, clock)
    reg.note_attempt(KEY)
    assert not reg.needs_refresh(KEY)
    clock.now += RETRY_SECONDS - 1
    assert not reg.needs_refresh(KEY)
    clock.now += 1
    assert reg.needs_refresh(KEY)


def test_two_processes_sharing_the_file_keep_each_others_endpoints(tmp_path: Path) -> None:
    clock = Clock()
    first, second = registry(tmp_path, clock), registry(tmp_path, clock)
    first.store(KEY, [SONNET])
    clock.now += 5
    second.store("openai-compatible http://127.0.0.1:8000/v1",
                 [ModelDescription("qwen3", 32_768, None, source="vllm max_model_len",
                                   lifecycle_known=False)])
    merged = json.loads((tmp_path / CACHE_FILE).read_text())
    assert set(merged["endpoints"]) == {KEY, "openai-compatible http://127.0.0.1:8000/v1"}
    # An older entry read from disk never replaces a newer one in memory.
    clock.now += 5
    newer = ModelDescription("claude-sonnet-5-5", 500_000, 64_000, source="anthropic /v1/models")
    second.store(KEY, [newer])
    first.load()
    fresh = registry(tmp_path, clock)
    fresh.load()
    assert fresh.describe(KEY, "claude-sonnet-5-5") == newer


def test_a_broken_or_hand_edited_file_is_ignored_value_by_value(tmp_path: Path) -> None:
    path = tmp_path / CACHE_FILE
    path.write_text("{not json")
    reg = registry(tmp_path)
    reg.load()
    assert reg.describe(KEY, "claude-sonnet-5-5") is None
    path.write_text(json.dumps({"version": 1, "endpoints": {
        KEY: {"fetchedAt": 1.0, "models": [
            description_to_json(SONNET), {"model": ""}, "junk",
            {"model": "odd", "contextWindow": -3, "maxOutputTokens": True,
             "lifecycle": "zombie", "capabilities": [1, "x"]}]},
        "bad endpoint": {"fetchedAt": "yesterday", "models": []},
        "worse": [],
    }}))
    reg = registry(tmp_path)
    reg.load()
    assert reg.describe(KEY, "claude-sonnet-5-5") == SONNET
    odd = reg.describe(KEY, "odd")
    assert odd == ModelDescription("odd", None, None, capabilities=frozenset({"x"}))
    assert reg.fetched_at("bad endpoint") is None


def test_the_json_form_round_trips() -> None:
    for d in (SONNET, OLD, ModelDescription("m", None, 5, lifecycle_known=False, source="s")):
        # lifecycle_known too: a server that says no lifecycle must not, once cached,
        # seem to call every model active over the catalog's word.
        assert description_from_json(description_to_json(d)) == d


def test_a_write_that_fails_keeps_the_answer_in_memory(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    reg = ModelRegistry(blocker / CACHE_FILE, clock=Clock())  # its parent is a file
    reg.store(KEY, [SONNET])
    assert reg.describe(KEY, "claude-sonnet-5-5") == SONNET


def test_endpoint_key_is_the_provider_and_its_base_url() -> None:
    s = Settings()
    assert endpoint_key(s, {}) == "anthropic default"
    assert endpoint_key(s, {"ANTHROPIC_BASE_URL": "http://h:1/"}) == "anthropic http://h:1"
    assert endpoint_key(Settings(baseUrl="http://x/v1/"), {"ANTHROPIC_BASE_URL": "http://h"}) \
        == "anthropic http://x/v1"
    compat = Settings(provider="openai-compatible", baseUrl="http://127.0.0.1:11434/v1")
    assert endpoint_key(compat, {}) == "openai-compatible http://127.0.0.1:11434/v1"
