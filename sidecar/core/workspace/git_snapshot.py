"""The git state of a workspace as the prompt prefix shows it: branch, status, recent commits.

git runs with ``sidecar.core.workspace.safe_git``'s overrides (the repository's config starts
nothing), without keys in its environment, and with a timeout; the status and log it prints
are redacted before they reach the prompt.
"""

from __future__ import annotations

import logging
import os
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from sidecar.core.process_groups import new_group_options
from sidecar.core.secrets.held_keys import child_environment
from sidecar.core.workspace import safe_git

log = logging.getLogger(__name__)

GIT_STATUS_MAX_CHARS = 2_000
GIT_TIMEOUT_SECONDS = 5.0
SNAPSHOT_NOTE = (
    "This is the git status at the start of the conversation. It is a snapshot and will "
    "not update during the conversation."
)
TRUNCATION_NOTE = (
    "... (status truncated at 2,000 characters; run `git status` with the Bash tool to see "
    "all of it)"
)


@dataclass(frozen=True)
class GitRepo:
    toplevel: Path
    git_dir: Path  # HEAD and index live here (per worktree)
    common_dir: Path  # refs and packed-refs live here (shared by worktrees)


@dataclass(frozen=True)
class GitSnapshot:
    branch: str
    main_branch: str
    user: str | None
    status: str
    commits: str
    head: str

    def status_text(self) -> str:
        if not self.status:
            return "(clean)"
        if len(self.status) > GIT_STATUS_MAX_CHARS:
            return self.status[:GIT_STATUS_MAX_CHARS] + "\n" + TRUNCATION_NOTE
        return self.status

    def render(self) -> str:
        parts = [SNAPSHOT_NOTE, f"Current branch: {self.branch}",
                 f"Main branch (you will usually use this for pull requests): {self.main_branch}"]
        if self.user:
            parts.append(f"Git user: {self.user}")
        parts.append(f"Status:\n{self.status_text()}")
        parts.append(f"Recent commits:\n{self.commits or '(no commits yet)'}")
        return "\n\n".join(parts)

    def render_change(self) -> str:
        return (
            "The git state of the workspace changed since the conversation started (the git "
            "status in the system prompt is older). It is now:\n\n"
            f"Current branch: {self.branch}\n\nStatus:\n{self.status_text()}\n\n"
            f"Recent commits:\n{self.commits or '(no commits yet)'}"
        )


def _git_env(cwd: Path, timeout: float) -> dict[str, str]:
    # No keys, and none of the programs the repository's config names (fsmonitor, hooks,
    # filters, textconv, ...): sidecar.core.workspace.safe_git says which overrides keep them out.
    return safe_git.environment(child_environment(), [cwd], timeout)


def run_git(cwd: Path, commands: dict[str, list[str]],
            timeout: float = GIT_TIMEOUT_SECONDS) -> dict[str, str | None]:
    """Run git commands in parallel; a failing, missing or slow command gives None. They
    run with the overrides of ``sidecar.core.workspace.safe_git``: the repository's config starts
    nothing."""
    from sidecar.core.secrets.redaction import redact_api_keys

    procs: dict[str, subprocess.Popen[bytes] | None] = {}
    env = _git_env(cwd, timeout)
    for key, args in commands.items():
        try:
            procs[key] = subprocess.Popen(
                ["git", "--no-optional-locks", *args], cwd=cwd, env=env,
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                # Its own process group, so a timeout also ends helpers git started (hooks,
                # fsmonitor) that would otherwise hold the output pipe open.
                **new_group_options(),
            )
        except OSError as exc:
            log.debug("git %s failed to start: %s", args[0], exc)
            procs[key] = None
    deadline = time.monotonic() + timeout
    results: dict[str, str | None] = {}
    for key, proc in procs.items():
        if proc is None:
            results[key] = None
            continue
        try:
            out, _ = proc.communicate(timeout=max(0.01, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            safe_git.stop(proc)
            log.warning("git %s timed out after %.1fs", commands[key][0], timeout)
            results[key] = None
            continue
        text = out.decode("utf-8", "replace").rstrip("\n") if proc.returncode == 0 else None
        # Status and log go into the system prompt: a key in a commit message must not.
        results[key] = redact_api_keys(text) if text is not None else None
    return results


def find_repo(cwd: Path, timeout: float = GIT_TIMEOUT_SECONDS) -> GitRepo | None:
    """The repository ``cwd`` is in; None outside one, and when its work tree is not
    ``cwd`` or a folder above it (a ``core.worktree`` pointing elsewhere: its files are
    not this workspace's)."""
    out = run_git(cwd, {"where": ["rev-parse", "--show-toplevel", "--absolute-git-dir",
                                  "--git-common-dir"]}, timeout)["where"]
    lines = out.splitlines() if out else []
    if len(lines) < 3:
        return None
    if not safe_git.is_above(lines[0], cwd):
        log.warning("git work tree %s is not above %s; no git snapshot", lines[0], cwd)
        return None
    common = Path(lines[2])
    if not common.is_absolute():
        common = Path(os.path.normpath(cwd / common))
    return GitRepo(Path(lines[0]), Path(lines[1]), common)


def git_snapshot(cwd: Path, timeout: float = GIT_TIMEOUT_SECONDS) -> GitSnapshot:
    r = run_git(cwd, {
        "branch": ["branch", "--show-current"],
        "head": ["rev-parse", "--short", "HEAD"],
        "origin": ["rev-parse", "--abbrev-ref", "origin/HEAD"],
        "locals": ["for-each-ref", "--format=%(refname:short)", "refs/heads/main",
                   "refs/heads/master"],
        "status": ["status", "--short"],
        "log": ["log", "--oneline", "-n", "5"],
        "user": ["config", "user.name"],
    }, timeout)
    head = (r["head"] or "").strip()
    branch = (r["branch"] or "").strip() or (f"HEAD (detached at {head})" if head else "HEAD")
    origin = (r["origin"] or "").strip()
    local = (r["locals"] or "").split()
    if origin and origin != "origin/HEAD":
        main = origin.removeprefix("origin/")
    else:
        main = "main" if "main" in local else "master" if "master" in local else "main"
    return GitSnapshot(branch=branch, main_branch=main, user=(r["user"] or "").strip() or None,
                       status=r["status"] or "", commits=r["log"] or "", head=head)
