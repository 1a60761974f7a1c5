"""Configuring MCP servers for a test workspace, starting the HTTP ones, and the npm one
installed once into a cache folder outside the checkout."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
EVERYTHING_VERSION = "2026.8.31"
EVERYTHING = f"@modelcontextprotocol/server-everything@{EVERYTHING_VERSION}"


class NpmUnavailable(RuntimeError):
    pass


def probe_stdio(*args: str, env: dict[str, str] | None = None) -> dict[str, Any]:
    """A ``.mcp.json`` entry for the probe server over stdio; PYTHONPATH comes from the
    sidecar's environment through ``${...}`` expansion."""
    return {"command": sys.executable, "args": ["-m", "tests.mcp_servers.probe_server", *args],
            "env": {"PYTHONPATH": "${PROBE_ROOT}", **(env or {})}}


def saas_stdio() -> dict[str, Any]:
    """A ``.mcp.json`` entry for the 300-tool SaaS server over stdio."""
    return {"command": sys.executable, "args": ["-m", "tests.mcp_servers.saas_server"],
            "env": {"PYTHONPATH": "${PROBE_ROOT}"}}


def write_mcp_json(workspace: Path, servers: dict[str, Any]) -> None:
    (workspace / ".mcp.json").write_text(json.dumps({"mcpServers": servers}, indent=2))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class HttpProbe:
    """The probe server over streamable HTTP, in its own process."""

    def __init__(self, *args: str) -> None:
        self.port = free_port()
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.mcp_servers.probe_server", "--http", str(self.port), *args],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                if self.proc.poll() is not None:
                    raise RuntimeError("the HTTP probe server exited at start")
                time.sleep(0.1)
        raise RuntimeError("the HTTP probe server did not listen")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def cache_dir() -> Path:
    base = os.environ.get("CONTEXT_SIDECAR_TEST_CACHE") or Path.home() / ".cache" / "context-sidecar"
    return Path(base) / f"mcp-server-everything-{EVERYTHING_VERSION}"


def everything_server() -> list[str]:
    """The command of the reference 'everything' server (node + its entry point), installing
    the pinned version first if needed. Raises NpmUnavailable when node or npm is missing."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        raise NpmUnavailable("node or npm is not installed")
    root = cache_dir()
    entry = root / "node_modules" / "@modelcontextprotocol" / "server-everything" / "dist" / "index.js"
    if not entry.is_file():
        root.mkdir(parents=True, exist_ok=True)
        subprocess.run([npm, "install", "--prefix", str(root), "--no-audit", "--no-fund",
                        "--ignore-scripts", EVERYTHING], check=True, capture_output=True, timeout=600)
    if not entry.is_file():
        raise RuntimeError(f"npm installed {EVERYTHING} but {entry} is missing")
    return [node, str(entry), "stdio"]
