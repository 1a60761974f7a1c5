"""Run every benchmark, one fresh interpreter each, and print their blocks in order.

Each runs in its own process so one benchmark's imports and memory do not colour the
next. The exit status is non-zero only if a benchmark failed (a correctness problem or a
crash), never because the machine was slow.

Run: python tests/bench/run_all.py [name ...]   (names like "gauge" or "bench_gauge")
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench.figures import REPO_ROOT, load_average  # noqa: E402

BENCHMARKS = ["bench_startup", "bench_gauge", "bench_stream", "bench_prediction", "bench_rss",
              "bench_replay", "bench_fuzz", "bench_kill9", "bench_vscode_first_prompt", "bench_delegation",
              "bench_rewind", "bench_tool_search"]
# Generous: each benchmark aims for under two minutes on a busy 2-core machine.
TIMEOUT_SECONDS = 600
# Those that cannot: kill -9's 100 trials during turns take about ten minutes on their own,
# and its trials during rewinds two more.
TIMEOUTS = {"bench_kill9": 1200}


def selected(args: list[str]) -> list[str]:
    if not args:
        return BENCHMARKS
    names = [a if a.startswith("bench_") else f"bench_{a}" for a in args]
    unknown = [n for n in names if n not in BENCHMARKS]
    if unknown:
        raise SystemExit(f"unknown benchmark(s): {', '.join(unknown)}; known: {BENCHMARKS}")
    return names


def main(argv: list[str]) -> int:
    failed: list[str] = []
    here = Path(__file__).parent
    for name in selected(argv[1:]):
        started = time.perf_counter()
        print(f"\n#### {name} (load average before: {load_average()})", flush=True)
        try:
            result = subprocess.run([sys.executable, str(here / f"{name}.py")], cwd=REPO_ROOT,
                                    timeout=TIMEOUTS.get(name, TIMEOUT_SECONDS))
            status = result.returncode
        except subprocess.TimeoutExpired:
            status = -1
            print(f"   {name} did not finish within {TIMEOUTS.get(name, TIMEOUT_SECONDS)} s")
        print(f"#### {name}: exit {status}, {time.perf_counter() - started:.1f} s", flush=True)
        if status != 0:
            failed.append(name)
    if failed:
        print(f"\nfailed: {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
