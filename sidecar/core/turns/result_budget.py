"""The tool-result budget: how much of the room left in the window one result may take.

A result larger than its budget does not enter the context whole: its full text goes to a
file next to the session's transcript and the model gets a preview, the file's path and
size, and how to read the rest (as Claude Code does for large outputs). Without it, one read
close to the window's size refills the context right after every compaction.

The budget is ``resultBudgetPercent`` of the room left under the auto-compact point (the
blocking limit when auto-compact is off), never below a floor that lets an ordinary read
through (half of that point: a result that size, kept verbatim after a compaction beside the
prefix and a summary, still leaves the fifth of room a compaction must make; in a 60K window
a whole ~10,000-token source file is read whole, a 26,000-token one is not), and never above the largest result a tool returns today (Read's 25,000
tokens). In a 200K window the floor reaches that cap, so only small windows see previews.
The decision is made once, when the result is appended, so later requests repeat its bytes.
"""

from __future__ import annotations

from dataclasses import dataclass

from sidecar.core.accounting.window import Thresholds

# Read refuses more than this in one call; the budget never lets more through either.
MAX_RESULT_TOKENS = 25_000
# A result up to this share of the auto-compact point always fits (1/FLOOR_SHARE).
FLOOR_SHARE = 2
PREVIEW_CHARS = 2_000


def result_budget(thresholds: Thresholds, used: int, percent: int, round_so_far: int = 0) -> int:
    """The most tokens one more tool result may add when the context holds ``used`` and
    the results already taken from the same response add ``round_so_far`` to it.

    The floor holds for a response's results together: a compaction keeps the round in
    progress verbatim, so several reads of a parallel call must still fit beside a summary.
    """
    limit = thresholds.auto_compact_at or thresholds.blocking_at
    floor = limit // FLOOR_SHARE - round_so_far
    share = max(limit - used - round_so_far, 0) * percent // 100
    return min(max(share, floor), MAX_RESULT_TOKENS)


def preview(text: str, limit: int = PREVIEW_CHARS) -> str:
    """The head of ``text``: at most ``limit`` characters, cut at a line end when one is
    in the second half (a single long line is cut where the limit falls)."""
    if len(text) <= limit:
        return text
    head = text[:limit]
    end = head.rfind("\n")
    return head[:end] if end >= limit // 2 else head


@dataclass(frozen=True, slots=True)
class SavedResult:
    path: str
    chars: int
    size_bytes: int
    tokens: int
    budget: int


def saved_result_text(saved: SavedResult, head: str) -> str:
    """What the model gets instead of a result too large for the room left."""
    return (
        f"Output too large for the context ({saved.size_bytes:,} bytes, about "
        f"{saved.tokens:,} tokens; the room left allows {saved.budget:,}). "
        f"Full output saved to: {saved.path}\n"
        "Do not repeat the same call: read the saved file in slices with the Read tool's "
        "offset and limit, or search it with Grep.\n\n"
        f"Preview (first {len(head):,} characters):\n{head}"
    )
