"""Tool search through the real sidecar process and the strict fake, with our 300-tool SaaS
MCP server: past ``mcp.maxToolDefinitionPercent`` of the window the MCP tools' definitions
are deferred; on Anthropic the API's own search finds one (``defer_loading`` tools, the
``tool_search_tool_bm25`` server tool, its result sent back as it came), on the Responses
API its hosted ``tool_search`` does, on Chat Completions the sidecar's ToolSearch tool, and
the found tool is called and run. Below the
share nothing changes. The gauge and ``/context`` say how many are deferred and what that
saved; a compaction keeps them deferred; a resumed or compacted session offers the tools
the sidecar's search found before."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from sidecar.fake_llm import Reply
from sidecar.fake_llm.counting import anthropic_units, openai_units, responses_units, total_tokens
from tests.e2e.session_client import call, initialize, prompt, settings_for, start_client, stop_client
from tests.mcp_servers.helpers import REPO, probe_stdio, saas_stdio, write_mcp_json

pytestmark = pytest.mark.asyncio(loop_scope="module")

# A window whose 10% the 300 definitions pass (about 20,000 tokens).
WINDOW = 150_000
SHARE = WINDOW * 10 // 100
LINE_ITEMS = [{"description": "Seats", "quantity": 3, "unit_price": 49.5},
              {"description": "Onboarding", "quantity": 1, "unit_price": 120}]
TOTAL = "total 241.65 EUR"  # (3 x 49.50 + 120) less 10 %


def mcp(**extra: Any) -> dict[str, Any]:
    return {"trustWorkspaceServers": True, "startupTimeoutSeconds": 60, **extra}


async def start(url: str, store: Path, provider: str, **extra: Any) -> Any:
    client = await start_client(env={**os.environ, "PROBE_ROOT": str(REPO)})
    client.rec = await initialize(client, settings_for(provider, url, store, mcp=mcp(), **extra))  # type: ignore[attr-defined]
    client.store = store  # type: ignore[attr-defined]
    return client


@pytest.fixture(scope="module")
def saas_workspace(tmp_path_factory: Any) -> Path:
    ws = tmp_path_factory.mktemp("saas")
    write_mcp_json(ws, {"saas": saas_stdio()})
    return Path(ws)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def anthropic(fake_llm: Any, tmp_path_factory: Any) -> Any:
    client = await start(fake_llm.url, tmp_path_factory.mktemp("store"), "anthropic",
                         contextWindow=WINDOW, compactionBackend="local")
    yield client
    await stop_client(client)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def responses(fake_llm: Any, tmp_path_factory: Any) -> Any:
    # gpt-4o's 128,000-token window: its 10% is 12,800 tokens.
    client = await start(fake_llm.url, tmp_path_factory.mktemp("store"), "openai")
    yield client
    await stop_client(client)


async def open_connected(client: Any, workspace: Path, server: str) -> str:
    sid = str((await call(client, "session/new", {"cwd": str(workspace)}))["sessionId"])

    def connected() -> bool:
        updates = client.rec.of("mcp_status_update")
        return bool(updates) and any(s["name"] == server and s["status"] == "connected"
                                     for s in updates[-1]["servers"])

    await client.rec.wait_for(connected, 60)
    return sid


def anthropic_tool_tokens(tools: list[dict[str, Any]]) -> int:
    """The tool definitions' tokens as the fake counts them (deferred ones take none)."""
    return total_tokens(anthropic_units({"tools": tools}))


def blocks(request: Any, kind: str) -> list[dict[str, Any]]:
    return [b for m in request.body.get("messages") or [] if isinstance(m.get("content"), list)
            for b in m["content"] if b.get("type") == kind]


def result_text(block: dict[str, Any]) -> str:
    content = block.get("content")
    if isinstance(content, str):
        return content
    return "".join(b.get("text", "") for b in content or [] if b.get("type") == "text")


