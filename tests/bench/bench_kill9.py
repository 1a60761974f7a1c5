"""kill -9 storm: the sidecar is killed at random moments during turns and compactions, and
during rewinds that restore code.

Turns: N trials (default 100) on one storage directory and one session that every trial
resumes, then prints how many trials, how many kills landed during a compaction, how many
turns completed, torn lines seen, and any lost turn or half-written compaction (there must be
none).

Rewinds (tests/e2e/rewind_crash_trials.py): M trials (default 30), each a new session whose
turns edited 30 files (20-60 KB, every fourth trial 150-450 KB) and created 10, and a
``sidecar/rewind`` killed at a random moment;
prints where the kills landed, the files found restored, untouched and torn (torn must be
0), the rewind's temporary files left in the workspace, and whether the next process loaded
the session and finished the rewind.

Run: python tests/bench/bench_kill9.py [TRIALS] [--rewind-trials M] [--rewind-only]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench.figures import header, median  # noqa: E402
from tests.bench.sidecar_process import sidecar_env  # noqa: E402
from tests.e2e.crash_trials import run_trials  # noqa: E402
from tests.e2e.rewind_crash_trials import run_rewind_trials  # noqa: E402

os.environ.setdefault("FAKE_LLM_KEY", "bench-key")
# The edited files' sizes, trial after trial: every fourth trial's are larger, so a kill more
# often finds one being copied beside its place.
REWIND_SIZES = [(20_000, 60_000)] * 3 + [(150_000, 450_000)]


async def turns(trials: int) -> int:
    from sidecar.fake_llm import FakeLLMServer

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        workspace = root / "ws"
        workspace.mkdir()
        srv = FakeLLMServer().start()
        try:
            started = time.monotonic()
            report = await run_trials(srv, root / "store", workspace, trials, seed=11)
            elapsed = time.monotonic() - started
        finally:
            srv.stop()
    print(f"trials                      {report.trials}")
    print(f"kills during a compaction   {report.kills_during_compaction}")
    print(f"turns completed before kills {report.completed_turns}")
    print(f"torn lines seen on load     {report.torn_lines}")
    print(f"lost turns / broken files   {len(report.failures)}")
    print(f"time                        {elapsed:.0f} s")
    for failure in report.failures[:10]:
        print(f"  FAILURE: {failure}")
    return 1 if report.failures else 0


async def rewinds(trials: int) -> int:
    from sidecar.fake_llm import FakeLLMServer

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        workspace = root / "ws"
        workspace.mkdir()
        srv = FakeLLMServer().start()
        try:
            started = time.monotonic()
            report = await run_rewind_trials(srv, root / "store", workspace, trials, seed=13,
                                             env=sidecar_env(root), sizes=REWIND_SIZES)
            elapsed = time.monotonic() - started
        finally:
            srv.stop()
    took = report.rewind_ms
    print(f"trials                          {report.trials} (40 files each: 30 edited of 20-60 KB, "
          f"150-450 KB every {len(REWIND_SIZES)}th trial, and 10 created)")
    print(f"uninterrupted rewind            median {median(took):.1f} ms, "
          f"min {min(took, default=0):.1f}, max {max(took, default=0):.1f} (code only)")
    print(f"kills with the rewind unanswered {report.kills_during_rewind}: "
          f"{report.killed_before_files} before any file, {report.killed_during_files} "
          f"among the files, {report.killed_after_files} after the files")
    print(f"kills after the answer          {report.killed_after_answer}")
    print(f"conversations rewound (both)    {report.conversations_rewound}")
    print(f"files restored                  {report.files_restored}")
    print(f"files untouched                 {report.files_untouched}")
    print(f"files torn                      {report.files_torn}")
    print(f"temporary files left            {report.temp_files} (.<name>.rewind-*, in "
          f"{report.trials_with_temp_files} trials)")
    for example in report.temp_examples[:3]:
        print(f"  left: {example}")
    print(f"temporary files still there     {report.temp_files_after_resume} once a new process "
          f"loaded the session and finished the rewind")
    print(f"sessions resumed / rewinds finished after the kill {report.resumed} / "
          f"{report.finished}")
    print(f"torn transcript lines           {report.torn_lines}")
    print(f"failures                        {len(report.failures)}")
    print(f"time                            {elapsed:.0f} s")
    for failure in report.failures[:10]:
        print(f"  FAILURE: {failure}")
    return 1 if report.failures or report.files_torn else 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trials", nargs="?", type=int, default=100)
    parser.add_argument("--rewind-trials", type=int, default=30)
    parser.add_argument("--rewind-only", action="store_true")
    args = parser.parse_args(argv)
    status = 0
    if not args.rewind_only:
        header("kill -9 during turns and compactions")
        status |= asyncio.run(turns(args.trials))
    if args.rewind_trials:
        header("kill -9 during a rewind of code (sidecar/rewind, restore code or both)")
        status |= asyncio.run(rewinds(args.rewind_trials))
    return status


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
