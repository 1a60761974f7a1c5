"""Session listing reads heads and tails only, and stays fast with many sessions."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from sidecar.core.conversation.messages import Block, Message, Usage, user_text
from sidecar.storage import line_reader
from sidecar.storage import session_index as index
from sidecar.storage.session_index import delete_session, find_session, list_sessions
from sidecar.storage.transcript import TranscriptWriter


def assistant_message(content: list[Block], **kw: Any) -> Message:
    return Message(kind="assistant", content=content, **kw)


def _session(writer: TranscriptWriter, sid: str, cwd: str, n: int, turns: int = 3) -> None:
    for turn in range(turns):
        ts = f"2026-03-{1 + n // 1000:02d}T{(n // 60) % 24:02d}:{n % 60:02d}:{turn:02d}.000Z"
        writer.append(user_text(f"prompt {n} turn {turn} " + "x" * 400, timestamp=ts), sid, cwd)
        writer.append(
            assistant_message([{"type": "text", "text": "ok " * 200}], message_id=f"m{n}-{turn}",
                             model="claude-x", usage=Usage(1, 2, 3 + n, 4), timestamp=ts),
            sid, cwd,
        )
        writer.append_state(sid, cwd, model="claude-x", provider="anthropic",
                            title=f"session {n}", used=10 + n, size=200_000)
    writer.close_session(sid, cwd)


def test_listing_a_thousand_sessions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    writer = TranscriptWriter(tmp_path)
    for n in range(1000):
        _session(writer, f"s{n:04d}", "/w/a" if n % 2 else "/w/b", n)
    writer.close()

    whole_reads: list[Path] = []
    original = Path.read_bytes

    def spy(self: Path) -> bytes:
        whole_reads.append(self)
        return original(self)

    monkeypatch.setattr(Path, "read_bytes", spy)
    started = time.perf_counter()
    sessions = list_sessions(tmp_path)
    elapsed = time.perf_counter() - started
    print(f"\nlist_sessions over 1,000 sessions: {elapsed * 1000:.0f} ms")
    assert whole_reads == []
    assert len(sessions) == 1000
    assert elapsed < 5.0
    assert [s.session_id for s in sessions[:3]] == ["s0999", "s0998", "s0997"]
    newest = sessions[0]
    assert newest.title == "session 999" and newest.used == 1009 and newest.size == 200_000
    assert (newest.model, newest.provider, newest.cwd) == ("claude-x", "anthropic", "/w/a")
    assert newest.created_at is not None and newest.created_at < (newest.updated_at or "")
    assert newest.to_json()["sessionId"] == "s0999"
    only_b = list_sessions(tmp_path, "/w/b")
    assert len(only_b) == 500 and all(s.cwd == "/w/b" for s in only_b)


def test_listing_reads_bounded_windows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    writer = TranscriptWriter(tmp_path)
    for turn in range(300):  # a transcript of ~1 MB
        writer.append(user_text("y" * 3000), "big", "/w")
    writer.append_state("big", "/w", model="m", provider="openai", title="Big", used=1, size=2)
    writer.close()
    asked: list[int] = []
    head, tail = line_reader.read_head, line_reader.read_tail

    def spy_head(path: Path, max_bytes: int) -> list[bytes]:
        asked.append(max_bytes)
        return head(path, max_bytes)

    def spy_tail(path: Path, max_bytes: int) -> list[bytes]:
        asked.append(max_bytes)
        return tail(path, max_bytes)

    monkeypatch.setattr(index, "read_head", spy_head)
    monkeypatch.setattr(index, "read_tail", spy_tail)
    [summary] = list_sessions(tmp_path)
    assert summary.title == "Big" and summary.provider == "openai"
    assert sum(asked) <= 64 * 1024


def test_find_and_delete(tmp_path: Path) -> None:
    writer = TranscriptWriter(tmp_path)
    _session(writer, "abc-123", "/w/x", 1)
    writer.close()
    path = find_session(tmp_path, "abc-123")
    assert path is not None and path.name == "abc-123.jsonl"
    side = path.with_suffix("") / "subagents"
    side.mkdir(parents=True)
    assert find_session(tmp_path, "../../etc/passwd") is None
    assert find_session(tmp_path, "missing") is None
    assert delete_session(tmp_path, "abc-123") is True
    assert not path.exists() and not side.exists()
    assert delete_session(tmp_path, "abc-123") is False
    assert list_sessions(tmp_path) == []


def test_empty_storage(tmp_path: Path) -> None:
    assert list_sessions(tmp_path) == []
    assert list_sessions(tmp_path, "/nowhere") == []


def test_retitle_keeps_the_order_and_the_other_fields(tmp_path: Path) -> None:
    writer = TranscriptWriter(tmp_path)
    for n in (1, 2):
        _session(writer, f"s{n}", "/w/a", n)
        # The state records carry the time to the millisecond: two in one millisecond tie,
        # and a tie is ordered by the file's modification time, which retitling moves.
        time.sleep(0.003)
    writer.close()
    before = {s.session_id: s for s in list_sessions(tmp_path)}
    assert before["s1"].updated_at < before["s2"].updated_at
    assert index.retitle_session(tmp_path, "s1", "Renamed") is True
    after = list_sessions(tmp_path)
    # The older session is renamed, not moved to the top: its time is what it was.
    assert [s.session_id for s in after] == ["s2", "s1"]
    renamed = after[1]
    assert renamed.title == "Renamed"
    assert (renamed.updated_at, renamed.used, renamed.size, renamed.model, renamed.provider, renamed.cwd) == (
        before["s1"].updated_at, 11, 200_000, "claude-x", "anthropic", "/w/a")
    assert index.retitle_session(tmp_path, "no-such", "x") is False
