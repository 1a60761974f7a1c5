"""The names MCP tools go by in a request: ``mcp__<server>__<tool>`` (Claude Code's form),
within the rules of every provider's API: letters, digits, ``_`` and ``-`` only, at most 64
characters (OpenAI's limit; Anthropic allows 128)."""

from __future__ import annotations

import hashlib
import re

PREFIX = "mcp__"
MAX_LENGTH = 64
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


def sanitize(part: str) -> str:
    return _UNSAFE.sub("_", part) or "_"


def tool_name(server: str, tool: str) -> str:
    """The model-facing name; a name too long keeps its head and a short digest of the
    whole, so two long names stay apart."""
    name = f"{PREFIX}{sanitize(server)}__{sanitize(tool)}"
    if len(name) <= MAX_LENGTH:
        return name
    digest = hashlib.sha256(name.encode()).hexdigest()[:8]
    return f"{name[:MAX_LENGTH - 9]}_{digest}"
