"""The one-hour anchor: placed when a pause's rewrite outweighs the hour's premium, kept
while what precedes it is unchanged and its hour lasts, dropped otherwise."""

from __future__ import annotations

from sidecar.core.accounting.cache_anchor import ANCHOR_LIFETIME, PRIOR_REQUESTS, CacheAnchors
from sidecar.core.conversation.messages import ApiMessage
from sidecar.core.ports import ModelRequest


def conversation(turns: int) -> list[ApiMessage]:
    out: list[ApiMessage] = []
    for i in range(turns):
        out.append(ApiMessage("user", [{"type": "text", "text": f"question {i}"}]))
        out.append(ApiMessage("assistant", [{"type": "text", "text": f"answer {i}"}]))
    out.append(ApiMessage("user", [{"type": "text", "text": f"question {turns}"}]))
    return out


def request(turns: int) -> ModelRequest:
    return ModelRequest(model="claude-sonnet-4-6", system=[], messages=conversation(turns))


def test_the_first_request_and_a_large_write_are_not_anchored() -> None:
    anchors = CacheAnchors()
    # Everything is written anyway at the first request: the hour would double its premium.
    assert anchors.plan(request(1), 20_000, None, now=0.0).cache_anchor is None
    # A request writing 10K of 30K: the premium (7,500) outweighs the expected rewrite.
    assert anchors.plan(request(2), 30_000, 20_000, now=10.0).cache_anchor is None


def test_a_small_write_on_a_large_context_moves_the_anchor_to_the_newest_message() -> None:
    anchors = CacheAnchors()
    anchors.plan(request(1), 20_000, None, now=0.0)
    # 100 tokens written on 40,000 exposed: 1/81 * 1.15 * 40,000 = 568 > 0.75 * 100 = 75.
    planned = anchors.plan(request(2), 40_000, 39_900, now=10.0)
    assert planned.cache_anchor == 4
    # The next request keeps it: only 150 tokens are exposed beyond it.
    assert anchors.plan(request(3), 40_150, 40_000, now=20.0).cache_anchor == 4
    # Once enough lies beyond it, the anchor moves up again.
    assert anchors.plan(request(4), 80_000, 79_900, now=30.0).cache_anchor == 8


def test_an_anchor_is_dropped_when_what_precedes_it_changes_or_its_hour_passes() -> None:
    anchors = CacheAnchors()
    anchors.plan(request(1), 20_000, None, now=0.0)
    assert anchors.plan(request(2), 40_000, 39_900, now=10.0).cache_anchor == 4
    changed = request(3)
    changed.messages[0] = ApiMessage("user", [{"type": "text", "text": "compacted"}])
    # After a compaction (a new epoch) the request writes all of its 21,000 tokens, though
    # the previous request's prompt was larger: dropped, and no new one with the premium.
    assert anchors.plan(changed, 21_000, 40_000, now=20.0, epoch=1).cache_anchor is None
    anchors = CacheAnchors()
    anchors.plan(request(1), 20_000, None, now=0.0)
    anchors.plan(request(2), 40_000, 39_900, now=10.0)
    late = anchors.plan(request(3), 40_100, 40_000, now=10.0 + ANCHOR_LIFETIME + 1)
    # Neither the old one nor a new one: after the hour the request writes everything.
    assert late.cache_anchor is None


def test_pauses_the_session_takes_raise_the_rate() -> None:
    anchors = CacheAnchors()
    prior = anchors.pause_rate()
    assert prior == 1 / PRIOR_REQUESTS
    now = 0.0
    for i in range(1, 4):
        anchors.plan(request(i), 10_000 * i, None, now=now)
        now += 600.0  # ten minutes between requests
    assert anchors.pauses == 2 and anchors.pause_rate() > 2 * prior
    # Long pauses past the hour are no pause the hour could bridge.
    anchors.plan(request(5), 50_000, 40_000, now=now + 7_200)
    assert anchors.pauses == 2


def test_after_a_gap_longer_than_the_hour_the_whole_write_is_weighed() -> None:
    """Past an hour every entry has expired, the anchor's too, so the request writes its
    whole prompt: the hour's premium on all of it is not worth a pause that may not come
    (a replayed session after a night away wrote 60,000 tokens at the hour's price)."""
    anchors = CacheAnchors()
    anchors.plan(request(1), 20_000, None, now=0.0)
    assert anchors.plan(request(2), 60_000, 59_900, now=10.0).cache_anchor == 4
    after_the_night = anchors.plan(request(3), 60_100, 60_000, now=10.0 + 8 * 3600)
    assert after_the_night.cache_anchor is None
    # The next request writes little again and is anchored as before.
    assert anchors.plan(request(4), 60_300, 60_100, now=20.0 + 8 * 3600).cache_anchor == 8


def test_a_clock_that_goes_back_is_no_pause() -> None:
    anchors = CacheAnchors()
    anchors.plan(request(1), 20_000, None, now=1_000.0)
    assert anchors.plan(request(2), 60_000, 59_900, now=400.0).cache_anchor == 4
    assert anchors.pauses == 0
