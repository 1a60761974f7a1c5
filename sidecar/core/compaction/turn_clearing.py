"""Clearing inside a long turn: results the model has moved past, in steps that stay fixed.

Step clearing (``microcompact.step_clearing_candidates``) acts as a prompt goes out. A turn
of a hundred requests never reaches that point: every result the model read stays, and each
request reads it back from the cache (0.1 of an input token, every time). Here, once the
context passes the same trigger mid-turn, the results the model has moved past go in one
step, judged by the same cache arithmetic: the reads saved over the requests the turn is
likely to make still, against the one rewrite of everything after the first cleared block.
Of the results moved past, the newest ones from the point that pays best go: an old one
far behind the end would have the whole conversation written again.

Moved past: a file's content read again or edited since (the later read or edit holds
what counts), and any result ``STEPS_BACK`` or more answers old (a search whose hits the
model has read by then, a command's output it acted on), ``BIG_STEPS_BACK`` for a large one. The results of the newest
``KEEP_STEPS`` answers always stay. A cleared result says how to get it back; a later Read
returns the file again.
"""

from __future__ import annotations

from dataclasses import dataclass

from sidecar.core.accounting.tokens import TextCounter, block_tokens
from sidecar.core.compaction.microcompact import CacheReach, is_prompt
from sidecar.core.conversation import server_tools
from sidecar.core.conversation.messages import Message
from sidecar.core.models.catalog import CACHE_READ, CACHE_WRITE_5M
from sidecar.core.settings import Settings

# The results of the newest answers the model may still be working from.
KEEP_STEPS = 2
# A result this many answers old has been acted on.
STEPS_BACK = 8
# A result this large has been acted on sooner: its file or output is what the model read
# the answers since from (the recorded corpus billed 0.734 of its recordings against 0.743
# with every result kept STEPS_BACK answers, and the peer benchmark's thirty 8K reads in
# one turn 0.67 of Claude Code against 0.88 at the 1M window). Two answers rather than
# three: each step rewrites the kept results after the cleared ones, so keeping fewer
# makes steps cheap enough to take early (thirty 8K reads at 200K: 0.69 of Claude Code
# against 0.81; the corpus 0.7326 against 0.7341 with the same 33 re-reads; one answer
# made attio-2 dearer).
BIG_RESULT = 4_000
BIG_STEPS_BACK = 2
# A step must pay its rewrite back this many times over the requests expected to follow:
# the turn's length to come is a guess, and a step that only just pays on the guess makes
# recorded sessions dearer (1.5 cleared seven times in a 143-request turn, 4 % dearer than
# none; 3 made the corpus 2 % cheaper; 6 too rarely cleared to pay).
MARGIN = 3.0
# Mid-turn clearing is considered from this share of step clearing's trigger on: a long
# turn's results are read back by many requests, so they can pay for their clearing early,
# and the arithmetic below still decides (the recorded corpus billed 0.751 of its recordings
# at the whole 60K trigger, 0.747 at 2/3, 0.744 at 1/2, 0.743 at 1/3).
TRIGGER_SHARE = (1, 3)
FILE_TOOLS = {"Read": "file_path", "Edit": "file_path", "MultiEdit": "file_path",
              "Write": "file_path", "NotebookEdit": "notebook_path"}


@dataclass
class _Result:
    index: int  # of the record holding it
    tool_use_id: str
    step: int  # the answer that asked for it
    tokens: float
    moved_past: bool = False


