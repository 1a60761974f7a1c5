"""git in a hostile repository, with and without sidecar.core.workspace.safe_git's overrides: each
program the repository's config names runs without them (the attack is real in this git)
and none runs with them."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from sidecar.core.settings import Settings
from sidecar.core.workspace import safe_git
from sidecar.core.workspace.prefix import PrefixStore
from tests.git_repo import Git

pytestmark = pytest.mark.skipif(os.name == "nt", reason="shell scripts as git helpers")


def helper(tmp_path: Path, name: str) -> str:
    """A script that leaves ``<name>`` in tmp_path/ran when something starts it."""
    script = tmp_path / f"{name}.sh"
    script.write_text(f"#!/bin/sh\necho {name} >> '{tmp_path / 'ran'}'\nexit 0\n")
    script.chmod(0o755)
    return str(script)


def ran(tmp_path: Path) -> list[str]:
    log = tmp_path / "ran"
    return log.read_text().split() if log.exists() else []


def run(cwd: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=30, check=False)


@pytest.fixture()
def hostile(repo: Path, git: Git, tmp_path: Path) -> Path:
    (repo / ".gitattributes").write_text("*.txt diff=evil filter=evil\n")
    (repo / "f.txt").write_text("one\n")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "attributes")
    git(repo, "config", "core.fsmonitor", helper(tmp_path, "fsmonitor"))
    git(repo, "config", "filter.evil.clean", helper(tmp_path, "clean"))
    git(repo, "config", "filter.evil.required", "true")
    (tmp_path / "included.cfg").write_text(f'[diff "evil"]\n\ttextconv = {helper(tmp_path, "textconv")}\n')
    git(repo, "config", "include.path", str(tmp_path / "included.cfg"))
    (repo / ".git" / "hooks" / "post-checkout").write_text(f"#!/bin/sh\n{helper(tmp_path, 'hook')}\n")
    (repo / ".git" / "hooks" / "post-checkout").chmod(0o755)
    # Same size, older stamp: the index's stat data no longer matches, so git hashes the
    # file again through the clean filter.
    (repo / "f.txt").write_text("two\n")
    os.utime(repo / "f.txt", (1_000_000, 1_000_000))
    return repo


def test_without_the_overrides_the_repository_runs_its_programs(hostile: Path, tmp_path: Path) -> None:
    run(hostile, "status")
    run(hostile, "-c", "filter.evil.required=false", "diff")
    assert {"fsmonitor", "clean", "textconv"} <= set(ran(tmp_path))


def test_with_the_overrides_status_diff_log_show_and_blame_run_nothing(hostile: Path,
                                                                       tmp_path: Path) -> None:
    env = safe_git.environment(os.environ, [hostile])
    status = run(hostile, "status", "--short", env=env)
    assert status.returncode == 0 and " M f.txt" in status.stdout
    for args in (["diff"], ["log", "-p", "-2"], ["show"], ["blame", "f.txt"]):
        run(hostile, *args, env=env)  # a textconv set empty makes these fail: closed
    assert run(hostile, "diff", "--no-textconv", env=env).stdout.count("+two") == 1
    run(hostile, "checkout", "-q", "-b", "x", env=env)  # the hook would run here
    assert ran(tmp_path) == []


def test_the_names_to_neutralize_come_from_the_repositorys_configs(hostile: Path, git: Git) -> None:
    names = safe_git.repository_config_names(hostile, dict(os.environ))
    assert {"core.fsmonitor", "filter.evil.clean", "diff.evil.textconv"} <= names
    module = hostile / ".git" / "modules" / "sub"
    module.mkdir(parents=True)
    (module / "config").write_text('[filter "Sub"]\n\tprocess = /bin/evil\n')
    assert "filter.Sub.process" in safe_git.repository_config_names(hostile, dict(os.environ))
    assert safe_git.neutralizing(["filter.Sub.process", "diff.x.command", "diff.external",
                                  "core.bare"]) == [
        ("diff.external", ""), ("diff.x.command", ""), ("filter.Sub.process", ""),
        ("filter.Sub.required", "false")]


def test_overrides_follow_those_already_in_the_environment() -> None:
    env = safe_git.with_overrides({"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "a.b",
                                   "GIT_CONFIG_VALUE_0": "c", "GIT_EXTERNAL_DIFF": "x"},
                                  [("core.fsmonitor", "false")])
    assert env["GIT_CONFIG_KEY_0"] == "a.b" and env["GIT_CONFIG_KEY_1"] == "core.fsmonitor"
    assert env["GIT_CONFIG_COUNT"] == "2" and "GIT_EXTERNAL_DIFF" not in env
    assert env["GIT_PAGER"] == "cat"


def test_a_lazy_fetch_of_a_partial_clone_does_not_connect(repo: Path, git: Git, tmp_path: Path) -> None:
    server = tmp_path / "server.git"
    git(tmp_path, "clone", "-q", "--bare", str(repo), str(server))
    git(server, "config", "uploadpack.allowFilter", "true")
    git(server, "config", "uploadpack.allowAnySHA1InWant", "true")
    clone = tmp_path / "partial"
    git(tmp_path, "clone", "-q", "--no-checkout", "--filter=blob:none", server.as_uri(), str(clone))
    git(clone, "config", "remote.origin.uploadpack", helper(tmp_path, "uploadpack"))
    run(clone, "log", "-p", "-1", env=safe_git.environment(os.environ, [clone]))
    assert ran(tmp_path) == []
    run(clone, "log", "-p", "-1")
    assert ran(tmp_path) == ["uploadpack"]


def test_the_prefix_snapshot_starts_no_fsmonitor(repo: Path, git: Git, tmp_path: Path) -> None:
    git(repo, "config", "core.fsmonitor", helper(tmp_path, "fsmonitor"))
    (repo / "new.txt").write_text("x\n")
    text = PrefixStore(repo, Settings(), home=tmp_path / "h").system_blocks()[1]["text"]
    assert "Current branch: main" in text and "?? new.txt" in text
    assert ran(tmp_path) == []


def test_a_work_tree_elsewhere_gives_no_snapshot(repo: Path, git: Git, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "id_rsa").write_text("private\n")
    git(repo, "config", "core.worktree", str(elsewhere))
    blocks = PrefixStore(repo, Settings(), home=tmp_path / "h").system_blocks()
    assert len(blocks) == 1 and "id_rsa" not in str(blocks)


def test_git_is_not_run_inside_a_submodule_whose_config_was_not_read(repo: Path, git: Git,
                                                                      tmp_path: Path) -> None:
    # An embedded repository: its config is in sub/.git, nowhere the scan looks.
    sub = repo / "sub"
    sub.mkdir()
    git(sub, "init", "-q", "-b", "main")
    (sub / ".gitattributes").write_text("*.txt filter=inner\n")
    (sub / "f.txt").write_text("one\n")
    git(sub, "add", ".")
    git(sub, "-c", "user.name=A", "-c", "user.email=a@b", "commit", "-q", "-m", "inner")
    git(repo, "add", "sub")
    git(repo, "commit", "-q", "-m", "embed")
    git(sub, "config", "filter.inner.clean", helper(tmp_path, "inner-clean"))

    def touch_inner() -> None:
        (sub / "f.txt").write_text("two\n")
        os.utime(sub / "f.txt", (1_000_000, 1_000_000))

    touch_inner()
    run(repo, "status", "--short")
    assert ran(tmp_path) == ["inner-clean"]
    (tmp_path / "ran").unlink()
    touch_inner()
    env = safe_git.environment(os.environ, [repo])
    assert run(repo, "status", "--short", env=env).returncode == 0
    run(repo, "diff", env=env)
    assert ran(tmp_path) == []


def test_plan_mode_does_not_run_git_with_a_work_tree_outside_the_workspace(repo: Path, git: Git,
                                                                           tmp_path: Path) -> None:
    from sidecar.tools.shell import plan_environment

    env = dict(os.environ)
    assert plan_environment("git status && ls", [repo], env)[1] is None
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    git(repo, "config", "core.worktree", str(elsewhere))
    _, why = plan_environment("git diff", [repo], env)
    assert why is not None and str(elsewhere) in why and "core.worktree" in why
    assert plan_environment("ls", [repo], env)[1] is None  # no git, nothing to ask
