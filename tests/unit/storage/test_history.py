"""Prompt history: buffered flush, cross-process locking, paste store, reverse reads, undo."""

from __future__ import annotations

import json
import multiprocessing
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sidecar.storage import history as history_module
from sidecar.storage.history import PromptHistory
from sidecar.storage.history_entry import HistoryEntry, PastedContent
from sidecar.storage.paste_store import PasteStore, content_hash

ENTRIES_PER_PROCESS = 1000


def _append_many(storage_dir: str, tag: str, count: int, go: Any) -> None:
    """Runs in a spawned process: add entries and flush in small batches."""
    history = PromptHistory(storage_dir, flush_delay=60)
    go.wait(30)  # both processes start writing together
    for i in range(count):
        history.add(HistoryEntry(f"{tag}-{i} " + "z" * 200, project="/p", session_id=tag))
        if i % 3 == 0:
            assert history.flush()
    history.close()


def test_two_processes_never_lose_or_interleave(tmp_path: Path) -> None:
    ctx = multiprocessing.get_context("spawn")
    go = ctx.Event()
    workers = [
        ctx.Process(target=_append_many, args=(str(tmp_path), tag, ENTRIES_PER_PROCESS, go))
        for tag in ("left", "right")
    ]
    started = time.perf_counter()
    for worker in workers:
        worker.start()
    time.sleep(0.3)  # let both import; the event releases them at once
    go.set()
    for worker in workers:
        worker.join(timeout=60)
        assert worker.exitcode == 0
    print(f"\n2 x {ENTRIES_PER_PROCESS} history entries: {time.perf_counter() - started:.2f} s")
    lines = (tmp_path / "history.jsonl").read_bytes().split(b"\n")
    assert lines[-1] == b""
    records = [json.loads(line) for line in lines[:-1]]
    assert len(records) == 2 * ENTRIES_PER_PROCESS
    for tag in ("left", "right"):
        mine = [r["display"].split()[0] for r in records if r["sessionId"] == tag]
        assert mine == [f"{tag}-{i}" for i in range(ENTRIES_PER_PROCESS)]  # order kept too


def test_buffered_until_timer_or_flush(tmp_path: Path) -> None:
    history = PromptHistory(tmp_path, flush_delay=0.05)
    history.add(HistoryEntry("first", project="/p"))
    assert not (tmp_path / "history.jsonl").exists()
    assert [e.display for e in history.list()] == ["first"]  # pending entries are readable
    deadline = time.monotonic() + 5
    while not (tmp_path / "history.jsonl").exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert (tmp_path / "history.jsonl").read_text().count("\n") == 1
    history.add(HistoryEntry("second", project="/p"))
    history.close()  # close flushes what the timer has not
    assert (tmp_path / "history.jsonl").read_text().count("\n") == 2
    assert (tmp_path / "history.jsonl").stat().st_mode & 0o777 == 0o600


def test_large_paste_goes_to_the_store_and_comes_back(tmp_path: Path) -> None:
    big = "".join(f"line {i}\n" for i in range(400))
    assert len(big) > 1024
    history = PromptHistory(tmp_path)
    history.add(HistoryEntry(
        "look at [Pasted text #1 +400 lines] and [Pasted text #2]",
        pasted_contents={1: PastedContent(1, "text", big), 2: PastedContent(2, "text", "small")},
        project="/p", session_id="s",
    ))
    history.close()
    [raw] = [json.loads(x) for x in (tmp_path / "history.jsonl").read_text().splitlines()]
    assert raw["pastedContents"]["1"] == {"id": 1, "type": "text", "contentHash": content_hash(big)}
    assert raw["pastedContents"]["2"] == {"id": 2, "type": "text", "content": "small"}
    assert (tmp_path / "paste-cache" / f"{content_hash(big)}.txt").read_text() == big
    [entry] = PromptHistory(tmp_path).list()
    assert entry.pasted_contents[1].content == big
    assert entry.pasted_contents[2].content == "small"


def test_paste_store_writes_once_and_rejects_bad_hashes(tmp_path: Path) -> None:
    store = PasteStore(tmp_path / "paste-cache")
    digest = store.put("hello")
    target = store.path_for(digest)
    mtime = target.stat().st_mtime_ns
    assert store.put("hello") == digest and target.stat().st_mtime_ns == mtime
    assert store.get(digest) == "hello"
    assert store.get("../../etc/passwd") is None
    assert store.get("0" * 16) is None
    assert [p.name for p in (tmp_path / "paste-cache").iterdir()] == [target.name]


