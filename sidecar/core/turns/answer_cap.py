"""How much of one streamed answer is kept: a model stream is bounded.

A model that never stops (a broken server, a loop in its sampling) or one enormous delta
would otherwise grow the answer without end: in memory, on the editor's screen and, once
it lands in the transcript, in every later request, until no turn and no compaction fits
the window. ``stream_with_retry`` applies the bound to every stream, whichever provider
serves it: the answer's text, thinking and tool input together may hold at most
``answer_limit`` UTF-8 bytes. Past it the delta that crosses the bound is cut, the stream
is closed, and the consumer gets ``AnswerCut`` as the last event instead of ``Completed``.
"""

from __future__ import annotations

from dataclasses import dataclass

# An answer the request allows N output tokens for may take 16 × N bytes: four times
# what N tokens hold at 4 bytes a token, room for any real answer (code, CJK text, long
# runs of spaces) and far less than a runaway stream.
BYTES_PER_OUTPUT_TOKEN = 16


def answer_limit(max_tokens: int, max_bytes: int) -> int:
    """The bytes one answer may hold: 16 per output token allowed, at most ``max_bytes``."""
    return max(1, min(max_bytes, BYTES_PER_OUTPUT_TOKEN * max(max_tokens, 1)))


@dataclass(frozen=True)
class AnswerCut:
    """The answer reached ``limit`` bytes; its stream was stopped and the deltas before this
    event (``kept`` bytes of them) are all there is of it."""

    limit: int
    kept: int


class AnswerBudget:
    """Counts the bytes of one answer's deltas and cuts the one that crosses the limit."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.used = 0
        self.cut = False

    def reset(self) -> None:
        """A new attempt streams the answer from its start."""
        self.used = 0
        self.cut = False

    def take(self, text: str) -> str:
        """The part of ``text`` that fits; once one does not fit whole, ``cut`` is set."""
        if self.cut:
            return ""
        room = self.limit - self.used
        # A character is 1 to 4 bytes: most deltas are decided without encoding them, and
        # a huge one is never encoded whole.
        if len(text) * 4 <= room:
            size = len(text.encode("utf-8", "surrogatepass"))
            self.used += size
            return text
        if len(text) <= room:
            size = len(text.encode("utf-8", "surrogatepass"))
            if size <= room:
                self.used += size
                return text
        head = text[:room].encode("utf-8", "surrogatepass")[:room]
        kept = head.decode("utf-8", "ignore")
        self.used += len(kept.encode("utf-8", "surrogatepass"))
        self.cut = True
        return kept