async def test_anthropic_defers_the_300_tools_and_its_server_search_finds_one(
        anthropic: Any, llm: Any, saas_workspace: Path) -> None:
    sid = await open_connected(anthropic, saas_workspace, "saas")
    invoice = {"customer_id": "cus_42", "line_items": LINE_ITEMS, "discount_percent": 10}
    llm.queue_many([
        Reply(content=[{"type": "text", "text": "Let me find the invoicing tool."},
                       {"type": "tool_search", "query": "create invoice line items"},
                       {"type": "tool_use", "id": "toolu_inv1", "name": "mcp__saas__create_invoice",
                        "input": invoice}]),
        Reply.text("The invoice is out.")])
    res = await prompt(anthropic, sid, "bill cus_42 for three seats and onboarding, 10% off")
    assert res["stopReason"] == "end_turn"
    first, second = llm.requests[-2], llm.requests[-1]
    tools = first.body["tools"]
    deferred = [t for t in tools if t.get("defer_loading")]
    assert len(deferred) == 300 and all(t["name"].startswith("mcp__saas__") for t in deferred)
    assert {"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25",
            "cache_control": {"type": "ephemeral"}} in tools
    # What the tools take of the window: under the share with deferral, past it without.
    loaded = anthropic_tool_tokens(tools)
    everything = anthropic_tool_tokens([{k: v for k, v in t.items() if k != "defer_loading"}
                                        for t in tools])
    print(f"\n[tool definitions] anthropic: {loaded:,} tokens sent loaded, {everything:,} "
          f"without deferral (share {SHARE:,})")
    assert loaded < SHARE < everything
    # The search and its result went back as they came, and the found tool ran.
    use = blocks(second, "server_tool_use")
    assert use == [{"type": "server_tool_use", "id": use[0]["id"], "name": "tool_search_tool_bm25",
                    "input": {"query": "create invoice line items"}}]
    found = blocks(second, "tool_search_tool_result")[0]["content"]["tool_references"]
    assert {"type": "tool_reference", "tool_name": "mcp__saas__create_invoice"} in found
    result = next(b for b in blocks(second, "tool_result") if b["tool_use_id"] == "toolu_inv1")
    assert TOTAL in result_text(result) and not result.get("is_error")
    # The model was told the tools are there and how to find them.
    assert "300 tools of the MCP server 'saas'" in json.dumps(first.body["messages"])

    # The gauge and /context say how many are deferred and what that saved.
    view = await call(anthropic, "sidecar/context", {"sessionId": sid})
    gauge = view["gauge"]["deferredTools"]
    assert gauge["count"] == 300 and gauge["search"] == "server"
    assert gauge["savedTokens"] > SHARE
    anthropic.rec.updates.clear()
    await prompt(anthropic, sid, "/context")
    assert f"Tool search: 300 MCP tools deferred, {gauge['savedTokens']:,} tokens" \
        in anthropic.rec.text()

    # A compaction keeps them deferred; the re-announcement says so instead of naming 300.
    llm.queue(Reply.text("A long account of the billing run. " * 300))
    await prompt(anthropic, sid, "tell me everything about the billing run")
    llm.queue(Reply.text("Summary: cus_42 was billed."))
    await call(anthropic, "sidecar/compact", {"sessionId": sid})
    llm.queue(Reply.text("Yes."))
    await prompt(anthropic, sid, "still there?")
    after = llm.requests[-1]
    assert sum(1 for t in after.body["tools"] if t.get("defer_loading")) == 300
    assert "MCP tools deferred: 300 tools of the MCP server 'saas'" in json.dumps(
        after.body["messages"])


async def test_below_the_share_nothing_is_deferred(anthropic: Any, llm: Any,
                                                   workspace: Path) -> None:
    write_mcp_json(workspace, {"probe": probe_stdio()})
    sid = await open_connected(anthropic, workspace, "probe")
    llm.queue_many([Reply.tool_use("mcp__probe__echo", {"text": "hi"}, id="toolu_p1"),
                    Reply.text("done")])
    await prompt(anthropic, sid, "echo hi")
    tools = llm.requests[-2].body["tools"]
    assert "mcp__probe__echo" in [t["name"] for t in tools]
    assert not any("defer_loading" in t or t.get("type", "").startswith("tool_search")
                   for t in tools)
    assert "echo: hi" in result_text(blocks(llm.requests[-1], "tool_result")[-1])
    view = await call(anthropic, "sidecar/context", {"sessionId": sid})
    assert view["gauge"]["deferredTools"] is None


