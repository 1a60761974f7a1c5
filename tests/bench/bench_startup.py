"""Cold start to the `initialize` answer: `python -m sidecar serve` vs a minimal pygls server.

Both are spawned the same way (a fresh interpreter, stdio pipes) and driven by the same
hand-framed client, so the difference is what the sidecar imports and sets up before it
answers. Runs alternate between the two servers. For the sidecar the time to the first
`session/new` answer is also shown: that is when an editor can actually start a chat.

Then each sidecar run sends two prompts to the fake LLM server (its own process, started
once): the first prompt's first token (its first ``agent_message_chunk``) counted from
spawn and from the prompt, and the second prompt's from the prompt. The first prompt pays
whatever start-up left for first use (the provider SDK's import above all); the second
shows the floor.

On Linux the CPU time each server used up to its initialize answer (all its threads, the
sidecar's re-executed interpreter included: it keeps its pid) is shown too. On a busy
machine the wall-clock figures swing with the scheduler; the CPU times much less.

Run: python tests/bench/bench_startup.py [runs]
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import IO, Any, Callable, Sequence

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


def wait_response(proc: subprocess.Popen[bytes], request_id: int,
                  on_notification: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    assert proc.stdin is not None and proc.stdout is not None
    while True:
        message = read_frame(proc.stdout)
        if message.get("id") == request_id and "method" not in message:
            return message
        if "method" in message and "id" in message:  # a server request: answer it empty
            proc.stdin.write(frame({"jsonrpc": "2.0", "id": message["id"], "result": None}))
            proc.stdin.flush()
        elif "method" in message and on_notification is not None:
            on_notification(message)


def prompt(proc: subprocess.Popen[bytes], request_id: int, session_id: str, text: str,
           cpu: list[float | None]) -> tuple[float, float]:
    """Send a prompt; (perf_counter when sent, when its first agent_message_chunk arrived).
    The server's CPU time when that chunk arrived is appended to ``cpu``."""
    assert proc.stdin is not None
    first: list[float] = []

    def on_notification(message: dict[str, Any]) -> None:
        update = (message.get("params") or {}).get("update") or {}
        if not first and message.get("method") == "session/update" \
                and update.get("sessionUpdate") == "agent_message_chunk":
            first.append(time.perf_counter())
            cpu.append(cpu_seconds(proc.pid))

    sent = time.perf_counter()
    proc.stdin.write(frame({"jsonrpc": "2.0", "id": request_id, "method": "session/prompt", "params": {
        "sessionId": session_id, "prompt": [{"type": "text", "text": text}]}}))
    proc.stdin.flush()
    reply = wait_response(proc, request_id, on_notification)
    if "result" not in reply or not first:
        raise RuntimeError(f"session/prompt failed: {reply}")
    return sent, first[0]


def cpu_seconds(pid: int) -> float | None:
    """User and system CPU time of ``pid`` so far, its ended threads included (Linux
    /proc/<pid>/stat, in clock ticks of 10 ms), or None."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        fields = stat[stat.rindex(")") + 2:].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


class Start:
    """Seconds from spawn: to the initialize answer, the session/new answer and the first
    prompt's first token; and from sending each prompt to its first token."""

    def __init__(self) -> None:
        self.initialize = 0.0
        self.initialize_cpu: float | None = None
        self.session: float | None = None
        self.first_token: float | None = None
        self.first_token_cpu: float | None = None
        self.first_prompt: float | None = None
        self.second_prompt: float | None = None


