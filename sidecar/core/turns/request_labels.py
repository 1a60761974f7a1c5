"""Labels on every model request: which session, which kind of call, and why its prefix last
changed.

Real APIs ignore headers they do not know, so these cost nothing in production; the test
fake's invariant checker reads them to hold each session to its rules (the prefix of one
conversation only changes for a named cause, no request passes the blocking limit).
"""

from __future__ import annotations

from typing import Literal

SESSION_HEADER = "x-context-sidecar-session"
CALL_HEADER = "x-context-sidecar-call"
EPOCH_HEADER = "x-context-sidecar-epoch"
BLOCKING_HEADER = "x-context-sidecar-blocking-at"

# main: the conversation's own turns; summary and memory: forked one-shot calls over it;
# count: an exact count of the next request.
CallKind = Literal["main", "summary", "memory", "count"]

# What may rewrite what a conversation has already sent (and so its prompt cache).
Cause = Literal["start", "compaction", "clear", "microcompact", "context_edit", "model",
                "settings", "load", "tools", "rewind"]
CAUSES: frozenset[str] = frozenset(
    {"start", "compaction", "clear", "microcompact", "context_edit", "model", "settings", "load",
     "tools", "rewind"})


def request_headers(session_id: str, call: CallKind, epoch: int, cause: str,
                    blocking_at: int) -> dict[str, str]:
    return {
        SESSION_HEADER: session_id,
        CALL_HEADER: call,
        EPOCH_HEADER: f"{epoch}:{cause}",
        BLOCKING_HEADER: str(blocking_at),
    }
