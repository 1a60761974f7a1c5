"""Watchers against a real temporary folder and a real git: latency, debouncing, modes."""

from __future__ import annotations

import asyncio
import statistics
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterable
from pathlib import Path

from sidecar.watch import (
    ChangeStream,
    ClientWatchSource,
    WatchfilesSource,
    WatchTargets,
)

DEADLINE = 2.0

Git = Callable[..., str]  # the `git` fixture: git(cwd, *args) -> stdout


def git_targets(repo: Path) -> list[Path]:
    g = repo / ".git"
    return [g / "HEAD", g / "index", g / "refs", g / "packed-refs"]


def claude_targets(ws: Path) -> list[Path]:
    return [ws / "CLAUDE.md", ws / "CLAUDE.local.md", ws / ".claude" / "CLAUDE.md"]


async def next_batch(stream: ChangeStream, timeout: float = DEADLINE) -> set[Path]:
    return await asyncio.wait_for(stream.__anext__(), timeout)


async def drain(stream: ChangeStream, quiet: float = 0.25) -> list[set[Path]]:
    out = []
    while True:
        try:
            out.append(await next_batch(stream, quiet))
        except TimeoutError:
            return out


async def started(paths: list[Path], warm: Path, **kw: object) -> ChangeStream:
    """A running stream whose watches are armed (a write to ``warm`` came through)."""
    stream = ChangeStream(WatchfilesSource(), ClientWatchSource(), **kw)  # type: ignore[arg-type]
    stream.set_paths(paths)
    stream.start()
    content = warm.read_text() if warm.exists() else ""
    for _ in range(40):
        warm.write_text(content)
        try:
            await next_batch(stream, 0.1)
            break
        except TimeoutError:
            continue
    else:
        raise AssertionError("the watcher never armed")
    await drain(stream, 0.1)
    return stream


async def watched_claude_md(tmp_path: Path) -> tuple[Path, Path, ChangeStream]:
    """A workspace with a CLAUDE.md, and a running stream watching its CLAUDE.md places."""
    ws = tmp_path / "ws"
    ws.mkdir()
    claude = ws / "CLAUDE.md"
    claude.write_text("start")
    return ws, claude, await started(claude_targets(ws), claude)


async def test_claude_md_writes_arrive_within_two_seconds(tmp_path: Path) -> None:
    ws, claude, stream = await watched_claude_md(tmp_path)
    assert stream.mode == "watchfiles"
    latencies = []
    try:
        for i in range(5):
            t0 = time.perf_counter()
            claude.write_text(f"edit {i}")
            batch = await next_batch(stream)
            latencies.append(time.perf_counter() - t0)
            assert claude in batch
            await drain(stream, 0.05)
        # A file that did not exist when watching started, in a watched folder ...
        local = ws / "CLAUDE.local.md"
        local.write_text("private")
        assert local in await next_batch(stream)
        await drain(stream, 0.05)
        # ... and one whose folder did not exist either.
        dotted = ws / ".claude" / "CLAUDE.md"
        dotted.parent.mkdir()
        dotted.write_text("nested")
        seen: set[Path] = set()
        while dotted not in seen:
            seen |= await next_batch(stream)
        # The new folder is watched now: an edit inside it is seen directly.
        await drain(stream, 0.1)
        dotted.write_text("nested, edited")
        assert dotted in await next_batch(stream)
    finally:
        await stream.stop()
    median = statistics.median(latencies) * 1000
    print(f"\nCLAUDE.md write -> batch latency over 5 writes: median {median:.1f} ms, "
          f"max {max(latencies) * 1000:.1f} ms")
    assert max(latencies) < DEADLINE
    assert stream.mode == "off"


async def test_git_commit_and_new_branch_arrive(repo: Path, git: Git) -> None:
    stream = await started(git_targets(repo) + claude_targets(repo), repo / "CLAUDE.md")
    try:
        (repo / "b.txt").write_text("b")
        git(repo, "add", "b.txt")
        git(repo, "commit", "-q", "-m", "second")
        t0 = time.perf_counter()
        batch = await next_batch(stream)
        commit_ms = (time.perf_counter() - t0) * 1000
        assert batch & {repo / ".git" / "index", repo / ".git" / "refs" / "heads" / "main"}
        batches = [batch] + await drain(stream)
        seen = set().union(*batches)
        assert repo / ".git" / "refs" / "heads" / "main" in seen
        assert not any(p.name.endswith(".lock") or "objects" in p.parts for p in seen)

        git(repo, "checkout", "-q", "-b", "feature/deep")
        seen = await next_batch(stream)
        seen |= set().union(*await drain(stream))
        # HEAD moved and a ref appeared in a folder (refs/heads/feature) that is new.
        assert repo / ".git" / "HEAD" in seen
        assert repo / ".git" / "refs" / "heads" / "feature" / "deep" in seen
        print(f"\ngit commit returned -> first batch in {commit_ms:.0f} ms")
    finally:
        await stream.stop()


async def test_a_burst_of_writes_becomes_few_batches(tmp_path: Path) -> None:
    claude = tmp_path / "CLAUDE.md"
    claude.write_text("0")
    stream = await started(claude_targets(tmp_path), claude)
    try:
        for i in range(10):
            claude.write_text(f"burst {i}")
            await asyncio.sleep(0.005)
        batches = await drain(stream, 0.4)
    finally:
        await stream.stop()
    print(f"\n10 writes in a burst -> {len(batches)} batch(es)")
    assert 1 <= len(batches) <= 3
    assert all(b == {claude} for b in batches)


