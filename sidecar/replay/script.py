"""A recorded session as a replay script: the turns, the model's answers, the tools' outputs.

The main conversation of a transcript (ours or Claude Code's, as ``load_transcript``
returns it) is walked in file order:

- typed user text (not meta, not tool results) starts a turn; text typed while no answer
  followed (interruptions, local command output) rides along with the next turn's prompt,
  as it reached the model with it;
- meta user text (harness reminders, expanded command bodies) before a turn's first
  answer joins that turn's prompt; meta text between two answers of one turn is released
  after the earlier answer's tool round;
- assistant entries sharing ``message.id`` are one answer; thinking loses its signature,
  which the recording redacted anyway;
- ``tool_result`` blocks become the tools' outputs, keyed by ``tool_use_id``;
- a manual compaction or ``/clear`` (boundary or command) becomes a turn of its own, so the
  engine compacts or clears where the user did. Automatic compactions are left to the engine.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from sidecar.core.conversation.messages import NO_CONTENT, Block, Message, is_compact_boundary
from sidecar.core.conversation.normalize import normalize_for_api, render_attachment
from sidecar.storage.claude_code import ApiCall, api_calls

Action = Literal["prompt", "compact", "clear"]

CONTINUE_TEXT = "Continue."
REPLY_BLOCK_TYPES = frozenset({"text", "thinking", "redacted_thinking", "tool_use"})
_COMMAND_NAME = re.compile(r"<command-name>\s*/?([^<\s]*)\s*</command-name>")
_COMMAND_ARGS = re.compile(r"<command-args>(.*?)</command-args>", re.DOTALL)


@dataclass
class ScriptedResponse:
    """One recorded API response, as the fake server will send it back."""

    message_id: str
    content: list[Block]
    timestamp: float | None  # when the recording wrote it (seconds since the epoch)
    recorded_stop: str | None = None
    # When the request it answers went out: the recording's newest prompt, tool result or
    # attachment before it (the answer is written once it has streamed, up to minutes later).
    sent_at: float | None = None
    # Meta text recorded between this answer's tool round and the next answer of the turn.
    after_meta: list[str] = field(default_factory=list)

    @property
    def sent(self) -> float | None:
        return self.sent_at if self.sent_at is not None else self.timestamp

    @property
    def tool_uses(self) -> list[Block]:
        return [b for b in self.content if b.get("type") == "tool_use"]


@dataclass
class Turn:
    action: Action
    blocks: list[Block] = field(default_factory=list)  # the prompt (action "prompt")
    instructions: str | None = None  # for a manual compaction
    responses: list[ScriptedResponse] = field(default_factory=list)

    def stop_reason(self, index: int) -> str:
        """The stop reason to send with response ``index``.

        The last answer of a turn ends the turn even when it asked for tools: the user
        interrupted there (or the recording stops), and the next turn begins.
        """
        response = self.responses[index]
        if response.recorded_stop == "max_tokens":
            return "max_tokens"
        if response.tool_uses and index < len(self.responses) - 1:
            return "tool_use"
        return "end_turn"


@dataclass(frozen=True)
class RecordedResult:
    content: str | list[Block]
    is_error: bool


@dataclass
class ReplayScript:
    turns: list[Turn]
    tool_results: dict[str, RecordedResult]
    tool_names: list[str]
    calls: list[ApiCall]  # the recorded main-conversation API calls, deduplicated
    first_call_messages: list[Message]  # what the first recorded call was sent
    unanswered_prompts: int = 0  # typed text at the end that no answer followed

    @property
    def responses(self) -> int:
        return sum(len(t.responses) for t in self.turns)


def parse_time(stamp: str | None) -> float | None:
    if not stamp:
        return None
    try:
        return datetime.fromisoformat(stamp).timestamp()
    except ValueError:
        return None


def reply_blocks(blocks: list[Block]) -> list[Block]:
    """Recorded assistant blocks in the form the fake server streams back."""
    out: list[Block] = []
    for block in blocks:
        kind = block.get("type")
        if kind not in REPLY_BLOCK_TYPES:
            continue
        if kind == "text":
            if block.get("text"):
                out.append({"type": "text", "text": str(block["text"])})
        elif kind == "thinking":
            if block.get("thinking"):
                out.append({"type": "thinking", "thinking": str(block["thinking"])})
        elif kind == "redacted_thinking":
            out.append({"type": "redacted_thinking", "data": str(block.get("data", ""))})
        else:
            tool_input = block.get("input")
            out.append(
                {
                    "type": "tool_use",
                    "id": str(block.get("id")),
                    "name": str(block.get("name")),
                    "input": tool_input if isinstance(tool_input, dict) else {},
                }
            )
    return out


def command_of(text: str) -> tuple[str, str] | None:
    """``(name, args)`` of a Claude Code slash-command record, else None."""
    found = _COMMAND_NAME.search(text)
    if found is None:
        return None
    args = _COMMAND_ARGS.search(text)
    return found.group(1), (args.group(1).strip() if args else "")


def _prompt_parts(message: Message) -> list[Block]:
    """The blocks of a user record that a prompt can carry (text and images)."""
    if message.kind == "attachment":
        return [b for b in render_attachment(message) if b.get("type") == "text"]
    return [
        b
        for b in message.content
        if (b.get("type") == "text" and b.get("text")) or b.get("type") == "image"
    ]


def _meta_texts(blocks: list[Block]) -> list[str]:
    return [str(b["text"]) for b in blocks if b.get("type") == "text" and b.get("text")]


class _Builder:
    """The walk over the records; see the module docstring for the rules."""

    def __init__(self) -> None:
        self.turns: list[Turn] = []
        self.results: dict[str, RecordedResult] = {}
        self.names: dict[str, None] = {}
        self.pending: list[Block] = []
        self.typed_since_answer = False
        self.current: Turn | None = None
        self.by_id: dict[str, ScriptedResponse] = {}
        self.manual_flag: str | None = None
        self.inputs: list[float] = []  # times of the user-side records since the last answer

    def hold(self, blocks: list[Block], typed: bool) -> None:
        self.pending.extend(blocks)
        self.typed_since_answer = self.typed_since_answer or typed

    def action(self, action: Action, instructions: str | None) -> None:
        self.turns.append(Turn(action, instructions=instructions or None))
        self.current = None
        self.manual_flag = action

    def assistant(self, message: Message) -> None:
        if message.is_api_error or message.is_synthetic:
            return
        key = message.message_id or message.uuid
        blocks = reply_blocks(message.content)
        for block in blocks:
            if block["type"] == "tool_use":
                self.names.setdefault(block["name"], None)
        known = self.by_id.get(key)
        if known is not None:  # another entry of a split response
            known.content.extend(blocks)
            if message.stop_reason:
                known.recorded_stop = message.stop_reason
            return
        previous = self.current.responses[-1] if self.current and self.current.responses else None
        starts_turn = (
            self.current is None
            or self.typed_since_answer
            or (previous is not None and not previous.tool_uses)
        )
        if starts_turn:
            prompt = self.pending or [{"type": "text", "text": CONTINUE_TEXT}]
            self.current = Turn("prompt", blocks=prompt)
            self.turns.append(self.current)
            self.by_id = {}
        elif self.pending and previous is not None:
            previous.after_meta.extend(_meta_texts(self.pending))
        self.pending, self.typed_since_answer = [], False
        self.manual_flag = None
        written = parse_time(message.timestamp)
        sent = max((t for t in self.inputs if written is None or t <= written), default=written)
        self.inputs = []
        response = ScriptedResponse(
            message_id=key,
            content=blocks,
            timestamp=written,
            recorded_stop=message.stop_reason,
            sent_at=sent,
        )
        self.by_id[key] = response
        assert self.current is not None
        self.current.responses.append(response)

    def user(self, message: Message) -> None:
        if message.is_compact_summary:
            return
        at = parse_time(message.timestamp)
        if at is not None:
            self.inputs.append(at)
        results = [b for b in message.content if b.get("type") == "tool_result"]
        for block in results:
            content = block.get("content")
            if not isinstance(content, (str, list)):
                content = ""
            self.results[str(block.get("tool_use_id"))] = RecordedResult(
                content, bool(block.get("is_error"))
            )
        parts = _prompt_parts(message)
        if results:
            # Text riding with tool results reached the model in that round: meta for replay.
            self.hold(parts, typed=False)
            return
        if message.is_meta or message.kind == "attachment":
            self.hold(parts, typed=False)
            return
        command = command_of(message.text())
        if command is not None and command[0] in ("compact", "clear"):
            name, args = command
            if self.manual_flag == name:  # the boundary already stood for it
                self.manual_flag = None
            else:
                self.action("compact" if name == "compact" else "clear", args)
            return
        self.hold(parts, typed=True)

    def boundary(self, message: Message) -> None:
        trigger = (message.extra.get("compactMetadata") or {}).get("trigger")
        action: Action | None = (
            "compact" if trigger == "manual" else "clear" if trigger == "clear" else None
        )
        if action is None:
            return
        if self.manual_flag == action:  # the command record came first and stood for it
            self.manual_flag = None
            return
        self.action(action, None)


def build_script(messages: list[Message]) -> ReplayScript:
    """The replay script of a main conversation (``LoadedTranscript.messages``)."""
    builder = _Builder()
    first_answer: int | None = None
    for index, message in enumerate(messages):
        if message.kind == "assistant":
            if first_answer is None and not (message.is_api_error or message.is_synthetic):
                first_answer = index
            builder.assistant(message)
        elif message.kind == "user":
            builder.user(message)
        elif message.kind == "attachment":
            if not (message.attachment or {}).get("reinjected"):  # the engine re-injects its own
                builder.user(message)
        elif is_compact_boundary(message):
            builder.boundary(message)
    unanswered = (
        sum(1 for b in builder.pending if b.get("type") == "text")
        if builder.typed_since_answer
        else 0
    )
    # An action with nothing after it still runs (a final /compact is worth seeing).
    turns = [t for t in builder.turns if t.action != "prompt" or t.responses]
    for name in (str(b.get("name")) for t in turns for r in t.responses for b in r.tool_uses):
        builder.names.setdefault(name, None)
    first = messages[:first_answer] if first_answer is not None else []
    return ReplayScript(
        turns=turns,
        tool_results=builder.results,
        tool_names=list(builder.names),
        calls=api_calls(messages),
        first_call_messages=first,
        unanswered_prompts=unanswered,
    )


def first_call_payload(messages: list[Message], tool_names: list[str]) -> list[dict[str, Any]]:
    """The messages of a first recorded call in API form (for counting them)."""
    api = normalize_for_api(messages, set(tool_names))
    return [m.to_json() for m in api] or [{"role": "user", "content": NO_CONTENT}]
