"""Full compaction of a conversation holding a message larger than any request: the summary
request is cut to fit (the block cut with a note, its start and end kept), before it is
sent and again when the provider still says it is too long with one round left."""

from __future__ import annotations

from pathlib import Path

from sidecar.core.accounting.tokens import SeedBytes
from sidecar.core.conversation.messages import Message, user_text
from sidecar.core.ports import ProviderError
from tests.unit.core.engine_builders import Reply, build_engine, request_tokens, texts

HUGE = "".join(f"line {i}: all work and no play makes Jack a dull boy.\n" for i in range(40_000))


def huge_answer() -> Message:
    return Message(kind="assistant", content=[{"type": "text", "text": HUGE}],
                   message_id="msg_huge", model="claude-sonnet-5-5")


async def test_compact_cuts_an_answer_larger_than_the_window(tmp_path: Path) -> None:
    engine = build_engine(tmp_path)  # a 40,000-token window
    await engine.prompt("write the novel")
    engine.session.append(huge_answer())  # about 560,000 tokens
    assert engine.session.ledger.used() > 10 * engine.session.thresholds.size

    result = await engine.compact()

    [summary] = engine.provider.requests_of("summary")
    sent = texts(summary)
    print(f"\nsummary request: {request_tokens(summary):,} tokens for a "
          f"{engine.session.thresholds.size:,}-token window; after: {result['tokensAfter']:,}")
    assert result["status"] == "completed" and result["tokensAfter"] < 10_000
    assert request_tokens(summary) + summary.max_tokens <= engine.session.thresholds.size
    assert "truncated here so the conversation fits the summary request" in sent
    assert "line 0:" in sent and "line 39999:" in sent  # its start and its end
    engine.provider.main.append(Reply("Back."))
    assert (await engine.prompt("go on"))["stopReason"] == "end_turn"
    engine.assert_clean()


async def test_one_round_still_too_long_for_the_provider_is_cut_further(tmp_path: Path) -> None:
    engine = build_engine(tmp_path)
    engine.session.append(user_text("write the novel"))
    engine.session.append(huge_answer())  # one round: no group to drop
    too_long = ProviderError("prompt is too long: 41000 tokens > 40000 maximum", status=400,
                             type="invalid_request_error")
    engine.provider.summary.append(Reply(error=too_long))

    result = await engine.compact()

    first, second = engine.provider.requests_of("summary")
    assert result["status"] == "completed"
    print(f"\none round too long: {request_tokens(first):,} then {request_tokens(second):,} tokens")
    assert request_tokens(second) < request_tokens(first) * 3 // 4
    assert "line 0:" in texts(second) and "line 39999:" in texts(second)


def test_blocks_under_the_bound_are_left_alone() -> None:
    from sidecar.core.compaction.full import cut_block

    counter = SeedBytes()
    small = {"type": "text", "text": "short"}
    assert cut_block(small, 100, counter) is small
    result = {"type": "tool_result", "tool_use_id": "t", "content": "y" * 40_000}
    cut = cut_block(result, 1_000, counter)
    assert len(cut["content"]) < 4_400 and "truncated here" in cut["content"]


async def test_a_summary_request_that_fits_is_sent_as_the_conversation_stands(tmp_path: Path) -> None:
    """A block over a quarter of the room is cut only when the request would not fit
    otherwise: a cut block changes what the main requests cached, and the provider writes
    everything after it again (a 60K window's reading workload paid a fifth more for it)."""
    engine = build_engine(tmp_path)  # a 40,000-token window
    await engine.prompt("read the big file")
    big = "".join(f"row {i}: a fairly ordinary line of a data file\n" for i in range(1_300))
    engine.session.append(Message(kind="assistant", content=[{"type": "text", "text": big}],
                                  message_id="msg_big", model="claude-sonnet-5-5"))
    assert request_tokens(engine.provider.requests[-1]) < engine.session.thresholds.size // 2

    await engine.compact()

    [summary] = engine.provider.requests_of("summary")
    assert "truncated here" not in texts(summary) and big in texts(summary)
