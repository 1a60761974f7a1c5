"""The stored sessions as the service opens and lists them: a stored transcript found by id
or path and checked before it becomes a session, and the list of stored and open ones."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, cast

from sidecar.contract.errors import InvalidParams, SessionNotFound
from sidecar.contract.results import SessionList, SessionSummary
from sidecar.core.conversation.messages import new_uuid
from sidecar.core.conversation.session_ids import is_valid_session_id
from sidecar.core.ports import Editor, SessionArchive, StoredSession

if TYPE_CHECKING:
    from sidecar.core.session import Session


async def read_stored(archive: SessionArchive, editor: Editor, session_id: str,
                      cwd: str | None) -> tuple[str, str, StoredSession]:
    """The stored session ``session_id`` names (an id, or the absolute path of a transcript
    file): its id, its folder and its records. ``cwd`` is the workspace the client named: it
    becomes the session's folder when the transcript names none it can use, because tools
    must never fall back to wherever the sidecar happened to be started."""
    # Finding and reading a transcript is file I/O: off the event loop.
    path = await asyncio.to_thread(archive.find, session_id)
    # Only an absolute path: a relative one would resolve against the directory the
    # sidecar was launched from, which the client neither knows nor chose.
    if path is None and os.path.isabs(session_id) and os.path.isfile(session_id):
        path = Path(session_id)
    if path is None and not is_valid_session_id(session_id):
        raise InvalidParams(
            "sessionId must be a session id (letters, digits, '_', '-' and '.') or "
            "the absolute path of a transcript file", data={"field": "sessionId"})
    if path is None:
        raise SessionNotFound(f"Unknown session {session_id!r}", data={"sessionId": session_id})
    try:
        loaded = await asyncio.to_thread(archive.read, path)
    except OSError as exc:
        raise InvalidParams(f"cannot read the transcript {path}: {exc.strerror or exc}",
                            data={"field": "sessionId"}) from exc
    if loaded.warnings:
        editor.show_message("warning", f"{path.name}: " + "; ".join(loaded.warnings))
    sid = loaded.session_id or _id_for_file(path, session_id)
    if not is_valid_session_id(sid):
        raise InvalidParams(
            f"the transcript's sessionId {sid!r} is not a safe file name; it cannot be "
            "continued", data={"field": "sessionId", "path": str(path)})
    if _usable_cwd(loaded.cwd):
        folder = str(loaded.cwd)
    elif cwd is not None:
        folder = cwd
    else:
        raise InvalidParams(
            f"{path.name} names no usable working directory; pass cwd (the workspace "
            "folder) to load it", data={"field": "cwd", "path": str(path)})
    return sid, folder, loaded


async def listed(archive: SessionArchive, open_sessions: Iterable[Session],
                 cwd: str | None) -> SessionList:
    """``session/list``: the stored sessions (of ``cwd``, when given) and the open ones,
    newest first; an open session's size is its gauge's."""
    # Listing reads the heads and tails of transcript files: off the event loop.
    stored = await asyncio.to_thread(lambda: [x.to_json() for x in archive.list(cwd)])
    found = {s["sessionId"]: cast(SessionSummary, s) for s in stored}
    out = list(found.values())
    for session in open_sessions:
        if session.id in found:
            # An open session's size is the gauge's, newer than its last state record.
            found[session.id]["used"] = session.ledger.used()
            found[session.id]["size"] = session.thresholds.size
            continue
        if cwd and session.info.cwd != cwd:
            continue
        out.append({
            "sessionId": session.id, "title": session.info.title, "cwd": session.info.cwd,
            "model": session.info.model, "provider": session.info.provider,
            "createdAt": _iso(session.info.created_at), "updatedAt": _iso(session.transcript.updated_at),
            "used": session.ledger.used(), "size": session.thresholds.size,
        })
    out.sort(key=lambda s: s.get("updatedAt") or "", reverse=True)
    return {"sessions": out}


def _id_for_file(path: Path, requested: str) -> str:
    """The id of a transcript whose records name none: the one asked for, else the file's
    name (Claude Code names files by session id), else a new one, never a path."""
    for candidate in (requested, path.stem):
        if is_valid_session_id(candidate):
            return candidate
    return new_uuid()


def _usable_cwd(value: Any) -> bool:
    return isinstance(value, str) and os.path.isabs(value) and "\x00" not in value


def _iso(ts: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ts)) + f".{int(ts * 1000) % 1000:03d}Z"
