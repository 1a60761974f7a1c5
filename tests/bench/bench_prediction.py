"""How well each token estimator predicts the next API call's context on recorded sessions.

For every pair of consecutive API calls of a main-chain Claude Code transcript, the
prediction is what the ledger would show just before the second call: the first call's
context (input + cache creation + cache read + output) plus the estimate of the records
written between the two calls, minus the first response's own records (their content is
already in its output tokens). The truth is the second call's recorded prompt tokens.
Pairs with a compaction between them are skipped (the ledger rebuilds there), as are
subagent files (their chain has its own context).

Run: python tests/bench/bench_prediction.py [corpus dir]
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from sidecar.core.accounting import tokens as tokens_module  # noqa: E402
from sidecar.core.accounting.tokens import (  # noqa: E402
    Calibrated,
    SeedBytes,
    TextCounter,
    TokenLedger,
    block_bytes,
    make_counter,
    message_tokens,
    model_blocks,
)
from sidecar.core.conversation.messages import Message  # noqa: E402
from sidecar.core.settings import Settings  # noqa: E402
from sidecar.storage.claude_code import COMPACT_BOUNDARY, api_calls  # noqa: E402
from sidecar.storage.transcript_loader import load_transcript  # noqa: E402
from tests.bench.figures import CORPUS_DIR, header, median, percentile  # noqa: E402

PRIORS = (2.3, 2.6, 3.0)
# The "% of added" figure divides by the real growth; below this it is noise over noise
# (a one-line answer re-tokenized), so those pairs count only in "% of context".
MIN_ADDED_FOR_RATIO = 100


@dataclass(frozen=True)
class Pair:
    """What lies between two consecutive API calls, and what the second one really cost."""

    base: int  # previous call's context_tokens (the anchor)
    actual: int  # this call's prompt tokens
    added: list[Message]
    added_bytes: int
    prev_prompt: int  # previous call's prompt tokens
    prev_output: int  # previous call's recorded output tokens
    own: list[Message]  # the previous response's own records
    index: int  # where this call's first record sits in the message list

    @property
    def actual_added(self) -> int:
        return self.actual - self.base


@dataclass
class Errors:
    of_context: list[float] = field(default_factory=list)
    of_added: list[float] = field(default_factory=list)
    signed_added: list[float] = field(default_factory=list)

    def add(self, pair: Pair, predicted: float) -> None:
        error = predicted - pair.actual
        self.of_context.append(abs(error) / pair.actual * 100)
        if pair.actual_added >= MIN_ADDED_FOR_RATIO:
            self.of_added.append(abs(error) / pair.actual_added * 100)
            self.signed_added.append(error / pair.actual_added * 100)

    def extend(self, other: Errors) -> None:
        self.of_context += other.of_context
        self.of_added += other.of_added
        self.signed_added += other.signed_added


def is_compaction(message: Message) -> bool:
    return message.is_compact_summary or (
        message.kind == "system" and message.subtype == COMPACT_BOUNDARY
    )


def pairs_of(messages: list[Message]) -> tuple[list[Pair], int]:
    """Consecutive call pairs, and how many were skipped for a compaction between them."""
    calls = api_calls(messages)
    pairs: list[Pair] = []
    skipped = 0
    for prev, cur in zip(calls, calls[1:]):
        window = messages[prev.first_index : cur.first_index]
        # The previous response's own split records are in its output tokens.
        own = [m for m in window
               if m.kind == "assistant" and (m.message_id or m.uuid) == prev.message_id]
        between = [m for m in window[1:]
                   if not (m.kind == "assistant" and (m.message_id or m.uuid) == prev.message_id)]
        if any(is_compaction(m) for m in between):
            skipped += 1
            continue
        if cur.usage.prompt_tokens <= 0:
            skipped += 1
            continue
        added_bytes = sum(block_bytes(b) for m in between for b in model_blocks(m))
        pairs.append(Pair(prev.context_tokens, cur.usage.prompt_tokens, between, added_bytes,
                          prev.usage.prompt_tokens, prev.usage.output_tokens, own,
                          cur.first_index))
    return pairs, skipped


def anchor_of(pair: Pair, counter: TextCounter, own_floor: bool) -> float:
    """The anchor the ledger starts from: the recorded context, or with ``own_floor`` the
    prompt plus at least the estimate of the response's own records (some Claude Code
    versions record a partial streaming ``output_tokens`` such as 1)."""
    if not own_floor:
        return pair.base
    own = sum(message_tokens(m, counter) for m in pair.own)
    return pair.prev_prompt + max(pair.prev_output, own)


def fixed(counter: TextCounter, pairs: list[Pair], own_floor: bool = False) -> Errors:
    errors = Errors()
    for pair in pairs:
        base = anchor_of(pair, counter, own_floor)
        errors.add(pair, base + sum(message_tokens(m, counter) for m in pair.added))
    return errors


def calibrated(prior: float, pairs: list[Pair], learn: bool = True,
               own_floor: bool = False) -> tuple[Errors, float]:
    """A fresh per-session counter that learns from each anchor after predicting it."""
    counter = Calibrated(prior=prior)
    errors = Errors()
    for pair in pairs:
        base = anchor_of(pair, counter, own_floor)
        errors.add(pair, base + sum(message_tokens(m, counter) for m in pair.added))
        if learn:
            # Exactly what TokenLedger.append feeds it when the next anchor arrives.
            counter.observe(pair.added_bytes, round(pair.actual - base))
    return errors, counter.bytes_per_token


def estimate_all(pairs: list[Pair], tiktoken_counter: TextCounter,
                 own_floor: bool) -> tuple[dict[str, Errors], float]:
    """Every estimator over one file's pairs; also where calibrated:<default> ends up."""
    results: dict[str, Errors] = {"bytes4": fixed(SeedBytes(), pairs, own_floor)}
    learned = 0.0
    for prior in PRIORS:
        results[f"calibrated:{prior}"], bpt = calibrated(prior, pairs, own_floor=own_floor)
        if prior == tokens_module.CALIBRATED_PRIOR:
            learned = bpt
    results[tiktoken_counter.name] = fixed(tiktoken_counter, pairs, own_floor)
    for prior in PRIORS:
        results[f"fixed:{prior}"], _ = calibrated(prior, pairs, learn=False, own_floor=own_floor)
    return results, learned


