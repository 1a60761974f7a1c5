"""Listing, finding and deleting stored sessions without reading whole transcripts.

A summary comes from the head of the file (creation time, cwd, first prompt, Claude Code
title lines) and its tail (our last ``sidecar-state`` record, the last timestamp). Both
windows are bounded, so listing a thousand sessions costs a thousand pairs of small reads.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sidecar.core.conversation.messages import SYNTHETIC_MODEL, as_blocks
from sidecar.core.conversation.session_ids import is_valid_session_id
from sidecar.storage.claude_code import ENTRYPOINT, STATE_TYPE, is_sidechain
from sidecar.storage.line_reader import read_head, read_tail
from sidecar.storage.paths import TRANSCRIPT_SUFFIX, project_dir, projects_dir
from sidecar.storage.transcript import encode_line
from sidecar.storage.transcript_loader import prompt_title, provider_for_model

HEAD_BYTES = 16 * 1024
TAIL_BYTES = 16 * 1024
# Our state record follows each turn; a turn ending in one huge record can push it out of
# the first tail window, so our own files get one wider look.
WIDE_TAIL_BYTES = 256 * 1024


@dataclass(frozen=True, slots=True)
class SessionSummary:
    session_id: str
    path: Path
    title: str | None
    cwd: str | None
    model: str | None
    provider: str | None
    created_at: str | None
    updated_at: str | None
    used: int | None
    size: int | None

    def to_json(self) -> dict[str, Any]:
        return {
            "sessionId": self.session_id,
            "title": self.title,
            "cwd": self.cwd,
            "model": self.model,
            "provider": self.provider,
            "createdAt": self.created_at,
            "updatedAt": self.updated_at,
            "used": self.used,
            "size": self.size,
        }


def list_sessions(storage_dir: Path | str, cwd: str | None = None) -> list[SessionSummary]:
    """Sessions newest first; only those started in ``cwd`` when it is given."""
    if cwd is not None:
        directories = [project_dir(storage_dir, cwd)]
    else:
        root = projects_dir(storage_dir)
        directories = sorted(p for p in root.iterdir() if p.is_dir()) if root.is_dir() else []
    summaries: list[tuple[str, float, SessionSummary]] = []
    for directory in directories:
        if not directory.is_dir():
            continue
        for path in directory.glob(f"*{TRANSCRIPT_SUFFIX}"):
            try:
                summary, mtime = summarize_session(path)
            except OSError:
                continue  # deleted or unreadable meanwhile: not listable
            if cwd is not None and summary.cwd is not None and summary.cwd != cwd:
                continue  # another directory that sanitizes to the same name
            summaries.append((summary.updated_at or "", mtime, summary))
    summaries.sort(key=lambda item: (item[0], item[1]), reverse=True)
    return [summary for _, _, summary in summaries]


def find_session(storage_dir: Path | str, session_id: str) -> Path | None:
    """The transcript of ``session_id`` in any project directory (newest if several)."""
    if not is_valid_session_id(session_id):
        return None
    root = projects_dir(storage_dir)
    if not root.is_dir():
        return None
    matches = [p for p in root.glob(f"*/{session_id}{TRANSCRIPT_SUFFIX}") if p.is_file()]
    if not matches:
        return None
    return max(matches, key=lambda p: p.stat().st_mtime)


def delete_session(storage_dir: Path | str, session_id: str) -> bool:
    """Remove the transcript and its side directory (subagents, tool results)."""
    path = find_session(storage_dir, session_id)
    if path is None:
        return False
    path.unlink(missing_ok=True)
    side = path.with_suffix("")
    if side.is_dir():
        shutil.rmtree(side, ignore_errors=True)
    return True


def retitle_session(storage_dir: Path | str, session_id: str, title: str) -> bool:
    """Give a stored session ``title``: a state record like its last one (same time, so the
    list keeps its order) with the new title, appended. False when there is no such session."""
    path = find_session(storage_dir, session_id)
    if path is None:
        return False
    summary, _ = summarize_session(path)
    last = _last_state(_parse(read_tail(path, WIDE_TAIL_BYTES))) or {}
    record = {**last, "type": STATE_TYPE, "sessionId": session_id, "cwd": summary.cwd,
              "model": summary.model, "provider": summary.provider, "title": title,
              "used": summary.used, "size": summary.size, "timestamp": summary.updated_at}
    with path.open("ab") as handle:
        handle.write(encode_line(record))
    return True


def summarize_session(path: Path) -> tuple[SessionSummary, float]:
    """The summary of one transcript and its modification time."""
    stat = path.stat()
    head = _parse(read_head(path, HEAD_BYTES))
    tail = _parse(read_tail(path, TAIL_BYTES))
    ours = any(r.get("entrypoint") == ENTRYPOINT for r in head)
    state = _last_state(tail)
    if state is None and ours and stat.st_size > TAIL_BYTES:
        tail = _parse(read_tail(path, WIDE_TAIL_BYTES))
        state = _last_state(tail)
    state = state or {}

    created_at = _first(head, "timestamp")
    updated_at = _last(tail, "timestamp")
    if updated_at is None:
        updated_at = (
            datetime.fromtimestamp(stat.st_mtime, UTC)
            .isoformat(timespec="milliseconds")
            .replace("+00:00", "Z")
        )
    model = _text(state.get("model")) or _last_model(tail)
    summary = SessionSummary(
        # The file name is the id find_session and delete_session take; a resumed Claude
        # Code file can hold several sessionId values inside.
        session_id=path.stem,
        path=path,
        title=_text(state.get("title")) or _head_title(head),
        cwd=_text(state.get("cwd")) or _first(head, "cwd") or _last(tail, "cwd"),
        model=model,
        provider=_text(state.get("provider")) or provider_for_model(model),
        created_at=created_at or updated_at,
        updated_at=updated_at,
        used=state.get("used") if isinstance(state.get("used"), int) else None,
        size=state.get("size") if isinstance(state.get("size"), int) else None,
    )
    return summary, stat.st_mtime


def _parse(lines: list[bytes]) -> list[dict[str, Any]]:
    records = []
    for line in lines:
        try:
            record = json.loads(line)
        except ValueError:
            continue  # a torn line at either edge of the window
        if isinstance(record, dict):
            records.append(record)
    return records


def _last_state(records: list[dict[str, Any]]) -> dict[str, Any] | None:
    states = [record for record in records if record.get("type") == STATE_TYPE]
    return states[-1] if states else None


def _first(records: list[dict[str, Any]], key: str) -> str | None:
    for record in records:
        value = _text(record.get(key))
        if value and not is_sidechain(record):
            return value
    return None


def _last(records: list[dict[str, Any]], key: str) -> str | None:
    for record in reversed(records):
        value = _text(record.get(key))
        if value and not is_sidechain(record):
            return value
    return None


def _last_model(records: list[dict[str, Any]]) -> str | None:
    for record in reversed(records):
        body = record.get("message")
        if record.get("type") == "assistant" and isinstance(body, dict) and not is_sidechain(record):
            model = _text(body.get("model"))
            if model and model != SYNTHETIC_MODEL:
                return model
    return None


def _head_title(records: list[dict[str, Any]]) -> str | None:
    for record in records:
        if record.get("type") in ("custom-title", "summary"):
            title = _text(record.get("customTitle")) or _text(record.get("summary"))
            if title:
                return title
    for record in records:
        if record.get("type") != "user" or record.get("isMeta") or is_sidechain(record):
            continue
        if record.get("isCompactSummary"):
            continue
        body = record.get("message")
        blocks = as_blocks(body.get("content") if isinstance(body, dict) else None)
        text = "".join(b.get("text", "") for b in blocks if b.get("type") == "text").strip()
        title = prompt_title(text) if text else None
        if title:
            return title
    return None


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None
