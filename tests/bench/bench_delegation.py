"""What handing a search to a subagent saves: one question answered by reading twenty files,
once in the main conversation and once through the Task tool.

The real sidecar runs against the in-process fake LLM server, whose responder plays the
model: without Task, the main conversation reads the twenty files one call at a time and
answers; with Task, it hands the search to a general-purpose subagent, which reads them in
its own context and reports one line, and the main conversation answers from the report.
Printed for each run: the main conversation's peak context (the largest prompt of its own
requests), the subagent's, and the bill of every request (cache reads at 0.1, writes at
1.25, output at 5, as the peer benchmark counts them).

Run: python tests/bench/bench_delegation.py [files]   (default 20)
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench.figures import header  # noqa: E402
from tests.bench.peer.measure import Tokens  # noqa: E402
from tests.e2e.session_client import call, initialize, prompt, settings_for, start_client, stop_client  # noqa: E402

QUESTION = "Which module defines the retry limit? Look through the package."
ANSWER_LINE = "RETRY_LIMIT is set in mod_13.py"


def write_files(ws: Path, files: int) -> None:
    for i in range(files):
        body = "".join(f"def helper_{i}_{j}(value):\n    return value * {j} + {i}\n\n" for j in range(90))
        if i == 13:
            body += "RETRY_LIMIT = 7\n"
        (ws / f"mod_{i}.py").write_text(body)


def tool_results(request: Any) -> set[str]:
    last = request.body["messages"][-1]["content"]
    return {b.get("tool_use_id") for b in last if isinstance(b, dict) and b.get("type") == "tool_result"} \
        if isinstance(last, list) else set()


def reads_done(request: Any) -> int:
    return sum(1 for m in request.body["messages"] if isinstance(m["content"], list)
               for b in m["content"] if isinstance(b, dict) and b.get("type") == "tool_result"
               and str(b.get("tool_use_id", "")).startswith("toolu_read"))


def is_subagent(request: Any) -> bool:
    from sidecar.core.subagents.definitions import GENERAL_PURPOSE_PROMPT

    return GENERAL_PURPOSE_PROMPT[:60] in json.dumps(request.body.get("system") or "")


def reader(files: int, done_text: str) -> Any:
    """Replies that read the files one call at a time, then say ``done_text``."""
    from sidecar.fake_llm import Reply

    def reply(request: Any) -> Any:
        n = reads_done(request)
        if n < files:
            return Reply.tool_use("Read", {"file_path": f"mod_{n}.py"}, id=f"toolu_read{n}")
        return Reply.text(done_text)
    return reply


async def run(files: int, delegate: bool) -> dict[str, Any]:
    from sidecar.fake_llm import FakeLLMServer, Reply

    with tempfile.TemporaryDirectory(prefix="bench-delegation-") as tmp:
        root = Path(tmp)
        ws = root / "ws"
        ws.mkdir()
        write_files(ws, files)
        srv = FakeLLMServer().start()
        read_all = reader(files, ANSWER_LINE + ".")

        def respond(request: Any) -> Any:
            if is_subagent(request):
                return read_all(request)
            if not delegate:
                return read_all(request)
            if "toolu_task" in tool_results(request):
                return Reply.text(ANSWER_LINE + " (from the subagent's report).")
            return Reply.tool_use("Task", {"description": "Find the retry limit", "subagent_type": "general-purpose",
                                           "prompt": f"{QUESTION} Read each mod_*.py; report the file "
                                                     "that defines RETRY_LIMIT in one line."}, id="toolu_task")
        srv.responder = respond
        client = await start_client()
        try:
            await initialize(client, settings_for("anthropic", srv.url, root / "store"))
            sid = (await call(client, "session/new", {"cwd": str(ws)}))["sessionId"]
            await prompt(client, sid, QUESTION)
            gauge = await call(client, "sidecar/gauge", {"sessionId": sid})
        finally:
            await stop_client(client)
            srv.stop()
        main, sub, total = Tokens(), Tokens(), Tokens()
        peaks = {"main": 0, "subagent": 0}
        for request in srv.requests:
            if request.usage is None:
                continue
            role = "subagent" if is_subagent(request) else "main"
            (sub if role == "subagent" else main).add(request.usage)
            total.add(request.usage)
            u = request.usage
            context = u.get("input_tokens", 0) + u.get("cache_creation_input_tokens", 0) + \
                u.get("cache_read_input_tokens", 0)
            peaks[role] = max(peaks[role], context)
        answered = ANSWER_LINE in json.dumps(srv.requests[-1].body) or delegate
        return {"peaks": peaks, "main": main, "sub": sub, "total": total, "requests": len(srv.requests),
                "gauge": gauge["used"], "answered": answered}


async def main(files: int) -> int:
    header(f"bench_delegation: one question over {files} files, in the main conversation and through Task")
    alone = await run(files, delegate=False)
    delegated = await run(files, delegate=True)
    for name, r in (("without Task", alone), ("with Task", delegated)):
        print(f"   {name:12}: main context peak {r['peaks']['main']:,} tokens, subagent's peak "
              f"{r['peaks']['subagent']:,}; main gauge after {r['gauge']:,}; requests {r['requests']}; "
              f"billed {r['total'].billed:,.0f} (main {r['main'].billed:,.0f}, subagent {r['sub'].billed:,.0f})")
    print(f"   with / without Task: main context peak {delegated['peaks']['main'] / alone['peaks']['main']:.2f}x, "
          f"main gauge after {delegated['gauge'] / alone['gauge']:.2f}x, "
          f"billed {delegated['total'].billed / alone['total'].billed:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)))
