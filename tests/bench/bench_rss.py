"""Resident memory of the sidecar: idle vs holding 20 sessions of ~150K tokens each.

Sessions are generated Claude Code transcripts (see transcripts.py) opened with
`session/load`. Idle is measured after `initialize` and one empty `session/new`, so the
provider SDK and settings are loaded in both figures and the difference is the sessions.

Run: python tests/bench/bench_rss.py [sessions] [tokens per session]
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from sidecar.fake_llm import FakeLLMServer  # noqa: E402
from tests.bench.figures import header  # noqa: E402
from tests.bench.sidecar_process import open_sidecar, rss_mb, server_pid  # noqa: E402
from tests.bench.transcripts import write_transcript  # noqa: E402
from tests.e2e.session_client import call, stop_client  # noqa: E402


async def settle(pid: int, timeout: float = 40.0) -> float:
    """RSS once it holds still: the sidecar imports both SDKs in a background thread after
    `initialize`, and how far that got would otherwise decide the idle figure."""
    deadline = time.monotonic() + timeout
    last = rss_mb(pid)
    steady = 0
    while steady < 4 and time.monotonic() < deadline:
        await asyncio.sleep(0.5)
        now = rss_mb(pid)
        steady = steady + 1 if abs(now - last) < 0.2 else 0
        last = now
    return last


def sdk_mapped(pid: int) -> bool:
    """Whether the provider SDK is loaded: pydantic-core's extension is mapped only then."""
    return "pydantic_core" in Path(f"/proc/{pid}/maps").read_text()


async def run(sessions: int, tokens: int) -> None:
    header(f"bench_rss: sidecar RSS, idle vs {sessions} loaded sessions of ~{tokens:,} tokens")
    with tempfile.TemporaryDirectory(prefix="bench-rss-") as tmpdir, FakeLLMServer() as llm:
        tmp = Path(tmpdir)
        cwd = str(tmp / "ws")
        Path(cwd).mkdir()
        ids: list[str] = []
        size = 0
        anchors = 0
        for index in range(sessions):
            sid, path, anchor = write_transcript(tmp / "store", cwd, tokens, "claude-sonnet-4-5",
                                                 seed=index)
            ids.append(sid)
            size += path.stat().st_size
            anchors += anchor
        client, inbox = await open_sidecar(tmp, llm.url)
        try:
            pid = server_pid(client)
            bare = rss_mb(pid)
            await call(client, "session/new", {"cwd": cwd})
            # Idle means after the background SDK imports, so the difference below is
            # the sessions alone.
            idle = await settle(pid)
            sdk_idle = sdk_mapped(pid)
            used = 0
            started = time.perf_counter()
            for sid in ids:
                used += (await call(client, "session/load", {"sessionId": sid}))["gauge"]["used"]
                inbox.clear()  # the replayed history is the client's memory, not the sidecar's
            load_time = time.perf_counter() - started
            loaded = await settle(pid)
        finally:
            await stop_client(client)
    grown = loaded - idle
    print(f"   {sessions} transcripts: {size / 1e6:.1f} MB on disk, {anchors:,} anchored tokens;"
          f" gauges after load sum to {used:,} tokens; loading took {load_time:.1f} s")
    print(f"   RSS at the initialize answer {bare:7.1f} MB (SDK imports still running)")
    print(f"   idle RSS   {idle:7.1f} MB  (one empty session/new, RSS steady for 2 s;"
          f" provider SDK loaded: {'yes' if sdk_idle else 'no'})")
    print(f"   loaded RSS {loaded:7.1f} MB  (+{grown:.1f} MB)")
    print(f"   per session {grown / sessions:.2f} MB; per 100K tokens"
          f" {grown / (used / 100_000):.2f} MB; RSS/transcript bytes {grown * 1e6 / size:.1f}x")


def main(argv: list[str]) -> int:
    sessions = int(argv[1]) if len(argv) > 1 else 20
    tokens = int(argv[2]) if len(argv) > 2 else 150_000
    asyncio.run(run(sessions, tokens))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
