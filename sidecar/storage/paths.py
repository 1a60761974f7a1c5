"""Where storage files live under the storage directory.

The layout follows Claude Code's (``projects/<sanitized cwd>/<sessionId>.jsonl``) so its
transcript viewers find our sessions and its sessions can be opened here.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from sidecar.core.conversation.session_ids import is_valid_session_id

TRANSCRIPT_SUFFIX = ".jsonl"
# Claude Code caps the directory name; longer paths get a hash suffix so two long paths
# sharing a prefix still land in different directories.
MAX_SANITIZED_LENGTH = 200

_NON_ALNUM = re.compile(r"[^A-Za-z0-9]")
# Session ids end up in file names: allow nothing that could walk out of the directory.


def sanitize_cwd(cwd: str) -> str:
    """Every character other than an ASCII letter or digit becomes ``-``."""
    name = _NON_ALNUM.sub("-", cwd)
    if len(name) <= MAX_SANITIZED_LENGTH:
        return name
    digest = hashlib.sha256(cwd.encode("utf-8")).hexdigest()[:12]
    return f"{name[:MAX_SANITIZED_LENGTH]}-{digest}"


def check_session_id(session_id: str) -> str:
    if not is_valid_session_id(session_id):
        raise ValueError(f"invalid session id: {session_id!r}")
    return session_id


def projects_dir(storage_dir: Path | str) -> Path:
    return Path(storage_dir) / "projects"


def project_dir(storage_dir: Path | str, cwd: str) -> Path:
    return projects_dir(storage_dir) / sanitize_cwd(cwd)


def transcript_path(storage_dir: Path | str, cwd: str, session_id: str) -> Path:
    return project_dir(storage_dir, cwd) / f"{check_session_id(session_id)}{TRANSCRIPT_SUFFIX}"


def sidechain_path(storage_dir: Path | str, cwd: str, session_id: str, agent_id: str) -> Path:
    """A subagent's transcript, where Claude Code keeps it: beside the session's
    (``projects/<sanitized cwd>/<sessionId>/subagents/agent-<agentId>.jsonl``)."""
    return (project_dir(storage_dir, cwd) / check_session_id(session_id) / "subagents"
            / f"agent-{check_session_id(agent_id)}{TRANSCRIPT_SUFFIX}")


def history_path(storage_dir: Path | str) -> Path:
    return Path(storage_dir) / "history.jsonl"


def paste_cache_dir(storage_dir: Path | str) -> Path:
    return Path(storage_dir) / "paste-cache"


def tool_results_dir(storage_dir: Path | str, cwd: str, session_id: str) -> Path:
    """Where a session's tool outputs too large for its context are saved, next to its
    transcript (``projects/<sanitized cwd>/<sessionId>/tool-results``)."""
    return project_dir(storage_dir, cwd) / check_session_id(session_id) / "tool-results"
