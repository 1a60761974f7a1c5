"""The commands plan mode runs unasked: each on a list with the options it may take, every
path it reads inside the workspace."""

from __future__ import annotations

from pathlib import Path

import pytest

from sidecar.core.permissions.readonly_shell import vet
from sidecar.core.permissions.shell_syntax import parse


@pytest.fixture()
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    (root / "src").mkdir(parents=True)
    (root / "a.py").write_text("print(1)\n")
    (root / "data.txt").write_text("touch PWNED\n")
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.txt").write_text("secret\n")
    return root


@pytest.mark.parametrize("command", [
    "ls -la", "cat a.py | head -5", "git status && git log --oneline -5", "rg -n foo src",
    "find . -name '*.py' -type f", "git diff HEAD~1 -- a.py", "wc -l a.py; pwd", "git branch -a",
    "git stash list", "sort -r data.txt", "grep -c x a.py || true", "head -n5 a.py", "tail -20 a.py",
    "git log -p -3 --stat --format='%h %s'", "git status -sb", "cd src && ls", "echo 'a > b'",
    "grep -rn 'TODO' .", "git show HEAD:a.py", "sha256sum a.py", "tr a-z A-Z", "ls src/*",
    "git diff --no-textconv --no-ext-diff", "git branch -l 'fix*'", "git rev-parse --show-toplevel",
    "sort -k2 -t, -n data.txt", "rg -e x -g '*.py'", "find src -maxdepth 2 -newer a.py -print",
    "git log --pretty=format:%h%x09%s", "stat -c %s a.py", "diff -u a.py data.txt", "cat a.py;",
    "git blame -L 1,2 a.py", "git grep -n print", "du -sh .", "tree -L 2", "git reflog",
])
def test_read_only_commands_inside_the_workspace_run(ws: Path, command: str) -> None:
    got = vet(command, [ws])
    assert got.action == "allow", (command, got.reason)


@pytest.mark.parametrize("command,why", [
    # Options that write or run another program are not on their command's list.
    ("sort --compress-program=sh data.txt", "`sort --compress-program` is not one of the options"),
    ("sort --compress=sh data.txt", "`sort --compress` is not one of the options"),  # an abbreviation
    ("sort -T /tmp data.txt", "`sort -T`"), ("sort -ro out data.txt", "`sort -o`"),
    ("find . -exec rm '{}' ';'", "`find -exec`"), ("find . -delete", "`find -delete`"),
    ("find . -fprint out", "`find -fprint`"), ("find -L . -name x", "`find -L`"),
    ("rg --pre=sh x", "`rg --pre`"), ("rg --pre sh x", "`rg --pre`"), ("rg -z x", "`rg -z`"),
    ("git -c core.pager=sh log", "`git -c`"), ("git -C /tmp status", "`git -C`"),
    ("git diff --ext-diff", "`git diff --ext-diff`"), ("git diff --textconv", "`git diff --textconv`"),
    ("git log --output=x", "`git log --output`"), ("git log --output x", "`git log --output`"),
    ("git log --show-signature", "`git log --show-signature`"), ("git log --format=%G?", "%G"),
    ("git grep -O x", "`git grep -O`"), ("git diff --no-index a b", "`git diff --no-index`"),
    ("git commit -m x", "`git commit`"), ("git branch new", "`git branch new` creates"),
    ("git tag v1", "`git tag v1` creates"), ("git stash", "`git stash push`"),
    ("git remote add o u", "`git remote add`"), ("git config core.pager sh", "`git config`"),
    ("tree -o out", "`tree -o`"), ("diff -r a b", "`diff -r`"), ("tail -f a.py", "`tail -f`"),
    # Shell syntax beyond plain words.
    ("echo x > f", "'>'"), ("cat <<EOF", "'<'"), ("ls $(pwd)", "'$'"), ("cat \"$HOME/x\"", "'$'"),
    ("ls `id`", "'`'"), ("sleep 9 &", "'&'"), ("(ls)", "'('"), ("ls {a,b}", "'{'"),
    ("ls\nrm x", "line break"), ("ls 'unbalanced", "unbalanced"), ("ls |& cat", "'|&'"),
    ("ls ||", "ends with an operator"), ("FOO=1 ls", "sets a variable"), ("echo a=~/x", "'~'"),
    ("rm -rf build", "`rm` is not one of the read-only commands"),
    ("cat a | xargs rm", "`xargs` is not one"), ("python -c 'print(1)'", "`python` is not one"),
])
def test_anything_else_is_refused_with_the_reason(ws: Path, command: str, why: str) -> None:
    got = vet(command, [ws])
    assert got.action == "refuse" and why in got.reason, (command, got)