def start_fake_llm(tmp: Path) -> tuple[subprocess.Popen[str], str]:
    """The fake LLM server as its own process, as editors' tests run it."""
    proc = subprocess.Popen([sys.executable, "-m", "sidecar.fake_llm", "--port", "0"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                            cwd=REPO_ROOT, env=dict(os.environ))
    assert proc.stdout is not None
    line = proc.stdout.readline().strip()
    if not line.startswith("FAKE_LLM_URL="):
        proc.kill()
        raise RuntimeError(f"the fake LLM server did not start: {line!r}")
    return proc, line.partition("=")[2]


def one_start(command: list[str], tmp: Path, session: bool, llm_url: str = "http://127.0.0.1:9") -> Start:
    """One spawn; with ``session``, also session/new and two prompts against ``llm_url``."""
    store = tmp / "store"
    params = {
        "processId": None, "rootUri": None,
        "capabilities": {"experimental": {"contextSidecar": {"protocolVersion": PROTOCOL_VERSION}}},
        "initializationOptions": {"settings": {
            "provider": "anthropic", "model": "claude-sonnet-5-5", "apiKeyEnv": "FAKE_LLM_KEY",
            "baseUrl": llm_url, "storageDir": str(store)}},
    }
    start = Start()
    started = time.perf_counter()
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, cwd=REPO_ROOT, env=sidecar_env(tmp))
    assert proc.stdin is not None
    try:
        proc.stdin.write(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                "params": params}))
        proc.stdin.flush()
        answer = wait_response(proc, 1)
        start.initialize = time.perf_counter() - started
        start.initialize_cpu = cpu_seconds(proc.pid)
        if "result" not in answer:
            raise RuntimeError(f"initialize failed: {answer}")
        proc.stdin.write(frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
        if session:
            proc.stdin.write(frame({"jsonrpc": "2.0", "id": 2, "method": "session/new",
                                    "params": {"cwd": str(tmp)}}))
            proc.stdin.flush()
            reply = wait_response(proc, 2)
            start.session = time.perf_counter() - started
            if "result" not in reply:
                raise RuntimeError(f"session/new failed: {reply}")
            session_id = reply["result"]["sessionId"]
            cpu: list[float | None] = []
            sent, token = prompt(proc, 4, session_id, "first question", cpu)
            start.first_token, start.first_prompt = token - started, token - sent
            start.first_token_cpu = cpu[0]
            sent, token = prompt(proc, 5, session_id, "second question", cpu)
            start.second_prompt = token - sent
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
    return start


def main(argv: list[str]) -> int:
    runs = int(argv[1]) if len(argv) > 1 else 7
    header(f"bench_startup: spawn -> initialize answer, median of {runs} runs each")
    # An installed package is byte-compiled (pip does it at install; the install script does
    # it for a checkout), as the SDKs and pygls are: without this, where writing bytecode is
    # turned off (PYTHONDONTWRITEBYTECODE), the sidecar alone would compile its sources at
    # every start and the comparison would be with an uncompiled sidecar.
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO_ROOT / "sidecar")], check=True)
    print("   the sidecar's modules byte-compiled first, as an installed package's are")
    starts: list[Start] = []
    minimals: list[Start] = []
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as tmpdir:
        tmp = Path(tmpdir)
        fake, url = start_fake_llm(tmp)
        try:
            for _ in range(runs):
                starts.append(one_start(SIDECAR, tmp, session=True, llm_url=url))
                minimals.append(one_start(MINIMAL, tmp, session=False))
        finally:
            fake.terminate()
            fake.wait()
    sidecar = [s.initialize for s in starts]
    minimal = [s.initialize for s in minimals]

    def row(values: Sequence[float | None]) -> str:
        got = [v for v in values if v is not None]
        return (f"median {ms(median(got))} (min {ms(min(got))}, max {ms(max(got))});"
                f" runs: {', '.join(f'{v * 1000:.0f}' for v in got)} ms")

    print(f"   sidecar  initialize  {row(sidecar)}")
    print(f"   minimal  initialize  {row(minimal)}")
    print(f"   sidecar  session/new {row([s.session for s in starts])}")
    print(f"   ratio sidecar/minimal (initialize medians): {median(sidecar) / median(minimal):.2f}x;"
          f" sidecar overhead {ms(median(sidecar) - median(minimal))}")
    sidecar_cpu = [s.initialize_cpu for s in starts if s.initialize_cpu is not None]
    minimal_cpu = [s.initialize_cpu for s in minimals if s.initialize_cpu is not None]
    if sidecar_cpu and minimal_cpu:
        print(f"   sidecar  CPU to initialize {row(sidecar_cpu)}")
        print(f"   minimal  CPU to initialize {row(minimal_cpu)}")
        print(f"   ratio sidecar/minimal (CPU medians): {median(sidecar_cpu) / median(minimal_cpu):.2f}x")
    print(f"   first prompt's first token, from spawn   {row([s.first_token for s in starts])}")
    token_cpu = [s.first_token_cpu for s in starts if s.first_token_cpu is not None]
    if token_cpu:
        print(f"   sidecar  CPU to the first token {row(token_cpu)}")
    first = median([s.first_prompt for s in starts if s.first_prompt is not None])
    second = median([s.second_prompt for s in starts if s.second_prompt is not None])
    print(f"   prompt -> first token: first prompt {ms(first)} | second prompt {ms(second)}"
          f" (medians of {len(starts)})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
