"""Printing the peer benchmark's figures: one table row per client, a ratio row per pair,
then each run's validator verdict. Ratios are printed, never judged."""

from __future__ import annotations

from collections.abc import Sequence

from tests.bench.peer.drivers import RunOutcome

COLUMNS = ("workload", "window", "client", "billed", "requests", "compactions", "peak ctx",
           "re-reads", "too long", "side", "notes", "wall s")


def _window(tokens: int) -> str:
    return f"{tokens // 1_000_000}M" if tokens >= 1_000_000 else f"{tokens // 1000}K"


def _compactions(run: RunOutcome) -> str:
    """Summary calls; for the sidecar also its completed compactions by tier (session-memory
    compactions make no call of their own)."""
    text = str(run.figures.compactions)
    if run.figures.compactions_refused:
        text += f" +{run.figures.compactions_refused} refused"
    if run.tiers or run.failed_compactions:
        tiers = ", ".join(f"{k} {v}" for k, v in sorted(run.tiers.items()))
        failed = f", failed {run.failed_compactions}" if run.failed_compactions else ""
        text += f" ({tiers}{failed})"
    return text


def row(run: RunOutcome) -> list[str]:
    f = run.figures
    return [run.workload, _window(run.window), run.client, f"{f.billed:,.0f}", str(f.requests),
            _compactions(run), f"{f.peak_context:,}", str(f.rereads), str(f.too_long),
            str(f.side_calls),
            str(f.memory_calls), f"{run.wall_s:.0f}"]


def _ratio(ours: float, theirs: float, digits: int = 2) -> str:
    return f"{ours / theirs:.{digits}f}" if theirs else "n/a"


def ratio_row(ours: RunOutcome, theirs: RunOutcome) -> list[str]:
    a, b = ours.figures, theirs.figures
    return ["", "", "ours / CC", _ratio(a.billed, b.billed), _ratio(a.requests, b.requests),
            "", _ratio(a.peak_context, b.peak_context), "", "", "", "", ""]


BREAKDOWN_COLUMNS = ("workload", "window", "client", "main", "compaction", "notes", "side",
                     "input", "cache write", "cache read", "output")


def breakdown_row(run: RunOutcome) -> list[str]:
    """Where the bill comes from: billed per kind of request, then the token totals."""
    f = run.figures
    kinds = [f"{f.by_kind[k].billed:,.0f}" for k in ("main", "compaction", "memory", "side")]
    t = f.total
    return [run.workload, _window(run.window), run.client, *kinds, f"{t.input:,}",
            f"{t.cache_write:,}", f"{t.cache_read:,}", f"{t.output:,}"]


PROMPT_COLUMNS = ("workload", "window", "CC billed", "CC sys+tools", "ours billed",
                  "ours sys+tools", "ours w/o", "ours / CC", "ours w/o / CC")


def prompt_row(ours: RunOutcome, theirs: RunOutcome) -> list[str]:
    """How much of each bill the clients' own system prompts and tool definitions make,
    and the ratio without ours: how low the same messages alone could go against Claude
    Code's whole bill."""
    a, b = ours.figures, theirs.figures
    return [ours.workload, _window(ours.window), f"{b.billed:,.0f}", f"{b.prompt_overhead:,.0f}",
            f"{a.billed:,.0f}", f"{a.prompt_overhead:,.0f}", f"{a.conversation_only:,.0f}",
            _ratio(a.billed, b.billed, 3), _ratio(a.conversation_only, b.billed, 3)]


def table(rows: Sequence[Sequence[str]], columns: Sequence[str] = COLUMNS) -> str:
    """Left-aligned labels (workload, window, client and the compactions text), right-aligned
    numbers."""
    widths = [max(len(r[i]) for r in [columns, *rows]) for i in range(len(columns))]
    left = {i for i, c in enumerate(columns) if c in ("workload", "window", "client", "compactions")}

    def line(cells: Sequence[str]) -> str:
        return "  ".join(c.ljust(w) if i in left else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths, strict=True))).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(columns), rule, *(line(r) for r in rows)])


def verdict(run: RunOutcome) -> str:
    f = run.figures
    state = "finished" if run.finished else f"NOT FINISHED ({run.turns_done}/{run.turns} turns)"
    head = (f"{run.workload} {_window(run.window)} {run.client}: {state}; validator checked "
            f"{f.checked}, refused {f.refused}, violations {len(f.violations)}")
    if run.client == "sidecar":
        head += f", past blocking limit {f.blocking}"
    agent = run.agent
    head += (f"; agent: {agent.get('results', 0)} results ({agent.get('error_results', 0)} "
             f"errors), {agent.get('reissued', 0)} re-issued, {agent.get('skipped', 0)} skipped")
    lines = [head]
    if run.error:
        lines.append(f"      error: {run.error}")
    lines += [f"      {v}" for v in f.violations[:5]]
    if len(f.violations) > 5:
        lines.append(f"      ... and {len(f.violations) - 5} more")
    return "\n".join(lines)


LEGEND = (
    "billed: input-token equivalents over every request the fake served the client (input 1,\n"
    "cache write 1.25 or 2 with the one-hour TTL, cache read 0.1, output 5); requests:\n"
    "Messages requests recorded; compactions: compaction summary requests answered (+\n"
    "refused ones; for the sidecar its completed compactions by tier in brackets: a\n"
    "session_memory one makes no request);\n"
    "peak ctx: largest input + cache write + cache read of one answered request; re-reads:\n"
    "Reads of a file sent after an earlier Read result of it was cleared (a result under a\n"
    "quarter of the size it was first sent with), the price of clearing too soon; too long:\n"
    "requests the fake refused as past the window; side: one-shot calls without tools;\n"
    "notes: the sidecar's session-notes updates (forked calls, billed).\n"
    "Breakdown: billed per kind of request (main turns, compaction summaries, session-notes\n"
    "updates, side calls), then the raw token totals behind the bill.\n"
    "Prompts: sys+tools is what the client's own system prompt and tool definitions were\n"
    "billed over all its requests (read, written or uncached, as the fake billed the prefix\n"
    "they lead); ours w/o is our bill without them, the same messages sent with no prompt\n"
    "of our own. Where ours w/o / CC is above a target, no client sending these messages\n"
    "whole could reach it by trimming its prompt."
)
