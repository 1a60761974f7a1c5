"""``context-sidecar replay``: replay recorded sessions through the engine and report.

Per session: peak context (ours against the recording's), when each tier fired (turn,
request and context), tokens before and after each compaction, and billed-token
equivalents (input 1, cache write 1.25 or 2 with the one-hour TTL, cache read 0.1, output
at the model's output/input price ratio, 5 for Claude) for the replay against what the
recording's own usage says it spent (main conversation, deduplicated by message id). ``--json`` prints the same as JSON.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from sidecar.replay.billing import (
    CACHE_READ_WEIGHT,
    CACHE_WRITE_1H_WEIGHT,
    CACHE_WRITE_WEIGHT,
    Billed,
    excess,
    weights_json,
)
from sidecar.replay.result import SessionResult, TierEvent
from sidecar.replay.runner import replay_paths, say

RECORDED_NOTE = (
    "recorded = the recording's API calls: its main conversation's, its compaction calls' "
    "and its subagents' (sidechains inline or in files of the same session beside it, "
    "replayed as subagents of ours and billed at their model's price in the main model's "
    "input-token equivalents). A replayed answer's output is billed "
    "alike on both sides, the larger of the recording's count (which includes thinking "
    "the transcript does not show) and the fake's count of its text"
)


class ReplayInputError(Exception):
    pass


def latest_claude_session(home: Path | None = None) -> Path | None:
    """The newest ``~/.claude/projects/*/*.jsonl`` by modification time."""
    root = (home or Path.home()) / ".claude" / "projects"
    candidates = [p for p in root.glob("*/*.jsonl") if p.is_file()]
    return max(candidates, key=lambda p: p.stat().st_mtime, default=None)


def input_files(path: str | None, home: Path | None = None) -> list[Path]:
    if path is None:
        found = latest_claude_session(home)
        if found is None:
            raise ReplayInputError(
                "no session to replay: give a transcript file or folder "
                "(no Claude Code session was found under ~/.claude/projects)"
            )
        return [found]
    target = Path(path).expanduser()
    if target.is_dir():
        files = sorted(p for p in target.glob("*.jsonl") if p.is_file())
        if not files:
            raise ReplayInputError(f"{target} holds no *.jsonl transcript")
        return files
    if target.is_file():
        return [target]
    raise ReplayInputError(f"{target}: no such file or folder")


# ----- text -------------------------------------------------------------------------------


def _k(value: int | None) -> str:
    if value is None:
        return "-"
    return f"{value / 1000:.1f}K" if value < 10_000 else f"{value / 1000:.0f}K"


def _compactions(result: SessionResult) -> str:
    done = [e for e in result.events if e.is_compaction]
    failed = sum(1 for e in result.events if e.tier == "failed")
    parts = [
        f"{'sm' if e.tier == 'session_memory' else 'full'}@t{e.turn}/r{e.request} "
        f"{_k(e.tokens_before)}→{_k(e.tokens_after)}"
        for e in done[:2]
    ]
    if len(done) > 2:
        parts.append(f"+{len(done) - 2}")
    if failed:
        parts.append(f"{failed} failed")
    return ", ".join(parts) or "-"


def _micro(result: SessionResult) -> str:
    counts: dict[str, int] = {}
    for e in result.events:
        if e.tier in ("microcompact", "api_context_management"):
            key = {"time_based": "tb", "step": "step", "turn": "turn"}.get(str(e.kind), "acm")
            counts[key] = counts.get(key, 0) + 1
    return " ".join(f"{k}×{v}" for k, v in sorted(counts.items())) or "-"


COLUMNS = (
    "session",
    "turns",
    "calls ours/rec",
    "peak ours",
    "peak rec",
    "microcompact",
    "compactions",
    "subagents",
    "re-reads",
    "billed ours",
    "billed rec",
    "ratio",
)


def _row(result: SessionResult) -> list[str]:
    ratio = result.billed_ratio()
    return [
        Path(result.file).name,
        str(result.turns),
        f"{len(result.ours_series)}+{result.ours_summary.calls}/{len(result.recorded_series)}",
        f"{result.peak_ours:,}",
        f"{result.peak_recorded:,}",
        _micro(result),
        _compactions(result),
        _subagents(result),
        str(result.rereads),
        f"{round(result.ours_billed()):,}",
        f"{round(result.recorded_billed()):,}",
        f"{ratio:.2f}" if ratio is not None else "-",
    ]


