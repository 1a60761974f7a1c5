"""What a user reads when the provider fails or is not set up: plain words, one sentence of
what to do (``fix``) and whether trying again later may work (``retryable``).

Both go in the JSON-RPC error's ``data`` (docs/protocol.md, Errors); the status bar shows the
message and the fix of a configuration error until it is fixed.
"""

from __future__ import annotations

from typing import Any

from sidecar.contract.errors import ProviderFailed, ProviderNotConfigured
from sidecar.core.ports import ProviderError
from sidecar.core.secrets.held_keys import DEFAULT_KEY_ENV
from sidecar.core.settings import Settings
from sidecar.core.turns.retry import plain_reason, should_retry

SET_KEY_COMMAND = "Context Sidecar: Set API Key"


def provider_fix(error: ProviderError, key_env: str) -> str:
    """One sentence of what to do about ``error``."""
    kind = error.type
    if error.prompt_too_long:
        return "Run /compact to summarize the conversation, or /clear to start over."
    if kind == "authentication_error" or error.status == 401:
        return (f"Check the API key in {key_env} (the provider refused it) or run "
                f"'{SET_KEY_COMMAND}'.")
    if kind == "permission_error" or error.status == 403:
        return "Your key has no access to this model: pick another one with /model, or check the account."
    if kind == "not_found_error" or error.status == 404:
        return "The provider does not know this model or URL: check the model name (/model) and baseUrl."
    if kind == "rate_limit_error" or error.status == 429:
        return "Wait a minute and send the prompt again; raise retry.maxRetries to wait longer by itself."
    if kind == "overloaded_error" or error.status in (503, 529):
        return "The provider is busy: send the prompt again in a moment."
    if kind in ("timeout", "timeout_error", "connection_error"):
        return "Check the network and the baseUrl setting, then send the prompt again."
    if kind in ("stream_interrupted", "malformed_event") or (error.status or 0) >= 500:
        return "Send the prompt again; if it keeps failing, check the provider's status page."
    return "Read the provider's message above; rephrase or shorten the request and send it again."


def provider_failed(error: ProviderError, settings: Settings) -> ProviderFailed:
    """The turn's answer when the provider failed for good (after the retries allowed)."""
    key_env = settings.apiKeyEnv or DEFAULT_KEY_ENV.get(settings.provider, "the API key variable")
    retries = settings.retry.maxRetries
    retryable = should_retry(error) or error.prompt_too_long
    said = error.message.strip() or error.type
    if should_retry(error):
        head = plain_reason(error)
        head += f", still after {retries} retries" if retries else ""
    else:
        head = _refusal(error)
    data: dict[str, Any] = {**error.to_data(), "fix": provider_fix(error, key_env),
                            "retryable": retryable}
    return ProviderFailed(f"{head}: {said}", data=data)


def _refusal(error: ProviderError) -> str:
    status = f" ({error.status})" if error.status else ""
    if error.prompt_too_long:
        return f"The conversation is too long for the model{status}"
    if error.type == "authentication_error" or error.status == 401:
        return f"The provider refused the API key{status}"
    if error.type == "permission_error" or error.status == 403:
        return f"The provider refused access{status}"
    if error.type == "not_found_error" or error.status == 404:
        return f"The provider does not know this model{status}"
    return f"The provider refused the request{status}"


def configuration_advice(error: ProviderNotConfigured) -> ProviderNotConfigured:
    """``error`` with its message capitalized and ``retryable: false`` (the fix is the user's)."""
    data = dict(error.data) if isinstance(error.data, dict) else {}
    data.setdefault("retryable", False)
    key_env = data.get("apiKeyEnv")
    if isinstance(key_env, str) and key_env:
        # No key: the short way for each client first (VS Code keeps one in its secret storage).
        data["fix"] = (f"Set {key_env} to your API key before starting the editor, or run "
                       f"'{SET_KEY_COMMAND}' in VS Code.")
    message = error.message[:1].upper() + error.message[1:]
    out = ProviderNotConfigured(message, data=data)
    out.__cause__ = error.__cause__
    return out


def status_line(error: ProviderNotConfigured) -> str:
    """The status bar's words for a configuration error: what is wrong and what to do."""
    fix = error.data.get("fix") if isinstance(error.data, dict) else None
    message = error.message[:1].upper() + error.message[1:]
    if isinstance(fix, str) and fix:
        return f"{message}. {fix[:1].upper() + fix[1:]}"
    return message
