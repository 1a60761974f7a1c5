"""Where a request picks up the prompt cache when it changed content far behind its end.

Anthropic finds a cached prefix only at a breakpoint or within ``LOOKBACK_BLOCKS`` content
blocks before one. Each main request puts a breakpoint on its latest message, and the
next request, a few blocks longer, finds that entry by the lookback. A request that
changes content further back (results cleared in one step, as a prompt goes out or in a
long turn) or that follows an answer of many blocks (a dozen tool calls and their results)
finds nothing there: the whole conversation after the system prompt is written again, at
1.25 an input token instead of the 0.1 it would have been read for.

So the session remembers where its recent requests put that breakpoint (the message, a
digest of the conversation through it, when). When the newest of them still alive and
still unchanged lies beyond the lookback from the new request's end, the request carries
one more breakpoint there: the read stops at it, and only what follows is written. It
costs nothing, a breakpoint on a cached prefix writes nothing. The clearing rules count
on it (``microcompact.CacheReach``): with it a step rewrites what follows the first
cleared result, not the whole conversation.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from sidecar.core.accounting.cache_anchor import running_digests
from sidecar.core.ports import ModelRequest

# How far back from a breakpoint Anthropic looks for a cached prefix, in content blocks.
LOOKBACK_BLOCKS = 20
# Entries live five minutes after their last use; trusted a little less, for the clocks'
# sake (a request takes a while to reach the API after the session decides on it).
ENTRY_LIFETIME = 300.0 - 30.0


@dataclass
class Entry:
    index: int  # the message whose last block carried the breakpoint
    digest: str  # of the conversation through it
    written_at: float  # when it was written, or last read


class CacheResume:
    """The recent breakpoints of one session's main requests (see the module's docstring)."""

    def __init__(self) -> None:
        self.entries: list[Entry] = []

    def plan(self, request: ModelRequest, now: float,
             digests: list[str] | None = None) -> ModelRequest:
        """The request with ``cache_resume`` set where its latest breakpoint would miss."""
        messages = request.messages
        if not messages or not request.cache_latest_message:
            return request
        digests = digests if digests is not None else running_digests(messages)
        self.entries = [e for e in self.entries if now - e.written_at < ENTRY_LIFETIME]
        latest = len(messages) - 1
        resume: Entry | None = None
        for entry in reversed(self.entries):
            if entry.index <= latest and digests[entry.index] == entry.digest:
                resume = entry
                break
        self.entries.append(Entry(latest, digests[latest], now))
        if resume is None or resume.index == latest:
            return request
        between = sum(len(m.content) for m in messages[resume.index + 1:])
        if between <= LOOKBACK_BLOCKS // 2 or request.cache_anchor == resume.index:
            return request
        resume.written_at = now  # this request reads it: its five minutes start again
        return dataclasses.replace(request, cache_resume=resume.index)
