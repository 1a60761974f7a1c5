"""CLAUDE.md discovery, includes and rendering of the user context."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

import pytest

from sidecar.core.accounting.tokens import SeedBytes
from sidecar.core.settings import Settings
from sidecar.core.workspace.claude_md import clean_memory_text
from sidecar.core.workspace.prefix import (
    CLAUDE_MD_HEADER,
    PrefixStore,
    prefix_for,
)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def store(cwd: Path, home: Path, **kw: object) -> PrefixStore:
    return PrefixStore(cwd, Settings(), home=home, **kw)  # type: ignore[arg-type]


def ours(s: PrefixStore, root: Path) -> list[tuple[str, str]]:
    """Memory files under the test folder, as (relative path, kind)."""
    return [(str(Path(f["path"]).relative_to(root)), f["kind"])
            for f in s.view().memory_files() if Path(f["path"]).is_relative_to(root)]


def test_discovery_order_root_down_with_agents_and_local(tmp_path: Path) -> None:
    home = tmp_path / "home"
    ws = tmp_path / "ws"
    cwd = ws / "a" / "b"
    cwd.mkdir(parents=True)
    write(home / ".claude" / "CLAUDE.md", "user rule")
    write(ws / "CLAUDE.md", "ws rule")
    write(ws / ".claude" / "CLAUDE.md", "ws dot-claude rule")
    write(ws / "CLAUDE.local.md", "ws local rule")
    write(ws / "a" / "AGENTS.md", "a agents rule")
    write(ws / "a" / "CLAUDE.md", "a claude rule, shadowed by AGENTS.md")
    write(cwd / "CLAUDE.md", "b rule")
    write(cwd / "CLAUDE.local.md", "b local rule")
    write(cwd / "deeper" / "CLAUDE.md", "below cwd: never loaded up front")

    s = store(cwd, home)
    assert ours(s, tmp_path) == [
        ("home/.claude/CLAUDE.md", "user"),
        ("ws/CLAUDE.md", "project"),
        ("ws/.claude/CLAUDE.md", "project"),
        ("ws/CLAUDE.local.md", "local"),
        ("ws/a/AGENTS.md", "project"),
        ("ws/a/b/CLAUDE.md", "project"),
        ("ws/a/b/CLAUDE.local.md", "local"),
    ]
    msg = s.view().user_context()
    assert msg is not None and msg.is_meta and msg.kind == "user"
    text = msg.text()
    assert text.startswith("<system-reminder>\n") and text.rstrip().endswith("</system-reminder>")
    assert CLAUDE_MD_HEADER in text and "# claudeMd" in text
    order = [text.index(r) for r in ("user rule", "ws rule", "ws dot-claude rule", "ws local rule",
                                     "a agents rule", "b rule", "b local rule")]
    assert order == sorted(order)
    assert "shadowed" not in text and "never loaded" not in text
    assert f"Contents of {cwd / 'CLAUDE.local.md'} (" in text
    assert f"Contents of {home / '.claude' / 'CLAUDE.md'} (the user's private" in text


def test_current_date_and_disable_switch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path / "CLAUDE.md", "project rule")
    s = store(tmp_path, tmp_path / "home", now=lambda: datetime(2025, 3, 4, 23, 59))
    text = s.view().user_context().text()  # type: ignore[union-attr]
    assert "# currentDate\nToday's date is 2025-03-04." in text
    assert text.index("# claudeMd") < text.index("# currentDate")

    monkeypatch.setenv("CLAUDE_CODE_DISABLE_CLAUDE_MDS", "1")
    off = store(tmp_path, tmp_path / "home")
    off_text = off.view().user_context().text()  # type: ignore[union-attr]
    assert "project rule" not in off_text and "# claudeMd" not in off_text
    assert "Today's date is" in off_text
    assert off.view().memory_files() == []
    assert not any(p.name == "CLAUDE.md" for p in off.watch_paths())


def test_frontmatter_and_html_comments_are_stripped(tmp_path: Path) -> None:
    write(tmp_path / "CLAUDE.md",
          "---\ndescription: meta\npaths: src/**\n---\n# Rules\nUse tabs.<!-- private note -->\n"
          "<!--\nmulti\nline\n-->\n```html\n<!-- example kept in code -->\n```\n")
    s = store(tmp_path, tmp_path / "home")
    text = s.view().user_context().text()  # type: ignore[union-attr]
    assert "description: meta" not in text and "private note" not in text and "multi" not in text
    assert "# Rules\nUse tabs." in text
    assert "<!-- example kept in code -->" in text
    assert clean_memory_text("no frontmatter --- here") == "no frontmatter --- here"


def test_includes_follow_up_to_depth_five_and_survive_cycles(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    # A chain CLAUDE.md -> c1 -> ... -> c7; files five or more includes away are not loaded.
    write(ws / "CLAUDE.md", "root @docs/c1.md")
    for i in range(1, 8):
        write(ws / "docs" / f"c{i}.md", f"chain {i} @./c{i + 1}.md")
    s = store(ws, tmp_path / "home")
    names = [Path(f["path"]).name for f in s.view().memory_files()]
    assert names == ["CLAUDE.md", "c1.md", "c2.md", "c3.md", "c4.md"]

    cyc = tmp_path / "cyc"
    write(cyc / "CLAUDE.md", "top @a.md")
    write(cyc / "a.md", "alpha @b.md")
    write(cyc / "b.md", "beta @a.md and @CLAUDE.md")
    s2 = store(cyc, tmp_path / "home")
    assert [Path(f["path"]).name for f in s2.view().memory_files()] == ["CLAUDE.md", "a.md", "b.md"]
    text = s2.view().user_context().text()  # type: ignore[union-attr]
    assert text.count("Contents of") == 3
    # The including file comes first, then what it includes.
    assert text.index("top @a.md") < text.index("alpha") < text.index("beta")


def test_include_rules(tmp_path: Path) -> None:
    home = tmp_path / "home"
    ws = tmp_path / "ws"
    outside = write(tmp_path / "elsewhere" / "shared.md", "outside the workspace")
    write(ws / "inside.md", "inside file.")
    write(ws / "code.md", "only in code")
    write(ws / "image.png", "not text")
    write(home / "notes.md", "home notes")
    write(ws / "CLAUDE.md",
          f"See @inside.md. Also @{outside} and @~/notes.md and `@code.md` and @image.png "
          "and someone@example.com and @missing.md\n```\n@code.md\n```\n")
    write(home / ".claude" / "CLAUDE.md", f"user file may include anything: @{outside}")
    s = store(ws, home)
    files = [(Path(f["path"]), f["kind"]) for f in s.view().memory_files()]
    assert files == [
        (home / ".claude" / "CLAUDE.md", "user"),
        (outside, "user"),  # included by the user's file: kind follows the includer
        (ws / "CLAUDE.md", "project"),
        (ws / "inside.md", "project"),
    ]
    # Without the user's file, the project file's include leaving the workspace is refused.
    (home / ".claude" / "CLAUDE.md").unlink()
    alone = [Path(f["path"]) for f in store(ws, home).view().memory_files()]
    assert alone == [ws / "CLAUDE.md", ws / "inside.md"]
    # Included files are watched too.
    assert ws / "inside.md" in s.watch_paths() and outside in s.watch_paths()


def test_memory_files_parts_and_registry(tmp_path: Path) -> None:
    write(tmp_path / "CLAUDE.md", "x" * 400)
    s = store(tmp_path, tmp_path / "home")
    (entry,) = [f for f in s.view().memory_files() if f["path"] == str(tmp_path / "CLAUDE.md")]
    assert entry == {"path": str(tmp_path / "CLAUDE.md"), "kind": "project", "tokens": 100,
                     "chars": 400}
    parts = s.view().parts(SeedBytes())
    assert set(parts) == {"system", "memoryFiles"}
    assert parts["memoryFiles"] > 100 and parts["system"] > 50

    a = prefix_for(tmp_path, Settings())
    assert prefix_for(tmp_path / "." , Settings()) is a
    assert prefix_for(tmp_path / "home", Settings()) is not a


def test_watch_paths_cover_every_location(tmp_path: Path) -> None:
    cwd = tmp_path / "ws" / "pkg"
    cwd.mkdir(parents=True)
    s = store(cwd, tmp_path / "home")
    paths = set(s.watch_paths())
    for d in (tmp_path, tmp_path / "ws", cwd, Path("/")):
        for rel in ("AGENTS.md", "CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md"):
            assert d / rel in paths
    assert tmp_path / "home" / ".claude" / "CLAUDE.md" in paths
    # Not a git repository: no git paths.
    assert not any(".git" in p.parts for p in paths)
    assert not re.search(r"CLAUDE", "".join(p.name for p in paths if p.exists()))
