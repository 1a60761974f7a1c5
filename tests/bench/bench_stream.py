"""Streaming: added latency per chunk, sustained notification rate, coalescing factor.

The fake LLM server runs in this process, so the moment it writes each SSE chunk and the
moment the client receives the `session/update` carrying that text are read from the same
clock (perf_counter). Every text delta of the latency run is one unique marker `<NNNNN>`,
so each delta is matched to the notification that delivered it. The path measured: fake
write -> HTTP -> provider SDK in the sidecar -> coalescer (flushes every 30 ms) -> stdout
-> client parse.

Run: python tests/bench/bench_stream.py
"""

from __future__ import annotations

import asyncio
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from sidecar.fake_llm import (  # noqa: E402
    FakeLLMServer,
    Reply,
    transport,  # noqa: E402
)
from tests.bench.figures import header, median, percentile  # noqa: E402
from tests.bench.sidecar_process import Inbox, open_sidecar, quiet_fake_disconnects  # noqa: E402
from tests.e2e.session_client import call, prompt, stop_client  # noqa: E402

MARKER = re.compile(rb"<(\d{5})>")
TEXT_MARKER = re.compile(r"<(\d{5})>")
LATENCY_DELTAS = 300
LATENCY_DELAY_MS = 10.0
THROUGHPUT_CHARS = 60_000
THROUGHPUT_CHUNK = 4


class SendLog:
    """Wraps the fake's chunk writer to note when each text delta left it."""

    def __init__(self) -> None:
        self.sent: dict[int, float] = {}
        self.delta_times: list[float] = []
        original = transport.Exchange.write_chunk
        log = self

        def write_chunk(exchange: transport.Exchange, data: bytes) -> None:
            original(exchange, data)
            # Stamped after the flush: the bytes are on the socket from here on.
            now = time.perf_counter()
            if b'"text_delta"' in data:
                log.delta_times.append(now)
                for match in MARKER.finditer(data):
                    log.sent.setdefault(int(match.group(1)), now)

        transport.Exchange.write_chunk = write_chunk  # type: ignore[method-assign]

    def clear(self) -> None:
        self.sent.clear()
        self.delta_times.clear()

    @property
    def deltas(self) -> int:
        return len(self.delta_times)


def markers(count: int) -> str:
    return "".join(f"<{i:05d}>" for i in range(count))


async def latency_run(client: object, inbox: Inbox, llm: FakeLLMServer, sends: SendLog,
                      sid: str) -> None:
    inbox.clear()
    sends.clear()
    llm.queue(Reply.text(markers(LATENCY_DELTAS), chunk_size=7, chunk_delay_ms=LATENCY_DELAY_MS))
    result = await prompt(client, sid, "stream the markers")  # type: ignore[arg-type]
    assert result["stopReason"] == "end_turn", result
    received: dict[int, float] = {}
    chunks = inbox.of("agent_message_chunk")
    for arrived, update in chunks:
        for match in TEXT_MARKER.finditer(update["content"]["text"]):
            received.setdefault(int(match.group(1)), arrived)
    missing = set(range(LATENCY_DELTAS)) - set(received)
    if missing:
        raise SystemExit(f"{len(missing)} streamed markers never reached the client")
    latencies = [(received[i] - sends.sent[i]) * 1000 for i in range(LATENCY_DELTAS)]
    print(f"-- latency: {LATENCY_DELTAS} deltas of one marker each, {LATENCY_DELAY_MS:.0f} ms apart")
    print(f"   fake write -> client notification: p50 {median(latencies):.1f} ms,"
          f" p90 {percentile(latencies, 90):.1f} ms, p99 {percentile(latencies, 99):.1f} ms,"
          f" min {min(latencies):.1f} ms, max {max(latencies):.1f} ms")
    tenth = LATENCY_DELTAS // 10
    by_part = ", ".join(f"{median(latencies[i:i + tenth]):.0f}"
                        for i in range(0, LATENCY_DELTAS, tenth))
    print(f"   p50 per tenth of the stream, in order: {by_part} ms")
    print(f"   {len(chunks)} notifications for {sends.deltas} deltas:"
          f" coalescing factor {sends.deltas / len(chunks):.2f} deltas per notification")


async def throughput_run(client: object, inbox: Inbox, llm: FakeLLMServer, sends: SendLog,
                         sid: str) -> None:
    inbox.clear()
    sends.clear()
    text = markers(THROUGHPUT_CHARS // 7)
    llm.queue(Reply.text(text, chunk_size=THROUGHPUT_CHUNK, chunk_delay_ms=0))
    started = time.perf_counter()
    result = await prompt(client, sid, "stream a long answer")  # type: ignore[arg-type]
    total = time.perf_counter() - started
    assert result["stopReason"] == "end_turn", result
    chunks = inbox.of("agent_message_chunk")
    got = "".join(update["content"]["text"] for _, update in chunks)
    if got != text:
        raise SystemExit(f"streamed text differs: {len(got)} chars received of {len(text)}")
    span = chunks[-1][0] - chunks[0][0] if len(chunks) > 1 else float("nan")
    first_send = sends.delta_times[0]
    last_send = sends.delta_times[-1]
    print(f"-- sustained: {len(text):,} chars in {sends.deltas:,} deltas of {THROUGHPUT_CHUNK}"
          f" chars, no delay")
    print(f"   fake wrote all deltas in {(last_send - first_send) * 1000:.0f} ms;"
          f" client got them in {len(chunks)} agent_message_chunk notifications over"
          f" {span * 1000:.0f} ms (first to last); prompt answered after {total * 1000:.0f} ms")
    print(f"   {len(chunks) / span:.1f} notifications/s, {sends.deltas / span:,.0f} deltas/s,"
          f" {len(text) / span / 1000:,.0f} K chars/s; coalescing factor"
          f" {sends.deltas / len(chunks):.1f} deltas per notification")
    tail = chunks[-1][0] - last_send
    print(f"   last delta written -> its notification: {tail * 1000:.1f} ms")


async def run() -> None:
    header("bench_stream: streamed chunk latency and notification rate")
    sends = SendLog()
    quiet_fake_disconnects()
    with tempfile.TemporaryDirectory(prefix="bench-stream-") as tmpdir, FakeLLMServer() as llm:
        tmp = Path(tmpdir)
        client, inbox = await open_sidecar(tmp, llm.url)
        try:
            sid = (await call(client, "session/new", {"cwd": str(tmp)}))["sessionId"]
            llm.queue(Reply.text("warm up"))  # first turn imports the SDK; not measured
            await prompt(client, sid, "warm up")
            await latency_run(client, inbox, llm, sends, sid)
            await throughput_run(client, inbox, llm, sends, sid)
        finally:
            await stop_client(client)


def main(argv: list[str]) -> int:
    asyncio.run(run())
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
