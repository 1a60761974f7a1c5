"""Full compaction (tier 4) in a real session: what the summary request carries, the files
re-injected after it, the round kept verbatim mid-turn, and the prompt-too-long retry
(tier 5) that drops the oldest groups."""

from __future__ import annotations

import base64
import os
import threading
from pathlib import Path

import pytest

from sidecar.contract.errors import CompactionFailed
from sidecar.core.compaction.full import MAX_PTL_RETRIES
from sidecar.core.compaction.prompts import PTL_MARKER
from sidecar.core.compaction.reinjection import read_regular_file
from sidecar.core.ports import ProviderError
from tests.unit.core.engine_builders import (
    SUMMARY_TEXT,
    Reply,
    build_engine,
    call_kind,
    read,
    request_tokens,
    texts,
    tool_turns,
)


def too_long(over: int) -> ProviderError:
    return ProviderError(f"prompt is too long: {15_000 + over} tokens > 15000 maximum",
                         status=400, type="invalid_request_error")


async def test_recent_unchanged_files_are_reinjected_after_the_summary(tmp_path: Path) -> None:
    engine = build_engine(tmp_path)  # a 40,000 window: 1,000 tokens a file, 10,000 in all
    small, other = engine.write("small.py", 300), engine.write("other.py", 400)
    changed, big = engine.write("changed.py", 300), engine.write("big.py", 1_500)
    engine.provider.main.extend([Reply("Reading.", tools=[read(p) for p in (small, other, changed, big)]),
                                 Reply("Read them all.")])
    await engine.prompt("read the files")
    changed.write_text("edited outside since it was read", encoding="utf-8")

    await engine.compact()

    records = engine.session.transcript.records
    boundary = next(i for i, m in enumerate(records) if m.subtype == "compact_boundary")
    attachments = [m for m in records[boundary:] if m.kind == "attachment"]
    kinds = [m.attachment or {} for m in attachments]
    assert {a.get("path") for a in kinds if a.get("type") == "file"} == {str(small), str(other)}
    [reference] = [m for m, a in zip(attachments, kinds) if a.get("type") == "compact_file_reference"]
    assert str(big) in reference.text() and str(small) not in reference.text()
    assert all(a.get("reinjected") is True for a in kinds)

    engine.provider.main.append(Reply("Carrying on."))
    await engine.prompt("go on")
    sent = texts(engine.provider.requests[-1])
    assert f"Contents of {small} (read before the summary, unchanged since):\n{small.read_text()}" in sent
    assert other.read_text() in sent
    assert "edited outside" not in sent and changed.name not in sent  # stale: not re-injected
    assert big.read_text() not in sent and str(big) in sent  # too large: named only
    assert sent.index(SUMMARY_TEXT) < sent.index(small.read_text())  # after the summary

    # A second compaction summarizes the conversation, not the files injected after the first.
    await engine.compact()
    second = engine.provider.requests_of("summary")[-1]
    assert small.read_text() not in texts(second)
    engine.assert_clean()


async def test_a_round_in_flight_is_kept_verbatim_after_the_summary(tmp_path: Path) -> None:
    engine = build_engine(tmp_path)
    await tool_turns(engine, 8)  # the eighth turn's tool round crosses the threshold

    assert engine.fired() == ["full"]
    after = engine.main_requests()[-1]
    assert [m.role for m in after.messages] == ["user", "assistant", "user"]
    # The response and its results go out as they were recorded: the call goes on from them.
    records = engine.session.transcript.records
    asked = next(m for m in records if m.text() == "Running step 7.")
    answered = next(m for m in records if m.extra.get("sourceToolMessageId") == asked.message_id)
    assert after.messages[1].content == asked.content
    assert after.messages[2].content == answered.content
    assert SUMMARY_TEXT in after.messages[0].content[1]["text"]
    assert "most recent messages follow verbatim" in after.messages[0].content[1]["text"]
    kept = [m for m in engine.session.transcript.records if "keptFrom" in m.extra]
    originals = {m.uuid: m for m in engine.session.transcript.records}
    assert [m.kind for m in kept] == ["assistant", "user"]
    for copy in kept:
        assert copy.content == originals[copy.extra["keptFrom"]].content and copy.usage is None
    engine.assert_clean()


