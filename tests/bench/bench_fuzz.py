"""The fuzzer of tests/e2e/test_fuzz_*.py, long: 10,000 fuzzed messages per transport.

Cases are drawn by hypothesis (generation only, no shrinking), a third each from framing
(LSP's Content-Length faults, ACP's line faults), JSON-RPC envelopes and every method's
params; each is followed by a valid probe request. One sidecar per transport serves the
whole run (it is restarted only if it dies, and that counts as a crash). No request leaves
the machine: there is no API key and the base URL points at a closed local port.

Run: python tests/bench/bench_fuzz.py [messages per transport]   (default 10000)
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tests.bench.figures import header, median, percentile  # noqa: E402
from tests.e2e.fuzz_cases import (  # noqa: E402
    FuzzTarget,
    Wire,
    acp_line_case,
    envelope_case,
    framing_case,
    params_case,
)


def fuzz(acp: bool, goal: int, tmp: Path) -> tuple[FuzzTarget, list[str], float]:
    target = FuzzTarget(tmp, acp)
    wire = Wire(acp)
    framing = acp_line_case() if acp else framing_case()

    def one(data: st.DataObject) -> None:
        kind = data.draw(st.integers(0, 2))
        strategy = framing if kind == 0 else envelope_case(wire) if kind == 1 else params_case(wire, target.values)
        target.run(data.draw(strategy))

    started = time.perf_counter()
    try:
        while target.tally.fuzzed < goal:
            # A case holds one message or a few: ask for no more cases than messages left.
            batch = settings(max_examples=min(500, goal - target.tally.fuzzed), deadline=None, database=None,
                             phases=[Phase.generate], suppress_health_check=list(HealthCheck))
            batch(given(data=st.data())(one))()
        late = target.finish()
    finally:
        target.close()
    return target, late, time.perf_counter() - started


def report(name: str, target: FuzzTarget, late: list[str], seconds: float) -> int:
    t = target.tally
    problems = t.problems + late
    print(f"   {name}: {t.fuzzed:,} fuzzed messages in {t.cases:,} cases, {t.messages:,} messages sent"
          f" with the probes, {seconds:.0f} s")
    print(f"      crashes {t.crashes} | requests with an id left unanswered {t.unanswered}"
          f" | broken promises {len(problems)}")
    codes = sorted(t.codes.items(), key=lambda kv: (kv[0] != "result", kv[0]))
    print("      answers to fuzzed messages by code: " + " | ".join(f"{code} {count:,}" for code, count in codes))
    print(f"      probe round trip: median {median(t.probe_ms):.1f} ms, p99 {percentile(t.probe_ms, 99):.1f} ms,"
          f" max {max(t.probe_ms):.1f} ms")
    for problem in problems[:10]:
        print(f"      ! {problem[:300]}")
    return 1 if problems or t.crashes or t.unanswered else 0


def main(argv: list[str]) -> int:
    goal = int(argv[1]) if len(argv) > 1 else 10_000
    header(f"bench_fuzz: {goal:,} fuzzed messages per transport, each case followed by a probe")
    status = 0
    with tempfile.TemporaryDirectory(prefix="bench-fuzz-") as tmpdir:
        for name, acp in (("LSP", False), ("ACP", True)):
            target, late, seconds = fuzz(acp, goal, Path(tmpdir) / name.lower())
            status |= report(name, target, late, seconds)
    return status


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