def _subagents(result: SessionResult) -> str:
    """``runs: calls ours/recorded`` of the subagents replayed."""
    if not result.subagent_runs:
        return "-"
    ours = sum(b.ours.calls for b in result.subagents.values())
    recorded = sum(b.recorded.calls for b in result.subagents.values())
    return f"{result.subagent_runs}: {ours}/{recorded}"


def _totals(results: list[SessionResult]) -> dict[str, Any]:
    done = [r for r in results if r.replayed]
    ours, recorded = 0.0, 0.0
    main, summaries, rec_billed = Billed(), Billed(), Billed()
    sub_ours, sub_recorded = Billed(), Billed()
    for r in done:
        ours += r.ours_billed()
        recorded += r.recorded_billed()
        main.merge(r.ours_main)
        summaries.merge(r.ours_summary)
        rec_billed.merge(r.recorded)
        rec_billed.merge(r.recorded_compactions)
        for bill in r.subagents.values():
            sub_ours.merge(bill.ours)
            sub_recorded.merge(bill.recorded)
    return {
        "sessions": len(done),
        "skipped": sum(1 for r in results if r.skipped is not None),
        "withinOthers": sum(1 for r in results if r.within is not None),
        "subagents": {"runs": sum(r.subagent_runs for r in done),
                      "requests": {"ours": sub_ours.calls, "recorded": sub_recorded.calls}},
        "turns": sum(r.turns for r in done),
        "requests": {
            "oursMain": main.calls,
            "oursSummary": summaries.calls,
            "recorded": rec_billed.calls,
        },
        "compactions": sum(1 for r in done for e in r.events if e.is_compaction),
        "pastBlocking": sum(r.past_blocking for r in done),
        "rereadsAfterClearing": sum(r.rereads for r in done),
        "checks": {"requests": sum(r.checked for r in done),
                   "refused": sum(r.refused for r in done),
                   "violations": sum(len(r.violations) for r in done)},
        "billed": {
            "ours": round(ours),
            "recorded": round(recorded),
            "ratio": round(ours / recorded, 3) if recorded else None,
        },
        "seconds": round(sum(r.seconds for r in done), 1),
    }


