"""The `contextSidecar` settings: defaults, layers, validation and environment overrides."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from sidecar.core.settings import (
    Settings,
    apply_env_overrides,
    merge_dicts,
    parse_settings,
    resolve_settings,
    user_settings_path,
)


def test_defaults_are_the_seeds_numbers() -> None:
    s = Settings()
    assert (s.provider, s.model) == ("anthropic", "claude-sonnet-5-5")
    assert s.contextWindow is None and s.maxOutputTokens is None
    assert s.summaryReserveTokens == 20_000
    assert s.warningBufferTokens == s.errorBufferTokens == 20_000
    assert s.blockingBufferTokens == 3_000
    assert (s.autoCompact.enabled, s.autoCompact.bufferTokens, s.autoCompact.confirm) == (
        True, 13_000, False)
    assert s.autoCompact.maxConsecutiveFailures == 3
    assert (s.microcompact.timeBased.enabled, s.microcompact.timeBased.gapMinutes) == (True, 60)
    assert (s.apiContextManagement.enabled, s.apiContextManagement.triggerTokens,
            s.apiContextManagement.keepTokens) == (True, 180_000, 40_000)
    sm = s.sessionMemory
    assert (sm.minTokens, sm.minTextBlockMessages, sm.maxTokens) == (10_000, 5, 40_000)
    pc = s.postCompact
    assert (pc.maxFiles, pc.totalTokens, pc.perFileTokens) == (5, 50_000, 5_000)
    assert (s.history.maxItems, s.history.maxPastedContentLength) == (100, 1_024)
    assert s.tools.shell is True and s.tools.allow == ()


def test_empty_or_missing_settings_are_the_defaults() -> None:
    assert parse_settings(None) == (Settings(), [])
    assert parse_settings({}) == (Settings(), [])
    settings, warnings = parse_settings(["not", "an", "object"])  # type: ignore[arg-type]
    assert settings == Settings() and len(warnings) == 1


def test_valid_values_are_taken() -> None:
    s, warnings = parse_settings({
        "provider": "openai-compatible", "model": "deepseek-chat", "baseUrl": "http://127.0.0.1:1",
        "contextWindow": 64_000, "autoCompact": {"enabled": False, "bufferTokens": 20_000},
        "tools": {"allow": ["Read", "Grep"]}, "tokens": {"estimator": "tiktoken"},
        "microcompact": {"timeBased": {"keepRecent": 0}},
    })
    assert warnings == []
    assert s.provider == "openai-compatible" and s.contextWindow == 64_000
    assert s.autoCompact.enabled is False and s.autoCompact.bufferTokens == 20_000
    assert s.autoCompact.maxConsecutiveFailures == 3  # untouched siblings keep defaults
    assert s.tools.allow == ("Read", "Grep")
    assert s.tokens.estimator == "tiktoken"
    assert s.microcompact.timeBased.keepRecent == 0
    assert s.microcompact.timeBased.gapMinutes == 60
    assert parse_settings({"mcp": {"toolSearch": "always"}})[0].mcp.toolSearch == "always"


@pytest.mark.parametrize("data, field", [
    ({"contextWindow": "200k"}, "contextWindow"),
    ({"contextWindow": -1}, "contextWindow"),
    ({"contextWindow": 0}, "contextWindow"),
    ({"contextWindow": 1.5}, "contextWindow"),
    ({"maxTurnRequests": True}, "maxTurnRequests"),
    ({"autoCompact": {"enabled": "yes"}}, "autoCompact.enabled"),
    ({"autoCompact": {"bufferTokens": -13_000}}, "autoCompact.bufferTokens"),
    ({"autoCompact": 5}, "autoCompact"),
    ({"provider": "bedrock"}, "provider"),
    ({"tokens": {"estimator": "magic"}}, "tokens.estimator"),
    ({"model": ""}, "model"),
    ({"tools": {"allow": "Read"}}, "tools.allow"),
    ({"tools": {"allow": ["Read", 3]}}, "tools.allow"),
    ({"microcompact": {"timeBased": {"gapMinutes": 0}}}, "microcompact.timeBased.gapMinutes"),
    ({"mcp": {"toolSearch": "sometimes"}}, "mcp.toolSearch"),
])
def test_invalid_values_fall_back_with_a_warning_naming_the_field(data: dict, field: str) -> None:
    settings, warnings = parse_settings(data)
    assert settings == Settings()
    assert len(warnings) == 1
    assert f"contextSidecar.{field}" in warnings[0]


def test_invalid_value_does_not_spoil_its_valid_siblings() -> None:
    s, warnings = parse_settings({"autoCompact": {"enabled": False, "bufferTokens": "lots"}})
    assert s.autoCompact.enabled is False and s.autoCompact.bufferTokens == 13_000
    assert len(warnings) == 1 and "autoCompact.bufferTokens" in warnings[0]
    assert "13000" in warnings[0]  # the warning says what is used instead


def test_unknown_enum_warning_lists_the_choices() -> None:
    _, warnings = parse_settings({"provider": "bedrock"})
    assert "anthropic" in warnings[0] and "openai-compatible" in warnings[0]


@pytest.mark.parametrize("data, field", [
    ({"contextWindw": 1}, "contextWindw"),
    ({"autoCompact": {"bufferToken": 1}}, "autoCompact.bufferToken"),
    ({"microcompact": {"timeBased": {"gap": 1}}}, "microcompact.timeBased.gap"),
])
def test_unknown_keys_are_reported(data: dict, field: str) -> None:
    settings, warnings = parse_settings(data)
    assert settings == Settings()
    assert warnings == [f"unknown setting contextSidecar.{field} ignored"]


def test_merge_is_nested() -> None:
    base = {"autoCompact": {"enabled": False, "bufferTokens": 20_000}, "model": "a"}
    over = {"autoCompact": {"bufferTokens": 15_000}, "model": "b"}
    assert merge_dicts(base, over) == {
        "autoCompact": {"enabled": False, "bufferTokens": 15_000}, "model": "b"}
    assert base["autoCompact"]["bufferTokens"] == 20_000  # inputs untouched


def write_json(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")


def test_layers_merge_in_order_later_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    workspace = tmp_path / "ws"
    write_json(user_settings_path(), {"model": "user-model", "contextWindow": 100_000,
                                       "autoCompact": {"enabled": False, "bufferTokens": 14_000}})
    write_json(workspace / ".context-sidecar" / "settings.json",
               {"contextSidecar": {"model": "workspace-model", "autoCompact": {"bufferTokens": 15_000}}})
    monkeypatch.setenv("CONTEXT_SIDECAR_SETTINGS",
                       json.dumps({"model": "env-model", "maxTurnRequests": 7}))
    s, warnings = resolve_settings(str(workspace), {"model": "init-model"},
                                   {"autoCompact": {"confirm": True}})
    assert warnings == []
    assert s.model == "init-model"
    assert s.contextWindow == 100_000  # only the user file set it
    assert s.maxTurnRequests == 7
    assert (s.autoCompact.enabled, s.autoCompact.bufferTokens, s.autoCompact.confirm) == (
        False, 15_000, True)


def test_user_file_lives_under_the_user_config_dir(tmp_path: Path) -> None:
    # conftest points XDG_CONFIG_HOME at the test's tmp dir
    assert user_settings_path() == tmp_path / "xdg-config" / "context-sidecar" / "settings.json"


def test_workspace_file_alone(tmp_path: Path) -> None:
    write_json(tmp_path / ".context-sidecar" / "settings.json", {"contextWindow": 50_000})
    s, warnings = resolve_settings(str(tmp_path))
    assert s.contextWindow == 50_000 and warnings == []
    assert resolve_settings(None)[0].contextWindow is None


@pytest.mark.parametrize("content, needle", [
    ("{not json", "not valid JSON"),
    ("[1, 2]", "must hold a JSON object"),
])
def test_broken_workspace_file_is_ignored_with_a_warning(
    tmp_path: Path, content: str, needle: str
) -> None:
    path = tmp_path / ".context-sidecar" / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_text(content, encoding="utf-8")
    s, warnings = resolve_settings(str(tmp_path), {"contextWindow": 90_000})
    assert s.contextWindow == 90_000
    assert len(warnings) == 1 and needle in warnings[0] and str(path) in warnings[0]


@pytest.mark.parametrize("raw, needle", [("{oops", "not valid JSON"), ("[]", "JSON object")])
def test_broken_env_layer_is_ignored_with_a_warning(
    monkeypatch: pytest.MonkeyPatch, raw: str, needle: str
) -> None:
    monkeypatch.setenv("CONTEXT_SIDECAR_SETTINGS", raw)
    s, warnings = resolve_settings(None)
    assert s == Settings()
    assert len(warnings) == 1 and "CONTEXT_SIDECAR_SETTINGS" in warnings[0] and needle in warnings[0]


def test_invalid_value_in_a_layer_warns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CONTEXT_SIDECAR_SETTINGS", json.dumps({"autoCompact": {"bufferTokens": -1}}))
    s, warnings = resolve_settings(None, ["editor sent a list"])  # type: ignore[list-item]
    assert s.autoCompact.bufferTokens == 13_000
    assert any("autoCompact.bufferTokens" in w for w in warnings)
    assert any("from the editor" in w for w in warnings)


@pytest.mark.parametrize("name", ["DISABLE_AUTO_COMPACT", "DISABLE_COMPACT"])
@pytest.mark.parametrize("value, disabled", [("1", True), ("true", True), ("YES", True),
                                             ("0", False), ("", False), ("false", False)])
def test_disable_auto_compact_env(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str, disabled: bool
) -> None:
    monkeypatch.setenv(name, value)
    s, _ = resolve_settings(None, {"autoCompact": {"enabled": True}})
    assert s.autoCompact.enabled is (not disabled)


def test_max_output_tokens_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUDE_CODE_MAX_OUTPUT_TOKENS", "8192")
    s, warnings = resolve_settings(None, {"maxOutputTokens": 64_000})
    assert s.maxOutputTokens == 8_192 and warnings == []
    for junk in ("lots", "-5", "0"):
        monkeypatch.setenv("CLAUDE_CODE_MAX_OUTPUT_TOKENS", junk)
        s, warnings = resolve_settings(None)
        assert s.maxOutputTokens is None
        assert len(warnings) == 1 and "CLAUDE_CODE_MAX_OUTPUT_TOKENS" in warnings[0]


def test_session_memory_env_switches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISABLE_CLAUDE_CODE_SM_COMPACT", "1")
    s, _ = apply_env_overrides(Settings(), [])
    assert s.sessionMemory.enabled is False
    monkeypatch.delenv("DISABLE_CLAUDE_CODE_SM_COMPACT")
    monkeypatch.setenv("ENABLE_CLAUDE_CODE_SM_COMPACT", "1")
    s, _ = apply_env_overrides(parse_settings({"sessionMemory": {"enabled": False}})[0], [])
    assert s.sessionMemory.enabled is True


def test_settings_round_trip_through_json() -> None:
    s, _ = parse_settings({"autoCompact": {"bufferTokens": 20_000}, "tools": {"allow": ["Bash"]}})
    data = json.loads(json.dumps(dataclasses.asdict(s)))
    assert data["autoCompact"]["bufferTokens"] == 20_000
    again, warnings = parse_settings(data)
    assert warnings == [] and again == s
