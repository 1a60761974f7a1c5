"""What MCP servers cost: start-up with and without them, and a change of the tool set.

1. Spawn -> ``initialize`` answer -> ``session/new`` answer, with no MCP server configured
   and with the probe server (the SDK's MCPServer over stdio) in the workspace's
   ``.mcp.json``, runs alternating; with it, also the time until the ``mcp_status_update``
   that says it is connected (its tools usable from the next request on). The servers
   connect in the background, so the first two should not move.
2. The price of a change of the tool set on the fake's Anthropic prompt cache: a server that
   connects after the first request adds its tools to the next request (one named rewrite);
   the request after that repeats it. Printed: input, cache-read and cache-write tokens of
   the three requests.

Run: python tests/bench/bench_mcp.py [runs]
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from sidecar import PROTOCOL_VERSION  # noqa: E402
from tests.bench.bench_startup import SIDECAR, frame, read_frame  # noqa: E402
from tests.bench.figures import REPO_ROOT, header, median, ms  # noqa: E402
from tests.bench.sidecar_process import sidecar_env  # noqa: E402
from tests.mcp_servers.helpers import probe_stdio, write_mcp_json  # noqa: E402


def one_start(tmp: Path, workspace: Path) -> tuple[float, float, float | None]:
    """Seconds to the initialize answer, the session/new answer, and (with a server) the
    status update that says every server is connected."""
    params = {
        "processId": None, "rootUri": None,
        "capabilities": {"experimental": {"contextSidecar": {"protocolVersion": PROTOCOL_VERSION}}},
        "initializationOptions": {"settings": {
            "provider": "anthropic", "model": "claude-sonnet-5-5", "apiKeyEnv": "FAKE_LLM_KEY",
            "baseUrl": "http://127.0.0.1:9", "storageDir": str(tmp / "store"),
            "mcp": {"trustWorkspaceServers": True}}},
    }
    env = {**sidecar_env(tmp), "PROBE_ROOT": str(REPO_ROOT)}
    expect_mcp = (workspace / ".mcp.json").exists()
    started = time.perf_counter()
    proc = subprocess.Popen(SIDECAR, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, cwd=REPO_ROOT, env=env)
    assert proc.stdin is not None and proc.stdout is not None
    to_init = to_session = 0.0
    connected: float | None = None
    try:
        proc.stdin.write(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params}))
        proc.stdin.flush()
        while True:
            message = read_frame(proc.stdout)
            now = time.perf_counter() - started
            if message.get("id") == 1 and "method" not in message:
                to_init = now
                proc.stdin.write(frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
                proc.stdin.write(frame({"jsonrpc": "2.0", "id": 2, "method": "session/new",
                                        "params": {"cwd": str(workspace)}}))
                proc.stdin.flush()
            elif message.get("id") == 2 and "method" not in message:
                if "result" not in message:
                    raise RuntimeError(f"session/new failed: {message}")
                to_session = now
                if not expect_mcp:
                    break
            elif "method" in message and "id" in message:
                proc.stdin.write(frame({"jsonrpc": "2.0", "id": message["id"], "result": None}))
                proc.stdin.flush()
            elif message.get("method") == "session/update":
                update = message["params"]["update"]
                if update.get("sessionUpdate") == "mcp_status_update":
                    states = [s["status"] for s in update["servers"]]
                    if "failed" in states:
                        raise RuntimeError(f"an MCP server failed: {update['servers']}")
                    if states and all(s == "connected" for s in states):
                        connected = now
                        break
    finally:
        proc.kill()
        proc.wait()
    return to_init, to_session, connected


async def cache_cost(tmp: Path) -> list[dict[str, Any]]:
    from sidecar.fake_llm import FakeLLMServer, Reply
    from tests.bench.sidecar_process import open_sidecar, quiet_fake_disconnects

    quiet_fake_disconnects()
    fake = FakeLLMServer().start()
    workspace, warm = tmp / "cache-ws", tmp / "warm-ws"
    workspace.mkdir()
    warm.mkdir()
    # Long enough that the first request goes out before it connects.
    write_mcp_json(workspace, {"probe": probe_stdio("--sleep-at-start", "15")})
    os.environ["PROBE_ROOT"] = str(REPO_ROOT)
    client, inbox = await open_sidecar(tmp / "cache", fake.url)
    try:
        # A first turn elsewhere imports the provider SDK, so the next one is quick.
        sid = (await client.protocol.send_request_async(
            "session/new", {"cwd": str(warm)}))["sessionId"]
        fake.queue(Reply.text("warm"))
        await client.protocol.send_request_async(
            "session/prompt", {"sessionId": sid, "prompt": [{"type": "text", "text": "warm up"}]})
        sid = (await client.protocol.send_request_async(
            "session/new", {"cwd": str(workspace)}))["sessionId"]

        async def ask(text: str) -> None:
            fake.queue(Reply.text("An answer of a few words."))
            await client.protocol.send_request_async(
                "session/prompt", {"sessionId": sid, "prompt": [{"type": "text", "text": text}]})

        await ask("first question, before the server is connected")
        for _ in range(600):
            done = [u for _, u in inbox.of("mcp_status_update")
                    if u["servers"] and u["servers"][0]["status"] == "connected"]
            if done:
                break
            await asyncio.sleep(0.1)
        await ask("second question: the tool set changed")
        await ask("third question: no change")
        rows = []
        for label, request in zip(["before", "changed", "after"], fake.requests[-3:]):
            usage = request.usage or {}
            rows.append({"request": label, "tools": len(request.body.get("tools") or []),
                         "epoch": request.headers.get("x-context-sidecar-epoch", ""),
                         "input": usage.get("input_tokens", 0),
                         "cacheRead": usage.get("cache_read_input_tokens", 0),
                         "cacheWrite": usage.get("cache_creation_input_tokens", 0)})
        return rows
    finally:
        await client.shutdown_session()
        await client.stop()
        fake.stop()


def main(argv: list[str]) -> int:
    runs = int(argv[1]) if len(argv) > 1 else 5
    header(f"bench_mcp: start-up with and without an MCP server, median of {runs} runs each")
    plain: list[tuple[float, float, float | None]] = []
    with_mcp: list[tuple[float, float, float | None]] = []
    with tempfile.TemporaryDirectory(prefix="bench-mcp-") as tmpdir:
        tmp = Path(tmpdir)
        bare, configured = tmp / "bare", tmp / "configured"
        bare.mkdir()
        configured.mkdir()
        write_mcp_json(configured, {"probe": probe_stdio()})
        for _ in range(runs):
            plain.append(one_start(tmp, bare))
            with_mcp.append(one_start(tmp, configured))

        def row(values: list[float]) -> str:
            return (f"median {ms(median(values))} (min {ms(min(values))}, max {ms(max(values))})")

        print(f"   no MCP    initialize  {row([r[0] for r in plain])}")
        print(f"   with MCP  initialize  {row([r[0] for r in with_mcp])}")
        print(f"   no MCP    session/new {row([r[1] for r in plain])}")
        print(f"   with MCP  session/new {row([r[1] for r in with_mcp])}")
        connected = [r[2] - r[1] for r in with_mcp if r[2] is not None]
        print(f"   with MCP  session/new -> server connected (tools usable) {row(connected)}")
        print("   tool-set change on the fake's Anthropic prompt cache (tokens):")
        for r in asyncio.run(cache_cost(tmp)):
            print(f"     {r['request']:8} tools {r['tools']:2}  epoch {r['epoch']:>22}  "
                  f"input {r['input']:6}  cache read {r['cacheRead']:6}  cache write {r['cacheWrite']:6}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
