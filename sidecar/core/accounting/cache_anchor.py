"""Where a request's prompt cache lives for an hour instead of five minutes.

Anthropic keeps a cached prefix five minutes after its last use, or an hour when its
breakpoint says ``ttl: "1h"``; the hour costs 2 input tokens per token written instead of
1.25. A pause between two requests longer than five minutes (a build that runs long, a
permission prompt the user answers after lunch's first coffee, a prompt typed after a read
of the diff) loses the five-minute entries, and the next request writes the whole
conversation again.

So one breakpoint, the anchor, is kept at a point of the conversation whose prefix was
written with the hour's TTL; after such a pause the next request reads up to the anchor
and rewrites only what follows it. The anchor moves to the newest message when that pays
for itself: moving it costs the hour's premium (0.75 of an input token) on the tokens
this request writes anyway, and it saves, should the pause come, the rewrite
(1.25 written instead of 0.1 read) of everything between the old anchor and the end. The
chance of such a pause after a request is the session's own rate of them, started from a
prior of one pause in ``PRIOR_REQUESTS`` requests. After any gap past five minutes the
request writes everything past a live anchor, and after one past the hour everything, so
the premium is then weighed on all of that.

The anchor is a breakpoint of its own (the fourth: tools, system, anchor, newest message),
on a message that no longer changes, so a lookup finds it however many blocks follow. The
API takes one-hour breakpoints only before five-minute ones, so the tools' and the system
prompt's breakpoints carry the hour too while an anchor is in use; they are read from the
cache, not written, so that costs nothing. An anchor is dropped when what precedes it
changes (a compaction, cleared results, new project rules) or when its hour has passed.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass

from sidecar.core.conversation.messages import ApiMessage
from sidecar.core.models.catalog import CACHE_READ, CACHE_WRITE_1H, CACHE_WRITE_5M
from sidecar.core.ports import ModelRequest

FIVE_MINUTES = 300.0
ONE_HOUR = 3600.0
# Prices relative to an uncached input token: the hour's write premium over five minutes',
# and what a rewrite costs over the read it replaces.
HOUR_PREMIUM = CACHE_WRITE_1H - CACHE_WRITE_5M
REWRITE_COST = CACHE_WRITE_5M - CACHE_READ
# Pauses of five minutes to an hour between requests, before the session has shown its
# own rate: one in 80 requests (the recorded sessions this project replays had 11 in 914).
PRIOR_PAUSES = 1
PRIOR_REQUESTS = 80
# An anchor is trusted a little less than its hour, for the clocks' sake.
ANCHOR_LIFETIME = ONE_HOUR - 120.0


def running_digests(messages: list[ApiMessage]) -> list[str]:
    """Digest i names the conversation through message i (the anchor's, and the resume
    points' of ``cache_resume``: one pass per request serves both)."""
    out: list[str] = []
    state = b""
    for message in messages:
        h = hashlib.blake2b(state, digest_size=16)
        h.update(message.role.encode())
        h.update(json.dumps(message.content, sort_keys=True, default=str).encode())
        state = h.digest()
        out.append(state.hex())
    return out


@dataclass
class Anchor:
    index: int  # the message whose last cacheable block carries the hour's breakpoint
    digest: str  # of the messages through it, when it was placed
    tokens: int  # prompt tokens through it (the request's prompt when it was placed)
    refreshed_at: float  # placed, or last read after a pause


class CacheAnchors:
    """The anchor of one session's main requests (see the module's docstring)."""

    def __init__(self) -> None:
        self.anchor: Anchor | None = None
        self.requests = 0
        self.pauses = 0
        self.last_sent: float | None = None
        self.epoch: int | None = None

    def pause_rate(self) -> float:
        return (self.pauses + PRIOR_PAUSES) / (self.requests + PRIOR_REQUESTS)

    def plan(self, request: ModelRequest, prompt_tokens: int, previous_prompt: int | None,
             now: float, epoch: int = 0, digests: list[str] | None = None) -> ModelRequest:
        """The request with its anchor set: kept, moved to the newest message, or none.

        ``prompt_tokens`` is the context this request sends (estimated); ``previous_prompt``
        the prompt tokens of the session's previous main request, whose prefix this one
        reads from the cache, so the difference is what it writes, unless the conversation
        was rewritten since (a new ``epoch``: a compaction, cleared results), when it writes
        everything after the anchor."""
        if not request.messages:
            return request
        digests = digests if digests is not None else running_digests(request.messages)
        gap = None if self.last_sent is None else now - self.last_sent
        self.last_sent = now
        self.requests += 1
        # Any gap past five minutes expires the five-minute entries; only one shorter than
        # the hour is a pause the anchor could have bridged, and counts toward the rate.
        expired = gap is not None and gap > FIVE_MINUTES
        paused = expired and gap is not None and gap < ONE_HOUR
        if paused:
            self.pauses += 1
        anchor = self.anchor
        if anchor is not None and not self._holds(anchor, digests, now):
            anchor = self.anchor = None
        if anchor is not None and paused:
            anchor.refreshed_at = now  # this request reads it: its hour starts again
        newest = len(request.messages) - 1
        base = anchor.tokens if anchor is not None else 0
        rewritten = epoch != self.epoch
        self.epoch = epoch
        written = prompt_tokens - (previous_prompt or 0)
        if expired or rewritten or previous_prompt is None:
            written = prompt_tokens - base
        # Move the anchor when the premium on this write is less than the rewrite a pause
        # after this request would cost, weighed by how likely such a pause is.
        exposed = prompt_tokens - base
        if (newest > (anchor.index if anchor is not None else -1)
                and self.pause_rate() * REWRITE_COST * exposed > HOUR_PREMIUM * max(written, 0)):
            anchor = self.anchor = Anchor(newest, digests[newest], prompt_tokens, now)
        if anchor is None:
            return request
        return dataclasses.replace(request, cache_anchor=anchor.index)

    def _holds(self, anchor: Anchor, digests: list[str], now: float) -> bool:
        return (now - anchor.refreshed_at < ANCHOR_LIFETIME
                and anchor.index < len(digests)
                and digests[anchor.index] == anchor.digest)
