"""kill -9 during a rewind leaves every file restored or untouched, never half written, and
a session that loads and can finish the rewind (a few trials here; the benchmark
tests/bench/bench_kill9.py runs more)."""

from __future__ import annotations

import asyncio
import os
import random
from pathlib import Path
from typing import Any

from sidecar.fake_llm import Reply
from tests.e2e.rewind_crash_trials import SETTINGS, edit_session, run_rewind_trials
from tests.e2e.session_client import (
    call,
    initialize,
    prompt,
    settings_for,
    start_client,
    stop_client,
)

TRIALS = int(os.environ.get("REWIND_CRASH_TRIALS", "3"))


async def test_kill_nine_during_a_rewind_tears_no_file(llm: Any, tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    report = await run_rewind_trials(llm, tmp_path / "store", workspace, TRIALS)
    assert report.trials == TRIALS and report.resumed == TRIALS
    assert report.files_torn == 0
    assert report.files_restored + report.files_untouched == TRIALS * 40
    assert not report.failures, report.failures


async def test_a_prompt_sent_during_a_rewind_is_refused_or_kept(llm: Any, tmp_path: Path) -> None:
    """A rewind is interrupted by a prompt as well as by a kill: while it restores files (in
    a worker thread), a prompt to the same session must be refused as busy, or its turn must
    survive the rewind's conversation part. A turn that completes and is then dropped from
    the conversation loses the user's prompt without a word."""
    workspace = tmp_path / "ws"
    workspace.mkdir()
    client = await start_client()
    try:
        await initialize(client, settings_for("anthropic", llm.url, tmp_path / "store", **SETTINGS))
        sid = (await call(client, "session/new", {"cwd": str(workspace)}))["sessionId"]
        _, (first, _) = await edit_session(client, llm, sid, workspace, "t0", random.Random(1))
        llm.queue(Reply.text("Answered during the rewind."))
        rewind = asyncio.ensure_future(call(client, "sidecar/rewind", {
            "sessionId": sid, "checkpointId": first, "restore": "both"}))
        during = asyncio.ensure_future(prompt(client, sid, "sent during the rewind"))
        rewound, answered = await asyncio.gather(rewind, during, return_exceptions=True)
        assert rewound["conversation"] is True
        listed = (await call(client, "sidecar/checkpoints", {"sessionId": sid}))["checkpoints"]
        if not isinstance(answered, Exception):
            assert [c["prompt"] for c in listed] == ["sent during the rewind"], (
                f"the prompt's turn completed ({answered['checkpointId']}) and the rewind "
                f"dropped it: the conversation lists {[c['prompt'] for c in listed]}")
    finally:
        await stop_client(client)
