from __future__ import annotations

import os
import time
from pathlib import Path

from sidecar.core.conversation.file_state import FileReadState, text_digest


def test_record_read_and_staleness_by_hash(tmp_path: Path) -> None:
    f = tmp_path / "a.txt"
    f.write_text("one\ntwo\n")
    state = FileReadState()
    entry = state.record_read(f, "one\ntwo\n", offset=1, limit=2000, shown="1\tone")
    assert entry.sha256 == text_digest("one\ntwo\n")
    assert entry.size == 8 and entry.mtime == f.stat().st_mtime
    assert entry.offset == 1 and entry.limit == 2000 and entry.stub_ok and entry.origin == "read"
    assert entry.tokens >= 1
    assert not state.is_stale(f, "one\ntwo\n")
    assert state.is_stale(f, "one\nTWO\n")
    assert state.is_stale(tmp_path / "never-read.txt", "x")


def test_mark_stale_compares_text_when_given(tmp_path: Path) -> None:
    f = tmp_path / "a.txt"
    state = FileReadState()
    state.record_read(f, "same", 1, 10)
    # The echo of the sidecar's own edit (same text) is not a change.
    assert state.mark_stale(f, "same") is False
    assert not state.is_stale(f, "same")
    assert state.mark_stale(f, "different") is True
    entry = state.get(f)
    assert entry is not None and entry.stale and not entry.stub_ok
    # Without text the change cannot be compared: stale even if the text is back.
    state.record_read(f, "same", 1, 10)
    assert state.mark_stale(f) is True
    assert state.is_stale(f, "same")
    # A fresh read clears it.
    state.record_read(f, "same", 1, 10)
    assert not state.is_stale(f, "same")
    assert state.mark_stale(tmp_path / "unknown") is False


def test_record_write_allows_edit_but_no_stub(tmp_path: Path) -> None:
    f = tmp_path / "a.txt"
    state = FileReadState()
    entry = state.record_write(f, "new text")
    assert entry.origin == "edit" and not entry.stub_ok and entry.offset is None
    assert not state.is_stale(f, "new text")


def test_forget_results_all_or_some(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    state = FileReadState()
    state.record_read(a, "A", 1, 10)
    state.record_read(b, "B", 1, 10)
    state.forget_results([a])
    assert not state.get(a).stub_ok and state.get(b).stub_ok  # type: ignore[union-attr]
    state.forget_results()
    assert not state.get(b).stub_ok  # type: ignore[union-attr]
    # Forgetting results keeps the entries: the model may still edit those files.
    assert len(state) == 2 and not state.is_stale(a, "A")


def test_recent_order_lru_cap_and_keys(tmp_path: Path) -> None:
    state = FileReadState(max_entries=3)
    paths = [tmp_path / f"f{i}" for i in range(5)]
    for i, p in enumerate(paths):
        state.record_read(p, str(i), 1, 10)
        state.get(p).read_at = 1000.0 + i  # type: ignore[union-attr]
    assert len(state) == 3
    assert [e.path for e in state.recent(2)] == [paths[4], paths[3]]
    assert state.recent(0) == []
    # The same file named differently is one entry.
    alias = tmp_path / "sub" / ".." / "f4"
    assert alias in state and state.get(alias) is state.get(paths[4])
    state.clear()
    assert len(state) == 0


def test_snapshot_reports_disk_changes(tmp_path: Path) -> None:
    f = tmp_path / "a.txt"
    f.write_text("before")
    g = tmp_path / "b.txt"
    g.write_text("kept")
    state = FileReadState()
    state.record_read(f, "before", 1, 2000, shown="1\tbefore")
    state.record_read(g, "kept", 1, 2000)
    snap = {s["path"]: s for s in state.snapshot()}
    assert set(snap) == {str(f), str(g)}
    assert snap[str(f)]["stale"] is False and snap[str(f)]["readAt"].endswith("Z")
    assert snap[str(f)]["tokens"] > 0
    f.write_text("after!!")
    os.utime(f, (time.time() + 5, time.time() + 5))
    # Touched but unchanged content is not stale.
    os.utime(g, (time.time() + 5, time.time() + 5))
    snap = {s["path"]: s for s in state.snapshot()}
    assert snap[str(f)]["stale"] is True
    assert snap[str(g)]["stale"] is False
    g.unlink()
    snap = {s["path"]: s for s in state.snapshot()}
    assert snap[str(g)]["stale"] is True