def test_list_is_newest_first_capped_and_filtered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    history = PromptHistory(tmp_path)
    for i in range(250):
        history.add(HistoryEntry(f"p{i}", project="/a" if i % 2 else "/b", timestamp=1000 + i))
    history.close()
    with open(tmp_path / "history.jsonl", "ab") as f:
        f.write(b'{"display": "torn')  # a crash mid-write elsewhere
    lines_read: list[int] = []
    real_reader = history_module.iter_lines_reversed

    def counting(path: Path) -> Iterator[bytes]:
        for count, line in enumerate(real_reader(path, block_size=4096), start=1):
            lines_read.append(count)
            yield line

    monkeypatch.setattr(history_module, "iter_lines_reversed", counting)
    reader = PromptHistory(tmp_path)
    newest = reader.list()
    assert len(newest) == 100
    assert newest[0].display == "p249" and newest[-1].display == "p150"
    assert max(lines_read) < 250  # stopped early instead of reading everything
    assert [e.display for e in reader.list(limit=3, project="/b")] == ["p248", "p246", "p244"]
    assert len(reader.list(limit=1000)) == 100  # max_items caps any limit
    reader.close()


def test_undo_pending_entry(tmp_path: Path) -> None:
    history = PromptHistory(tmp_path, flush_delay=60)
    history.add(HistoryEntry("keep"))
    history.add(HistoryEntry("oops"))
    undone = history.undo()
    assert undone is not None and undone.display == "oops"
    history.close()
    assert [e.display for e in PromptHistory(tmp_path).list()] == ["keep"]


def test_undo_flushed_last_line_truncates(tmp_path: Path) -> None:
    history = PromptHistory(tmp_path)
    history.add(HistoryEntry("keep"))
    history.add(HistoryEntry("oops"))
    history.flush()
    assert history.undo().display == "oops"  # type: ignore[union-attr]
    assert (tmp_path / "history.jsonl").read_text().count("\n") == 1
    assert history.undo().display == "keep"  # type: ignore[union-attr]
    assert history.undo() is None
    history.close()
    assert (tmp_path / "history.jsonl").read_bytes() == b""


def test_undo_after_another_process_wrote_leaves_a_tombstone(tmp_path: Path) -> None:
    mine = PromptHistory(tmp_path)
    other = PromptHistory(tmp_path)
    mine.add(HistoryEntry("oops", session_id="me", timestamp=5))
    mine.flush()
    other.add(HistoryEntry("theirs", session_id="them", timestamp=6))
    other.flush()
    assert mine.undo().display == "oops"  # type: ignore[union-attr]
    lines = (tmp_path / "history.jsonl").read_text().splitlines()
    assert len(lines) == 3 and "removed" in json.loads(lines[-1])
    assert [e.display for e in PromptHistory(tmp_path).list()] == ["theirs"]
    mine.close()
    other.close()


def test_api_keys_are_stripped(tmp_path: Path) -> None:
    key = "sk-proj-" + "A1b2" * 12
    history = PromptHistory(tmp_path)
    history.add(HistoryEntry(f"use {key} please", pasted_contents={
        1: PastedContent(1, "text", f"OPENAI_API_KEY={key}\n" + "pad\n" * 400)}))
    history.close()
    on_disk = (tmp_path / "history.jsonl").read_text() + "".join(
        p.read_text() for p in (tmp_path / "paste-cache").iterdir())
    assert key not in on_disk and "[REDACTED_API_KEY]" in on_disk


def test_lock_timeout_keeps_entries_pending(tmp_path: Path) -> None:
    history = PromptHistory(tmp_path, lock_timeout=0.05, flush_delay=60)
    history.add(HistoryEntry("waits"))
    with history_module._FileLock(history.lock_path, 1.0):
        assert history.flush() is False
    assert history.flush() is True
    history.close()
    assert [e.display for e in PromptHistory(tmp_path).list()] == ["waits"]


def test_disabled_history_records_nothing(tmp_path: Path) -> None:
    history = PromptHistory(tmp_path, enabled=False)
    history.add(HistoryEntry("secret"))
    history.close()
    assert not (tmp_path / "history.jsonl").exists()
