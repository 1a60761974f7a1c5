"""make_provider: provider choice, key and base URL resolution, helpful errors; cost_usd."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from sidecar.contract.errors import ProviderNotConfigured
from sidecar.core.conversation.messages import Usage
from sidecar.core.models.catalog import cost_usd
from sidecar.core.settings import Settings
from sidecar.providers.anthropic_messages import AnthropicProvider
from sidecar.providers.openai_chat import OpenAIChatProvider
from sidecar.providers.openai_responses import OpenAIResponsesProvider
from sidecar.providers.registry import is_local_url, make_provider

REPO_ROOT = Path(__file__).resolve().parents[3]
SECRET = "sk-test-0123456789-secret"


def settings(**kw: object) -> Settings:
    return dataclasses.replace(Settings(), **kw)  # type: ignore[arg-type]


def test_anthropic_by_default_with_its_key_and_base_url_from_the_environment() -> None:
    provider = make_provider(
        Settings(), {"ANTHROPIC_API_KEY": SECRET, "ANTHROPIC_BASE_URL": "http://127.0.0.1:5/"}
    )
    assert isinstance(provider, AnthropicProvider)
    assert provider.name == "anthropic"
    assert provider.base_url == "http://127.0.0.1:5"
    assert provider.model_info is not None and provider.model_info.context_window == 1_000_000


def test_settings_base_url_wins_and_a_v1_suffix_is_trimmed_for_anthropic() -> None:
    provider = make_provider(
        settings(baseUrl="http://127.0.0.1:7/v1"),
        {"ANTHROPIC_API_KEY": SECRET, "ANTHROPIC_BASE_URL": "http://other"},
    )
    assert isinstance(provider, AnthropicProvider) and provider.base_url == "http://127.0.0.1:7"


def test_custom_key_variable_and_output_limit_override() -> None:
    provider = make_provider(
        settings(provider="openai", model="gpt-4o", apiKeyEnv="MY_KEY", maxOutputTokens=2_000),
        {"MY_KEY": SECRET, "OPENAI_API_KEY": ""},
    )
    assert isinstance(provider, OpenAIResponsesProvider) and provider.name == "openai"
    assert provider.model_info is not None and provider.model_info.max_output_tokens == 2_000


def test_openai_speaks_the_responses_api_and_compatible_servers_chat_completions() -> None:
    """OpenAI itself gets the Responses API (its base URL keeps /v1, as the SDK wants);
    every other server speaking OpenAI's wire keeps Chat Completions."""
    openai = make_provider(
        settings(provider="openai", model="gpt-5", baseUrl="https://api.openai.com/v1/"),
        {"OPENAI_API_KEY": SECRET},
    )
    assert isinstance(openai, OpenAIResponsesProvider) and not isinstance(openai, OpenAIChatProvider)
    assert openai.base_url == "https://api.openai.com/v1"
    assert (openai.server_compaction, openai.server_context_management) == (True, False)
    assert SECRET not in repr(openai)
    via_env = make_provider(settings(provider="openai", model="gpt-5"),
                            {"OPENAI_API_KEY": SECRET, "OPENAI_BASE_URL": "http://127.0.0.1:9/v1"})
    assert isinstance(via_env, OpenAIResponsesProvider) and via_env.base_url == "http://127.0.0.1:9/v1"
    compatible = make_provider(
        settings(provider="openai-compatible", model="gpt-5", baseUrl="https://openrouter.ai/api/v1"),
        {"OPENAI_API_KEY": SECRET},
    )
    assert isinstance(compatible, OpenAIChatProvider) and compatible.name == "openai-compatible"


@pytest.mark.parametrize(
    ("provider", "variable"),
    [("anthropic", "ANTHROPIC_API_KEY"), ("openai", "OPENAI_API_KEY")],
)
def test_missing_key_says_how_to_fix_it(provider: str, variable: str) -> None:
    with pytest.raises(ProviderNotConfigured) as info:
        make_provider(settings(provider=provider), {"UNRELATED": "x"})
    assert variable in info.value.message
    fix = info.value.data["fix"]
    assert variable in fix and "contextSidecar.apiKeyEnv" in fix
    assert info.value.code == -33002


