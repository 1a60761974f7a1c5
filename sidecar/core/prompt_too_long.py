"""Whether a provider's error says the prompt was too long for the model's window, and by
how much: the cue of the prompt-too-long retry (Anthropic's and OpenAI's wordings)."""

from __future__ import annotations

import re

_PTL_ANTHROPIC = re.compile(r"prompt is too long:\s*(\d+)\s*tokens\s*>\s*(\d+)", re.IGNORECASE)
_PTL_OPENAI = re.compile(
    r"maximum context length is (\d+) tokens.*?(?:resulted in|requested) (\d+) tokens",
    re.IGNORECASE | re.DOTALL,
)
_PTL_WORDS = re.compile(
    r"prompt is too long|context_length_exceeded|maximum context length|context window|"
    r"too many tokens|input is too long|exceeds the context",
    re.IGNORECASE,
)


def classify_prompt_too_long(message: str, type: str = "") -> tuple[bool, int | None]:
    """Whether an error says the prompt was too long, and by how many tokens if stated."""
    m = _PTL_ANTHROPIC.search(message)
    if m:
        return True, max(int(m.group(1)) - int(m.group(2)), 0)
    m = _PTL_OPENAI.search(message)
    if m:
        return True, max(int(m.group(2)) - int(m.group(1)), 0)
    if type == "context_length_exceeded" or _PTL_WORDS.search(message):
        return True, None
    return False, None
