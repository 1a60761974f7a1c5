"""FIFOs, links out of the workspace, broken transcripts and a huge history line, through
the real process, with another session's gauge polled the whole time.

Before, the model reading or writing a FIFO froze the server: every other request waited
until something opened the FIFO's other end. A watchdog here opens both ends after
RELEASE_AFTER seconds, so such a freeze fails on the measured latency instead of hanging.
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from pygls.exceptions import JsonRpcException

from sidecar.fake_llm import Reply
from tests.e2e.session_client import (
    call,
    initialize,
    prompt,
    settings_for,
    start_client,
    stop_client,
)
from tests.fifo_release import release_later

pytestmark = [pytest.mark.asyncio,
              pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")]

RELEASE_AFTER = 4.0
GAUGE_LIMIT = 0.5  # seconds; a free loop answers in milliseconds


class GaugePoller:
    """Asks another session's gauge over and over and keeps the slowest answer."""

    def __init__(self, client: Any, session_id: str) -> None:
        self.client = client
        self.session_id = session_id
        self.latencies: list[float] = []
        self._stop = asyncio.Event()
        self._task = asyncio.ensure_future(self._run())

    async def _run(self) -> None:
        while not self._stop.is_set():
            started = time.monotonic()
            await call(self.client, "sidecar/gauge", {"sessionId": self.session_id})
            self.latencies.append(time.monotonic() - started)
            await asyncio.sleep(0.01)

    async def stop(self) -> float:
        self._stop.set()
        await asyncio.wait_for(self._task, RELEASE_AFTER * 4)
        return max(self.latencies)


async def test_fifo_and_links_through_the_real_process(llm: Any, tmp_path: Path, workspace: Path) -> None:
    fifo = workspace / "pipe.log"
    os.mkfifo(fifo)
    outside = tmp_path / "outside.txt"
    outside.write_text("outside secret\n")
    (workspace / "link.txt").symlink_to(outside)
    stop: threading.Event | None = None
    client = await start_client()
    await initialize(client, settings_for("anthropic", llm.url, tmp_path / "store"))
    try:
        other = (await call(client, "session/new", {"cwd": str(workspace)}))["sessionId"]
        sid = (await call(client, "session/new", {"cwd": str(workspace)}))["sessionId"]
        # A first turn loads the provider SDK, which holds the interpreter for a second or
        # so; that is not what is measured here.
        llm.queue(Reply.text("warm"))
        await prompt(client, other, "warm up")
        llm.queue(Reply(content=[
            {"type": "tool_use", "id": "r", "name": "Read", "input": {"file_path": "pipe.log"}},
            {"type": "tool_use", "id": "w", "name": "Write", "input": {"file_path": "pipe.log", "content": "x"}},
            {"type": "tool_use", "id": "g", "name": "Grep", "input": {"pattern": "secret"}},
            {"type": "tool_use", "id": "l", "name": "Read", "input": {"file_path": "link.txt"}},
        ]))
        llm.queue(Reply.text("done " * 40, chunk_size=8, chunk_delay_ms=10))
        stop = release_later(fifo, RELEASE_AFTER)
        poller = GaugePoller(client, other)
        started = time.monotonic()
        result = await asyncio.wait_for(prompt(client, sid, "look at the pipe"), RELEASE_AFTER * 4)
        turn = time.monotonic() - started
        slowest = await poller.stop()
        print(f"\nturn with FIFO read/write: {turn:.3f} s; slowest gauge answer: "
              f"{slowest * 1000:.1f} ms over {len(poller.latencies)} requests")
        assert result["stopReason"] == "end_turn"
        assert slowest < GAUGE_LIMIT and turn < RELEASE_AFTER
        sent = json.dumps(llm.requests[-1].body["messages"])
        assert sent.count("FIFO (named pipe), not a regular file") == 2
        assert "outside secret" not in sent and "outside the workspace" in sent
    finally:
        if stop is not None:
            stop.set()
        await stop_client(client)


async def test_broken_transcripts_are_refused_clearly(llm: Any, tmp_path: Path, workspace: Path) -> None:
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_bytes(b"\x00\x01 not json\n{{{{\n")
    unsafe = tmp_path / "unsafe.jsonl"
    unsafe.write_text(json.dumps({"type": "user", "sessionId": "../../../tmp/x", "cwd": str(workspace),
                                  "uuid": "u", "message": {"role": "user", "content": "hi"}}) + "\n")
    client = await start_client()
    await initialize(client, settings_for("anthropic", llm.url, tmp_path / "store"))
    try:
        with pytest.raises(JsonRpcException) as err:
            await call(client, "session/load", {"sessionId": str(garbage)})
        assert err.value.code == -32602 and "cwd" in err.value.message
        with pytest.raises(JsonRpcException) as err:
            await call(client, "session/load", {"sessionId": str(unsafe)})
        assert err.value.code == -32602 and "sessionId" in err.value.message
        with pytest.raises(JsonRpcException) as err:
            await call(client, "session/load", {"sessionId": "../../etc/passwd"})
        assert err.value.code == -32602 and "sessionId" in err.value.message
        listed = await call(client, "session/list", {})
        assert listed["sessions"] == []  # nothing half-loaded stayed behind
    finally:
        await stop_client(client)


async def test_history_with_a_30_mb_line_never_stalls_the_gauge(
    llm: Any, tmp_path: Path, workspace: Path
) -> None:
    """The 30 MB line is one a crash tore (no closing quote): it is read and parsed like any
    line, and skipped, so the answer stays small and the client's own parsing does not
    distort what is measured."""
    store = tmp_path / "store"
    store.mkdir()
    (store / "history.jsonl").write_bytes(
        b'{"display":"before","timestamp":1}\n{"display":"' + b"y" * 30_000_000
        + b'\n{"display":"inf","timestamp":1e999}\n')
    client = await start_client()
    await initialize(client, settings_for("anthropic", llm.url, store))
    try:
        sid = (await call(client, "session/new", {"cwd": str(workspace)}))["sessionId"]
        poller = GaugePoller(client, sid)
        await asyncio.sleep(0.05)
        listed = None
        for _ in range(50):  # the first answers may come before the big read finishes
            listed = await call(client, "sidecar/history/list", {"limit": 5})
            if len(listed["entries"]) == 2:
                break
            await asyncio.sleep(0.05)
        slowest = await poller.stop()
        print(f"\nhistory/list over a 30 MB line: slowest gauge answer {slowest * 1000:.1f} ms "
              f"over {len(poller.latencies)} requests")
        assert listed is not None
        assert [e["display"] for e in listed["entries"]] == ["inf", "before"]
        assert slowest < GAUGE_LIMIT
        storage = (await call(client, "sidecar/context", {"sessionId": sid}))["storage"]
        assert storage["skippedHistoryValues"] == 1 and storage["skippedHistoryLines"] == 1
    finally:
        await stop_client(client)
