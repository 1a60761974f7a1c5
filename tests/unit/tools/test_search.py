from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from sidecar.tools import search
from sidecar.tools.globbing import FileFilter, compile_glob, split_base
from sidecar.tools.search import GlobTool, GrepTool, LSTool

glob, grep, ls = GlobTool(), GrepTool(), LSTool()


def make_tree(ws: Path) -> None:
    files = {
        "src/app.py": "import os\nprint('Hello')\n",
        "src/util/helpers.py": "def helper():\n    return 'hello world'\n",
        "src/web/index.ts": "const hello = 1;\n",
        "src/web/view.tsx": "export const View = () => null;\n",
        "README.md": "# Project\nhello readme\n",
        "node_modules/dep/index.js": "hello from dependency\n",
        ".git/config": "hello git\n",
        ".venv/lib/site.py": "hello venv\n",
    }
    for rel, text in files.items():
        path = ws / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (ws / "image.bin").write_bytes(b"hello\x00\x01binary")


@pytest.mark.parametrize(
    "pattern,path,expected",
    [
        ("**/*.py", "a/b/c.py", True),
        ("**/*.py", "c.py", True),
        ("*.py", "a/c.py", False),
        ("src/**/*.{ts,tsx}", "src/web/view.tsx", True),
        ("src/**/*.{ts,tsx}", "lib/web/view.tsx", False),
        ("file?.txt", "file1.txt", True),
        ("[!a]*.txt", "b.txt", True),
        ("[!a]*.txt", "a.txt", False),
        ("a/**", "a/b/c", True),
    ],
)
def test_glob_translation(pattern: str, path: str, expected: bool) -> None:
    assert bool(compile_glob(pattern).match(path)) is expected


def test_file_filter_and_base_split() -> None:
    assert FileFilter.of("*.py").matches("deep/dir/x.py")
    assert not FileFilter.of("src/*.py").matches("lib/x.py")
    assert FileFilter.of("src/*.py").matches("src/x.py")
    assert split_base("src/**/*.py") == ("src", "**/*.py")
    assert split_base("/abs/dir/*.py") == ("/abs/dir", "*.py")
    assert split_base("*.py") == ("", "*.py")


async def test_glob_finds_files_newest_first_and_skips_vendor_dirs(ws: Path, ctx: Any) -> None:
    make_tree(ws)
    old = time.time() - 100
    os.utime(ws / "src/app.py", (old, old))
    outcome = await glob.run({"pattern": "**/*.py"}, ctx)
    found = outcome.content.splitlines()
    assert found == [str(ws / "src/util/helpers.py"), str(ws / "src/app.py")]
    assert outcome.raw_output == {"numFiles": 2, "truncated": False}
    # A pattern that names a skipped directory searches it.
    vendored = await glob.run({"pattern": "node_modules/**/*.js"}, ctx)
    assert vendored.content == str(ws / "node_modules/dep/index.js")
    scoped = await glob.run({"pattern": "*.ts*", "path": "src/web"}, ctx)
    assert sorted(scoped.content.splitlines()) == [
        str(ws / "src/web/index.ts"),
        str(ws / "src/web/view.tsx"),
    ]
    assert (await glob.run({"pattern": "**/*.rs"}, ctx)).content == "No files found"
    missing = await glob.run({"pattern": "*", "path": "nope"}, ctx)
    assert missing.is_error and "does not exist" in missing.content


async def test_glob_caps_results(ws: Path, ctx: Any) -> None:
    for i in range(search.GLOB_MAX_RESULTS + 5):
        (ws / f"f{i:03}.txt").write_text("")
    outcome = await glob.run({"pattern": "*.txt"}, ctx)
    lines = outcome.content.splitlines()
    assert len(lines) == search.GLOB_MAX_RESULTS + 1
    assert lines[-1] == search.TRUNCATED_NOTE
    assert outcome.raw_output == {"numFiles": search.GLOB_MAX_RESULTS + 5, "truncated": True}


async def test_glob_skips_symlinks_leading_outside(ws: Path, tmp_path: Path, ctx: Any) -> None:
    (tmp_path / "outside.py").write_text("")
    (ws / "leak.py").symlink_to(tmp_path / "outside.py")
    (ws / "ok.py").write_text("")
    outcome = await glob.run({"pattern": "*.py"}, ctx)
    assert outcome.content == str(ws / "ok.py")


