"""kill -9 of the sidecar at random moments during turns and compactions.

Each trial starts the real sidecar on a shared storage directory, resumes the session of the
previous trial (so one transcript accumulates across crashes), runs turns in a small window
(compactions fire often) and is killed with SIGKILL at a random moment. After every kill:
every transcript file loads, at most its last line is torn, every turn the client saw
completed is in the transcript, and every compaction is whole (its boundary directly followed
by its summary) or absent. Used by the test suite (a few trials) and the benchmark (100+).
"""

from __future__ import annotations

import asyncio
import json
import random
import signal
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sidecar.fake_llm import Reply, default_reply
from sidecar.storage.transcript_loader import load_transcript
from tests.e2e.session_client import call, initialize, prompt, settings_for, start_client

SETTINGS = {"contextWindow": 40_000, "sessionMemory": {"initTokens": 4000, "updateTokens": 2000,
                                                       "updateToolCalls": 1, "minTokens": 2000,
                                                       "startPercent": 1, "updatePercent": 1,
                                                       "maxTokens": 6000}}


@dataclass
class CrashReport:
    trials: int = 0
    kills_during_compaction: int = 0
    completed_turns: int = 0
    torn_lines: int = 0
    failures: list[str] = field(default_factory=list)


def responder(req: Any) -> Any:
    body = json.dumps(req.body.get("messages", [])[-1:])
    if req.call in ("summary", "memory"):
        reply = default_reply(req)
        reply.chunk_delay_ms = 2
        return reply
    if '"tool_result"' in body:
        return Reply.text("Done with that file. " * 20, chunk_size=8, chunk_delay_ms=1)
    return Reply(content=[{"type": "text", "text": "Reading."},
                          {"type": "tool_use", "id": f"toolu_{random.getrandbits(40):x}", "name": "Read",
                           "input": {"file_path": f"data{random.randrange(6)}.txt"}}])


def check_store(store: Path, completed: list[str], report: CrashReport) -> None:
    for path in (store / "projects").rglob("*.jsonl"):
        raw = path.read_bytes()
        loaded = load_transcript(path)  # must not raise
        report.torn_lines += loaded.torn_lines
        # A crash loses at most the line being written: a torn line is sealed with a newline
        # when the file is reopened, so bad lines never come two in a row.
        good = [_is_json(line) for line in raw.split(b"\n") if line.strip()]
        if any(not a and not b for a, b in zip(good, good[1:])):
            report.failures.append(f"{path.name}: two damaged lines in a row")
        records = [json.loads(x) for x in raw.splitlines() if x.strip() and _is_json(x)]
        for i, rec in enumerate(records):
            if rec.get("type") == "system" and rec.get("subtype") == "compact_boundary" \
                    and (rec.get("compactMetadata") or {}).get("trigger") != "clear":
                nxt = records[i + 1] if i + 1 < len(records) else {}
                if not nxt.get("isCompactSummary"):
                    report.failures.append(f"{path.name}: boundary without its summary")
        texts = {m.text() for m in loaded.messages if m.kind == "user"}
        for turn in completed:
            if turn not in texts:
                report.failures.append(f"{path.name}: completed turn {turn!r} lost")


def _is_json(line: bytes) -> bool:
    try:
        json.loads(line)
        return True
    except ValueError:
        return False


async def run_trials(llm: Any, store: Path, workspace: Path, trials: int, seed: int = 1) -> CrashReport:
    rng = random.Random(seed)
    random.seed(seed)
    for i in range(6):
        (workspace / f"data{i}.txt").write_text(f"line {i}\n" * (300 + 150 * i))
    llm.responder = responder
    report = CrashReport()
    sid: str | None = None
    completed: list[str] = []
    for trial in range(trials):
        client = await start_client()
        rec = await initialize(client, settings_for("anthropic", llm.url, store, **SETTINGS))

        if sid is None:
            sid = (await call(client, "session/new", {"cwd": str(workspace)}))["sessionId"]
        else:
            await call(client, "session/load", {"sessionId": sid})

        async def turns() -> None:
            n = 0
            while True:
                text = f"trial {trial} turn {n}"
                await prompt(client, sid, text)
                completed.append(text)
                report.completed_turns += 1
                n += 1

        before = report.completed_turns
        runner = asyncio.ensure_future(turns())
        # The first turn of a process pays for importing the provider SDK; the kill lands at
        # a random moment after it, in whatever the process is doing then.
        for _ in range(300):
            if report.completed_turns > before or runner.done():
                break
            await asyncio.sleep(0.1)
        await asyncio.sleep(rng.uniform(0.0, 2.5))
        states = [u["status"] for u in rec.of("compaction_update")]
        if states and states[-1] == "in_progress":
            report.kills_during_compaction += 1
        client._server.send_signal(signal.SIGKILL)  # type: ignore[union-attr]
        await client._server.wait()  # type: ignore[union-attr]
        runner.cancel()
        try:
            await runner
        except BaseException:
            pass
        try:
            await client.stop()
        except Exception:
            pass
        report.trials += 1
        check_store(store, completed, report)
    return report
