"""Loading a transcript (ours or Claude Code's) into ``Message``s.

Tolerant by design: unknown record types are ignored, unparseable lines (torn by a crash,
garbage, nested too deep for the parser) are skipped and counted, and values no writer
meant (``NaN``, ``1e999``, token counts beyond any model) are dropped and counted, so one
bad line or value never fails the whole load. Sidechain entries (1.0.x inline Task
conversations, 2.x subagent files) are kept apart from the main conversation. Keys this
process holds are redacted from what is loaded (an old file may predate the redaction),
so a replay never shows them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sidecar.core.checkpoints.records import REWIND
from sidecar.core.conversation.messages import SYNTHETIC_MODEL, Message
from sidecar.core.secrets.redaction import contains_secret, contains_secret_bytes, redact_value
from sidecar.storage.claude_code import (
    STATE_TYPE,
    is_sidechain,
    message_from_record,
    settle_response_usage,
)
from sidecar.storage.files import read_regular
from sidecar.storage.jsonl import BAD, TolerantJson

TITLE_LENGTH = 80
_EPOCH = "1970-01-01T00:00:00.000Z"
_COMMAND_NAME = re.compile(r"<command-name>\s*(.*?)\s*</command-name>", re.DOTALL)
_COMMAND_ARGS = re.compile(r"<command-args>\s*(.*?)\s*</command-args>", re.DOTALL)
_MAX_PARENT_HOPS = 10_000
# No context window holds a billion tokens: a larger count is corruption.
MAX_TOKENS = 1_000_000_000
# Warnings named line by line before the rest are summed up in one.
_MAX_LINE_WARNINGS = 5


@dataclass(slots=True)
class LoadedTranscript:
    path: Path
    messages: list[Message]
    session_id: str | None = None
    cwd: str | None = None
    title: str | None = None
    model: str | None = None
    provider: str | None = None
    created_at: str | None = None
    updated_at: str | None = None
    used: int | None = None  # from our last state record
    size: int | None = None
    # The permission mode last recorded (our state record or Claude Code's permission-mode).
    permission_mode: str | None = None
    torn_lines: int = 0  # lines skipped: torn, garbage or too deep
    skipped_values: int = 0  # values dropped: non-finite numbers, impossible token counts
    warnings: list[str] = field(default_factory=list)
    sidechain_messages: list[Message] = field(default_factory=list)
    format: str = "jsonl"  # "jsonl" | "json-array" | "unsupported"
    # A subagent or compaction-call file (``subagents/agent-*.jsonl``): every entry is a
    # sidechain, so that chain is the conversation.
    is_subagent: bool = False


@dataclass(slots=True)
class _Scan:
    """What the pass over the records accumulates beyond the messages."""

    state: dict[str, Any] | None = None
    permission_mode: str | None = None
    custom_title: str | None = None
    summaries: list[tuple[str, str | None]] = field(default_factory=list)
    uuids: set[str] = field(default_factory=set)
    sidechain_cwd: str | None = None
    skipped_parent: dict[str, str | None] = field(default_factory=dict)


def load_transcript(path: Path | str) -> LoadedTranscript:
    path = Path(path)
    data = read_regular(path)  # a FIFO in its place must fail, not block
    loaded = LoadedTranscript(path=path, messages=[])
    records = _records(data, loaded)
    scan = _Scan()
    last_timestamp = _EPOCH
    for record in records:
        if not isinstance(record, dict):
            continue
        timestamp = record.get("timestamp")
        if isinstance(timestamp, str) and timestamp:
            last_timestamp = timestamp
            loaded.created_at = loaded.created_at or timestamp
            loaded.updated_at = timestamp
        _take_identity(record, loaded, scan)
        rtype = record.get("type")
        if rtype == STATE_TYPE:
            scan.state = record
            scan.permission_mode = _str(record.get("permissionMode")) or scan.permission_mode
            continue
        if rtype == "permission-mode":
            scan.permission_mode = _str(record.get("permissionMode")) or scan.permission_mode
            continue
        if rtype == "summary" and isinstance(record.get("summary"), str):
            leaf = record.get("leafUuid")
            scan.summaries.append((record["summary"], leaf if isinstance(leaf, str) else None))
            continue
        if rtype == "custom-title" and isinstance(record.get("customTitle"), str):
            scan.custom_title = record["customTitle"]
            continue
        uuid = record.get("uuid")
        if isinstance(uuid, str):
            scan.uuids.add(uuid)
        message = message_from_record(record, last_timestamp)
        if message is None:
            if isinstance(uuid, str):
                parent = record.get("parentUuid")
                scan.skipped_parent[uuid] = parent if isinstance(parent, str) else None
            continue
        message.parent_uuid = _through_skipped(message.parent_uuid, scan.skipped_parent)
        if is_sidechain(record):
            loaded.sidechain_messages.append(message)
        else:
            if message.kind == "system" and message.subtype == REWIND:
                _branch_from(loaded.messages, message.parent_uuid)
            loaded.messages.append(message)
    settle_response_usage(loaded.messages)
    settle_response_usage(loaded.sidechain_messages)
    _finish(loaded, scan)
    return loaded


def _records(data: bytes, loaded: LoadedTranscript) -> list[Any]:
    parser = _Parser(loaded)
    head = data.lstrip()[:1]
    if head in (b"[", b"{"):
        whole = parser.whole(data)
        if isinstance(whole, list):  # the logs/chat.json variant
            loaded.format = "json-array"
            cleaned = [parser.clean(record) for record in whole]
            parser.finish()
            return cleaned
        if isinstance(whole, dict) and isinstance(whole.get("history"), list):
            loaded.format = "unsupported"
            loaded.warnings.append("not a Claude Code transcript (SWE-agent trajectory)")
            return []
        if head == b"[":
            loaded.warnings.append("JSON array file is incomplete; reading it line by line")
    lines = data.split(b"\n")
    last_index = max((i for i, line in enumerate(lines) if line.strip()), default=-1)
    records: list[Any] = []
    named = 0
    for index, line in enumerate(lines):
        if not line.strip():
            continue
        record = parser.line(line)
        if record is not BAD:
            records.append(record)
            continue
        loaded.torn_lines += 1
        if named < _MAX_LINE_WARNINGS:
            named += 1
            if index == last_index:
                loaded.warnings.append(
                    f"torn last line skipped (line {index + 1}, {len(line)} bytes)"
                )
            else:
                loaded.warnings.append(f"unparseable line {index + 1} skipped")
    parser.finish()
    if loaded.torn_lines > named:
        loaded.warnings.append(f"{loaded.torn_lines - named} more unparseable lines skipped")
    if loaded.skipped_values:
        loaded.warnings.append(
            f"{loaded.skipped_values} impossible values (NaN, infinite or absurd numbers) ignored"
        )
    return records


class _Parser:
    """Tolerant parsing plus the checks a transcript record needs."""

    def __init__(self, loaded: LoadedTranscript) -> None:
        self.loaded = loaded
        self.json = TolerantJson()

    def line(self, line: bytes) -> Any:
        record = self.json.parse(line)
        if record is BAD:
            return BAD
        return self.clean(record, holds_secret=contains_secret_bytes(line))

    def whole(self, data: bytes) -> Any:
        probe = TolerantJson()
        whole = probe.parse(data)
        if whole is BAD:
            return None
        self.json.bad_values += probe.bad_values
        return whole

    def clean(self, record: Any, holds_secret: bool | None = None) -> Any:
        if not isinstance(record, dict):
            return record
        self._check_numbers(record)
        if holds_secret is None:
            holds_secret = contains_secret(json.dumps(record, ensure_ascii=False))
        return redact_value(record) if holds_secret else record

    def finish(self) -> None:
        self.loaded.skipped_values += self.json.bad_values

    def _check_numbers(self, record: dict[str, Any]) -> None:
        body = record.get("message")
        usage = body.get("usage") if isinstance(body, dict) else None
        if isinstance(usage, dict):
            for key, value in list(usage.items()):
                if key.endswith("_tokens") and value is not None and not _plausible_count(value):
                    del usage[key]
                    self.loaded.skipped_values += 1
        if record.get("type") == STATE_TYPE:
            for key in ("used", "size"):
                if record.get(key) is not None and not _plausible_count(record[key]):
                    record[key] = None
                    self.loaded.skipped_values += 1


def _plausible_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_TOKENS


def _take_identity(record: dict[str, Any], loaded: LoadedTranscript, scan: _Scan) -> None:
    if loaded.session_id is None:
        session_id = record.get("sessionId", record.get("session_id"))
        if isinstance(session_id, str) and session_id:
            loaded.session_id = session_id
    cwd = record.get("cwd")
    if not isinstance(cwd, str) or not cwd:
        return
    if not is_sidechain(record):
        loaded.cwd = loaded.cwd or cwd
    else:
        scan.sidechain_cwd = scan.sidechain_cwd or cwd


def _branch_from(messages: list[Message], parent: str | None) -> None:
    """A rewind: the conversation goes on from ``parent`` (from nothing when None); the
    records after it are an abandoned branch."""
    if parent is None:
        messages.clear()
        return
    for index in range(len(messages) - 1, -1, -1):
        if messages[index].uuid == parent:
            del messages[index + 1:]
            return


def _through_skipped(parent: str | None, skipped: dict[str, str | None]) -> str | None:
    """Follow the chain through records that are not messages (progress, hook output)."""
    hops = 0
    while parent is not None and parent in skipped and hops < _MAX_PARENT_HOPS:
        parent = skipped[parent]
        hops += 1
    return parent


def _finish(loaded: LoadedTranscript, scan: _Scan) -> None:
    if not loaded.messages and loaded.sidechain_messages:
        loaded.messages, loaded.sidechain_messages = loaded.sidechain_messages, []
        loaded.is_subagent = True
        loaded.cwd = loaded.cwd or scan.sidechain_cwd
        loaded.warnings.append("subagent transcript: its sidechain is loaded as the conversation")
    state = scan.state or {}
    if isinstance(state.get("cwd"), str):
        loaded.cwd = state["cwd"]
    loaded.used = state.get("used") if isinstance(state.get("used"), int) else None
    loaded.size = state.get("size") if isinstance(state.get("size"), int) else None
    loaded.title = (
        _str(state.get("title"))
        or scan.custom_title
        or _summary_title(scan)
        or first_prompt_title(loaded.messages)
    )
    loaded.permission_mode = scan.permission_mode
    loaded.model = _str(state.get("model")) or _last_model(loaded.messages)
    loaded.provider = _str(state.get("provider")) or provider_for_model(loaded.model)


def _summary_title(scan: _Scan) -> str | None:
    if not scan.summaries:
        return None
    for summary, leaf in reversed(scan.summaries):
        if leaf is not None and leaf in scan.uuids:
            return summary
    return scan.summaries[-1][0]


def first_prompt_title(messages: list[Message]) -> str | None:
    """A title from the first thing the user typed: a command name or the first line."""
    for message in messages:
        if message.kind != "user" or message.is_meta or message.is_compact_summary:
            continue
        text = message.text().strip()
        if not text:
            continue
        title = prompt_title(text)
        if title:
            return title
    return None


def prompt_title(text: str) -> str | None:
    command = _COMMAND_NAME.search(text)
    if command:
        args = _COMMAND_ARGS.search(text)
        text = f"{command.group(1)} {args.group(1) if args else ''}"
    elif text.startswith("<"):
        return None  # harness output such as <local-command-stdout>
    line = " ".join(text.split())
    if not line:
        return None
    return line if len(line) <= TITLE_LENGTH else line[: TITLE_LENGTH - 1] + "…"


def _last_model(messages: list[Message]) -> str | None:
    for message in reversed(messages):
        if message.kind == "assistant" and message.model and message.model != SYNTHETIC_MODEL:
            return message.model
    return None


def provider_for_model(model: str | None) -> str | None:
    if model is None:
        return None
    return "anthropic" if model.startswith("claude") else None


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None
