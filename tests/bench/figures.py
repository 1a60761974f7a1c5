"""Small statistics and reporting helpers shared by the benchmark scripts.

Benchmarks print figures; they never assert on speed. These helpers keep the printed
blocks uniform so BENCHMARKS.md can quote them as they are.
"""

from __future__ import annotations

import os
import platform
import statistics
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
CORPUS_DIR = REPO_ROOT.parent / "shared" / "corpus"


def percentile(values: list[float], q: float) -> float:
    """Linear-interpolation percentile (q in 0..100); NaN for an empty list."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    pos = (len(ordered) - 1) * q / 100.0
    low = int(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def load_average() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


def header(title: str) -> None:
    """The first lines of every benchmark's block: what, when, where, how busy."""
    print(f"== {title}")
    print(f"   date {time.strftime('%Y-%m-%d %H:%M:%S %Z')} | python {platform.python_version()}"
          f" | cores {os.cpu_count()} | load average (1/5/15 min) {load_average()}")


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"