async def test_client_source_feeds_beside_watchfiles(tmp_path: Path) -> None:
    claude = tmp_path / "CLAUDE.md"
    claude.write_text("0")
    paths = claude_targets(tmp_path)
    stream = await started(paths, claude)
    try:
        assert stream.mode == "watchfiles"
        # The editor's reports join the same stream; unrelated paths are dropped.
        stream.client.feed([str(claude), tmp_path / "src" / "unrelated.py"])
        assert await next_batch(stream) == {claude}

        # didChangeWatchedFiles handlers may run on another thread.
        local = tmp_path / "CLAUDE.local.md"
        threading.Thread(target=stream.client.feed, args=([local],)).start()
        assert await next_batch(stream) == {local}
    finally:
        await stream.stop()
    assert stream.mode == "off"


async def test_client_only_stream_and_early_feed(tmp_path: Path) -> None:
    claude = tmp_path / "CLAUDE.md"
    client = ClientWatchSource(claude_targets(tmp_path))
    client.feed([claude])  # before the stream runs: kept, not lost
    stream = ChangeStream(None, client, debounce_ms=30)
    assert stream.mode == "off"
    stream.start()
    try:
        assert await next_batch(stream) == {claude}
        for _ in range(5):
            client.feed([claude])
        client.feed([tmp_path / ".claude" / "CLAUDE.md"])
        assert await next_batch(stream) == {claude, tmp_path / ".claude" / "CLAUDE.md"}
        # A folder event stands for the targets inside it.
        client.feed([tmp_path / ".claude"])
        assert await next_batch(stream) == {tmp_path / ".claude" / "CLAUDE.md"}
        # Nobody watches the disk: the editor's reports are all there is.
        assert stream.mode == "client"
    finally:
        await stream.stop()


def test_targets_roots_and_globs(repo: Path, tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    targets = WatchTargets(claude_targets(ws) + git_targets(repo) + [tmp_path / "a" / "b" / "c.md"])
    roots = targets.roots()
    # Missing folders are watched through their nearest existing ancestor.
    assert roots.flat == {ws, repo / ".git", tmp_path}
    assert roots.trees == {repo / ".git" / "refs"}
    assert targets.is_target(repo / ".git" / "refs" / "heads" / "x" / "y")
    assert not targets.is_target(repo / ".git" / "HEAD.lock")
    assert not targets.is_target(repo / ".git" / "refs" / "heads" / "main.lock")
    assert not targets.is_target(repo / ".git" / "objects" / "ab")
    assert targets.is_structural(ws / ".claude") and targets.is_structural(tmp_path / "a")
    assert targets.under(tmp_path / "a") == {tmp_path / "a" / "b" / "c.md"}


class BrokenSource:
    """A source that fails the way an exhausted inotify limit does."""

    def set_paths(self, paths: Iterable[Path]) -> None:
        pass

    async def batches(self, stop: asyncio.Event) -> AsyncIterator[set[Path]]:
        await asyncio.sleep(0.01)
        raise OSError(28, "inotify watch limit reached")
        yield set()  # pragma: no cover - makes this an async generator


async def test_a_failing_disk_watcher_leaves_the_editors_reports(tmp_path: Path) -> None:
    stream = ChangeStream(BrokenSource(), debounce_ms=10)
    stream.set_paths(claude_targets(tmp_path))
    stream.start()
    try:
        assert stream.mode == "watchfiles"
        end = time.monotonic() + DEADLINE
        while stream.mode != "client" and time.monotonic() < end:
            await asyncio.sleep(0.01)
        assert stream.mode == "client"
        stream.client.feed([tmp_path / "CLAUDE.md"])  # the editor's notifications still count
        assert await next_batch(stream) == {tmp_path / "CLAUDE.md"}
    finally:
        await stream.stop()


async def test_a_new_target_beside_a_watched_one_is_seen_at_once(tmp_path: Path) -> None:
    # A CLAUDE.md that starts including a file next to it: the folder is already watched, so
    # the watch stays armed. Re-arming it would leave a moment in which a write is lost.
    ws, _, stream = await watched_claude_md(tmp_path)
    source = stream.watchfiles
    assert isinstance(source, WatchfilesSource)
    armed = source.roots
    style = ws / "style.md"
    try:
        stream.set_paths([*claude_targets(ws), style])
        await asyncio.sleep(0)  # the source takes the new targets in
        style.write_text("two spaces")
        assert style in await next_batch(stream)
        assert source.roots is armed  # the same watches, never re-armed
    finally:
        await stream.stop()


async def test_no_write_goes_unseen_while_the_watches_move(tmp_path: Path) -> None:
    # A CLAUDE.md that starts including a file in another folder: that folder is watched
    # too, and the new watches are armed before the old ones stop, so a write to the
    # CLAUDE.md at that moment still counts.
    ws, claude, stream = await watched_claude_md(tmp_path)
    source = stream.watchfiles
    assert isinstance(source, WatchfilesSource)
    docs = ws / "docs"
    docs.mkdir()
    before = source.roots
    try:
        stream.set_paths([*claude_targets(ws), docs / "style.md"])
        for _ in range(3):
            await asyncio.sleep(0)  # the source takes the new targets in and moves its watches
        claude.write_text("rules v2, see @docs/style.md")
        assert claude in await next_batch(stream)
        assert docs in source.roots.flat and source.roots != before
    finally:
        await stream.stop()
