"""Reading the environment variables the seed names (``DISABLE_COMPACT``,
``CLAUDE_CODE_MAX_CONTEXT_TOKENS``, ...): one reading of a flag and of a positive number."""

from __future__ import annotations

import os

TRUE_WORDS = ("1", "true", "yes", "on")


def env_flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in TRUE_WORDS


def env_positive_int(name: str, warnings: list[str] | None = None) -> int | None:
    """A positive integer, else None; with ``warnings``, a set but unusable value says so."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return None
    try:
        value = int(raw)
    except ValueError:
        if warnings is not None:
            warnings.append(f"environment variable {name}={raw!r} is not an integer; ignored")
        return None
    if value <= 0:
        if warnings is not None:
            warnings.append(f"environment variable {name}={raw!r} must be positive; ignored")
        return None
    return value
