"""Peer benchmark: the same scripted workloads through the real Claude Code and the sidecar.

Method. For each workload and window, each client runs the whole workload against its own
fresh in-process ``FakeLLMServer``, configured identically (strict validation, the
workload's context window, prompt caching with breakpoints, 20-block lookback and a
5-minute TTL). Claude Code is the pinned npm binary, one ``claude -p`` process per user
turn (``--continue`` after the first), scratch HOME; the sidecar is the real process over
stdio, one session for all turns. Both use Sonnet 4.6 (``[1m]`` for the 1M window); at
60K Claude Code is told the window by ``CLAUDE_CODE_AUTO_COMPACT_WINDOW`` and the sidecar
by its ``contextWindow`` setting. Everything else is each client's default: that is what
is measured.

Fairness rules.

- Same fake: each run gets a new server with the same settings; neither client can see
  the other's cache.
- Same files at the same paths: both clients of a pair work in one scratch folder,
  emptied and rebuilt before each run, so the paths in their prompts count the same.
- Same agent: one scripted responder (``peer/agent.py``) plays the model for both. It
  never looks at which client calls; it decides from the running turn (set by the driver)
  and from client-agnostic facts of the request: whether the latest user message carries
  the result of its last tool call, whether the request is a summary call, whether it is a
  side call without tools. Tool names and inputs are identical (Read, Edit, Bash with
  absolute paths).
- Same summary rule: every summary call of either client (compaction or session notes) is
  answered with a summary of 5 % of the request's input tokens, at least 200 and at most
  4,000 tokens.
- Whole bill: every request the fake served the client counts (main turns, compactions,
  session-notes updates, side calls), weighted input 1, cache write 1.25 (2 with the
  one-hour TTL), cache read 0.1, output 5.
- Same breaks: the cache-break workload moves the fake's cache clock 10 minutes forward
  before the same turns for both; neither client's own clock moves, so each sees only its
  cache expire, as after a real coffee break with no client-side idle logic involved.

Beside the bill, the report prints what each client's own system prompt and tool
definitions cost, and our ratio without ours: how low a client sending the same messages
could go against Claude Code's whole bill.

The benchmark prints figures and the fake's verdict on every request; it never judges a
ratio. It exits non-zero only when a run crashed or did not finish its workload.

Run: .venv/bin/python tests/bench/bench_peer.py [--workloads a,b] [--windows 60000,200000,1000000]
     [--clients claude-code,sidecar] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from sidecar.fake_llm import FakeLLMServer  # noqa: E402
from tests import claude_code  # noqa: E402
from tests.bench.figures import header  # noqa: E402
from tests.bench.peer import drivers  # noqa: E402
from tests.bench.peer.agent import ScriptedAgent  # noqa: E402
from tests.bench.peer.drivers import RunOutcome, run_claude_code, run_sidecar  # noqa: E402
from tests.bench.peer.report import (  # noqa: E402
    BREAKDOWN_COLUMNS,
    LEGEND,
    PROMPT_COLUMNS,
    breakdown_row,
    prompt_row,
    ratio_row,
    row,
    table,
    verdict,
)
from tests.bench.peer.workloads import WORKLOADS  # noqa: E402
from tests.bench.sidecar_process import quiet_fake_disconnects  # noqa: E402

CLIENTS = ("claude-code", "sidecar")
DEFAULT_WINDOWS = (60_000, 200_000, 1_000_000)
REPO = Path(__file__).resolve().parents[2]


def checkout() -> str:
    """The commit the sidecar runs from, marked when files differ from it. Each run spawns
    a fresh sidecar, so a checkout that changes mid-benchmark would mix two versions."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO,
                              capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=REPO, capture_output=True, text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + (" (with uncommitted changes)" if dirty else "")


def scratch_dir(name: str, window: int) -> Path:
    """The same path for both clients of a pair, emptied before each run. Paths are in the
    prompts (the workspace in the system prompt, absolute paths in tool inputs), so random
    folder names made the two clients' token counts differ by chance, not by behaviour."""
    path = Path(tempfile.gettempdir()) / f"peer-{os.getpid()}-{name}-{window}"
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir()
    return path