async def test_grep_modes(ws: Path, ctx: Any) -> None:
    make_tree(ws)
    files = await grep.run({"pattern": "hello"}, ctx)
    lines = files.content.splitlines()
    assert lines[0] == "Found 3 files"
    assert set(lines[1:]) == {
        str(ws / "src/util/helpers.py"),
        str(ws / "src/web/index.ts"),
        str(ws / "README.md"),
    }
    insensitive = await grep.run({"pattern": "hello", "-i": True, "glob": "*.py"}, ctx)
    assert set(insensitive.content.splitlines()[1:]) == {
        str(ws / "src/app.py"),
        str(ws / "src/util/helpers.py"),
    }
    content = await grep.run(
        {"pattern": "hello", "output_mode": "content", "path": "README.md"}, ctx
    )
    assert content.content == f"{ws / 'README.md'}:2:hello readme"
    no_numbers = await grep.run(
        {"pattern": "hello", "output_mode": "content", "path": "README.md", "-n": False}, ctx
    )
    assert no_numbers.content == f"{ws / 'README.md'}:hello readme"
    counted = await grep.run({"pattern": "o", "output_mode": "count", "glob": "src/**/*.py"}, ctx)
    assert f"{ws / 'src/app.py'}:2" in counted.content
    assert f"{ws / 'src/util/helpers.py'}:1" in counted.content
    assert "Found 3 matching lines across 2 files." in counted.content
    none = await grep.run({"pattern": "zzz_nothing"}, ctx)
    assert none.content == "No files found" and not none.is_error


async def test_grep_context_lines(ws: Path, ctx: Any) -> None:
    (ws / "c.txt").write_text("\n".join(f"l{i}" for i in range(1, 21)) + "\n")
    outcome = await grep.run({"pattern": "^l(5|15)$", "output_mode": "content", "-C": 1}, ctx)
    p = ws / "c.txt"
    assert outcome.content.splitlines() == [
        f"{p}-4-l4",
        f"{p}:5:l5",
        f"{p}-6-l6",
        "--",
        f"{p}-14-l14",
        f"{p}:15:l15",
        f"{p}-16-l16",
    ]


async def test_grep_caps_and_long_lines(ws: Path, ctx: Any) -> None:
    (ws / "many.txt").write_text("match\n" * 300 + "match" + "x" * 1000 + "\n")
    outcome = await grep.run({"pattern": "match", "output_mode": "content"}, ctx)
    lines = outcome.content.splitlines()
    assert len(lines) == search.GREP_DEFAULT_LINES + 1 and lines[-1] == search.TRUNCATED_NOTE
    assert outcome.raw_output["truncated"] is True
    tail = await grep.run({"pattern": "matchx", "output_mode": "content"}, ctx)
    assert tail.content.endswith("[... line truncated]") and len(tail.content) < 700
    limited = await grep.run({"pattern": "match", "output_mode": "content", "head_limit": 3}, ctx)
    assert len(limited.content.splitlines()) == 4


async def test_grep_bad_regex_and_binary(ws: Path, ctx: Any) -> None:
    make_tree(ws)
    bad = await grep.run({"pattern": "("}, ctx)
    assert bad.is_error and "Invalid regular expression" in bad.content
    outcome = await grep.run({"pattern": "binary"}, ctx)
    assert outcome.content == "No files found"


async def test_ls_tree_and_cap(ws: Path, ctx: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    make_tree(ws)
    outcome = await ls.run({}, ctx)
    assert outcome.content.splitlines() == [
        f"- {ws}/",
        "  - README.md",
        "  - image.bin",
        "  - src/",
        "    - app.py",
        "    - util/",
        "      - helpers.py",
        "    - web/",
        "      - index.ts",
        "      - view.tsx",
    ]
    ignored = await ls.run({"path": "src", "ignore": ["web"]}, ctx)
    assert "web" not in ignored.content and "helpers.py" in ignored.content
    monkeypatch.setattr(search, "LS_MAX_ENTRIES", 3)
    capped = await ls.run({"path": str(ws)}, ctx)
    assert capped.content.startswith("There are more than 3 entries")
    assert capped.raw_output["truncated"] is True and capped.raw_output["entries"] == 3
    file_given = await ls.run({"path": "README.md"}, ctx)
    assert file_given.is_error and "not a directory" in file_given.content


async def test_search_stops_when_cancelled(ws: Path, ctx: Any) -> None:
    make_tree(ws)
    ctx.cancelled.set()
    for tool, args in ((glob, {"pattern": "**/*"}), (grep, {"pattern": "x"}), (ls, {})):
        outcome = await tool.run(args, ctx)
        assert outcome.is_error and outcome.raw_output.get("cancelled") is True


def test_titles() -> None:
    assert glob.title({"pattern": "**/*.py"}) == "Glob **/*.py"
    assert grep.title({"pattern": "foo", "glob": "*.py"}) == "Grep 'foo' (*.py)"
    assert ls.title({}) == "List"
