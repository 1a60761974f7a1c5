"""Claude Code's own configuration files, as far as the sidecar honours them: where they
live (``~/.claude``, ``~/.claude.json``, ``$CLAUDE_CONFIG_DIR``, the managed settings) and
whether the user accepted Claude Code's trust dialog for a folder, which is what makes a
workspace's own ``.claude/settings*.json`` count (its MCP approvals, its hooks)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any, Mapping

from sidecar.core.workspace.own_files import read_own_bytes

# ``~/.claude.json`` keeps per-folder state and grows past a settings file's size; a file
# cut short would not parse, and its folders would count as untrusted.
STATE_MAX_BYTES = 64 << 20


def read_json(path: Path, limit: int = 1 << 20) -> dict[str, Any]:
    """A JSON object file of at most ``limit`` bytes; {} when missing, unreadable, longer,
    special (a FIFO would block the reader) or not an object."""
    try:
        data = json.loads(read_own_bytes(path, limit=limit).decode("utf-8", errors="replace"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def config_dir(environ: Mapping[str, str], home: Path) -> Path:
    custom = environ.get("CLAUDE_CONFIG_DIR")
    return Path(custom).expanduser() if custom else home / ".claude"


def global_file(environ: Mapping[str, str], home: Path) -> Path:
    custom = environ.get("CLAUDE_CONFIG_DIR")
    return Path(custom).expanduser() / ".claude.json" if custom else home / ".claude.json"


def managed_file() -> Path:
    if sys.platform == "darwin":
        return Path("/Library/Application Support/ClaudeCode/managed-settings.json")
    if sys.platform.startswith("win"):
        return Path(r"C:\Program Files\ClaudeCode\managed-settings.json")
    return Path("/etc/claude-code/managed-settings.json")


def projects(environ: Mapping[str, str], home: Path) -> dict[str, Any]:
    """The per-folder entries of ``~/.claude.json``."""
    value = read_json(global_file(environ, home), STATE_MAX_BYTES).get("projects")
    return value if isinstance(value, dict) else {}


def trusted_in(entries: Mapping[str, Any], cwd: Path) -> bool:
    """Claude Code's trust dialog was accepted for the folder or a parent of it."""
    for folder in (cwd, *cwd.parents):
        entry = entries.get(str(folder))
        if isinstance(entry, dict) and entry.get("hasTrustDialogAccepted") is True:
            return True
    return False


def workspace_trusted(cwd: Path, home: Path, environ: Mapping[str, str] | None = None) -> bool:
    """Whether the user accepted Claude Code's trust dialog for ``cwd`` (blocking)."""
    return trusted_in(projects(os.environ if environ is None else environ, home), cwd)
