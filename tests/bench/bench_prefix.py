"""CLAUDE.md edits: how fast they reach the model, and what they cost in prompt cache.

1. Invalidation latency: write CLAUDE.md, then prompt back to back; the figure is the time
   from the write to the first request that carries the new text (N trials).
2. Cache: the request after an edit, as the sidecar sends it (the change appended as an
   attachment, the cached prefix untouched), against the same request with the prefix
   rebuilt naively (the new CLAUDE.md in the leading user context). Both go to the same
   fake server with the same warm cache; the figure is cache-read tokens of each.

Run: python tests/bench/bench_prefix.py [TRIALS]
"""

from __future__ import annotations

import asyncio
import copy
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench.figures import header, median, percentile  # noqa: E402
from tests.e2e.session_client import (  # noqa: E402
    call,
    initialize,
    prompt,
    settings_for,
    start_client,
    stop_client,
)

os.environ.setdefault("FAKE_LLM_KEY", "bench-key")


def git(ws: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=ws, check=True, capture_output=True)


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(url + "/v1/messages", data=json.dumps({**body, "stream": False}).encode(),
                                 headers={"content-type": "application/json", "x-api-key": "k",
                                          "anthropic-version": "2023-06-01"})
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.loads(resp.read())


def naive(body: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    """The same request with the edit folded into the leading user context instead."""
    out = copy.deepcopy(body)
    text = json.dumps(out["messages"])
    marker = "The file"
    msgs = json.loads(text.replace(old, new, 1))
    # Drop the appended change attachment: a rebuilt prefix already holds the new text.
    for m in msgs[1:]:
        if isinstance(m["content"], list):
            m["content"] = [b for b in m["content"] if not (b.get("type") == "text" and marker in b.get("text", "")
                                                             and new in b.get("text", ""))] or [{"type": "text", "text": "."}]
    out["messages"] = msgs
    return out


async def main(trials: int) -> None:
    from sidecar.fake_llm import FakeLLMServer, Reply

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        ws = root / "ws"
        ws.mkdir()
        git(ws, "init", "-q", "-b", "main")
        git(ws, "config", "user.email", "b@example.com")
        git(ws, "config", "user.name", "Bench")
        rules = "# Rules\n" + "".join(f"- rule {i}: keep functions short and named for what they do\n" for i in range(80))
        (ws / "CLAUDE.md").write_text(rules)
        git(ws, "add", "-A")
        git(ws, "commit", "-qm", "start")
        srv = FakeLLMServer().start()
        srv.responder = lambda req: Reply.text("ok")
        client = await start_client()
        await initialize(client, settings_for("anthropic", srv.url, root / "store"))
        sid = (await call(client, "session/new", {"cwd": str(ws)}))["sessionId"]
        try:
            for i in range(3):
                await prompt(client, sid, f"warm up {i}")
            latencies: list[float] = []
            missed: list[int] = []
            for t in range(trials):
                marker = f"- rule added in trial {t}\n"
                rules += marker
                t0 = time.monotonic()
                (ws / "CLAUDE.md").write_text(rules)
                tries = 0
                while True:
                    tries += 1
                    await prompt(client, sid, f"trial {t} try {tries}")
                    if marker.strip() in json.dumps(srv.requests[-1].body["messages"]):
                        latencies.append((time.monotonic() - t0) * 1000)
                        missed.append(tries - 1)
                        break
                    if tries > 50:
                        raise SystemExit(f"trial {t}: the change never reached a request")
            ours = srv.requests[-1]
            # Warm the cache with our request once more, then compare both forms against it.
            await prompt(client, sid, "after the edits")
            ours = srv.requests[-1]
            old_text = "rule 0: keep functions short"
            naive_body = naive(ours.body, old_text, "rule 0: keep functions SHORT")
            naive_usage = post(srv.url, naive_body)["usage"]
        finally:
            await stop_client(client)
            srv.stop()
    print(f"invalidation latency, write -> next request carrying it ({trials} trials):")
    print(f"  median {median(latencies):.0f} ms, p90 {percentile(latencies, 90):.0f} ms, "
          f"max {max(latencies):.0f} ms; requests that went out before the change was seen: "
          f"{sum(missed)} of {sum(missed) + trials}")
    ours_read = ours.usage["cache_read_input_tokens"]
    total = ours.usage["input_tokens"] + ours.usage["cache_creation_input_tokens"] + ours_read
    naive_total = (naive_usage["input_tokens"] + naive_usage["cache_creation_input_tokens"]
                   + naive_usage["cache_read_input_tokens"])
    print("cache across a CLAUDE.md edit (request after the edit):")
    print(f"  appended attachment (ours): cache read {ours_read:,} of {total:,} prompt tokens")
    print(f"  naive prefix rebuild:       cache read {naive_usage['cache_read_input_tokens']:,} of "
          f"{naive_total:,} prompt tokens")
    if naive_usage["cache_read_input_tokens"]:
        print(f"  ratio ours / naive: {ours_read / naive_usage['cache_read_input_tokens']:.1f}x")


if __name__ == "__main__":
    header("CLAUDE.md invalidation latency and cache")
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 10))