def engine_ledger(messages: list[Message], pairs: list[Pair]) -> Errors:
    """The engine's own TokenLedger with the default estimator, fed record by record: what
    the gauge showed just before each call. Cross-checks the emulation above."""
    counter = make_counter(Settings().tokens.estimator)
    ledger = TokenLedger(counter=counter)
    wanted = {pair.index: pair for pair in pairs}
    errors = Errors()
    for index, message in enumerate(messages):
        pair = wanted.get(index)
        if pair is not None:
            errors.add(pair, ledger.used())
        ledger.append(message)
    return errors


def rank_key(errors: Errors) -> tuple[float, float]:
    return (median(errors.of_added), percentile(errors.of_added, 90))


def corpus_files(root: Path) -> list[Path]:
    return sorted(p for p in root.glob("*.jsonl") if p.is_file())


def summary(errors: Errors) -> str:
    return (f"{median(errors.of_context):6.2f} {percentile(errors.of_context, 90):6.2f} | "
            f"{median(errors.of_added):6.1f} {percentile(errors.of_added, 90):7.1f}")


def main(argv: list[str]) -> int:
    root = Path(argv[1]) if len(argv) > 1 else CORPUS_DIR
    header("bench_prediction: next-call context prediction on recorded sessions")
    files = corpus_files(root) if root.is_dir() else []
    if not files:
        print(f"   corpus not found at {root}; skipped")
        return 0

    tiktoken_counter = make_counter("tiktoken", "claude-sonnet-4-5")
    configurable = ["bytes4", *(f"calibrated:{p}" for p in PRIORS), tiktoken_counter.name]
    kinds = [*configurable, *(f"fixed:{p}" for p in PRIORS)]
    overall = {kind: Errors() for kind in kinds}
    floored = {kind: Errors() for kind in kinds}
    engine = Errors()
    per_file: list[tuple[str, int, dict[str, Errors], float]] = []
    total_pairs = total_skipped = low_output = 0
    for path in files:
        loaded = load_transcript(path)
        if loaded.is_subagent:
            print(f"   {path.name}: subagent/sidechain file, skipped")
            continue
        pairs, skipped = pairs_of(loaded.messages)
        total_skipped += skipped
        if not pairs:
            print(f"   {path.name}: fewer than two usable API calls, skipped")
            continue
        total_pairs += len(pairs)
        low_output += sum(1 for p in pairs if p.prev_output <= 10 and p.own)
        results, learned = estimate_all(pairs, tiktoken_counter, own_floor=False)
        for kind, errors in results.items():
            overall[kind].extend(errors)
        for kind, errors in estimate_all(pairs, tiktoken_counter, own_floor=True)[0].items():
            floored[kind].extend(errors)
        engine.extend(engine_ledger(loaded.messages, pairs))
        per_file.append((path.name, len(pairs), results, learned))

    print(f"   {total_pairs} call pairs used, {total_skipped} skipped (compaction between or no"
          f" prompt usage); '% of added' uses the {len(overall['bytes4'].of_added)}"
          f" pairs that grew by >= {MIN_ADDED_FOR_RATIO} tokens")
    print("   absolute error: median p90 as % of the context | median p90 as % of the added part")
    print("   calibrated:P = per-session counter learning online from prior P (what the ledger"
          " does); fixed:P = P bytes/token, never learning (reference only, not a setting)")
    for name, count, results, learned in per_file:
        print(f"-- {name} ({count} pairs; calibrated:{tokens_module.CALIBRATED_PRIOR} ends at"
              f" {learned:.2f} bytes/token)")
        for kind in kinds:
            print(f"   {kind:28s} {summary(results[kind])}")
    print("-- overall (all pairs pooled)")
    for kind in kinds:
        bias = median(overall[kind].signed_added)
        print(f"   {kind:28s} {summary(overall[kind])}   median signed error {bias:+.1f}% of added")
    print(f"   {'engine TokenLedger, default':28s} {summary(engine)}   (the real ledger, same pairs;"
          f" estimator {Settings().tokens.estimator!r})")
    print(f"-- overall with the anchor's output floored at the estimate of the response's own"
          f" records ({low_output} pairs follow a response recorded with output_tokens <= 10)")
    for kind in kinds:
        bias = median(floored[kind].signed_added)
        print(f"   {kind:28s} {summary(floored[kind])}   median signed error {bias:+.1f}% of added")

    ranked = sorted(configurable, key=lambda k: rank_key(overall[k]))
    print("-- verdict: configurable estimators ranked by pooled median error as % of the added"
          " part, then p90 (files won = lowest median % of added in that file)")
    for place, kind in enumerate(ranked, 1):
        won = sum(1 for _, _, results, _ in per_file
                  if min(configurable, key=lambda k: rank_key(results[k])) == kind)
        print(f"   {place}. {kind}: median {median(overall[kind].of_added):.1f}%,"
              f" p90 {percentile(overall[kind].of_added, 90):.1f}% of added;"
              f" median {median(overall[kind].of_context):.2f}%,"
              f" p90 {percentile(overall[kind].of_context, 90):.2f}% of context; files won {won}")
    best = ranked[0]
    current = f"calibrated:{tokens_module.CALIBRATED_PRIOR}"
    print(f"   best estimator: {best}")
    if best == current:
        print(f"   current default (Tokens.estimator='calibrated', CALIBRATED_PRIOR="
              f"{tokens_module.CALIBRATED_PRIOR}) matches the measured best")
    else:
        print(f"   current default is {current}; the measured best is {best}:"
              f" median {median(overall[best].of_added):.1f}% vs"
              f" {median(overall[current].of_added):.1f}% of added"
              " (BENCHMARKS.md gives the change)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
