"""Claude Code transcript records <-> ``Message``, for both schema generations.

Decoding follows ``reference/corpus.md`` section 3: 1.0.x files (inline sidechains, hook
``system`` chatter without ``subtype``, ``isCompactSummary`` user entries as the only
compaction marker) and 2.x files (``progress``, ``file-history-snapshot``,
``queue-operation`` lines, ``system``/``compact_boundary`` records with
``compactMetadata``). Encoding writes the same envelope so Claude Code's viewers read our
sessions.

Usage of split responses: Claude Code writes one entry per content block, all sharing
``message.id``; early entries carry partial streaming ``output_tokens``. After loading,
``settle_response_usage`` gives EVERY entry of a response the usage of its final entry
(the largest ``output_tokens``), so whichever sibling a counter anchors on sees the true
figure and summing never happens by accident (``api_calls`` dedupes by id).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sidecar.core.checkpoints.records import REWIND
from sidecar.core.conversation.messages import (
    SYNTHETIC_MODEL,
    Block,
    Kind,
    Message,
    Usage,
    as_blocks,
    new_uuid,
)

ENTRYPOINT = "context-sidecar"
SIDECAR_KEY = "sidecar"  # our own metadata on a record; Claude Code viewers ignore it
STATE_TYPE = "sidecar-state"

# Record types that are never conversation content but may sit in the parentUuid chain.
SKIPPED_TYPES = frozenset(
    {"progress", "file-history-snapshot", "queue-operation", "summary", "custom-title",
     "ai-title", "last-prompt", "permission-mode", "tag", STATE_TYPE}
)
# Claude Code system subtypes that carry conversation meaning; the rest is hook chatter.
KEPT_SYSTEM_SUBTYPES = frozenset({"compact_boundary", "local_command"})
COMPACT_BOUNDARY = "compact_boundary"

# Message.extra keys that live at the record's top level rather than under SIDECAR_KEY.
_PROMOTED_EXTRA = ("compactMetadata", "logicalParentUuid", "isVisibleInTranscriptOnly", "level")


# --------------------------------------------------------------------------- encoding


def record_from_message(
    message: Message,
    *,
    session_id: str,
    cwd: str,
    parent_uuid: str | None,
    version: str,
    git_branch: str | None = None,
) -> dict[str, Any]:
    """The Claude Code shaped record for ``message`` (not yet serialized)."""
    extra = dict(message.extra)
    promoted = {key: extra.pop(key) for key in _PROMOTED_EXTRA if key in extra}
    is_boundary = message.kind == "system" and message.subtype == COMPACT_BOUNDARY
    if message.kind == "system" and message.subtype == REWIND:
        parent_uuid = message.parent_uuid  # the branch point, null before the first prompt

    record: dict[str, Any] = {
        "parentUuid": None if is_boundary else parent_uuid,
        "isSidechain": False,
        "userType": "external",
        "cwd": cwd,
        "sessionId": session_id,
        "version": version,
    }
    if git_branch is not None:
        record["gitBranch"] = git_branch
    record["entrypoint"] = ENTRYPOINT
    meta: dict[str, Any] = {}

    if message.kind == "user":
        record["type"] = "user"
        record["message"] = {"role": "user", "content": message.content}
    elif message.kind == "assistant":
        record["type"] = "assistant"
        usage = message.usage if message.usage is not None else Usage()
        record["message"] = {
            # Viewers key responses by id; a record without one gets its own uuid, which
            # is also what Claude Code does for its synthetic messages.
            "id": message.message_id or message.uuid,
            "type": "message",
            "role": "assistant",
            "model": message.model,
            "content": message.content,
            "stop_reason": message.stop_reason,
            "stop_sequence": None,
            "usage": usage.to_json(),
        }
    elif message.kind == "system":
        record["type"] = "system"
        record["subtype"] = message.subtype
        text, exact = _single_text(message.content)
        record["content"] = text
        if not exact:
            meta["content"] = message.content
        record["level"] = promoted.pop("level", "info")
        if is_boundary:
            record["logicalParentUuid"] = promoted.pop("logicalParentUuid", parent_uuid)
            record["compactMetadata"] = promoted.pop("compactMetadata", {})
    elif message.kind in ("attachment", "hook_result"):
        record["type"] = "attachment"
        record["attachment"] = message.attachment or {"type": message.kind}
        if message.kind != "attachment":
            meta["kind"] = message.kind
        if message.content:
            meta["content"] = message.content
    else:  # progress: kept in the chain as Claude Code does; loaders skip it
        record["type"] = "progress"
        record["data"] = message.attachment or {}
        if message.content:
            meta["content"] = message.content

    if message.is_meta or message.kind == "system":
        record["isMeta"] = message.is_meta
    if message.is_compact_summary:
        record["isCompactSummary"] = True
    if promoted.pop("isVisibleInTranscriptOnly", message.is_compact_summary):
        record["isVisibleInTranscriptOnly"] = True
    if message.is_api_error:
        record["isApiErrorMessage"] = True
    for key, value in promoted.items():  # promoted keys that do not apply to this kind
        extra[key] = value
    if message.is_virtual:
        meta["isVirtual"] = True
    if extra:
        meta["extra"] = extra
    if meta:
        record[SIDECAR_KEY] = meta
    record["uuid"] = message.uuid
    record["timestamp"] = message.timestamp
    return record


def _single_text(content: list[Block]) -> tuple[str, bool]:
    """System content as Claude Code's plain string, and whether that loses nothing."""
    if not content:
        return "", True
    if len(content) == 1 and content[0].get("type") == "text" and set(content[0]) == {"type", "text"}:
        text = content[0].get("text")
        if isinstance(text, str) and text:
            return text, True
    joined = "".join(b.get("text", "") for b in content if isinstance(b.get("text"), str))
    return joined, False


