"""Cold start to the `initialize` answer: `python -m sidecar serve` vs a minimal pygls server.

Both are spawned the same way (a fresh interpreter, stdio pipes) and driven by the same
hand-framed client, so the difference is what the sidecar imports and sets up before it
answers. Runs alternate between the two servers. For the sidecar the time to the first
`session/new` answer is also shown: that is when an editor can actually start a chat.

Run: python tests/bench/bench_startup.py [runs]
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import IO, Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from sidecar.contract.version import PROTOCOL_VERSION  # noqa: E402
from tests.bench.figures import REPO_ROOT, header, median, ms  # noqa: E402
from tests.bench.sidecar_process import sidecar_env  # noqa: E402

SIDECAR = [sys.executable, "-m", "sidecar", "serve"]
MINIMAL = [sys.executable, str(Path(__file__).with_name("minimal_server.py"))]


def frame(message: dict[str, Any]) -> bytes:
    body = json.dumps(message).encode()
    return f"Content-Length: {len(body)}\r\n\r\n".encode() + body


def read_frame(stream: IO[bytes]) -> dict[str, Any]:
    length = None
    while True:
        line = stream.readline()
        if not line:
            raise EOFError("the server closed its stdout")
        line = line.strip()
        if not line:
            break
        name, _, value = line.partition(b":")
        if name.lower() == b"content-length":
            length = int(value)
    if length is None:
        raise ValueError("frame without Content-Length")
    return json.loads(stream.read(length))


def wait_response(proc: subprocess.Popen[bytes], request_id: int) -> dict[str, Any]:
    assert proc.stdin is not None and proc.stdout is not None
    while True:
        message = read_frame(proc.stdout)
        if message.get("id") == request_id and "method" not in message:
            return message
        if "method" in message and "id" in message:  # a server request: answer it empty
            proc.stdin.write(frame({"jsonrpc": "2.0", "id": message["id"], "result": None}))
            proc.stdin.flush()


def one_start(command: list[str], tmp: Path, session: bool) -> tuple[float, float | None]:
    """Seconds from spawn to the initialize answer (and to the first session/new answer)."""
    store = tmp / "store"
    params = {
        "processId": None, "rootUri": None,
        "capabilities": {"experimental": {"contextSidecar": {"protocolVersion": PROTOCOL_VERSION}}},
        "initializationOptions": {"settings": {
            "provider": "anthropic", "model": "claude-sonnet-5-5", "apiKeyEnv": "FAKE_LLM_KEY",
            "baseUrl": "http://127.0.0.1:9", "storageDir": str(store)}},
    }
    started = time.perf_counter()
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, cwd=REPO_ROOT, env=sidecar_env(tmp))
    assert proc.stdin is not None
    try:
        proc.stdin.write(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                "params": params}))
        proc.stdin.flush()
        answer = wait_response(proc, 1)
        to_initialize = time.perf_counter() - started
        if "result" not in answer:
            raise RuntimeError(f"initialize failed: {answer}")
        to_session = None
        proc.stdin.write(frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
        if session:
            proc.stdin.write(frame({"jsonrpc": "2.0", "id": 2, "method": "session/new",
                                    "params": {"cwd": str(tmp)}}))
            proc.stdin.flush()
            reply = wait_response(proc, 2)
            to_session = time.perf_counter() - started
            if "result" not in reply:
                raise RuntimeError(f"session/new failed: {reply}")
        proc.stdin.write(frame({"jsonrpc": "2.0", "id": 3, "method": "shutdown"}))
        proc.stdin.flush()
        wait_response(proc, 3)
        proc.stdin.write(frame({"jsonrpc": "2.0", "method": "exit"}))
        proc.stdin.flush()
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return to_initialize, to_session


def main(argv: list[str]) -> int:
    runs = int(argv[1]) if len(argv) > 1 else 7
    header(f"bench_startup: spawn -> initialize answer, median of {runs} runs each")
    sidecar: list[float] = []
    sessions: list[float] = []
    minimal: list[float] = []
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as tmpdir:
        tmp = Path(tmpdir)
        for _ in range(runs):
            to_init, to_session = one_start(SIDECAR, tmp, session=True)
            sidecar.append(to_init)
            sessions.append(to_session or 0.0)
            minimal.append(one_start(MINIMAL, tmp, session=False)[0])
    def row(values: list[float]) -> str:
        return (f"median {ms(median(values))} (min {ms(min(values))}, max {ms(max(values))});"
                f" runs: {', '.join(f'{v * 1000:.0f}' for v in values)} ms")
    print(f"   sidecar  initialize  {row(sidecar)}")
    print(f"   minimal  initialize  {row(minimal)}")
    print(f"   sidecar  session/new {row(sessions)}")
    print(f"   ratio sidecar/minimal (initialize medians): {median(sidecar) / median(minimal):.2f}x;"
          f" sidecar overhead {ms(median(sidecar) - median(minimal))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
