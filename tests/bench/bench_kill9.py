"""kill -9 storm: the sidecar is killed at random moments during turns and compactions.

Runs N trials (default 100) on one storage directory and one session that every trial
resumes, then prints how many trials, how many kills landed during a compaction, how many
turns completed, torn lines seen, and any lost turn or half-written compaction (there must be
none). Run: python tests/bench/bench_kill9.py [TRIALS]
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench.figures import header  # noqa: E402
from tests.e2e.crash_trials import run_trials  # noqa: E402

os.environ.setdefault("FAKE_LLM_KEY", "bench-key")


async def main(trials: int) -> int:
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


if __name__ == "__main__":
    header("kill -9 during turns and compactions")
    raise SystemExit(asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)))