def one_run(client: str, name: str, window: int, binary: Path | None) -> RunOutcome:
    """A fresh workspace, a fresh fake and a fresh agent for one client's run."""
    tmp = scratch_dir(name, window)
    try:
        ws = tmp / "ws"
        ws.mkdir()
        workload = WORKLOADS[name](ws)
        agent = ScriptedAgent(workload)
        srv = FakeLLMServer(context_window=window, responder=agent).start()
        try:
            if client == "claude-code":
                if binary is None:
                    raise RuntimeError("Claude Code is not installed")
                return run_claude_code(binary, workload, window, ws, tmp, srv, agent)
            return run_sidecar(workload, window, ws, tmp, srv, agent)
        finally:
            srv.stop()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def parse(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--workloads", default=",".join(WORKLOADS))
    p.add_argument("--windows", default=",".join(str(w) for w in DEFAULT_WINDOWS))
    p.add_argument("--clients", default=",".join(CLIENTS))
    p.add_argument("--json", type=Path, default=None, help="write every figure to this file")
    p.add_argument("--sidecar-settings", default="{}",
                   help='JSON settings over the defaults for the sidecar runs, e.g. '
                        '\'{"compactionBackend": "local"}\'')
    args = p.parse_args(argv)
    drivers.SIDECAR_OVERRIDES.update(json.loads(args.sidecar_settings))
    args.workloads = [w for w in args.workloads.split(",") if w]
    args.windows = [int(w) for w in args.windows.split(",") if w]
    args.clients = [c for c in args.clients.split(",") if c]
    unknown = [w for w in args.workloads if w not in WORKLOADS]
    unknown += [c for c in args.clients if c not in CLIENTS]
    if unknown:
        p.error(f"unknown: {', '.join(unknown)}; workloads {list(WORKLOADS)}, clients {CLIENTS}")
    return args


def main(argv: list[str]) -> int:
    args = parse(argv)
    header("bench_peer: the same workloads through Claude Code and the sidecar, one fake each")
    quiet_fake_disconnects()
    binary: Path | None = None
    if "claude-code" in args.clients:
        try:
            binary = claude_code.install()
            print(f"   Claude Code {claude_code.VERSION}: {binary}")
        except claude_code.ClaudeCodeUnavailable as exc:
            print(f"   Claude Code cannot run here ({exc}); its runs are reported as not done")
    version = checkout()
    print(f"   sidecar checkout {version}")
    started = time.perf_counter()
    runs: list[RunOutcome] = []
    rows: list[list[str]] = []
    prompt_rows: list[list[str]] = []
    for name in args.workloads:
        for window in args.windows:
            pair: dict[str, RunOutcome] = {}
            for client in args.clients:
                try:
                    run = one_run(client, name, window, binary)
                except Exception as exc:  # noqa: BLE001 - one broken run must not hide the rest
                    run = RunOutcome(client, name, window, 0, error=f"{type(exc).__name__}: {exc}")
                pair[client] = run
                runs.append(run)
                rows.append(row(run))
                print(f"   done: {verdict(run).splitlines()[0]} ({run.wall_s:.0f} s)", flush=True)
            if len(pair) == 2:
                rows.append(ratio_row(pair["sidecar"], pair["claude-code"]))
                prompt_rows.append(prompt_row(pair["sidecar"], pair["claude-code"]))
    wall = time.perf_counter() - started
    print()
    print(table(rows))
    print()
    print(table([breakdown_row(r) for r in runs], BREAKDOWN_COLUMNS))
    print()
    if prompt_rows:
        print(table(prompt_rows, PROMPT_COLUMNS))
        print()
    print(LEGEND)
    print()
    print("Validator verdicts (the fake's checker over every request of each run):")
    for run in runs:
        print("   " + verdict(run).replace("\n", "\n   "))
    print(f"\n   total wall time {wall:.0f} s")
    if checkout() != version:
        print(f"   WARNING: the checkout changed during the run ({version} -> {checkout()}); "
              "later runs measured other code")
    if args.json is not None:
        args.json.write_text(json.dumps({"wallSeconds": round(wall, 1),
                                         "runs": [r.to_json() for r in runs]}, indent=2))
    broken = [r for r in runs if not r.finished]
    if broken:
        print(f"   {len(broken)} run(s) crashed or did not finish their workload")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
