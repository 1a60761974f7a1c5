"""A workspace watcher feeding a real prefix store from real file changes."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sidecar.core.conversation.messages import Message
from sidecar.core.settings import Settings
from sidecar.core.workspace.prefix import PrefixStore
from sidecar.watch import watch_workspace

Git = Callable[..., str]  # the `git` fixture: git(cwd, *args) -> stdout


def att(message: Message) -> dict[str, Any]:
    assert message.attachment is not None
    return message.attachment


async def wait_for_changes(store: PrefixStore, cursor: int,
                           timeout: float = 2.0) -> tuple[list[Message], int]:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while loop.time() < end:
        changes, new = store.changes_since(cursor)
        if changes:
            return changes, new
        await asyncio.sleep(0.02)
    raise AssertionError("no change reached the store")


async def test_changes_flow_from_disk_to_the_store(repo: Path, git: Git, tmp_path: Path) -> None:
    claude = repo / "CLAUDE.md"
    claude.write_text("rules v1")
    store = PrefixStore(repo, Settings(), home=tmp_path / "home")
    start = store.view()
    batches: list[set[Path]] = []
    watcher = watch_workspace(store, on_batch=batches.append)
    await watcher.start()
    try:
        assert watcher.mode == "watchfiles"
        # Same content until a batch shows the watch is armed; it records nothing.
        for _ in range(40):
            claude.write_text("rules v1")
            await asyncio.sleep(0.05)
            if watcher.batches:
                break
        assert watcher.batches and store.changes_since(start.seq)[0] == []

        claude.write_text("rules v2, see @style.md")
        (repo / "style.md").write_text("two spaces")
        changes, cursor = await wait_for_changes(store, start.seq)
        by_path = {att(m)["path"]: att(m) for m in changes}
        assert by_path[str(claude)]["content"] == "rules v2, see @style.md"
        # The included file appeared with it (possibly in a later batch) and is now watched.
        if str(repo / "style.md") not in by_path:
            more, cursor = await wait_for_changes(store, cursor)
            by_path.update({att(m)["path"]: att(m) for m in more})
        assert by_path[str(repo / "style.md")]["content"] == "two spaces"
        end = asyncio.get_running_loop().time() + 2.0
        while repo / "style.md" not in watcher.paths and asyncio.get_running_loop().time() < end:
            await asyncio.sleep(0.02)
        assert repo / "style.md" in watcher.paths
        (repo / "style.md").write_text("tabs")
        (m,), cursor = await wait_for_changes(store, cursor)
        assert att(m)["content"] == "tabs"

        git(repo, "checkout", "-q", "-b", "watched")
        changes, cursor = await wait_for_changes(store, cursor)
        assert [att(m)["type"] for m in changes] == ["git_changed"]
        assert att(changes[0])["branch"] == "watched"
        assert "rules v1" in start.user_context().text()  # type: ignore[union-attr]
        assert "rules v2" in store.view().user_context().text()  # type: ignore[union-attr]
        assert batches
    finally:
        await watcher.stop()
    assert watcher.mode == "off"


async def test_client_watcher_feeds_the_store(tmp_path: Path) -> None:
    claude = tmp_path / "CLAUDE.md"
    claude.write_text("one")
    store = PrefixStore(tmp_path, Settings(), home=tmp_path / "home")
    watcher = watch_workspace(store, use_watchfiles=False)
    await watcher.start()
    try:
        assert watcher.mode == "client"  # no watchfiles: the editor's reports are the source
        claude.write_text("two")
        watcher.client.feed([claude])
        (m,), _ = await wait_for_changes(store, 0)
        assert att(m)["content"] == "two"
    finally:
        await watcher.stop()