async def test_responses_api_defers_them_to_its_hosted_tool_search(
        responses: Any, llm: Any, saas_workspace: Path) -> None:
    sid = await open_connected(responses, saas_workspace, "saas")
    invoice = {"customer_id": "cus_7", "line_items": LINE_ITEMS, "discount_percent": 10}
    llm.queue_many([Reply(content=[{"type": "tool_search", "query": "create invoice"},
                                   {"type": "tool_use", "id": "call_i1",
                                    "name": "mcp__saas__create_invoice", "input": invoice}]),
                    Reply.text("Invoiced.")])
    res = await prompt(responses, sid, "bill cus_7")
    assert res["stopReason"] == "end_turn"
    first, second = llm.requests[-2:]
    tools = first.body["tools"]
    deferred = [t for t in tools if t.get("defer_loading")]
    assert len(deferred) == 300 and {"type": "tool_search"} in tools
    loaded = total_tokens(responses_units({"tools": tools}))
    print(f"\n[tool definitions] responses: {loaded:,} tokens loaded (share "
          f"{128_000 * 10 // 100:,})")
    assert loaded < 128_000 * 10 // 100
    # The tools never change; the search's items go back as they came, the found tool ran.
    assert second.body["tools"] == tools
    items = {i.get("type"): i for i in second.body["input"]}
    assert items["tool_search_call"]["arguments"] == {"query": "create invoice"}
    assert "mcp__saas__create_invoice" in [t["name"] for t in items["tool_search_output"]["tools"]]
    outputs = [i for i in second.body["input"] if i.get("type") == "function_call_output"]
    assert TOTAL in str(outputs[-1]["output"])
    view = await call(responses, "sidecar/context", {"sessionId": sid})
    assert view["gauge"]["deferredTools"]["search"] == "server"
    assert view["gauge"]["deferredTools"]["count"] == 300
    # The API's own compaction takes the search's items too, and the tools stay deferred.
    llm.queue(Reply.text("A long account of the invoice. " * 300))
    await prompt(responses, sid, "tell me all about it")
    llm.queue(Reply.text("Summary: cus_7 was invoiced."))
    await call(responses, "sidecar/compact", {"sessionId": sid})
    llm.queue(Reply.text("Yes."))
    await prompt(responses, sid, "still there?")
    assert llm.requests[-1].body["tools"] == tools


async def test_chat_completions_get_the_sidecars_tool_search_and_a_resume_keeps_what_it_found(
        fake_llm: Any, llm: Any, saas_workspace: Path, tmp_path: Path) -> None:
    client = await start(fake_llm.url, tmp_path / "store", "openai-compatible")
    try:
        sid = await open_connected(client, saas_workspace, "saas")
        llm.queue_many([Reply.tool_use("ToolSearch", {"query": "refund payment"}, id="call_r1"),
                        Reply.tool_use("mcp__saas__create_refund",
                                       {"payment_id": "pay_1", "amount": 5}, id="call_r2"),
                        Reply.text("Refunded.")])
        await prompt(client, sid, "refund pay_1")
        first, second, third = llm.requests[-3:]
        names = [t["function"]["name"] for t in first.body["tools"]]
        assert "ToolSearch" in names and not any(n.startswith("mcp__") for n in names)
        loaded = total_tokens(openai_units({"tools": first.body["tools"]}))
        print(f"\n[tool definitions] chat completions: {loaded:,} tokens before a search")
        assert loaded < 128_000 * 10 // 100
        # The search's answer names the tools; from then on their definitions are offered,
        # after the others.
        answers = [m for m in second.body["messages"] if m.get("role") == "tool"]
        assert "mcp__saas__create_refund" in answers[-1]["content"]
        for later in (second, third):
            assert later.body["tools"][:len(first.body["tools"])] == first.body["tools"]
            assert "mcp__saas__create_refund" in [t["function"]["name"]
                                                  for t in later.body["tools"]]
        answer = [m for m in third.body["messages"] if m.get("role") == "tool"][-1]
        assert answer["content"].startswith("create_refund done")
        view = await call(client, "sidecar/context", {"sessionId": sid})
        assert view["gauge"]["deferredTools"]["search"] == "client"
    finally:
        await stop_client(client)
    # Resumed in a new process, the session offers the same tools: they are read from the
    # conversation, not from the process that found them.
    resumed = await start(fake_llm.url, tmp_path / "store", "openai-compatible")
    try:
        await call(resumed, "session/load", {"sessionId": sid, "cwd": str(saas_workspace)})
        await resumed.rec.wait_for(lambda: any(
            s["name"] == "saas" and s["status"] == "connected"
            for u in resumed.rec.of("mcp_status_update") for s in u["servers"]), 60)
        llm.queue(Reply.text("Still here."))
        await prompt(resumed, sid, "anything else?")
        assert llm.requests[-1].body["tools"] == third.body["tools"]
        # A compaction takes the search's result with it; the tools it found stay offered,
        # in the same place, so the model need not search again.
        llm.queue(Reply.text("Summary: pay_1 was refunded."))
        await call(resumed, "sidecar/compact", {"sessionId": sid})
        llm.queue(Reply.text("Yes."))
        await prompt(resumed, sid, "still there?")
        after = llm.requests[-1]
        assert "refund payment" not in json.dumps(after.body["messages"])
        assert after.body["tools"] == third.body["tools"]
    finally:
        await stop_client(resumed)
