"""kill -9 during a rewind leaves every file restored or untouched, never half written, and
a session that loads and can finish the rewind (a few trials here; the benchmark
tests/bench/bench_kill9.py runs more)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from tests.e2e.rewind_crash_trials import run_rewind_trials

TRIALS = int(os.environ.get("REWIND_CRASH_TRIALS", "3"))


async def test_kill_nine_during_a_rewind_tears_no_file(llm: Any, tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    report = await run_rewind_trials(llm, tmp_path / "store", workspace, TRIALS)
    assert report.trials == TRIALS and report.resumed == TRIALS
    assert report.files_torn == 0
    assert report.files_restored + report.files_untouched == TRIALS * 40
    assert not report.failures, report.failures
