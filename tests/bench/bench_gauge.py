"""`sidecar/gauge` round trip on a ~1,000,000-token session vs an empty one.

The big session is a generated Claude Code transcript (anchored usage up to ~960K tokens,
model claude-opus-4-6[1m]) opened with `session/load`; the empty one comes from
`session/new`. Requests alternate between the two so machine noise hits both alike.

Run: python tests/bench/bench_gauge.py [requests]
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from sidecar.fake_llm import FakeLLMServer  # noqa: E402
from tests.bench.figures import header, median, ms, percentile  # noqa: E402
from tests.bench.sidecar_process import open_sidecar  # noqa: E402
from tests.bench.transcripts import write_transcript  # noqa: E402
from tests.e2e.session_client import call, stop_client  # noqa: E402

# Just under the 1M window, so the loaded session is a legal one (not past blocking).
TARGET_TOKENS = 960_000
MODEL = "claude-opus-4-6[1m]"


async def run(requests: int) -> None:
    header("bench_gauge: sidecar/gauge round trip, ~1M-token session vs empty session")
    with tempfile.TemporaryDirectory(prefix="bench-gauge-") as tmpdir, FakeLLMServer() as llm:
        tmp = Path(tmpdir)
        cwd = str(tmp / "ws")
        Path(cwd).mkdir()
        started = time.perf_counter()
        sid, path, anchor = write_transcript(tmp / "store", cwd, TARGET_TOKENS, MODEL)
        written = time.perf_counter() - started
        client, rec = await open_sidecar(tmp, llm.url)
        try:
            empty = (await call(client, "session/new", {"cwd": cwd}))["sessionId"]
            started = time.perf_counter()
            loaded = await call(client, "session/load", {"sessionId": sid})
            load_time = time.perf_counter() - started
            gauge = loaded["gauge"]
            print(f"   transcript: {path.stat().st_size / 1e6:.1f} MB written in {written:.2f} s,"
                  f" last anchor {anchor:,} tokens")
            print(f"   session/load: {load_time:.2f} s ({len(rec.updates)} notifications replayed);"
                  f" gauge used {gauge['used']:,} of {gauge['size']:,} ({gauge['source']},"
                  f" estimator {gauge.get('estimator')})")
            for _ in range(10):  # warm both paths before timing
                await call(client, "sidecar/gauge", {"sessionId": empty})
                await call(client, "sidecar/gauge", {"sessionId": sid})
            times: dict[str, list[float]] = {"empty": [], "big": []}
            for _ in range(requests):
                for name, session in (("empty", empty), ("big", sid)):
                    t0 = time.perf_counter()
                    result = await call(client, "sidecar/gauge", {"sessionId": session})
                    times[name].append(time.perf_counter() - t0)
            if result["used"] < TARGET_TOKENS * 0.9:
                raise SystemExit(f"the big session holds only {result['used']} tokens")
        finally:
            await stop_client(client)
    for name in ("empty", "big"):
        values = times[name]
        print(f"   {name:5s} session: median {ms(median(values))}, p90 {ms(percentile(values, 90))},"
              f" min {ms(min(values))} over {len(values)} requests")
    print(f"   ratio big/empty (medians): {median(times['big']) / median(times['empty']):.2f}x")


def main(argv: list[str]) -> int:
    requests = int(argv[1]) if len(argv) > 1 else 200
    asyncio.run(run(requests))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