# --------------------------------------------------------------------------- decoding


def is_sidechain(record: dict[str, Any]) -> bool:
    return bool(record.get("isSidechain")) or bool(record.get("agentId"))


def message_from_record(record: dict[str, Any], fallback_timestamp: str) -> Message | None:
    """The ``Message`` a record holds, or None for records that are not conversation."""
    rtype = record.get("type")
    meta = record.get(SIDECAR_KEY)
    meta = meta if isinstance(meta, dict) else {}
    ours = record.get("entrypoint") == ENTRYPOINT
    extra_raw = meta.get("extra")
    extra: dict[str, Any] = dict(extra_raw) if isinstance(extra_raw, dict) else {}
    is_compact_summary = bool(record.get("isCompactSummary"))
    kind: Kind
    content: list[Block]
    message_id = model = stop_reason = subtype = None
    usage: Usage | None = None
    attachment: dict[str, Any] | None = None
    is_api_error = bool(record.get("isApiErrorMessage"))

    if rtype == "user":
        kind = "user"
        body = record.get("message")
        content = as_blocks(body.get("content") if isinstance(body, dict) else None)
    elif rtype == "assistant":
        kind = "assistant"
        body = record.get("message")
        body = body if isinstance(body, dict) else {}
        content = as_blocks(body.get("content"))
        message_id = _str_or_none(body.get("id"))
        model = _str_or_none(body.get("model"))
        stop_reason = _str_or_none(body.get("stop_reason"))
        is_api_error = is_api_error or model == SYNTHETIC_MODEL
        usage = None if is_api_error else Usage.from_json(body.get("usage"))
        if usage is not None and usage.is_zero():
            usage = None
    elif rtype == "system":
        subtype = _str_or_none(record.get("subtype"))
        if not ours and subtype not in KEPT_SYSTEM_SUBTYPES:
            return None  # hook output, stop-hook summaries, turn durations
        kind = "system"
        stored = _meta_content(meta)
        content = stored if stored is not None else as_blocks(record.get("content"))
        level = record.get("level")
        if isinstance(level, str) and level != "info":
            extra["level"] = level
        if subtype == COMPACT_BOUNDARY:
            metadata = record.get("compactMetadata")
            extra["compactMetadata"] = dict(metadata) if isinstance(metadata, dict) else {}
            logical = record.get("logicalParentUuid")
            if isinstance(logical, str):
                extra["logicalParentUuid"] = logical
    elif rtype == "attachment":
        kind = "hook_result" if meta.get("kind") == "hook_result" else "attachment"
        raw = record.get("attachment")
        attachment = dict(raw) if isinstance(raw, dict) else {}
        content = _meta_content(meta) or []
    else:
        return None

    visible_only = bool(record.get("isVisibleInTranscriptOnly"))
    if visible_only != is_compact_summary:
        extra["isVisibleInTranscriptOnly"] = visible_only
    uuid = record.get("uuid")
    timestamp = record.get("timestamp")
    return Message(
        kind=kind,
        content=content,
        uuid=uuid if isinstance(uuid, str) and uuid else new_uuid(),
        parent_uuid=_str_or_none(record.get("parentUuid")),
        timestamp=timestamp if isinstance(timestamp, str) and timestamp else fallback_timestamp,
        message_id=message_id,
        model=model,
        usage=usage,
        stop_reason=stop_reason,
        is_meta=bool(record.get("isMeta")),
        is_virtual=bool(meta.get("isVirtual")),
        is_compact_summary=is_compact_summary,
        is_api_error=is_api_error,
        subtype=subtype,
        attachment=attachment,
        extra=extra,
    )


def _meta_content(meta: dict[str, Any]) -> list[Block] | None:
    content = meta.get("content")
    return as_blocks(content) if isinstance(content, list) else None


def _str_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None


# --------------------------------------------------------------------------- usage


def settle_response_usage(messages: list[Message]) -> None:
    """Give every entry of a split response the usage of its final entry (in place)."""
    best: dict[str, tuple[int, int, Usage]] = {}
    for index, message in enumerate(messages):
        if message.kind != "assistant" or message.is_api_error or message.usage is None:
            continue
        if message.message_id is None:
            continue
        key = (message.usage.output_tokens, index)
        current = best.get(message.message_id)
        if current is None or key >= current[:2]:
            best[message.message_id] = (key[0], key[1], message.usage)
    for message in messages:
        if message.kind == "assistant" and not message.is_api_error and message.message_id in best:
            message.usage = best[message.message_id][2]


@dataclass(frozen=True, slots=True)
class ApiCall:
    """One real API response in a transcript, deduplicated over its split entries."""

    message_id: str
    usage: Usage
    first_index: int  # index into the message list of the response's first entry
    last_index: int
    model: str | None
    timestamp: str

    @property
    def context_tokens(self) -> int:
        """input + cache_creation + cache_read + output: the window the call occupied."""
        return self.usage.context_tokens


def api_calls(messages: list[Message]) -> list[ApiCall]:
    """The API calls in order of their first entry, each with its recorded usage."""
    calls: dict[str, ApiCall] = {}
    for index, message in enumerate(messages):
        if message.kind != "assistant" or message.is_api_error or message.usage is None:
            continue
        key = message.message_id or message.uuid
        previous = calls.get(key)
        if previous is None:
            calls[key] = ApiCall(key, message.usage, index, index, message.model, message.timestamp)
            continue
        usage = previous.usage
        if message.usage.output_tokens >= usage.output_tokens:
            usage = message.usage
        calls[key] = ApiCall(
            key, usage, previous.first_index, index, previous.model, previous.timestamp
        )
    return sorted(calls.values(), key=lambda call: call.first_index)
