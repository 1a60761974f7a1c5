"""The session-memory kept tail: minimums, maximum and API invariants."""

from __future__ import annotations

from types import SimpleNamespace

from sidecar.core.compaction.session_memory import select_tail
from sidecar.core.messages import Message, tool_result_block
from sidecar.core.settings import Settings
from sidecar.core.tokens import SeedBytes, TokenLedger


def session_with(settings: Settings) -> SimpleNamespace:
    return SimpleNamespace(settings=settings, ledger=TokenLedger(SeedBytes()))


def turn(i: int, size: int) -> list[Message]:
    return [
        Message(kind="user", content=[{"type": "text", "text": f"question {i} " + "q" * size}]),
        Message(kind="assistant", message_id=f"m{i}", content=[
            {"type": "thinking", "thinking": "hmm"},
            {"type": "tool_use", "id": f"t{i}", "name": "Read", "input": {"file_path": "a"}}]),
        Message(kind="user", content=[tool_result_block(f"t{i}", "r" * size)]),
        Message(kind="assistant", message_id=f"n{i}", content=[{"type": "text", "text": "done " * 10}]),
    ]


def test_tail_reaches_the_minimums_and_never_starts_on_a_result() -> None:
    records = [m for i in range(30) for m in turn(i, 4000)]
    settings = Settings()
    start = select_tail(records, len(records), session_with(settings))
    kept = records[start:]
    assert kept and kept[0].kind == "user" and not kept[0].tool_results()
    uses = {b["id"] for m in kept for b in m.tool_uses()}
    assert {b["tool_use_id"] for m in kept for b in m.tool_results()} <= uses


def test_tail_stops_at_the_maximum() -> None:
    records = [m for i in range(200) for m in turn(i, 4000)]
    settings = Settings()
    start = select_tail(records, len(records), session_with(settings))
    assert 0 < start < len(records)
    assert len(records) - start < 200


def test_empty_tail_at_a_boundary_is_safe() -> None:
    boundary = Message(kind="system", subtype="compact_boundary", content=[])
    records = [boundary]
    assert select_tail(records, 1, session_with(Settings())) == 1
