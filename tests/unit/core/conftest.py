"""The core unit tests run in a clean environment: no developer's shell variable or user
settings file may change what they see. The prefix tests use real files and a real git,
isolated from the developer's setup."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.git_repo import git, isolated_git, repo  # noqa: F401

# Every variable the core reads.
CORE_ENV = (
    "CLAUDE_CODE_MAX_CONTEXT_TOKENS",
    "CLAUDE_CODE_AUTO_COMPACT_WINDOW",
    "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE",
    "CLAUDE_CODE_BLOCKING_LIMIT_OVERRIDE",
    "CLAUDE_CODE_DISABLE_1M_CONTEXT",
    "CLAUDE_CODE_MAX_OUTPUT_TOKENS",
    "DISABLE_AUTO_COMPACT",
    "DISABLE_COMPACT",
    "DISABLE_CLAUDE_CODE_SM_COMPACT",
    "ENABLE_CLAUDE_CODE_SM_COMPACT",
    "CONTEXT_SIDECAR_SETTINGS",
)


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in CORE_ENV:
        monkeypatch.delenv(name, raising=False)
    # The user settings file lives under the XDG config dir; point it at an empty place.
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