def turn_clearing_candidates(records: list[Message], settings: Settings, used: int,
                             auto_compact_at: int | None, already: set[str],
                             compactable: frozenset[str], counter: TextCounter,
                             resumable_since: float | None = None) -> list[str]:
    """Results to clear now, mid-turn, in one step, or []."""
    cfg = settings.microcompact.stepClearing
    if not cfg.enabled:
        return []
    trigger = cfg.triggerTokens
    if auto_compact_at is not None:
        trigger = min(trigger, auto_compact_at * cfg.triggerPercent // 100)
    if used < trigger * TRIGGER_SHARE[0] // TRIGGER_SHARE[1]:
        return []
    turn_start = max((i for i, m in enumerate(records) if is_prompt(m)), default=-1)
    steps: dict[str, int] = {}  # response id -> its step number
    step_of_use: dict[str, int] = {}
    uses: dict[str, tuple[str, str | None]] = {}  # tool_use id -> (name, path)
    sizes: list[float] = []
    results: list[_Result] = []
    last_touch: dict[str, int] = {}  # path -> step of its latest read or edit
    for i, m in enumerate(records):
        size = 0.0
        if m.kind == "assistant" and not m.is_synthetic:
            steps.setdefault(m.message_id or m.uuid, len(steps))
        for b in m.content:
            tokens = block_tokens(b, counter)
            size += tokens
            if server_tools.is_use(b) and m.kind == "assistant":
                tid, name = str(b.get("id")), str(b.get("name"))
                given = b.get("input")
                args = given if isinstance(given, dict) else {}
                key = FILE_TOOLS.get(name)
                path = str(args.get(key)) if key and args.get(key) else None
                uses[tid] = (name, path)
                step_of_use[tid] = steps[m.message_id or m.uuid]
                if path is not None:
                    last_touch[path] = step_of_use[tid]
            elif server_tools.is_clearable(b):
                tid = str(b.get("tool_use_id"))
                name = uses.get(tid, ("", None))[0]
                if name in compactable and tid not in already and tid in step_of_use:
                    results.append(_Result(i, tid, step_of_use[tid], tokens))
        sizes.append(size)
    newest = len(steps) - 1
    turn_steps = sum(1 for m in records[turn_start + 1:] if m.kind == "assistant")
    if turn_start < 0 or turn_steps == 0:
        return []  # not mid-turn: step clearing's moment
    for r in results:
        if r.step > newest - KEEP_STEPS:
            continue
        name, path = uses[r.tool_use_id]
        superseded = path is not None and name == "Read" and last_touch.get(path, -1) > r.step
        back = BIG_STEPS_BACK if r.tokens >= BIG_RESULT else STEPS_BACK
        r.moved_past = superseded or r.step <= newest - back
    chosen = [r for r in results if r.moved_past]
    if not chosen:
        return []
    # The turn so far is the best guess of what it has left: one that has run many
    # requests is a long one.
    to_come = turn_steps
    # Suffix sums over the records: tokens and blocks from each record to the end.
    tokens_from = [0.0] * (len(records) + 1)
    blocks_from = [0] * (len(records) + 1)
    for i in range(len(records) - 1, -1, -1):
        tokens_from[i] = tokens_from[i + 1] + sizes[i]
        blocks_from[i] = blocks_from[i + 1] + len(records[i].content)
    # Every moved-past result from some point on: an older one more than the cache's
    # lookback before the end makes the whole conversation be written again, so the newer
    # ones alone may pay where all of them would not. The best-paying suffix goes.
    best: tuple[float, int] | None = None
    removed = 0.0
    reach = CacheReach.of(records, resumable_since)
    for k in range(len(chosen) - 1, -1, -1):
        removed += chosen[k].tokens
        first = chosen[k].index
        start = reach.rewrite_start(records, first, blocks_from[first])
        rewritten = tokens_from[start] - removed
        value = (to_come * CACHE_READ * removed
                 - MARGIN * rewritten * (CACHE_WRITE_5M - CACHE_READ))
        if value > 0 and (best is None or value > best[0]):
            best = (value, k)
    if best is None:
        return []
    return [r.tool_use_id for r in chosen[best[1]:]]


def rereads_after_clearing(records: list[Message]) -> int:
    """Reads of a file whose earlier Read result had been cleared by then: the price of a
    clearing that took away what the model came back for (it pays for the file twice)."""
    cleared: set[str] = set()
    read_paths: dict[str, list[str]] = {}  # path -> the Read calls of it so far
    count = 0
    for m in records:
        if m.subtype == "microcompact_boundary":
            meta = m.extra.get("microcompactMetadata")
            if isinstance(meta, dict):
                cleared.update(str(i) for i in meta.get("compactedToolIds") or [])
            continue
        if m.kind != "assistant":
            continue
        for b in m.content:
            given = b.get("input")
            if b.get("type") != "tool_use" or b.get("name") != "Read" or not isinstance(given, dict):
                continue
            path = str(given.get("file_path", ""))
            earlier = read_paths.setdefault(path, [])
            if any(tid in cleared for tid in earlier):
                count += 1
            earlier.append(str(b.get("id")))
    return count
