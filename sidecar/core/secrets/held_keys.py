"""The API keys the sidecar holds, and how they are kept from the processes it starts.

A key is read from the environment once, kept in this module's memory, removed from
``os.environ`` (which also unsets it in the C environment), registered for redaction and
left out of every child's environment. How the key also leaves the process's own
environment block at start is ``sidecar.credentials``'s part.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import Any

from sidecar.core.secrets.handoff import HANDOFF_ENV  # no child inherits it
from sidecar.core.secrets.redaction import register_secret

# The variable each provider reads when ``apiKeyEnv`` is not set.
DEFAULT_KEY_ENV = {
    "anthropic": "ANTHROPIC_API_KEY",
    "openai": "OPENAI_API_KEY",
    "openai-compatible": "OPENAI_API_KEY",
}
DEFAULT_KEY_VARIABLES = ("ANTHROPIC_API_KEY", "OPENAI_API_KEY")
# Credentials the SDKs read on their own: never given to children, always redacted, but
# left in os.environ because the SDK looks for them there.
SDK_CREDENTIALS = ("ANTHROPIC_AUTH_TOKEN",)


_held: dict[str, str] = {}  # variable name -> value, no longer in os.environ
_withheld: set[str] = set(DEFAULT_KEY_VARIABLES) | set(SDK_CREDENTIALS)

# ----- holding keys --------------------------------------------------------------------------


def hold(name: str) -> str | None:
    """The value of key variable ``name``, moved out of os.environ on first use."""
    if not name:
        return None
    _withheld.add(name)
    if name in _held:
        return _held[name]
    value = os.environ.pop(name, None)
    if value is None:
        return None
    _held[name] = value
    register_secret(value, name)
    return value


def key_variable(settings: Any) -> str:
    return settings.apiKeyEnv or DEFAULT_KEY_ENV.get(settings.provider, "ANTHROPIC_API_KEY")


def hold_configured(settings: Any, environ: Mapping[str, str]) -> None:
    """Hold (or, for an environment handed in by a caller, just redact) every key the
    settings can use, before any prompt text is stored or sent."""
    names = {key_variable(settings), *DEFAULT_KEY_VARIABLES}
    for name in names:
        if isinstance(environ, ProcessEnvironment):
            hold(name)
        else:
            _withheld.add(name)
            register_secret(environ.get(name), name)


def read_key(environ: Mapping[str, str], name: str) -> str:
    """What a provider is built with: the held value for the process's environment."""
    if isinstance(environ, ProcessEnvironment):
        value = hold(name) or ""
    else:
        value = environ.get(name) or ""
        register_secret(value, name)
    return value.strip()


class ProcessEnvironment(Mapping[str, str]):
    """``os.environ`` with the held keys still readable: what the service reads settings
    flags and keys from."""

    def __getitem__(self, name: str) -> str:
        if name in _held:
            return _held[name]
        return os.environ[name]

    def __iter__(self) -> Iterator[str]:
        yield from _held
        yield from (k for k in os.environ if k not in _held)

    def __len__(self) -> int:
        return len(_held) + sum(1 for k in os.environ if k not in _held)


def child_environment(extra_withheld: str | None = None) -> dict[str, str]:
    """The environment for a process the sidecar starts: no key variable, held or not."""
    env = dict(os.environ)
    for name in (*_withheld, extra_withheld):
        if name:
            env.pop(name, None)
    env.pop(HANDOFF_ENV, None)
    return env
