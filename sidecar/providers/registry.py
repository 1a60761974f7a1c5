"""Building the configured provider, and what a response cost.

``anthropic`` speaks the Messages API, ``openai`` the Responses API, ``openai-compatible``
Chat Completions (the one wire Ollama, vLLM, llama.cpp server and OpenRouter share).

The API key comes only from the environment variable named by ``apiKeyEnv`` (default
``ANTHROPIC_API_KEY`` or ``OPENAI_API_KEY``), read through ``sidecar.credentials`` so the
value is held in memory, out of the environment children inherit, and redacted wherever
text leaves the process. It is handed to the SDK client and never put in a message, a log
line or an error. Importing this module does not import either SDK.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping
from urllib.parse import urlsplit

from sidecar.contract.errors import ProviderNotConfigured
from sidecar.contract.version import PROVIDERS
from sidecar.core.models.catalog import ModelInfo, lookup
from sidecar.core.ports import Provider
from sidecar.core.secrets.held_keys import DEFAULT_KEY_ENV, read_key
from sidecar.core.settings import BASE_URL_ENV, SECTION, Settings, resolve_base_url
from sidecar.providers.anthropic_messages import AnthropicProvider
from sidecar.providers.openai_chat import KEYLESS_PLACEHOLDER, OpenAIChatProvider
from sidecar.providers.openai_responses import OpenAIResponsesProvider

_LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1", "0.0.0.0"})


def is_local_url(url: str | None) -> bool:
    if not url:
        return False
    try:
        host = urlsplit(url).hostname or ""
    except ValueError:
        return False
    return host.lower() in _LOCAL_HOSTS or host.startswith("127.")


def _anthropic_base_url(url: str | None) -> str | None:
    """The SDK appends ``/v1/messages`` itself; a base URL ending in ``/v1`` would double it."""
    if not url:
        return None
    trimmed = url.rstrip("/")
    return trimmed.removesuffix("/v1")


def make_provider(settings: Settings, environ: Mapping[str, str]) -> Provider:
    """The provider ``settings`` ask for, or ``ProviderNotConfigured`` saying how to fix it."""
    name = settings.provider
    if name not in PROVIDERS:
        raise ProviderNotConfigured(
            f"unknown provider {name!r}",
            data={
                "provider": name,
                "fix": f"set {SECTION}.provider to one of: {', '.join(PROVIDERS)}",
            },
        )
    key_env = settings.apiKeyEnv or DEFAULT_KEY_ENV[name]
    base_url = resolve_base_url(settings, environ)
    model_info: ModelInfo | None = lookup(settings.model, name)
    if model_info is not None and settings.maxOutputTokens:
        # The user's output limit wins over the catalog's, as in window resolution.
        model_info = dataclasses.replace(model_info, max_output_tokens=settings.maxOutputTokens)
    timeout = float(settings.retry.timeoutSeconds)
    key = read_key(environ, key_env)

    if name == "openai-compatible" and not base_url:
        raise ProviderNotConfigured(
            "the openai-compatible provider needs a base URL",
            data={
                "provider": name,
                "fix": f"set {SECTION}.baseUrl (for example http://localhost:11434/v1 for Ollama) "
                f"or the environment variable {BASE_URL_ENV[name]}",
            },
        )
    if not key:
        if name == "openai-compatible" and is_local_url(base_url):
            key = KEYLESS_PLACEHOLDER  # local servers (Ollama, llama.cpp, vLLM) need no key
        else:
            raise ProviderNotConfigured(
                f"no API key for provider {name}: the environment variable {key_env} is not set",
                data={
                    "provider": name,
                    "apiKeyEnv": key_env,
                    "fix": f"set the environment variable {key_env} to your API key before "
                    f"starting the editor, or set {SECTION}.apiKeyEnv to the name of the "
                    "variable that holds it",
                },
            )

    if name == "anthropic":
        return AnthropicProvider(
            key,
            base_url=_anthropic_base_url(base_url),
            model_info=model_info,
            default_timeout=timeout,
        )
    # Both OpenAI wires take the base URL with its /v1, as the SDK does.
    openai_base_url = base_url.rstrip("/") if base_url else None
    if name == "openai":
        # OpenAI itself: the Responses API, which serves its current models best.
        return OpenAIResponsesProvider(
            key, base_url=openai_base_url, model_info=model_info, default_timeout=timeout
        )
    # Every other server that speaks OpenAI's wire knows Chat Completions.
    return OpenAIChatProvider(
        key,
        base_url=openai_base_url,
        model_info=model_info,
        name="openai-compatible",
        default_timeout=timeout,
    )


# The SDK each provider is spoken through.
SDK_MODULES: dict[str, str] = {"anthropic": "anthropic", "openai": "openai",
                               "openai-compatible": "openai"}


def warm_up_sdk(provider: str) -> None:
    """Import the SDK ``provider`` is spoken through, off the start-up path (call it in a
    background thread), so neither the editor's initialize nor the first prompt waits for
    it. Only that one: the other SDK would cost a second or more of CPU for nothing."""
    name = SDK_MODULES.get(provider)
    if name is None:
        return  # not a provider: the first call says so
    try:
        __import__(name)
    except Exception as exc:  # a broken SDK shows up, clearly, on the first real call
        logging.getLogger(__name__).debug("warm-up import of %s failed: %s", name, exc)