def _table(rows: list[list[str]]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    out = []
    for index, row in enumerate(rows):
        cells = [c.ljust(widths[i]) if i == 0 else c.rjust(widths[i]) for i, c in enumerate(row)]
        out.append("  ".join(cells).rstrip())
        if index == 0:
            out.append("  ".join("-" * w for w in widths))
    return out


def _event_line(e: TierEvent) -> str:
    where = f"turn {e.turn}, request {e.request}"
    if e.is_compaction:
        return (
            f"  {e.tier} ({e.trigger}) at {where}: {e.tokens_before or 0:,} → "
            f"{e.tokens_after or 0:,} tokens"
        )
    if e.tier == "failed":
        return f"  compaction failed at {where} ({e.used:,} tokens)"
    if e.tier == "microcompact" and e.kind in ("time_based", "step"):
        kind = "time-based" if e.kind == "time_based" else "step"
        return (
            f"  microcompact ({kind}) at {where}: {e.cleared} results cleared, "
            f"{e.tokens_before or 0:,} → {e.tokens_after or 0:,} tokens"
        )
    return ""


def render_text(results: list[SessionResult], elapsed: float) -> str:
    done = [r for r in results if r.replayed]
    lines: list[str] = []
    if done:
        th = done[0].thresholds
        lines.append(
            f"Replay on a {th.get('size') or 0:,}-token window: auto-compact at "
            f"{th.get('autoCompactAt') or 0:,}, warning at {th.get('warningAt') or 0:,}, "
            f"blocking at {th.get('blockingAt') or 0:,}."
        )
        rows = [list(COLUMNS)] + [_row(r) for r in done]
        if len(done) > 1:
            t = _totals(results)
            rows.append(
                [
                    "TOTAL",
                    str(t["turns"]),
                    (
                        f"{t['requests']['oursMain']}+{t['requests']['oursSummary']}/"
                        f"{t['requests']['recorded']}"
                    ),
                    "",
                    "",
                    "",
                    f"{t['compactions']} compaction{'' if t['compactions'] == 1 else 's'}",
                    (f"{t['subagents']['runs']}: {t['subagents']['requests']['ours']}/"
                     f"{t['subagents']['requests']['recorded']}"),
                    str(t["rereadsAfterClearing"]),
                    f"{t['billed']['ours']:,}",
                    f"{t['billed']['recorded']:,}",
                    f"{t['billed']['ratio']:.2f}" if t["billed"]["ratio"] else "-",
                ]
            )
        lines += _table(rows)
        w = done[0].out_weight
        lines.append("")
        lines.append(
            f"calls = main requests + summary/memory requests; billed = input-token "
            f"equivalents (input 1, cache write {CACHE_WRITE_WEIGHT:g}, one-hour cache write "
            f"{CACHE_WRITE_1H_WEIGHT:g}, cache read {CACHE_READ_WEIGHT:g}, output {w:g}); "
            f"{RECORDED_NOTE}. microcompact: tb = time-based, step = step clearing, turn = clearing inside a turn, acm = API "
            "context management. subagents = Task calls replayed as subagents: their calls "
            "ours/recorded. re-reads = the recording's reads of a file whose earlier result "
            "ours had cleared by then (the main conversation's)."
        )
        t = _totals(results)["checks"]
        lines.append(
            f"Every request was checked as the real API would: {t['requests']:,} checked, "
            f"{t['refused']} refused, {t['violations']} invariant violations."
        )
        details: list[str] = []
        for r in done:
            events = [line for line in (_event_line(e) for e in r.events) if line]
            notes = []
            if r.levels:
                notes.append(
                    "gauge first reached "
                    + ", ".join(
                        f"{level} at turn {p['turn']} ({p['used']:,})"
                        for level, p in r.levels.items()
                    )
                )
            ratio = r.billed_ratio()
            if ratio is not None and ratio > 1:
                notes.append(f"above the recording ({ratio:.2f}): "
                             + excess(r.ours_total, r.recorded, r.out_weight))
            if r.warm_start_tokens:
                notes.append(
                    f"warm start: the recording's first call read {r.recorded_warm_tokens:,} "
                    f"tokens from an earlier session's cache; ours counts "
                    f"{r.warm_start_tokens:,} of its first write as read")
            if r.past_blocking:
                notes.append(f"{r.past_blocking} requests at or past blockingAt")
            if r.violations:
                notes += [f"invariant: {v}" for v in r.violations[:5]]
            if r.errors:
                notes.append("; ".join(f"turn {e['turn']}: {e['message']}" for e in r.errors[:3]))
            script = r.script
            if script.get("unplayed") or script.get("endOfScriptReplies"):
                notes.append(
                    f"{script.get('unplayed', 0)} recorded answers not asked for, "
                    f"{script.get('endOfScriptReplies', 0)} calls past the recording"
                )
            if events or notes:
                details.append(f"{Path(r.file).name}:")
                details += events + [f"  {n}" for n in notes]
        if details:
            lines += ["", *details]
    for r in results:
        if r.within is not None:
            lines.append(f"{Path(r.file).name}: replayed within {Path(r.within).name}")
        elif r.skipped is not None:
            lines.append(f"skipped {Path(r.file).name}: {r.skipped}")
    lines.append(f"{len(done)} session(s) replayed in {elapsed:.1f} s.")
    return "\n".join(lines)


def render_json(results: list[SessionResult], elapsed: float) -> str:
    weight = next((r.out_weight for r in results if r.replayed), 5.0)
    payload = {
        "weights": weights_json(weight),
        "sessions": [r.to_json() for r in results],
        "totals": {**_totals(results), "wallSeconds": round(elapsed, 1)},
        "note": RECORDED_NOTE,
    }
    return json.dumps(payload, indent=2)


def run_replay(
    path: str | None,
    chart: str | None = None,
    as_json: bool = False,
    *,
    out: TextIO | None = None,
    workers: int | None = None,
    home: Path | None = None,
) -> int:
    """The ``replay`` command; returns the exit status."""
    out = out or sys.stdout
    try:
        files = input_files(path, home)
    except ReplayInputError as exc:
        say(f"context-sidecar replay: {exc}")
        return 2
    started = time.perf_counter()

    def progress(result: SessionResult) -> None:
        if not as_json and len(files) > 1:
            state = (
                (result.within and f"replayed within {Path(result.within).name}")
                or result.skipped
                or f"{len(result.ours_series)} requests in {result.seconds:.1f} s"
            )
            say(f"  {Path(result.file).name}: {state}")

    results = replay_paths(files, workers=workers, progress=progress)
    elapsed = time.perf_counter() - started
    out.write((render_json(results, elapsed) if as_json else render_text(results, elapsed)) + "\n")
    if chart:
        from sidecar.replay.chart import write_chart

        write_chart(results, Path(chart))
        if not as_json:
            out.write(f"chart written to {chart}\n")
    if any(r.violations for r in results):
        return 1  # a request the real API would refuse, or a broken invariant
    return 0 if any(r.replayed for r in results) else 1