def test_custom_key_variable_named_in_the_error() -> None:
    with pytest.raises(ProviderNotConfigured) as info:
        make_provider(settings(apiKeyEnv="WORK_ANTHROPIC_KEY"), {"ANTHROPIC_API_KEY": SECRET})
    assert "WORK_ANTHROPIC_KEY" in info.value.data["fix"]
    assert SECRET not in str(info.value.data) and SECRET not in info.value.message


def test_openai_compatible_runs_keyless_on_localhost_only() -> None:
    local = make_provider(
        settings(
            provider="openai-compatible", model="llama3.3", baseUrl="http://localhost:11434/v1"
        ),
        {},
    )
    assert isinstance(local, OpenAIChatProvider) and local.name == "openai-compatible"
    assert local.base_url == "http://localhost:11434/v1"
    with pytest.raises(ProviderNotConfigured):
        make_provider(
            settings(provider="openai-compatible", baseUrl="https://openrouter.ai/api/v1"), {}
        )
    remote = make_provider(
        settings(provider="openai-compatible", baseUrl="https://openrouter.ai/api/v1"),
        {"OPENAI_API_KEY": SECRET},
    )
    assert isinstance(remote, OpenAIChatProvider)


def test_openai_compatible_needs_a_base_url() -> None:
    with pytest.raises(ProviderNotConfigured) as info:
        make_provider(settings(provider="openai-compatible"), {"OPENAI_API_KEY": SECRET})
    assert "baseUrl" in info.value.data["fix"]
    via_env = make_provider(
        settings(provider="openai-compatible"), {"OPENAI_BASE_URL": "http://127.0.0.1:8000/v1"}
    )
    assert (
        isinstance(via_env, OpenAIChatProvider) and via_env.base_url == "http://127.0.0.1:8000/v1"
    )


def test_unknown_provider() -> None:
    with pytest.raises(ProviderNotConfigured) as info:
        make_provider(settings(provider="gemini"), {"OPENAI_API_KEY": SECRET})
    assert "openai-compatible" in info.value.data["fix"]


def test_is_local_url() -> None:
    assert (
        is_local_url("http://127.0.0.1:1/v1")
        and is_local_url("http://[::1]:8/")
        and is_local_url("http://localhost")
    )
    assert (
        not is_local_url("https://api.openai.com/v1")
        and not is_local_url(None)
        and not is_local_url("")
    )


def test_cost_usd_uses_catalog_prices() -> None:
    usage = Usage(
        input_tokens=1_000_000,
        cache_creation_input_tokens=1_000_000,
        cache_read_input_tokens=1_000_000,
        output_tokens=1_000_000,
    )
    # Sonnet 4: $3 in, $15 out, writes 1.25x, reads 0.1x.
    assert cost_usd(usage, "claude-sonnet-4-6", "anthropic") == pytest.approx(3 + 3.75 + 0.3 + 15)
    assert cost_usd(
        Usage(input_tokens=1_000_000, cache_read_input_tokens=1_000_000, output_tokens=1_000_000),
        "gpt-4o",
        "openai",
    ) == pytest.approx(2.5 + 1.25 + 10)
    assert cost_usd(usage, "llama3.3", "openai-compatible") is None
    assert cost_usd(usage, "no-such-model", "openai-compatible") is None
    assert cost_usd(Usage(), "claude-sonnet-4-6", "anthropic") == 0.0
    # One-hour writes (an anchor's) cost twice the input price: $6 per million on Sonnet.
    hour = Usage(cache_creation_input_tokens=1_000_000, cache_creation_1h_tokens=400_000)
    assert cost_usd(hour, "claude-sonnet-4-6", "anthropic") == pytest.approx(0.6 * 3.75 + 0.4 * 6)


def test_importing_the_registry_does_not_import_an_sdk() -> None:
    code = (
        "import sys; import sidecar.providers.registry; "
        "from sidecar.providers.registry import make_provider; "
        "from sidecar.core.settings import Settings; "
        "make_provider(Settings(), {'ANTHROPIC_API_KEY': 'k'}); "
        "heavy = sorted(m for m in sys.modules "
        "if m.split('.')[0] in ('anthropic', 'openai', 'httpx2')); "
        "print(','.join(heavy))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert result.stdout.strip() == ""
