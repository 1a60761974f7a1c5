"""A session's records: append-only, written as they happen, and the views derived from them.

Everything the engine decides about the past is a record: a compaction is a boundary plus a
summary, a microcompact decision a ``microcompact_boundary``. So what a reloaded session
needs (which results are cleared, how many compactions of each tier) is read back from the
records, never kept on the side.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from sidecar.core.conversation.messages import Message, is_compact_boundary
from sidecar.core.conversation.normalize import clear_results, model_slice
from sidecar.core.ports import TranscriptStore

# Compaction tiers a boundary can record (a /clear is a boundary of no tier).
COMPACTION_TIERS = ("full", "session_memory")


class Transcript:
    def __init__(self, session_id: str, cwd: str, store: TranscriptStore | None) -> None:
        self.session_id = session_id
        self.cwd = cwd
        self.store = store
        self.records: list[Message] = []
        self.updated_at = time.time()

    # ----- writing ----------------------------------------------------------------------

    def add(self, *messages: Message) -> None:
        """Append records and write them; several are one write (all or nothing on a
        crash, as a compaction's boundary, summary and tail must be)."""
        self.records.extend(messages)
        if self.store is not None:
            if len(messages) == 1:
                self.store.append(messages[0], self.session_id, self.cwd)
            elif messages:
                self.store.append_many(list(messages), self.session_id, self.cwd)
        self.updated_at = time.time()

    def restore(self, messages: list[Message]) -> None:
        """Take a loaded transcript's records as they are (nothing is written)."""
        self.records.extend(messages)

    def write_state(self, **state: Any) -> None:
        if self.store is not None:
            self.store.append_state(self.session_id, self.cwd, **state)

    def path(self) -> Path | None:
        return self.store.path_for(self.session_id, self.cwd) if self.store is not None else None

    def results_dir(self) -> Path | None:
        """Where this session's tool outputs too large for the context are saved."""
        return self.store.results_dir(self.session_id, self.cwd) if self.store is not None else None

    def save_result(self, tool_use_id: str, text: str) -> Path | None:
        """Save one such output (blocking: call it in a worker thread); None without storage."""
        if self.store is None:
            return None
        return self.store.save_result(self.session_id, self.cwd, tool_use_id, text)

    # ----- views ------------------------------------------------------------------------

    def since_boundary(self) -> list[Message]:
        """Records from the last compact boundary (or /clear) on."""
        return model_slice(self.records)

    def model_view(self) -> list[Message]:
        """What the model sees: the records since the boundary, cleared results replaced."""
        return clear_results(self.since_boundary(), self.cleared_ids())

    def cleared_ids(self) -> set[str]:
        """Tool results microcompact cleared since the last boundary (frozen once sent).

        Boundaries written by an older version for Anthropic "cache edits" cleared nothing
        in the messages themselves, so they do not count."""
        ids: set[str] = set()
        for m in self.since_boundary():
            meta = m.extra.get("microcompactMetadata") if m.subtype == "microcompact_boundary" else None
            if isinstance(meta, dict) and meta.get("trigger") != "cache_edits":
                ids.update(str(i) for i in meta.get("compactedToolIds") or [])
        return ids

    def last_compaction(self) -> dict[str, Any] | None:
        """The latest compaction's tier, backend (who summarized) and trigger."""
        for m in reversed(self.records):
            meta = m.extra.get("compactMetadata") if is_compact_boundary(m) else None
            if isinstance(meta, dict) and meta.get("trigger") != "clear":
                return {"tier": meta.get("tier", "full"), "backend": meta.get("backend", "local"),
                        "trigger": meta.get("trigger"), "tokensBefore": meta.get("preTokens")}
        return None

    def compactions(self) -> dict[str, int]:
        """Compactions so far, by tier."""
        counts: dict[str, int] = {}
        for m in self.records:
            if not is_compact_boundary(m):
                continue
            meta = m.extra.get("compactMetadata") or {}
            if meta.get("trigger") == "clear":
                continue
            tier = meta.get("tier", "full")
            if tier in COMPACTION_TIERS:
                counts[tier] = counts.get(tier, 0) + 1
        return counts
