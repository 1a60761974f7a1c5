"""The git snapshot in the system context, against real repositories."""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from sidecar.core.settings import Settings, Tools
from sidecar.core.workspace.git_snapshot import (
    GIT_STATUS_MAX_CHARS,
    SNAPSHOT_NOTE,
    TRUNCATION_NOTE,
)
from sidecar.core.workspace.prefix import PrefixStore

Git = Callable[..., str]  # the `git` fixture: git(cwd, *args) -> stdout


def test_system_blocks_hold_prompt_then_git_snapshot(repo: Path, git: Git, tmp_path: Path) -> None:
    for i in range(2, 8):
        (repo / f"f{i}.txt").write_text(str(i))
        git(repo, "add", ".")
        git(repo, "commit", "-q", "-m", f"commit number {i}")
    git(repo, "checkout", "-q", "-b", "feature/x")
    (repo / "README.md").write_text("changed\n")
    (repo / "new.txt").write_text("untracked\n")

    s = PrefixStore(repo, Settings(), home=tmp_path / "home")
    blocks = s.system_blocks()
    assert len(blocks) == 2 and all(b["type"] == "text" for b in blocks)
    prompt, context = blocks[0]["text"], blocks[1]["text"]
    # The tools are in the request's tool definitions, not listed again in the prompt.
    assert "Your tools are" not in prompt and "Look before you change" in prompt
    assert str(repo) in prompt and "relative to the workspace" in prompt
    assert context.startswith("gitStatus: " + SNAPSHOT_NOTE)
    assert "Current branch: feature/x" in context
    assert "main branch" in context.lower() and ": main\n" in context
    assert "Git user: Ada Lovelace" in context
    assert " M README.md" in context and "?? new.txt" in context
    commits = context.split("Recent commits:\n", 1)[1].splitlines()
    assert len(commits) == 5 and commits[0].endswith("commit number 7")
    assert "first commit" not in context  # only the last five

    # Callers may annotate blocks (cache_control) without touching the memo.
    blocks[1]["cache_control"] = {"type": "ephemeral"}
    assert "cache_control" not in s.system_blocks()[1]


def test_no_git_block_outside_a_repo_and_no_bash_without_shell(tmp_path: Path) -> None:
    s = PrefixStore(tmp_path, Settings(tools=Tools(shell=False)), home=tmp_path / "home")
    blocks = s.system_blocks()
    assert len(blocks) == 1
    assert "Bash" not in blocks[0]["text"]


def test_origin_head_names_the_main_branch(repo: Path, git: Git, tmp_path: Path) -> None:
    git(repo, "branch", "-m", "main", "trunk")
    git(repo, "update-ref", "refs/remotes/origin/trunk", "HEAD")
    git(repo, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/trunk")
    git(repo, "checkout", "-q", "-b", "work")
    text = PrefixStore(repo, Settings(), home=tmp_path / "h").system_blocks()[1]["text"]
    assert "pull requests): trunk" in text and "Current branch: work" in text


def test_status_is_truncated_at_two_thousand_characters(repo: Path, git: Git,
                                                        tmp_path: Path) -> None:
    for i in range(120):
        (repo / f"untracked_file_with_a_long_name_{i:04d}.txt").write_text("x")
    full = git(repo, "status", "--short").rstrip("\n")
    assert len(full) > GIT_STATUS_MAX_CHARS
    text = PrefixStore(repo, Settings(), home=tmp_path / "h").system_blocks()[1]["text"]
    status = text.split("Status:\n", 1)[1].split("\n\nRecent commits:", 1)[0]
    assert status == full[:GIT_STATUS_MAX_CHARS] + "\n" + TRUNCATION_NOTE


def test_clean_tree_and_empty_repo(tmp_path: Path, git: Git) -> None:
    root = tmp_path / "empty"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    text = PrefixStore(root, Settings(), home=tmp_path / "h").system_blocks()[1]["text"]
    assert "Current branch: main" in text
    assert "Status:\n(clean)" in text and "(no commits yet)" in text
    assert "Git user" not in text  # none configured


def test_slow_or_missing_git_never_fails(repo: Path, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "git"
    # A child that outlives the shell keeps the pipe open: the timeout must end it too.
    fake.write_text("#!/bin/sh\nsleep 30 &\nsleep 30\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}/usr/bin{os.pathsep}/bin")
    started = time.monotonic()
    s = PrefixStore(repo, Settings(), home=tmp_path / "h", git_timeout=0.3)
    assert len(s.system_blocks()) == 1
    assert 0.3 <= time.monotonic() - started < 3
    assert not any(".git" in p.parts for p in s.watch_paths())

    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))
    assert len(PrefixStore(repo, Settings(), home=tmp_path / "h").system_blocks()) == 1
    assert os.environ["PATH"].endswith("nothing-here")


def test_git_paths_are_watched(repo: Path, tmp_path: Path) -> None:
    paths = PrefixStore(repo / ".", Settings(), home=tmp_path / "h").watch_paths()
    for rel in ("HEAD", "index", "refs", "packed-refs"):
        assert repo / ".git" / rel in paths
