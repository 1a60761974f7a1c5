"""The fake's ``POST /v1/responses/compact``: what it keeps and the summary it stands for.

As the API documents, the output is "a list of all user messages, followed by a single
compaction item". The fake's compaction item carries its sealed envelope of a short,
deterministic summary of the items it replaced (and their digest), so a later request
that sends it back is counted as the summary's size, not the original's, and a tampered
one is refused. Compaction takes nothing from the reply queue: it is not a scripted turn.
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from typing import Any

from .counting import canonical_json
from .encrypted_content import seal, unseal
from .responses_input import content_text, input_items, message_role, parts
from .responses_wire import new_id

# The summary stays short however long the conversation was.
MAX_SUMMARY_CHARS = 2_000


def _snippet(text: str, words: int = 12) -> str:
    return " ".join(text.split()[:words])


def summary_text(items: list[dict[str, Any]]) -> str:
    """What the fake's compaction "remembers": deterministic, so tests can assert on it."""
    earlier = [str(p.get("summary", "")) for p in
               (unseal(i.get("encrypted_content")) for i in items if i.get("type") == "compaction")
               if p]
    users = [content_text(i.get("content")) for i in items if message_role(i) == "user"]
    answers = [content_text(i.get("content")) for i in items if message_role(i) == "assistant"]
    calls = Counter(str(i.get("name")) for i in items if i.get("type") == "function_call")
    lines = [f"Compacted {len(items)} items."]
    lines += [f"Earlier summary: {text}" for text in earlier]
    first = next((u for u in users if u.strip()), "")
    lines.append(f"First request: {_snippet(first) or '(none)'}")
    if calls:
        lines.append("Tools called: " + ", ".join(f"{n} x{k}" for n, k in sorted(calls.items())))
    last = next((a for a in reversed(answers) if a.strip()), "")
    lines.append(f"Last answer: {_snippet(last, 30) or '(none)'}")
    return "\n".join(lines)[:MAX_SUMMARY_CHARS]


def compaction_item(items: list[dict[str, Any]], original_tokens: int) -> tuple[dict[str, Any], str]:
    summary = summary_text(items)
    digest = hashlib.sha256(canonical_json(items).encode("utf-8")).hexdigest()[:32]
    sealed = seal({"kind": "compaction", "summary": summary, "digest": digest,
                   "items": len(items), "original_tokens": original_tokens})
    return {"type": "compaction", "id": new_id("cmp"), "encrypted_content": sealed}, summary


def _kept_message(item: dict[str, Any]) -> dict[str, Any]:
    return {"type": "message", "id": new_id("msg"), "status": "completed", "role": "user",
            "content": parts(item.get("content"))}


def compacted_json(body: dict[str, Any], *, input_tokens: int,
                   usage: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The ``CompactedResponse`` for a compact request, and the summary it holds."""
    items = input_items(body)
    kept = [_kept_message(i) for i in items if message_role(i) == "user"]
    compaction, summary = compaction_item(items, input_tokens)
    return {
        "id": new_id("resp"),
        "object": "response.compaction",
        "created_at": int(time.time()),
        "output": kept + [compaction],
        "usage": usage,
    }, summary
