"""The real Claude Code, from npm, run headless against the fake LLM server.

It is the positive control of the fake's validator (what a real client sends must pass) and
the peer of the cost benchmarks. The npm package is a native binary of about 245 MB; it is
installed once into a cache folder outside the checkout and reused.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

VERSION = "2.1.197"
PACKAGE = f"@anthropic-ai/claude-code@{VERSION}"


class ClaudeCodeUnavailable(RuntimeError):
    pass


def cache_dir() -> Path:
    base = os.environ.get("CONTEXT_SIDECAR_TEST_CACHE") or Path.home() / ".cache" / "context-sidecar"
    return Path(base) / f"claude-code-{VERSION}"


def _find_binary(root: Path) -> Path | None:
    scope = root / "node_modules" / "@anthropic-ai"
    for name in ("claude", "claude.exe"):
        for found in sorted(scope.glob(f"claude-code-*/{name}")):
            if found.is_file():
                return found
    return None


def install() -> Path:
    """The claude binary, installing the pinned version first if needed.

    Raises ClaudeCodeUnavailable when npm is missing; an npm failure is an error.
    """
    root = cache_dir()
    found = _find_binary(root)
    if found is not None:
        return found
    npm = shutil.which("npm")
    if npm is None:
        raise ClaudeCodeUnavailable("npm is not installed")
    root.mkdir(parents=True, exist_ok=True)
    # The package's postinstall only links the platform binary, which is found directly.
    subprocess.run([npm, "install", "--prefix", str(root), "--no-audit", "--no-fund",
                    "--ignore-scripts", PACKAGE], check=True, capture_output=True, timeout=900)
    found = _find_binary(root)
    if found is None:
        raise RuntimeError(f"npm installed {PACKAGE} but no claude binary for this platform")
    return found


@dataclass
class Run:
    returncode: int
    result: dict[str, Any]
    stderr: str


def run(binary: Path, args: list[str], *, cwd: Path, home: Path, base_url: str,
        extra_env: dict[str, str] | None = None, timeout: float = 300) -> Run:
    """``claude -p`` with a scratch HOME, pointed at the fake, JSON output."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "CLAUDE_"))}
    env.update({
        "HOME": str(home),
        "ANTHROPIC_BASE_URL": base_url,
        "ANTHROPIC_API_KEY": "sk-ant-fake-key-for-the-fake-server",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_AUTOUPDATER": "1",
        **(extra_env or {}),
    })
    done = subprocess.run([str(binary), *args, "--output-format", "json"], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout)
    try:
        result = json.loads(done.stdout.strip().splitlines()[-1]) if done.stdout.strip() else {}
    except json.JSONDecodeError:
        result = {"unparsed": done.stdout[-2000:]}
    return Run(done.returncode, result, done.stderr)
