"""Which MCP servers a workspace uses, in Claude Code's formats.

Three sources, the later winning for a name: the ``mcpServers`` object of the workspace's
``.mcp.json``, that of its ``.context-sidecar/settings.json``, and the ``mcpServers``
setting (the user's). The first two are the workspace's own: their servers start only once
approved (``sidecar.mcp.trust``). Each entry is a stdio server
(``{"command", "args", "env"}``, ``type`` "stdio" or absent) or a streamable HTTP server
(``{"type": "http", "url", "headers"}``). ``${VAR}`` and ``${VAR:-default}`` expand in the
command, args, env values, url and header values, from the sidecar's environment; an unset
variable with no default is an error of that server only.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Mapping

Transport = Literal["stdio", "http"]
CONFIG_FILE = ".mcp.json"
WORKSPACE_SETTINGS = ".context-sidecar/settings.json"
_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")


@dataclass(frozen=True)
class ServerConfig:
    name: str
    transport: Transport
    command: str = ""
    args: tuple[str, ...] = ()
    env: tuple[tuple[str, str], ...] = ()
    url: str = ""
    headers: tuple[tuple[str, str], ...] = ()
    source: str = ""  # where it was configured, for messages
    # Set when the entry cannot be used (a missing variable, a wrong shape): the server is
    # listed as failed with this message and never started.
    error: str | None = None
    # Configured by the workspace itself (not by the user): starts only once approved.
    workspace: bool = False
    # Where ``${VAR}`` was expanded: (place, its text as configured, the variables whose
    # values went into it). Places: "command", "argument N", "environment variable NAME",
    # "url", "header NAME".
    # The approval question shows these texts instead of the values, and names the variables.
    expansions: tuple[tuple[str, str, tuple[str, ...]], ...] = ()


@dataclass
class LoadedConfig:
    servers: list[ServerConfig] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


class _Missing(Exception):
    pass


def expand(text: str, environ: Mapping[str, str]) -> str:
    """``text`` with ``${VAR}`` and ``${VAR:-default}`` replaced; raises for an unset
    variable that has no default."""
    def one(match: re.Match[str]) -> str:
        name, default = match.group(1), match.group(2)
        value = environ.get(name)
        if value is None or (value == "" and default is not None):
            if default is None:
                raise _Missing(name)
            return default
        return value

    return _VAR.sub(one, text)


class _Expander:
    """``expand`` that remembers which variables went where."""

    def __init__(self, environ: Mapping[str, str]) -> None:
        self.environ = environ
        self.seen: list[tuple[str, str, tuple[str, ...]]] = []

    def __call__(self, place: str, text: str) -> str:
        value = expand(text, self.environ)
        # The variables whose (non-empty) values went in; a default carries nothing of them.
        names = tuple(dict.fromkeys(m.group(1) for m in _VAR.finditer(text)
                                    if self.environ.get(m.group(1))))
        if names:
            self.seen.append((place, text, names))
        return value


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _string_map(value: Any) -> bool:
    return isinstance(value, dict) and all(isinstance(k, str) and isinstance(v, str)
                                           for k, v in value.items())


def parse_server(name: str, entry: Any, environ: Mapping[str, str], source: str) -> ServerConfig:
    """One ``mcpServers`` entry; an unusable one comes back with ``error`` set."""
    if not isinstance(entry, dict):
        return ServerConfig(name, "stdio", source=source, error=f"{source}: server {name!r} must be an object")
    kind = entry.get("type", "stdio" if "command" in entry else "http" if "url" in entry else None)
    exp = _Expander(environ)
    try:
        if kind == "stdio":
            command, args, env = entry.get("command"), entry.get("args", []), entry.get("env", {})
            if not isinstance(command, str) or not command.strip():
                raise ValueError("needs a command")
            if not _strings(args) or not _string_map(env):
                raise ValueError("args must be a list of strings and env an object of strings")
            return ServerConfig(
                name, "stdio", command=exp("command", command),
                args=tuple(exp(f"argument {i + 1}", a) for i, a in enumerate(args)),
                env=tuple((k, exp(f"environment variable {k}", v)) for k, v in env.items()),
                source=source, expansions=tuple(exp.seen))
        if kind in ("http", "streamable-http"):
            url, headers = entry.get("url"), entry.get("headers", {})
            if not isinstance(url, str) or not url.strip():
                raise ValueError("needs a url")
            if not _string_map(headers):
                raise ValueError("headers must be an object of strings")
            return ServerConfig(
                name, "http", url=exp("url", url),
                headers=tuple((k, exp(f"header {k}", v)) for k, v in headers.items()),
                source=source, expansions=tuple(exp.seen))
        if kind == "sse":
            raise ValueError("uses the SSE transport, which is not supported; use \"type\": \"http\"")
        raise ValueError(f"has an unknown type {kind!r} (stdio or http)")
    except _Missing as missing:
        error = (f"{source}: server {name!r} uses ${{{missing.args[0]}}}, which is not set "
                 "(set it, or give a default: ${VAR:-default})")
    except ValueError as exc:
        error = f"{source}: server {name!r} {exc}"
    transport: Transport = "http" if kind in ("http", "streamable-http") else "stdio"
    return ServerConfig(name, transport, source=source, error=error)


def _servers_of(data: Any, environ: Mapping[str, str], source: str,
                warnings: list[str]) -> dict[str, ServerConfig]:
    if data is None:
        return {}
    if not isinstance(data, dict):
        warnings.append(f"{source}: mcpServers must be an object; ignored")
        return {}
    return {str(name): parse_server(str(name), entry, environ, source) for name, entry in data.items()}


MAX_CONFIG_BYTES = 1 << 20


def _read_regular(path: Path) -> str:
    """The file's text; a FIFO or device in its place (which would block the read) or a file
    over a megabyte is refused as unreadable."""
    st = os.stat(path)
    if not stat.S_ISREG(st.st_mode):
        raise OSError(f"{path.name} is not a regular file")
    if st.st_size > MAX_CONFIG_BYTES:
        raise OSError(f"{path.name} is larger than {MAX_CONFIG_BYTES} bytes")
    with open(path, "rb") as handle:
        return handle.read(MAX_CONFIG_BYTES).decode("utf-8", errors="replace")


def load_configs(cwd: str, setting: Mapping[str, Any] | None,
                 environ: Mapping[str, str]) -> LoadedConfig:
    """The workspace's servers (blocking: reads ``.mcp.json``; call it in a worker thread)."""
    out = LoadedConfig()
    path = Path(cwd) / CONFIG_FILE
    servers: dict[str, ServerConfig] = {}
    try:
        raw = json.loads(_read_regular(path))
    except FileNotFoundError:
        raw = None
    except (OSError, ValueError) as exc:
        out.warnings.append(f"{path} is not readable JSON ({exc}); its MCP servers are ignored")
        raw = None
    if raw is not None:
        if isinstance(raw, dict):
            servers.update(_servers_of(raw.get("mcpServers"), environ, str(path), out.warnings))
        else:
            out.warnings.append(f"{path} must hold a JSON object; ignored")
    own = Path(cwd) / WORKSPACE_SETTINGS
    try:
        data = json.loads(_read_regular(own))
    except FileNotFoundError:
        data = None
    except (OSError, ValueError):
        data = None  # the settings loader warns about this file
    if isinstance(data, dict):
        inner = data.get("contextSidecar")
        section: dict[str, Any] = inner if isinstance(inner, dict) else data
        servers.update(_servers_of(section.get("mcpServers"), environ, str(own), out.warnings))
    servers = {name: dataclasses.replace(c, workspace=True) for name, c in servers.items()}
    servers.update(_servers_of(dict(setting) if setting else None, environ,
                               "the mcpServers setting", out.warnings))
    out.servers = list(servers.values())
    return out
