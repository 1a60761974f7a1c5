"""Append-only session transcripts in Claude Code's JSONL schema.

Each record is one line written with a single ``os.write`` on an ``O_APPEND`` descriptor,
so a crash loses at most the line being written and concurrent appenders never interleave
inside a line. The loader lives in ``transcript_loader``.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

from sidecar import __version__
from sidecar.core.messages import Message, now_iso
from sidecar.storage.claude_code import SKIPPED_TYPES, STATE_TYPE, record_from_message
from sidecar.storage.key_redaction import redact_api_keys
from sidecar.storage.line_reader import iter_lines_reversed
from sidecar.storage.paths import check_session_id, transcript_path

# How far back a reopened transcript is searched for the record to chain onto.
_RESUME_SCAN_LINES = 2000


def encode_line(record: dict[str, Any], *, redact: bool = True) -> bytes:
    """One JSONL line, newline included. Keys never reach the disk when ``redact``."""
    text = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
    if redact:
        text = redact_api_keys(text)
    return (text + "\n").encode("utf-8")


def write_whole(fd: int, data: bytes) -> None:
    """Write all of ``data``; regular files take it in one call unless the disk is full."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


@dataclass(slots=True)
class _OpenTranscript:
    fd: int
    last_uuid: str | None


class TranscriptWriter:
    """Appends records to ``<storage_dir>/projects/<sanitized cwd>/<session_id>.jsonl``.

    The writer remembers the last chained uuid per file, so ``parentUuid`` links itself;
    a compact boundary starts a new root (``parentUuid: null``) and records where the
    conversation logically continued from in ``logicalParentUuid``.
    """

    def __init__(
        self,
        storage_dir: Path | str,
        *,
        fsync: bool = False,
        redact_keys: bool = True,
        version: str = __version__,
    ) -> None:
        self.storage_dir = Path(storage_dir)
        self.fsync = fsync
        self.redact_keys = redact_keys
        self.version = version
        self._open: dict[Path, _OpenTranscript] = {}

    def path_for(self, session_id: str, cwd: str) -> Path:
        return transcript_path(self.storage_dir, cwd, session_id)

    def last_uuid(self, session_id: str, cwd: str) -> str | None:
        return self._handle(self.path_for(session_id, cwd)).last_uuid

    def append(
        self,
        message: Message,
        session_id: str,
        cwd: str,
        *,
        git_branch: str | None = None,
    ) -> dict[str, Any]:
        """Write ``message`` as one record and return the record as written.

        ``message.parent_uuid`` wins when set (a tool result pointing at its assistant
        entry); otherwise the record chains onto the previous one of this file.
        """
        check_session_id(session_id)
        path = self.path_for(session_id, cwd)
        handle = self._handle(path)
        parent = message.parent_uuid if message.parent_uuid is not None else handle.last_uuid
        record = record_from_message(
            message,
            session_id=session_id,
            cwd=cwd,
            parent_uuid=parent,
            version=self.version,
            git_branch=git_branch,
        )
        self._write(handle, encode_line(record, redact=self.redact_keys))
        handle.last_uuid = message.uuid
        return record

    def append_many(self, messages: list[Message], session_id: str, cwd: str) -> None:
        """Write several records with one write, so a crash keeps all of them or none.

        A compaction (boundary, summary, re-injected files, kept tail) goes through here.
        """
        check_session_id(session_id)
        handle = self._handle(self.path_for(session_id, cwd))
        lines: list[bytes] = []
        last = handle.last_uuid
        for message in messages:
            parent = message.parent_uuid if message.parent_uuid is not None else last
            record = record_from_message(message, session_id=session_id, cwd=cwd,
                                         parent_uuid=parent, version=self.version)
            lines.append(encode_line(record, redact=self.redact_keys))
            last = message.uuid
        if lines:
            self._write(handle, b"".join(lines))
            handle.last_uuid = last

    def append_state(
        self,
        session_id: str,
        cwd: str,
        *,
        model: str | None,
        provider: str | None,
        title: str | None,
        used: int | None,
        size: int | None,
    ) -> dict[str, Any]:
        """Append the session's summary so listing reads it from the tail of the file."""
        check_session_id(session_id)
        record: dict[str, Any] = {
            "type": STATE_TYPE,
            "sessionId": session_id,
            "cwd": cwd,
            "model": model,
            "provider": provider,
            "title": title,
            "used": used,
            "size": size,
            "timestamp": now_iso(),
        }
        handle = self._handle(self.path_for(session_id, cwd))
        self._write(handle, encode_line(record, redact=self.redact_keys))
        return record

    def close_session(self, session_id: str, cwd: str) -> None:
        handle = self._open.pop(self.path_for(session_id, cwd), None)
        if handle is not None:
            os.close(handle.fd)

    def close(self) -> None:
        for handle in self._open.values():
            os.close(handle.fd)
        self._open.clear()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def _write(self, handle: _OpenTranscript, line: bytes) -> None:
        write_whole(handle.fd, line)
        if self.fsync:
            os.fsync(handle.fd)

    def _handle(self, path: Path) -> _OpenTranscript:
        handle = self._open.get(path)
        if handle is not None:
            return handle
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)
        try:
            last_uuid = _seal_and_find_last_uuid(fd, path)
        except BaseException:
            os.close(fd)
            raise
        handle = _OpenTranscript(fd=fd, last_uuid=last_uuid)
        self._open[path] = handle
        return handle


def _seal_and_find_last_uuid(fd: int, path: Path) -> str | None:
    """Prepare a reopened file: end a torn last line, find the uuid to chain onto."""
    size = os.fstat(fd).st_size
    if size == 0:
        return None
    with open(path, "rb") as f:
        f.seek(size - 1)
        ends_with_newline = f.read(1) == b"\n"
    if not ends_with_newline:
        # A crash left half a line. Ending it keeps our next record on a line of its own;
        # the torn fragment stays a single unparseable line the loader reports.
        write_whole(fd, b"\n")
    for count, line in enumerate(iter_lines_reversed(path)):
        if count >= _RESUME_SCAN_LINES:
            break
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if not isinstance(record, dict) or record.get("type") in SKIPPED_TYPES - {"progress"}:
            continue
        if record.get("isSidechain") or record.get("agentId"):
            continue
        uuid = record.get("uuid")
        if isinstance(uuid, str):
            return uuid
    return None

