"""Clearing inside a long turn: the results the model has moved past go in one step when the
reads they would cost the rest of the turn outweigh the rewrite; the newest answers'
results always stay."""

from __future__ import annotations

from sidecar.core.accounting.tokens import SeedBytes
from sidecar.core.compaction.turn_clearing import KEEP_STEPS, turn_clearing_candidates
from sidecar.core.conversation.messages import Message, iso_at
from sidecar.core.settings import Settings

TOOLS = frozenset({"Read", "Bash"})


def long_turn(steps: int, chars: int, reread: int | None = None) -> list[Message]:
    """One prompt, then ``steps`` answers each reading a file of ``chars`` characters
    (file ``i`` at step ``i``; with ``reread``, the last step reads that file again)."""
    records = [Message(kind="user", content=[{"type": "text", "text": "audit the code"}])]
    for n in range(steps):
        path = f"f{reread}.py" if reread is not None and n == steps - 1 else f"f{n}.py"
        records.append(Message(kind="assistant", message_id=f"m{n}", content=[
            {"type": "tool_use", "id": f"t{n}", "name": "Read", "input": {"file_path": path}}]))
        records.append(Message(kind="user", content=[
            {"type": "tool_result", "tool_use_id": f"t{n}", "content": "x" * chars}]))
    return records


def test_a_long_turn_clears_what_it_moved_past_and_keeps_its_newest_steps() -> None:
    records = long_turn(40, 8_000)  # 40 results of 2,000 tokens
    ids = turn_clearing_candidates(records, Settings(), 82_000, None, set(), TOOLS, SeedBytes())
    # Every result 8 or more answers old goes; none of the newest answers' results.
    assert ids == [f"t{n}" for n in range(32)]
    assert not set(ids) & {f"t{n}" for n in range(40 - KEEP_STEPS, 40)}
    # Frozen: what is cleared is not cleared again.
    assert turn_clearing_candidates(records, Settings(), 82_000, None, set(ids), TOOLS,
                                    SeedBytes()) == []


def test_a_large_result_is_moved_past_sooner() -> None:
    records = long_turn(40, 20_000)  # 40 results of 5,000 tokens
    ids = turn_clearing_candidates(records, Settings(), 205_000, None, set(), TOOLS, SeedBytes())
    assert ids == [f"t{n}" for n in range(38)]  # all but the newest two answers'


def test_a_file_read_again_is_moved_past_however_recent() -> None:
    records = long_turn(40, 8_000, reread=36)
    ids = turn_clearing_candidates(records, Settings(), 82_000, None, set(), TOOLS, SeedBytes())
    assert "t36" in ids and "t37" not in ids  # t36's file was read again since


def test_no_step_below_the_trigger_at_a_turns_start_or_when_it_would_not_pay() -> None:
    settings, counter = Settings(), SeedBytes()
    assert turn_clearing_candidates(long_turn(40, 8_000), settings, 15_000, None, set(), TOOLS,
                                    counter) == []
    waiting = long_turn(0, 0) + [Message(kind="user", content=[{"type": "text", "text": "go"}])]
    assert turn_clearing_candidates(waiting, settings, 90_000, None, set(), TOOLS, counter) == []
    # A short turn will not read the old results often enough to pay for the rewrite.
    assert turn_clearing_candidates(long_turn(6, 40_000), settings, 100_000, None, set(), TOOLS,
                                    counter) == []


def test_rereads_after_clearing_count_reads_of_a_file_whose_result_was_cleared() -> None:
    from sidecar.core.compaction.turn_clearing import rereads_after_clearing

    records = long_turn(4, 100)  # f0.py .. f3.py
    assert rereads_after_clearing(records) == 0
    records.append(Message(kind="system", subtype="microcompact_boundary", content=[],
                           extra={"microcompactMetadata": {"compactedToolIds": ["t0", "t1"]}}))
    for n, path in enumerate(["f0.py", "f3.py", "f1.py", "f0.py"]):
        records.append(Message(kind="assistant", message_id=f"again{n}", content=[
            {"type": "tool_use", "id": f"a{n}", "name": "Read", "input": {"file_path": path}}]))
    # f0.py twice and f1.py were read again after their results were cleared; f3.py was not.
    assert rereads_after_clearing(records) == 3


def test_only_the_newer_results_go_when_clearing_the_older_would_rewrite_everything() -> None:
    """Old small results sit behind a large pasted prompt, more than the cache's lookback
    before the end: clearing them too would write the whole conversation again, which the
    reads saved do not pay for. The large results of the last steps, within the lookback,
    pay on their own, and only they go."""
    pasted = "p" * 240_000  # 60,000 tokens the user pasted with the prompt
    records = [Message(kind="user", content=[{"type": "text", "text": pasted}])]
    for n in range(30):
        chars = 20_000 if 20 <= n < 28 else 1_600  # 5,000 or 400 tokens
        records.append(Message(kind="assistant", message_id=f"m{n}", content=[
            {"type": "tool_use", "id": f"t{n}", "name": "Read", "input": {"file_path": f"f{n}.py"}}]))
        records.append(Message(kind="user", content=[
            {"type": "tool_result", "tool_use_id": f"t{n}", "content": "x" * chars}]))
    ids = turn_clearing_candidates(records, Settings(), 110_000, None, set(), TOOLS, SeedBytes())
    assert ids == [f"t{n}" for n in range(20, 28)]


def test_where_the_cache_resumes_before_them_the_older_results_go_too() -> None:
    """The same turn, sent just now on a provider whose cache resumes at an earlier
    breakpoint (core.accounting.cache_resume): clearing the old small results rewrites only
    what follows them, which the reads saved pay for, so they go with the large ones. Once
    a clearing after those breakpoints changed what precedes them, they are gone from the
    cache, and only the newer results go again."""
    pasted = "p" * 240_000
    records = [Message(kind="user", content=[{"type": "text", "text": pasted}])]
    for n in range(30):
        chars = 20_000 if 20 <= n < 28 else 1_600
        records.append(Message(kind="assistant", message_id=f"m{n}", content=[
            {"type": "tool_use", "id": f"t{n}", "name": "Read", "input": {"file_path": f"f{n}.py"}}]))
        records.append(Message(kind="user", content=[
            {"type": "tool_result", "tool_use_id": f"t{n}", "content": "x" * chars}]))
    for second, m in enumerate(records):
        m.timestamp = iso_at(1_000.0 + second)
    ids = turn_clearing_candidates(records, Settings(), 110_000, None, set(), TOOLS, SeedBytes(),
                                   resumable_since=900.0)
    assert ids == [f"t{n}" for n in range(28)]
    # Expired: written before the cache's entries live.
    ids = turn_clearing_candidates(records, Settings(), 110_000, None, set(), TOOLS, SeedBytes(),
                                   resumable_since=1_100.0)
    assert ids == [f"t{n}" for n in range(20, 28)]
    # A clearing at the end changed the first result (behind every breakpoint since).
    boundary = Message(kind="system", subtype="microcompact_boundary", content=[],
                       extra={"microcompactMetadata": {"compactedToolIds": ["t0"]}})
    boundary.timestamp = iso_at(1_061.0)
    records.insert(len(records) - 1, boundary)
    ids = turn_clearing_candidates(records, Settings(), 110_000, None, {"t0"}, TOOLS,
                                   SeedBytes(), resumable_since=900.0)
    assert ids == [f"t{n}" for n in range(20, 28)]