async def test_a_summary_too_long_for_the_model_drops_the_oldest_groups_and_retries(
        tmp_path: Path) -> None:
    engine = build_engine(tmp_path)
    await tool_turns(engine, 5)
    engine.provider.summary.append(Reply(error=too_long(5_000)))

    result = await engine.compact()

    assert result["tier"] == "full"
    first, second = engine.provider.requests_of("summary")
    # The retry left out at least the 5,000 tokens the error named, oldest first.
    assert request_tokens(first) - request_tokens(second) >= 5_000
    lead = second.messages[0].content
    assert lead[0]["text"] == engine.user_context
    assert lead[1] == {"type": "text", "text": PTL_MARKER}
    assert "do step 0" in texts(first) and "do step 0" not in texts(second)
    assert "do step 4" in texts(second)  # the newest stay
    [boundary] = engine.boundaries()
    assert boundary.extra["compactMetadata"]["ptlRetries"] == 1
    engine.assert_clean()


async def test_the_prompt_too_long_retry_gives_up_and_changes_nothing(tmp_path: Path) -> None:
    engine = build_engine(tmp_path)
    await tool_turns(engine, 6)
    records = list(engine.session.transcript.records)
    engine.provider.summary.extend([Reply(error=too_long(500)) for _ in range(MAX_PTL_RETRIES + 1)])

    with pytest.raises(CompactionFailed) as failed:
        await engine.compact()

    assert "prompt is too long" in failed.value.data["reason"]
    summaries = engine.provider.requests_of("summary")
    assert len(summaries) == MAX_PTL_RETRIES + 1
    sizes = [request_tokens(r) for r in summaries]
    assert sizes == sorted(sizes, reverse=True) and len(set(sizes)) == len(sizes)
    assert engine.session.transcript.records == records and engine.boundaries() == []


async def test_images_and_hook_output_in_the_summary_request(tmp_path: Path) -> None:
    engine = build_engine(tmp_path, preCompactHooks=("echo the build is green",))
    image = base64.b64encode(b"\x89PNG picture").decode()
    await engine.prompt([{"type": "text", "text": "look at this"},
                         {"type": "image", "mimeType": "image/png", "data": image}])

    await engine.compact("keep the build status")

    [summary] = engine.provider.requests_of("summary")
    blocks = [b for m in summary.messages for b in m.content]
    assert not any(b["type"] == "image" for b in blocks)
    assert {"type": "text", "text": "[image omitted]"} in blocks
    prompt = summary.messages[-1].content[-1]["text"]
    assert "keep the build status" in prompt
    assert "From the pre-compact hooks:\nthe build is green" in prompt
    assert [call_kind(r) for r in engine.provider.requests] == ["main", "summary"]
    engine.assert_clean()


async def test_a_history_that_fits_the_window_is_summarized_whole(tmp_path: Path) -> None:
    engine = build_engine(tmp_path)
    await tool_turns(engine, 7)
    # The whole history, the compact prompt and the answer fit with 10,000 tokens to spare.
    assert engine.session.ledger.used() + 2_000 + 4_000 < engine.session.thresholds.size - 10_000

    await engine.compact()

    [summary] = engine.provider.requests_of("summary")
    assert summary.max_tokens == 4_000
    assert "do step 0" in texts(summary)


# ----- re-injection reads: regular files inside the workspace only, never blocking


def test_a_regular_file_inside_is_read(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("print('hi')\n")
    assert read_regular_file(tmp_path / "a.py", tmp_path, 1000) == "print('hi')\n"
    assert read_regular_file(tmp_path / "gone.py", tmp_path, 1000) is None
    assert read_regular_file(tmp_path / "a.py", tmp_path, 5) is None  # over the budget


def test_a_file_swapped_for_a_link_out_is_not_read(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    secret = tmp_path / "secret.txt"
    secret.write_text("top secret\n")
    (ws / "notes.txt").symlink_to(secret)
    assert read_regular_file(ws / "notes.txt", ws, 1000) is None


def test_a_fifo_swapped_in_does_not_block(tmp_path: Path) -> None:
    fifo = tmp_path / "notes.txt"
    os.mkfifo(fifo)
    # If the read opened the FIFO it would wait for a writer forever; a watchdog writer
    # keeps a regression from hanging the suite (it then shows as text, and fails).
    watchdog = threading.Timer(3.0, lambda: fifo.write_text("late writer\n"))
    watchdog.start()
    try:
        assert read_regular_file(fifo, tmp_path, 1000) is None
    finally:
        watchdog.cancel()
