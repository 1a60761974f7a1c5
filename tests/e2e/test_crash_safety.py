"""kill -9 during turns and compactions loses no completed turn (a few trials here; the
benchmark tests/bench/bench_kill9.py runs 100+)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from tests.e2e.crash_trials import run_trials

TRIALS = int(os.environ.get("CRASH_TRIALS", "6"))


async def test_kill_nine_loses_nothing(llm: Any, tmp_path: Path, workspace: Path) -> None:
    report = await run_trials(llm, tmp_path / "store", workspace, TRIALS)
    assert report.trials == TRIALS
    assert report.completed_turns > 0
    assert not report.failures, report.failures
