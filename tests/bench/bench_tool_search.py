"""What tool search saves with the 300-tool SaaS MCP server: the tokens of the tool
definitions in the first request, and that request's input, with every definition sent
(``mcp.toolSearch`` off, the share at 100 %) and with the definitions deferred (``always``:
the 300 definitions, about 20,000 tokens, sit at the 10 % share of a 200K window, so whether
``auto`` defers them there depends on the estimate's last per cent),
on Anthropic (``defer_loading`` and the API's search), on the Responses API (``defer_loading``
and its hosted ``tool_search``) and on Chat Completions (the sidecar's ToolSearch). Counted by the fake's own counter on the requests it recorded from
the real sidecar process.

Run: python tests/bench/bench_tool_search.py
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from sidecar.fake_llm import FakeLLMServer, Reply  # noqa: E402
from sidecar.fake_llm.counting import (  # noqa: E402
    anthropic_units,
    openai_units,
    responses_units,
    total_tokens,
)
from tests.bench.figures import REPO_ROOT, header  # noqa: E402
from tests.e2e.session_client import (  # noqa: E402
    call,
    initialize,
    prompt,
    settings_for,
    start_client,
    stop_client,
)
from tests.mcp_servers.helpers import saas_stdio, write_mcp_json  # noqa: E402

WINDOW = 200_000  # for Anthropic; gpt-4o has 128,000


def tool_tokens(provider: str, tools: list[dict[str, Any]]) -> int:
    units = {"anthropic": anthropic_units, "openai": responses_units}.get(provider, openai_units)
    return total_tokens(units({"tools": tools}))


async def first_request(llm: FakeLLMServer, tmp: Path, provider: str, mode: str) -> dict[str, Any]:
    workspace = tmp / f"ws-{provider}-{mode}"
    workspace.mkdir()
    write_mcp_json(workspace, {"saas": saas_stdio()})
    percent = 100 if mode == "off" else 10
    extra: dict[str, Any] = {"contextWindow": WINDOW} if provider == "anthropic" else {}
    client = await start_client(env={**os.environ, "PROBE_ROOT": str(REPO_ROOT),
                                     "FAKE_LLM_KEY": "bench-key"})
    try:
        rec = await initialize(client, settings_for(
            provider, llm.url, tmp / f"store-{provider}-{mode}", **extra,
            mcp={"trustWorkspaceServers": True, "toolSearch": mode,
                 "maxToolDefinitionPercent": percent}))
        sid = (await call(client, "session/new", {"cwd": str(workspace)}))["sessionId"]
        await rec.wait_for(lambda: any(s["status"] == "connected" for u in rec.of("mcp_status_update")
                                       for s in u["servers"]), 60)
        llm.reset()
        llm.queue(Reply.text("ok"))
        await prompt(client, sid, "hello")
        request = next(r for r in llm.requests if r.call == "main")
        view = await call(client, "sidecar/context", {"sessionId": sid})
        tools = request.body.get("tools") or []
        return {"tools": len(tools), "deferred": sum(1 for t in tools if t.get("defer_loading")),
                "tool_tokens": tool_tokens(provider, tools), "input": request.input_tokens,
                "gauge": view["gauge"].get("deferredTools")}
    finally:
        await stop_client(client)


async def main() -> None:
    header("tool search: the 300-tool SaaS MCP server's definitions in the first request")
    with tempfile.TemporaryDirectory() as raw, FakeLLMServer() as llm:
        tmp = Path(raw)
        for provider in ("anthropic", "openai", "openai-compatible"):
            sent = await first_request(llm, tmp, provider, "off")
            deferred = await first_request(llm, tmp, provider, "always")
            print(f"{provider}: every definition sent: {sent['tools']} tools, "
                  f"{sent['tool_tokens']:,} tokens of definitions, {sent['input']:,} input tokens")
            print(f"{provider}: deferred:              {deferred['tools']} tools "
                  f"({deferred['deferred']} with defer_loading), {deferred['tool_tokens']:,} tokens "
                  f"of definitions, {deferred['input']:,} input tokens; gauge {deferred['gauge']}")
            print(f"{provider}: saved {sent['tool_tokens'] - deferred['tool_tokens']:,} tokens "
                  f"of definitions, {sent['input'] - deferred['input']:,} input tokens per request")


if __name__ == "__main__":
    asyncio.run(main())
