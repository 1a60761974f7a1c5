"""Append-only session transcripts in Claude Code's JSONL schema.

Each record is one line written with a single ``os.write`` on an ``O_APPEND`` descriptor,
so a crash loses at most the line being written and concurrent appenders never interleave
inside a line. The loader lives in ``transcript_loader``.

A write that fails (full disk, read-only directory, a FIFO planted where the file should
be) never raises to the session: the record stays in memory, the user is told once, and
the next append writes everything held back first, in order. The session keeps every
record in memory anyway, so holding their bytes until the disk takes them costs at most
what the conversation already costs.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

from sidecar import __version__
from sidecar.core.conversation.messages import Message, now_iso
from sidecar.core.secrets.redaction import redact_api_keys, redact_value
from sidecar.core.storage_health import StorageHealth
from sidecar.storage.claude_code import SKIPPED_TYPES, STATE_TYPE, record_from_message
from sidecar.storage.files import PartialWrite, open_append, seal, write_whole
from sidecar.storage.line_reader import iter_lines_reversed
from sidecar.storage.paths import check_session_id, tool_results_dir, transcript_path
from sidecar.storage.tool_results import save_tool_result

if TYPE_CHECKING:
    from sidecar.storage.sidechain import SidechainWriter

log = logging.getLogger(__name__)

__all__ = ["TranscriptWriter", "encode_line", "write_whole"]

# How far back a reopened transcript is searched for the record to chain onto.
_RESUME_SCAN_LINES = 2000
STORE = "transcript"


def encode_line(record: dict[str, Any], *, redact: bool = True) -> bytes:
    """One JSONL line, newline included. Keys never reach the disk when ``redact``."""
    if redact:
        record = redact_value(record)
    text = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
    if redact:
        text = redact_api_keys(text)  # the pattern net over the text, as before
    return (text + "\n").encode("utf-8")


@dataclass(slots=True)
class _OpenTranscript:
    path: Path
    fd: int | None  # None until the file could be opened
    last_uuid: str | None
    # Lines not yet on disk, oldest first. After a partial write it starts mid-line: the
    # beginning of that line is on disk behind the same descriptor.
    pending: bytearray = field(default_factory=bytearray)


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
        health: StorageHealth | None = None,
    ) -> None:
        self.storage_dir = Path(storage_dir)
        self.fsync = fsync
        self.redact_keys = redact_keys
        self.version = version
        self.health = health if health is not None else StorageHealth()
        self._open: dict[Path, _OpenTranscript] = {}
        self._last_error: OSError | None = None
        # The service may prepare a file from a worker thread while the loop appends to
        # another; the table of open files is what they share.
        self._lock = threading.RLock()

    def path_for(self, session_id: str, cwd: str) -> Path:
        return transcript_path(self.storage_dir, cwd, session_id)

    def results_dir(self, session_id: str, cwd: str) -> Path:
        return tool_results_dir(self.storage_dir, cwd, session_id)

    def save_result(self, session_id: str, cwd: str, tool_use_id: str, text: str) -> Path:
        """Save a tool output too large for the context (blocking: call it in a worker
        thread); its path goes to the model instead of the output."""
        return save_tool_result(self.storage_dir, cwd, session_id, tool_use_id, text)

    def last_uuid(self, session_id: str, cwd: str) -> str | None:
        return self._handle(self.path_for(session_id, cwd)).last_uuid

    def prepare(self, session_id: str, cwd: str) -> None:
        """Open the session's file now: resealing and scanning a long reopened transcript
        is the slow part of an append, and a caller can do it in a worker thread."""
        check_session_id(session_id)
        self._handle(self.path_for(session_id, cwd))

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
        self.append_at(self.path_for(session_id, cwd), messages, session_id, cwd)

    def append_at(self, path: Path, messages: list[Message], session_id: str, cwd: str,
                  marks: dict[str, Any] | None = None) -> None:
        """Write records to the file at ``path`` with one write, each with ``marks`` over
        its fields (a subagent's ``isSidechain`` and ``agentId``)."""
        handle = self._handle(path)
        lines: list[bytes] = []
        last = handle.last_uuid
        for message in messages:
            parent = message.parent_uuid if message.parent_uuid is not None else last
            record = record_from_message(message, session_id=session_id, cwd=cwd,
                                         parent_uuid=parent, version=self.version)
            record.update(marks or {})
            lines.append(encode_line(record, redact=self.redact_keys))
            last = message.uuid
        if lines:
            self._write(handle, b"".join(lines))
            handle.last_uuid = last

    def sidechain(self, session_id: str, agent_id: str) -> SidechainWriter:
        """The store of one subagent's records, a sidechain of session ``session_id``."""
        from sidecar.storage.sidechain import SidechainWriter

        return SidechainWriter(self, session_id, agent_id)

    def close_path(self, path: Path) -> None:
        """Write what the file at ``path`` holds back (one last try), then close it."""
        with self._lock:
            handle = self._open.pop(path, None)
        if handle is not None:
            self._close(handle)

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
        permission_mode: str | None = None,
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
        if permission_mode is not None:
            record["permissionMode"] = permission_mode
        handle = self._handle(self.path_for(session_id, cwd))
        self._write(handle, encode_line(record, redact=self.redact_keys))
        return record

    def close_session(self, session_id: str, cwd: str) -> None:
        """Write what is held back (one last try), then close. Never raises."""
        with self._lock:
            handle = self._open.pop(self.path_for(session_id, cwd), None)
        if handle is not None:
            self._close(handle)

    def close(self) -> None:
        """Close every file; what still cannot be written is reported as lost. Never raises."""
        with self._lock:
            handles, self._open = list(self._open.values()), {}
        for handle in handles:
            self._close(handle)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def _close(self, handle: _OpenTranscript) -> None:
        if handle.pending and not self._drain(handle, handle.pending.count(b"\n")):
            lost = max(handle.pending.count(b"\n"), 1)
            error = self._last_error or OSError("the file could not be written")
            self.health.failed(STORE, error, lost, key=str(handle.path), final=True)
            handle.pending.clear()
        if handle.fd is not None:
            try:
                os.close(handle.fd)
            except OSError:
                pass
            handle.fd = None

    def _write(self, handle: _OpenTranscript, line: bytes) -> None:
        with self._lock:
            held = handle.pending.count(b"\n")
            handle.pending += line
            self._drain(handle, held)

    def _drain(self, handle: _OpenTranscript, held: int = 0) -> bool:
        """Write everything ``handle`` holds back; on failure keep the rest and say so.
        ``held`` is how many of the pending records waited from earlier failures."""
        key = str(handle.path)
        try:
            if handle.fd is None:
                self._reopen(handle)
            assert handle.fd is not None
            try:
                write_whole(handle.fd, bytes(handle.pending))
            except PartialWrite as exc:
                # The start is on disk; keep the rest so the line is finished, not repeated.
                del handle.pending[: exc.written]
                raise
            handle.pending.clear()
            if self.fsync:
                os.fsync(handle.fd)
        except OSError as exc:
            self._last_error = exc
            self.health.failed(STORE, exc, max(handle.pending.count(b"\n"), 1), key=key)
            return False
        self.health.recovered(STORE, held, key=key)
        return True

    def _reopen(self, handle: _OpenTranscript) -> None:
        handle.path.parent.mkdir(parents=True, exist_ok=True)
        fd = open_append(handle.path)
        try:
            last_uuid = _seal_and_find_last_uuid(fd, handle.path)
        except BaseException:
            os.close(fd)
            raise
        handle.fd = fd
        if handle.last_uuid is None:
            handle.last_uuid = last_uuid

    def _handle(self, path: Path) -> _OpenTranscript:
        with self._lock:
            handle = self._open.get(path)
            if handle is not None:
                return handle
            handle = _OpenTranscript(path=path, fd=None, last_uuid=None)
            try:
                self._reopen(handle)
            except OSError as exc:
                # The record is built and held anyway; _drain reports the failure.
                log.debug("transcript %s not opened yet: %s", path, exc)
            self._open[path] = handle
            return handle


def _seal_and_find_last_uuid(fd: int, path: Path) -> str | None:
    """Prepare a reopened file: end a torn last line, find the uuid to chain onto."""
    if os.fstat(fd).st_size == 0:
        return None
    # A crash left half a line: ending it keeps our next record on a line of its own; the
    # torn fragment stays a single unparseable line the loader reports.
    seal(fd, path)
    for count, line in enumerate(iter_lines_reversed(path)):
        if count >= _RESUME_SCAN_LINES:
            break
        try:
            record = json.loads(line)
        except (ValueError, RecursionError):
            continue
        if not isinstance(record, dict) or record.get("type") in SKIPPED_TYPES - {"progress"}:
            continue
        if record.get("isSidechain") or record.get("agentId"):
            continue
        uuid = record.get("uuid")
        if isinstance(uuid, str):
            return uuid
    return None

