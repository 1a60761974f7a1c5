"""Normalization of session records into what a provider accepts.

Pure functions. The rules, in order: only records after the last compact boundary are
used; attachments bubble up; display-only records are dropped; media that caused "too
large" errors is stripped; progress, system and synthetic error records are filtered;
consecutive user messages merge; records of one response merge; references to tools that
are no longer available are stripped; and every tool_use gets its tool_result.

One departure from Claude Code: merging user messages does not append a newline to the
earlier text block. That block may already have been sent (a prompt after a failed turn
merges into the failed turn's message), and changing it would break the provider's cache
for no gain: separate blocks read as separate paragraphs anyway.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Iterable

from sidecar.core.conversation import server_tools
from sidecar.core.conversation.messages import (
    MISSING_TOOL_RESULT,
    NO_CONTENT,
    ApiMessage,
    Block,
    Message,
    is_compact_boundary,
)

MEDIA_ERROR = re.compile(
    r"(image|pdf|document|request)[^\n]{0,40}(too large|exceeds|password|invalid)|"
    r"(does not|doesn't) support (image|vision)|vision[^\n]{0,20}not supported",
    re.IGNORECASE,
)
MEDIA_REMOVED = "[media removed: it was too large or unsupported]"
ORPHAN_REMOVED = "[tool results removed: their tool calls are no longer in the conversation]"


def model_slice(messages: list[Message]) -> list[Message]:
    """Records from the last compact boundary on (the boundary itself is filtered later)."""
    for i in range(len(messages) - 1, -1, -1):
        if is_compact_boundary(messages[i]):
            return messages[i:]
    return messages


def clear_results(records: list[Message], cleared: set[str]) -> list[Message]:
    """Copies of the records with cleared results replaced by the marker (a server tool's
    result, in the answer that holds it, by its cleared form: ``server_tools.cleared``)."""
    if not cleared:
        return records
    out: list[Message] = []
    for m in records:
        if any(server_tools.is_result(b) and b.get("tool_use_id") in cleared for b in m.content):
            content = [
                server_tools.cleared(b)
                if server_tools.is_result(b) and b.get("tool_use_id") in cleared else b
                for b in m.content
            ]
            out.append(m.with_content(content))
        else:
            out.append(m)
    return out



def render_attachment(message: Message) -> list[Block]:
    """An attachment as the user-side text the model reads."""
    att = message.attachment or {}
    if message.content:
        blocks = copy.deepcopy(message.content)
    else:
        body = att.get("text") or att.get("content") or json.dumps(att, ensure_ascii=False)
        blocks = [{"type": "text", "text": str(body)}]
    out: list[Block] = []
    for block in blocks:
        if block.get("type") == "text" and not block["text"].lstrip().startswith("<system-reminder>"):
            block = {**block, "text": f"<system-reminder>\n{block['text']}\n</system-reminder>"}
        out.append(block)
    return out


def _bubble_attachments(messages: list[Message]) -> list[Message]:
    """Move each attachment up to just after the nearest earlier assistant or tool-result user."""
    out: list[Message] = []
    pending: list[Message] = []
    for m in reversed(messages):
        if m.kind == "attachment":
            pending.append(m)
            continue
        # A compact summary is a stop too: what was re-injected after it reads after it.
        is_stop = m.kind == "assistant" or m.is_compact_summary or (
            m.kind == "user" and m.content and m.content[0].get("type") == "tool_result"
        )
        if is_stop and pending:
            out.extend(reversed(pending))
            pending = []
        out.append(m)
    out.extend(reversed(pending))
    out.reverse()
    return out


def _media_strip_set(messages: list[Message]) -> set[int]:
    """Indexes of user/attachment records whose media a later error complained about."""
    marked: set[int] = set()
    for i, m in enumerate(messages):
        if not (m.kind == "assistant" and (m.is_api_error or m.is_synthetic)):
            continue
        if not MEDIA_ERROR.search(m.text()):
            continue
        for j in range(i - 1, -1, -1):
            prev = messages[j]
            if prev.kind == "assistant" and not (prev.is_api_error or prev.is_synthetic):
                break
            if prev.kind in ("user", "attachment"):
                marked.add(j)
    return marked


def _strip_media(blocks: list[Block]) -> list[Block]:
    out: list[Block] = []
    for b in blocks:
        if b.get("type") in ("image", "document"):
            out.append({"type": "text", "text": MEDIA_REMOVED})
        elif b.get("type") == "tool_result" and isinstance(b.get("content"), list):
            inner = _strip_media(b["content"])
            out.append({**b, "content": inner or [{"type": "text", "text": MEDIA_REMOVED}]})
        else:
            out.append(b)
    return out


def _strip_unavailable(blocks: list[Block], tools: set[str] | None) -> list[Block]:
    out: list[Block] = []
    for b in blocks:
        if b.get("type") == "tool_reference" and (tools is None or b.get("tool_name") not in tools):
            continue
        if b.get("type") == "tool_result" and isinstance(b.get("content"), list):
            b = {**b, "content": _strip_unavailable(b["content"], tools)}
        out.append(b)
    return out


def _merge_user(into: list[Block], new: list[Block]) -> list[Block]:
    # Blocks already sent stay byte for byte as they were (a prompt after a failed turn
    # merges into the failed one's message): the provider's cache holds them.
    merged = list(into)
    merged.extend(new)
    results = [b for b in merged if b.get("type") == "tool_result"]
    others = [b for b in merged if b.get("type") != "tool_result"]
    return results + others


def _is_whitespace_only(blocks: list[Block]) -> bool:
    return all(b.get("type") == "text" and not b.get("text", "").strip() for b in blocks)


def _to_api_messages(
    messages: list[Message], tools: set[str] | None, strip: set[int]
) -> list[tuple[ApiMessage, str | None]]:
    """Render records to (message, response id) pairs, merging as the API requires."""
    out: list[tuple[ApiMessage, str | None]] = []
    for i, m in enumerate(messages):
        if m.is_virtual or m.kind == "progress":
            continue
        if m.kind == "system" and m.subtype != "local_command":
            continue
        if m.kind == "assistant" and (m.is_api_error or m.is_synthetic):
            continue
        if m.kind == "assistant":
            blocks = [copy.deepcopy(b) for b in m.content if b.get("type") != "tool_reference"]
            # Records of one response (split per block, results between) become one message.
            if m.message_id:
                for k in range(len(out) - 1, -1, -1):
                    prev, prev_id = out[k]
                    if prev.role == "assistant" and prev_id == m.message_id:
                        out[k] = (ApiMessage("assistant", prev.content + blocks), prev_id)
                        blocks = []
                        break
                    if prev.role == "assistant":
                        break
                    if not all(b.get("type") == "tool_result" for b in prev.content):
                        break
                if not blocks:
                    continue
            out.append((ApiMessage("assistant", blocks), m.message_id))
            continue
        if m.kind == "attachment":
            blocks = render_attachment(m)
        else:
            blocks = copy.deepcopy(m.content)
        if i in strip:
            blocks = _strip_media(blocks)
        blocks = _strip_unavailable(blocks, tools)
        if not blocks:
            continue
        if out and out[-1][0].role == "user":
            out[-1] = (ApiMessage("user", _merge_user(out[-1][0].content, blocks)), None)
        else:
            out.append((ApiMessage("user", blocks), None))
    return out


def _post_passes(pairs: list[tuple[ApiMessage, str | None]]) -> list[ApiMessage]:
    msgs = [p[0] for p in pairs]
    # Orphaned thinking-only assistant messages carry nothing the model can use.
    msgs = [
        m for m in msgs
        if not (m.role == "assistant" and m.content
                and all(b.get("type") in ("thinking", "redacted_thinking") for b in m.content))
    ]
    # Trailing thinking on the final assistant message is rejected by the API.
    if msgs and msgs[-1].role == "assistant":
        content = list(msgs[-1].content)
        while content and content[-1].get("type") in ("thinking", "redacted_thinking"):
            content.pop()
        # So is final assistant text ending in whitespace (it reads as a prefill).
        if content and content[-1].get("type") == "text":
            text = str(content[-1].get("text", "")).rstrip()
            content[-1] = {**content[-1], "text": text or NO_CONTENT}
        msgs[-1] = ApiMessage("assistant", content or [{"type": "text", "text": NO_CONTENT}])
    msgs = [m for m in msgs if not (m.role == "assistant" and _is_whitespace_only(m.content)
                                     and m.content)]
    fixed: list[ApiMessage] = []
    for m in msgs:
        if not m.content:
            if m.role == "assistant":
                m = ApiMessage("assistant", [{"type": "text", "text": NO_CONTENT}])
            else:
                continue
        if fixed and fixed[-1].role == m.role == "user":
            fixed[-1] = ApiMessage("user", _merge_user(fixed[-1].content, m.content))
        elif fixed and fixed[-1].role == m.role == "assistant":
            fixed[-1] = ApiMessage("assistant", fixed[-1].content + m.content)
        else:
            fixed.append(m)
    return fixed


def ensure_tool_result_pairing(messages: list[ApiMessage]) -> list[ApiMessage]:
    """Every tool_use gets exactly one tool_result in the next message; strays go."""
    out: list[ApiMessage] = []
    seen_use_ids: set[str] = set()
    i = 0
    while i < len(messages):
        m = messages[i]
        if m.role == "assistant":
            content: list[Block] = []
            ids: list[str] = []
            for b in m.content:
                if b.get("type") == "tool_use":
                    tid = str(b.get("id", ""))
                    if not tid or tid in seen_use_ids:
                        continue
                    seen_use_ids.add(tid)
                    ids.append(tid)
                content.append(b)
            out.append(ApiMessage("assistant", content or [{"type": "text", "text": NO_CONTENT}]))
            nxt = messages[i + 1] if i + 1 < len(messages) and messages[i + 1].role == "user" else None
            given: dict[str, Block] = {}
            rest: list[Block] = []
            if nxt is not None:
                for b in nxt.content:
                    if b.get("type") == "tool_result":
                        tid = str(b.get("tool_use_id", ""))
                        if tid in ids and tid not in given:
                            given[tid] = b
                    else:
                        rest.append(b)
            results = [
                given.get(tid)
                or {"type": "tool_result", "tool_use_id": tid, "content": MISSING_TOOL_RESULT,
                    "is_error": True}
                for tid in ids
            ]
            if nxt is not None:
                merged = results + rest
                out.append(ApiMessage("user", merged or [{"type": "text", "text": NO_CONTENT}]))
                i += 2
                continue
            if results:
                out.append(ApiMessage("user", results))
            i += 1
            continue
        # A user message that does not follow an assistant keeps no tool results.
        kept = [b for b in m.content if b.get("type") != "tool_result"]
        if len(kept) != len(m.content) and not kept:
            kept = [{"type": "text", "text": ORPHAN_REMOVED}] if not out else []
        if kept:
            if out and out[-1].role == "user":
                out[-1] = ApiMessage("user", _merge_user(out[-1].content, kept))
            else:
                out.append(ApiMessage("user", kept))
        i += 1
    return out


def with_leading_context(messages: list[ApiMessage], blocks: list[Block]) -> list[ApiMessage]:
    """``blocks`` first in the first user message (a new one when there is none). Only a
    provider's compaction may come before it: the API wants that block first of all."""
    lead = [copy.deepcopy(b) for b in blocks]
    start = 1 if messages and _leads_with_compaction(messages[0]) else 0
    if len(messages) > start and messages[start].role == "user":
        first = ApiMessage("user", lead + list(messages[start].content))
        return [*messages[:start], first, *messages[start + 1:]]
    return [*messages[:start], ApiMessage("user", lead), *messages[start:]]


def _leads_with_compaction(message: ApiMessage) -> bool:
    return message.role == "assistant" and bool(message.content) and \
        message.content[0].get("type") == "compaction"


def normalize_for_api(
    messages: Iterable[Message], available_tools: set[str] | None = None
) -> list[ApiMessage]:
    records = model_slice(list(messages))
    records = _bubble_attachments(records)
    strip = _media_strip_set(records)
    api = _post_passes(_to_api_messages(records, available_tools, strip))
    api = ensure_tool_result_pairing(api)
    if api and api[0].role == "assistant" and not _leads_with_compaction(api[0]):
        api.insert(0, ApiMessage("user", [{"type": "text", "text": NO_CONTENT}]))
    return api
