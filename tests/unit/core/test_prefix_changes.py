"""Cache-aware invalidation: changes reach each session once, the memo waits for rebuild."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from sidecar.core.settings import Settings
from sidecar.core.workspace.prefix import PrefixStore

Git = Callable[..., str]  # the `git` fixture: git(cwd, *args) -> stdout


def texts(messages: list) -> list[str]:  # type: ignore[type-arg]
    return [m.text() for m in messages]


def test_memo_stays_and_each_cursor_gets_each_change_once(repo: Path, tmp_path: Path) -> None:
    claude = repo / "CLAUDE.md"
    claude.write_text("version one")
    s = PrefixStore(repo, Settings(), home=tmp_path / "home")
    session_view = s.view()
    user_before = session_view.user_context()
    assert user_before is not None and "version one" in user_before.text()

    claude.write_text("version two")
    s.on_change({claude})
    # A session's view is its own: the provider's cached prefix stays valid for it.
    assert "version one" in session_view.user_context().text()  # type: ignore[union-attr]

    first, cur_a = s.changes_since(session_view.seq)
    assert len(first) == 1
    (msg,) = first
    assert msg.kind == "attachment" and msg.attachment is not None
    assert msg.attachment["type"] == "claude_md_changed"
    assert msg.attachment["path"] == str(claude) and msg.attachment["content"] == "version two"
    assert msg.text().startswith(f"The file {claude} ")
    assert "changed since the conversation started" in msg.text()
    assert msg.text().endswith("version two")
    assert s.changes_since(cur_a) == ([], cur_a)

    # A second session with its own cursor gets the same change, once.
    second, cur_b = s.changes_since(0)
    assert texts(second) == texts(first) and cur_b == cur_a
    assert second[0].uuid != first[0].uuid  # each history gets its own record

    claude.write_text("version three")
    s.on_change({claude})
    more, cur_a2 = s.changes_since(cur_a)
    assert [m.attachment["content"] for m in more] == ["version three"]  # type: ignore[index]
    # A session that never asked sees only the latest content of the file.
    late, _ = s.changes_since(0)
    assert [m.attachment["content"] for m in late] == ["version three"]  # type: ignore[index]

    # A session starting over (new, compacted, cleared) takes a fresh view: it holds the
    # latest content, and the changes it holds are not repeated to it.
    fresh = s.view()
    assert "version three" in fresh.user_context().text()  # type: ignore[union-attr]
    assert fresh.seq == cur_a2 and s.changes_since(fresh.seq)[0] == []
    # The older session still gets what it has not seen.
    assert s.changes_since(cur_a)[0] != []


def test_unchanged_content_and_unrelated_paths_record_nothing(repo: Path, tmp_path: Path) -> None:
    claude = repo / "CLAUDE.md"
    claude.write_text("same")
    s = PrefixStore(repo, Settings(), home=tmp_path / "home")
    s.view().user_context()
    claude.write_text("same")  # rewritten with the same text: an editor's save
    s.on_change({claude, repo / "src" / "main.py", repo / "deeper" / "notes.txt"})
    s.on_change({repo / ".git" / "index"})  # index touched, nothing else moved
    assert s.changes_since(0)[0] == []


def test_created_deleted_and_shadowed_files(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    claude = ws / "CLAUDE.md"
    claude.write_text("claude rules")
    s = PrefixStore(ws, Settings(), home=tmp_path / "home")
    s.view().user_context()

    local = ws / "CLAUDE.local.md"
    local.write_text("my private rules")
    s.on_change({local})
    (created,), cur = s.changes_since(0)
    assert created.attachment == {"type": "claude_md_changed", "path": str(local),
                                  "kind": "local", "deleted": False, "content": "my private rules"}

    local.unlink()
    s.on_change({local})
    (deleted,), cur = s.changes_since(cur)
    assert deleted.attachment["deleted"] is True  # type: ignore[index]
    assert "was deleted" in deleted.text()

    # AGENTS.md takes the place of CLAUDE.md in the same folder.
    agents = ws / "AGENTS.md"
    agents.write_text("agents rules")
    s.on_change({agents})
    changes, cur = s.changes_since(cur)
    by_path = {m.attachment["path"]: m for m in changes}  # type: ignore[index]
    assert by_path[str(agents)].attachment["content"] == "agents rules"  # type: ignore[index]
    assert by_path[str(claude)].attachment["deleted"] is True  # type: ignore[index]
    assert "no longer applies" in by_path[str(claude)].text()


def test_new_include_is_reported_and_watched(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    claude = ws / "CLAUDE.md"
    claude.write_text("base")
    (ws / "style.md").write_text("tabs, not spaces")
    s = PrefixStore(ws, Settings(), home=tmp_path / "home")
    assert ws / "style.md" not in s.watch_paths()
    claude.write_text("base, see @style.md")
    s.on_change({claude})
    changes, cur = s.changes_since(0)
    paths = {m.attachment["path"] for m in changes}  # type: ignore[index]
    assert paths == {str(claude), str(ws / "style.md")}
    assert ws / "style.md" in s.watch_paths()  # watched before any rebuild
    (ws / "style.md").write_text("spaces after all")
    s.on_change({ws / "style.md"})
    (m,), _ = s.changes_since(cur)
    assert m.attachment["content"] == "spaces after all"  # type: ignore[index]


def test_git_changes_become_one_attachment(repo: Path, git: Git, tmp_path: Path) -> None:
    s = PrefixStore(repo, Settings(), home=tmp_path / "home")
    session_view = s.view()
    snapshot = session_view.system[1]["text"]
    git(repo, "checkout", "-q", "-b", "topic")
    (repo / "a.txt").write_text("a")
    git(repo, "add", "a.txt")
    git(repo, "commit", "-q", "-m", "add a on topic")
    s.on_change({repo / ".git" / "HEAD", repo / ".git" / "refs" / "heads" / "topic",
                 repo / ".git" / "index"})
    (msg,), cur = s.changes_since(0)
    assert msg.attachment["type"] == "git_changed"  # type: ignore[index]
    assert msg.attachment["branch"] == "topic"  # type: ignore[index]
    assert "Current branch: topic" in msg.text() and "add a on topic" in msg.text()
    assert session_view.system[1]["text"] == snapshot  # the session's snapshot stays

    s.on_change({repo / ".git" / "index"})
    assert s.changes_since(cur) == ([], cur)
    assert "Current branch: topic" in s.view().system[1]["text"]  # a fresh view moves on


def test_settle_does_the_reading_before_a_session_asks(tmp_path: Path) -> None:
    claude = tmp_path / "CLAUDE.md"
    claude.write_text("one")
    s = PrefixStore(tmp_path, Settings(), home=tmp_path / "home")
    s.view().user_context()
    claude.write_text("two")
    s.on_change({claude})
    s.settle()
    claude.write_text("three")  # not reported yet: the recorded change keeps "two"
    (m,), _ = s.changes_since(0)
    assert m.attachment["content"] == "two"  # type: ignore[index]
    assert s.cursor() == 1
