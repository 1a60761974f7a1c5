"""Whether a server the workspace itself configures may start.

A repository's ``.mcp.json`` (and the ``mcpServers`` of its ``.context-sidecar/settings.json``)
names commands of its author's choosing, so such a server starts only once the user approved
it, as Claude Code does with project-scoped servers:

- Claude Code's own answers are honoured as Claude Code honours them:
  ``disabledMcpjsonServers`` rejects a server, ``enabledMcpjsonServers`` or
  ``enableAllProjectMcpServers`` approves it, names compared after Claude Code's
  normalisation. They are read from the user's settings (``~/.claude/settings.json``, or
  ``$CLAUDE_CONFIG_DIR/settings.json``), the folder's entry of ``~/.claude.json``, the
  managed settings, and the workspace's ``.claude/settings.json`` and
  ``.claude/settings.local.json``. Claude Code applies a workspace's own settings only after
  the user accepted its trust dialog for that folder (``hasTrustDialogAccepted`` in
  ``~/.claude.json``, for the folder or a parent): so approvals from the workspace's files
  count only then, while a rejection counts from anywhere.
- Otherwise the sidecar's own answers, kept in its storage directory per workspace
  (``projects/<folder>/mcp-approvals.json``), never in the repository. An approval holds for
  the command line it was given for: a changed command, arguments, environment, URL or
  headers is asked about again. A rejection holds for the name.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Mapping

from sidecar.core.json_files import write_json
from sidecar.core.workspace.claude_config import (
    config_dir,
    global_file,
    managed_file,
    projects,
    read_json,
    trusted_in,
)
from sidecar.mcp.config import ServerConfig
from sidecar.storage.paths import project_dir

log = logging.getLogger(__name__)

Verdict = Literal["approved", "rejected", "pending"]
APPROVALS_FILE = "mcp-approvals.json"
_NOT_NAME = re.compile(r"[^a-zA-Z0-9_-]")


def normalized(name: str) -> str:
    """Claude Code's comparison form of a server name."""
    return _NOT_NAME.sub("_", name)


def fingerprint(config: ServerConfig) -> str:
    """What an approval is given for: everything that decides what runs."""
    shape = [config.transport, config.command, list(config.args), sorted(config.env),
             config.url, sorted(config.headers)]
    return hashlib.sha256(json.dumps(shape).encode("utf-8")).hexdigest()


def command_line(config: ServerConfig) -> str:
    """The server as the user is shown it before approving: what it runs or where it
    connects, as configured; the values of ``${VAR}`` never shown, but which variables of the
    environment go where, and to whom."""
    shown = {place: text for place, text, _ in config.expansions}
    if config.transport == "http":
        url = shown.get("url", config.url)
        text = f"HTTP server at {url}"
        if config.headers:
            text += "\nheaders: " + ", ".join(k for k, _ in config.headers)
        receiver = f"sent to {url}"
    else:
        command = shown.get("command", config.command)
        text = shlex.join([command, *(shown.get(f"argument {i + 1}", a)
                                      for i, a in enumerate(config.args))])
        if config.env:
            text += "\nenvironment: " + ", ".join(
                f"{k}={shlex.quote(shown.get(f'environment variable {k}', v))}" for k, v in config.env)
        receiver = f"given to the command {command}"
    if config.expansions:
        into = "; ".join(", ".join(f"${{{n}}}" for n in names) + f" into the {place}"
                         for place, _, names in config.expansions)
        names = sorted({n for _, _, ns in config.expansions for n in ns})
        text += (f"\nfrom your environment: {into}. The value{'s' if len(names) > 1 else ''} "
                 f"of {', '.join(names)} will be {receiver}.")
    return text


# ----- Claude Code's settings --------------------------------------------------------------


@dataclass(frozen=True)
class _Source:
    where: str
    data: Mapping[str, Any]
    approves: bool  # its approvals count (a rejection always does)


def _sources(cwd: Path, home: Path, environ: Mapping[str, str],
             trusted: bool | None = None) -> list[_Source]:
    """Lowest precedence first, as Claude Code merges them. The workspace's own files'
    approvals count only in a trusted folder (by default, one Claude Code trusts)."""
    entries = projects(environ, home)
    if trusted is None:
        trusted = trusted_in(entries, cwd)
    entry = entries.get(str(cwd))
    user = config_dir(environ, home) / "settings.json"
    return [
        _Source(str(global_file(environ, home)), entry if isinstance(entry, dict) else {}, True),
        _Source(str(user), read_json(user), True),
        _Source(str(cwd / ".claude" / "settings.json"),
                read_json(cwd / ".claude" / "settings.json"), trusted),
        _Source(str(cwd / ".claude" / "settings.local.json"),
                read_json(cwd / ".claude" / "settings.local.json"), trusted),
        _Source(str(managed_file()), read_json(managed_file()), True),
    ]


def _names(value: Any) -> set[str]:
    return {normalized(v) for v in value if isinstance(v, str)} if isinstance(value, list) else set()


def claude_code_verdicts(cwd: str, names: list[str], home: Path, environ: Mapping[str, str],
                         trusted: bool | None = None) -> dict[str, tuple[Verdict, str]]:
    """Each name's verdict by Claude Code's settings and where it comes from (blocking)."""
    sources = _sources(Path(cwd), home, environ, trusted)
    out: dict[str, tuple[Verdict, str]] = {}
    approve_all: tuple[bool, str] = (False, "")
    for source in sources:
        value = source.data.get("enableAllProjectMcpServers")
        if isinstance(value, bool) and (source.approves or not value):
            approve_all = (value, source.where)
    for name in names:
        key = normalized(name)
        rejected = [s.where for s in sources if key in _names(s.data.get("disabledMcpjsonServers"))]
        approved = [s.where for s in sources if s.approves
                    and key in _names(s.data.get("enabledMcpjsonServers"))]
        if rejected:
            out[name] = ("rejected", f"disabledMcpjsonServers in {rejected[-1]}")
        elif approved:
            out[name] = ("approved", f"enabledMcpjsonServers in {approved[-1]}")
        elif approve_all[0]:
            out[name] = ("approved", f"enableAllProjectMcpServers in {approve_all[1]}")
        else:
            out[name] = ("pending", "")
    return out


# ----- the sidecar's own answers ------------------------------------------------------------


class ApprovalStore:
    """The user's remembered answers for one workspace."""

    def __init__(self, storage: Path, cwd: str) -> None:
        self.path = project_dir(storage, cwd) / APPROVALS_FILE

    def _load(self) -> dict[str, Any]:
        servers = read_json(self.path).get("servers")
        return servers if isinstance(servers, dict) else {}

    def verdict(self, config: ServerConfig) -> Verdict:
        entry = self._load().get(config.name)
        if not isinstance(entry, dict):
            return "pending"
        if entry.get("answer") == "rejected":
            return "rejected"
        if entry.get("answer") == "approved" and entry.get("fingerprint") == fingerprint(config):
            return "approved"
        return "pending"

    def remember(self, config: ServerConfig, answer: Verdict) -> None:
        """Write the answer (blocking); atomically, so a crash leaves the old file."""
        servers = self._load()
        servers[config.name] = {"answer": answer, "fingerprint": fingerprint(config),
                                "commandLine": command_line(config)}
        try:
            write_json(self.path, {"servers": servers})
        except OSError as exc:
            log.warning("cannot remember the MCP approval in %s: %s", self.path, exc)