@pytest.mark.parametrize("command", [
    "cat ../outside/secret.txt", "cat /etc/passwd", "cat ~/.bashrc", "head -3 ../outside/secret.txt",
    "grep -e secret -- a.py ../outside/secret.txt", "rg secret ../outside", "find .. -name x",
    "cd .. && cat outside/secret.txt", "cd src; cat ../../outside/secret.txt", "cd /tmp", "cd",
    "git diff /etc/passwd a.py", "git log -- ../outside", "grep -f ../outside/secret.txt a.py",
    "ls ../outside",
])
def test_a_path_outside_the_workspace_asks(ws: Path, command: str) -> None:
    got = vet(command, [ws])
    assert got.action == "ask", (command, got)


def test_a_link_out_of_the_workspace_asks_even_through_a_glob(ws: Path) -> None:
    (ws / "link.txt").symlink_to(ws.parent / "outside" / "secret.txt")
    assert vet("cat link.txt", [ws]).action == "ask"
    assert vet("cat lin*", [ws]).action == "ask"
    assert vet("cat a*", [ws]).action == "allow"


def test_diff_of_a_folder_and_dot_globs_ask(ws: Path) -> None:
    # diff compares the files of a folder through their links; `.*` may match `..`.
    assert vet("diff src a.py", [ws]).action == "ask"
    assert vet("ls .*", [ws]).action == "ask"
    assert vet("ls src/.*", [ws]).action == "allow"  # src/.. is the workspace
    assert vet("echo ../*", [ws]).action == "ask"  # a glob names paths, even for echo


def test_a_file_named_like_an_option_cannot_become_one(ws: Path) -> None:
    # bash would expand `*` to `--pre=sh a.py data.txt src`: rg would run sh.
    (ws / "--pre=sh").write_text("")
    got = vet("rg x *", [ws])
    assert got.action == "refuse" and "`rg --pre`" in got.reason
    assert vet("rg x -- *", [ws]).action == "allow"
    assert vet("rg x '*'", [ws]).action == "allow"  # quoted: no glob


def test_git_runs_are_reported_in_each_folder_they_may_run_in(ws: Path) -> None:
    assert vet("ls", [ws]).git_cwds == ()
    assert vet("git status", [ws]).git_cwds == (ws.resolve(),)
    both = vet("cd src && git log", [ws]).git_cwds
    assert set(both) == {ws.resolve(), (ws / "src").resolve()}  # cd may fail


def test_many_cds_are_refused_before_the_folders_multiply(ws: Path) -> None:
    for i in range(8):
        (ws / f"d{i}").mkdir()
    got = vet("; ".join(f"cd d{i}" for i in range(8)) + "; ls", [ws])
    assert got.action == "refuse" and "folders" in got.reason


def test_quoting_is_read_as_bash_reads_it() -> None:
    [[cmd, *args]] = parse("""grep -e 'a b' "c\\"d" e\\ f 'x > y'""")
    assert [w.text for w in args] == ["-e", "a b", 'c"d', "e f", "x > y"]
    assert [len(s) for s in parse("ls && pwd || true; wc -l x | sort")] == [1, 1, 1, 3, 1]
    assert parse("ls *.py")[0][1].pattern == "*.py"
    assert parse("ls '*'.py")[0][1].pattern is None
