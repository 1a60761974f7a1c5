"""Removal of API keys from text before it is written to disk."""

from __future__ import annotations

import re

REDACTED_KEY = "[REDACTED_API_KEY]"

# Anthropic (sk-ant-...), OpenAI (sk-..., sk-proj-...) and compatible servers' keys. The
# look-behind keeps words such as "task-..." intact; the length floor keeps "sk-learn".
# The character class holds no JSON escape characters, so the pattern is also safe to run
# over serialized JSON.
_API_KEY = re.compile(r"(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{20,}")


def redact_api_keys(text: str) -> str:
    if "sk-" not in text:  # the common case costs one substring search
        return text
    return _API_KEY.sub(REDACTED_KEY, text)
