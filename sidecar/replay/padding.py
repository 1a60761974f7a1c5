"""The recording's hidden prefix, modelled at the same size.

A Claude Code call carries a system prompt, tool schemas, CLAUDE.md files and MCP tool
lists that the transcript never shows; the first call of a session already costs 15k-60k
tokens of them. The hidden part is the first call's recorded context minus its messages,
counted as the fake server counts them. Replay sends our own short system prompt plus a
filler system block that brings our prefix to that size, so both sides carry the same
fixed load on every call and the comparison is fair.

The replay prefix is also how meta text recorded in the middle of a turn reaches the
engine: the session asks its prefix for changes after every tool round and appends them
as attachments, which is exactly where the recording had them.
"""

from __future__ import annotations

import dataclasses
import itertools
from pathlib import Path
from typing import Any

from sidecar.core.conversation.messages import Block, Message
from sidecar.core.settings import Settings
from sidecar.core.workspace.prefix import PrefixStore, PrefixView, base_prompt
from sidecar.fake_llm.counting import anthropic_units, encoding, total_tokens

FILLER_HEAD = (
    "The text below stands in for the recorded session's system prompt and tool definitions, "
    "which its transcript does not hold; it only keeps the context the same size.\n"
)
_FILLER_WORDS = [
    "alpha",
    "bravo",
    "charlie",
    "delta",
    "echo",
    "foxtrot",
    "golf",
    "hotel",
    "india",
    "juliet",
    "kilo",
    "lima",
    "mike",
    "november",
    "oscar",
    "papa",
    "quebec",
    "romeo",
    "sierra",
    "tango",
    "uniform",
    "victor",
    "whiskey",
    "yankee",
    "zulu",
]


@dataclasses.dataclass(frozen=True)
class HiddenPrefix:
    recorded_first_context: int  # input + cache write + cache read of the first recorded call
    recorded_first_messages: int  # its messages, counted as the fake counts
    our_prefix: int  # our system prompt and tool definitions, without filler
    filler: int  # tokens of filler added

    @property
    def hidden(self) -> int:
        return max(self.recorded_first_context - self.recorded_first_messages, 0)

    def to_json(self) -> dict[str, int]:
        return {
            "recordedFirstContext": self.recorded_first_context,
            "recordedFirstMessages": self.recorded_first_messages,
            "hidden": self.hidden,
            "ourPrefix": self.our_prefix,
            "filler": self.filler,
        }


def count_tokens(text: str) -> int:
    return len(encoding().encode_ordinary(text)) if text else 0


def filler_text(tokens: int) -> str:
    """Text of exactly ``tokens`` tokens in the fake server's encoding ("" for <= 0)."""
    if tokens <= 0:
        return ""
    enc = encoding()
    words = itertools.cycle(_FILLER_WORDS)
    body = " ".join(next(words) for _ in range(tokens + 64))
    ids = enc.encode_ordinary(FILLER_HEAD + body)[:tokens]
    text = enc.decode(ids)
    # Decoding a cut token list can re-encode a little differently; trim or pad to the count.
    count = count_tokens(text)
    while count > tokens:
        text = text[:-1]
        count = count_tokens(text)
    while count < tokens:
        text += " " + next(words)
        count = count_tokens(text)
        if count > tokens:
            text = text.rsplit(" ", 1)[0] + "."
            count = count_tokens(text)
            if count != tokens:
                text = text[:-1]
                break
    return text


def wire_tools(specs: list[Any]) -> list[dict[str, Any]]:
    return [
        {"name": s.name, "description": s.description, "input_schema": s.input_schema}
        for s in specs
    ]


def prefix_tokens(system: list[Block], tools: list[dict[str, Any]]) -> int:
    """Tokens the fake server counts for a request's tools and system blocks."""
    return total_tokens(anthropic_units({"tools": tools, "system": system, "messages": []}))


def plan_padding(
    recorded_first_context: int,
    first_messages: list[dict[str, Any]],
    system: list[Block],
    tools: list[dict[str, Any]],
    user_context: str = "",
) -> HiddenPrefix:
    messages = total_tokens(anthropic_units({"messages": first_messages}))
    # Our user context rides in the first message, where the recording's hidden one was.
    ours = prefix_tokens(system, tools) + count_tokens(user_context)
    hidden = max(recorded_first_context - messages, 0)
    return HiddenPrefix(recorded_first_context, messages, ours, max(hidden - ours, 0))


class ReplayPrefix(PrefixStore):
    """A fixed prefix (no git, no CLAUDE.md from this machine: the user context holds the
    date only) plus the recorded meta text."""

    def __init__(self, cwd: Path, settings: Settings, filler_tokens: int = 0) -> None:
        super().__init__(cwd, settings)
        self._system: list[Block] = [{"type": "text", "text": base_prompt(cwd)}]
        text = filler_text(filler_tokens)
        if text:
            self._system.append({"type": "text", "text": text})
        self._released: list[str] = []
        self._cursor = 0
        self._user_text = self._render_user([])

    def release(self, texts: list[str]) -> None:
        """Meta text the session should append before its next call."""
        self._released.extend(texts)

    def view(self) -> PrefixView:
        return PrefixView([dict(b) for b in self._system], self._user_text, [], self._cursor)

    def user_context_text(self) -> str:
        return self._user_text

    def watch_paths(self) -> list[Path]:
        return []

    def rebuild(self) -> None:
        pass  # nothing on disk to re-read

    def settle(self) -> None:
        pass

    def cursor(self) -> int:
        return self._cursor

    def changes_since(self, cursor: int) -> tuple[list[Message], int]:
        texts, self._released = self._released, []
        out = [
            Message(
                kind="attachment",
                attachment={"type": "replayed_meta"},
                content=[{"type": "text", "text": t}],
                is_meta=True,
            )
            for t in texts
        ]
        self._cursor += len(out)
        return out, self._cursor
