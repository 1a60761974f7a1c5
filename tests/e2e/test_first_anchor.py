"""The gauge before the first answer (an estimate of the prefix and the prompt) and the
first figure the provider counts agree within a stated tolerance, so the first real turn
does not make the gauge jump."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from sidecar.fake_llm import Reply
from tests.e2e.session_client import (
    call,
    initialize,
    prompt,
    settings_for,
    start_client,
    stop_client,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")

# How far the estimate may stray from the provider's first count (of the same request).
TOLERANCE = 0.10


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
async def test_first_anchor_is_close_to_the_estimate(llm: Any, tmp_path: Path, workspace: Path,
                                                     provider: str) -> None:
    client = await start_client()
    rec = await initialize(client, settings_for(provider, llm.url, tmp_path / "store"))
    try:
        sid = (await call(client, "session/new", {"cwd": str(workspace)}))["sessionId"]
        llm.queue(Reply.text("Hello."))
        await prompt(client, sid, "hi")
        gauges = [u["_meta"]["sidecar"] for u in rec.of("usage_update")]
        estimate = next(g for g in reversed(gauges) if g["source"] == "estimate")
        anchored = next(g for g in gauges if g["source"] == "provider")
        counted = anchored["anchor"]["apiTokens"] - anchored["lastTurn"]["outputTokens"]
        error = (estimate["used"] - counted) / counted
        print(f"{provider}: estimate {estimate['used']} ({estimate['breakdown']}), provider "
              f"counted {counted} (+{anchored['lastTurn']['outputTokens']} out): {error:+.1%}",
              file=sys.stderr)
        assert abs(error) <= TOLERANCE
    finally:
        await stop_client(client)
