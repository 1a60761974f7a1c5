"""``provider: "openai"`` through the real sidecar process: the Responses API against the fake.

Each request also passes the fake's validator (the openai SDK's request types and the
Responses API's documented rules, encrypted content included) and its invariant checker.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from pytest_lsp import LanguageClient

from sidecar.fake_llm import Reply
from tests.e2e.session_client import (
    call,
    initialize,
    prompt,
    settings_for,
    start_client,
    stop_client,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def sidecar(fake_llm: Any, tmp_path_factory: Any) -> Any:
    """One sidecar on a reasoning model with reasoning effort set; a fresh session per test."""
    lsp_client = await start_client()
    store = tmp_path_factory.mktemp("store")
    settings = settings_for("openai", fake_llm.url, store, model="gpt-5",
                            thinking={"effort": "high"})
    lsp_client.rec = await initialize(lsp_client, settings)  # type: ignore[attr-defined]
    yield lsp_client
    await stop_client(lsp_client)


@pytest_asyncio.fixture(loop_scope="module")
async def client(sidecar: Any, llm: Any, workspace: Path) -> Any:
    sidecar.rec.reset()
    sidecar.sid = (await call(sidecar, "session/new", {"cwd": str(workspace)}))["sessionId"]
    return sidecar


def main_requests(llm: Any) -> list[Any]:
    return [r for r in llm.requests if r.headers.get("x-context-sidecar-call") == "main"]


async def test_a_reasoning_tool_round(client: LanguageClient, llm: Any) -> None:
    rec = client.rec  # type: ignore[attr-defined]
    llm.queue(Reply(content=[
        {"type": "thinking", "thinking": "The answer is in hello.py."},
        {"type": "tool_use", "id": "call_h1", "name": "Read", "input": {"file_path": "hello.py"}},
    ]))
    llm.queue(Reply(content=[{"type": "thinking", "thinking": "It returns hi."},
                             {"type": "text", "text": "hello() returns 'hi'."}]))
    res = await prompt(client, client.sid, "what does hello return?")  # type: ignore[attr-defined]
    assert res["stopReason"] == "end_turn"
    assert rec.text() == "hello() returns 'hi'."
    thoughts = "".join(u["content"]["text"] for u in rec.of("agent_thought_chunk"))
    assert "The answer is in hello.py." in thoughts and "It returns hi." in thoughts
    first, second = main_requests(llm)[-2:]
    for request in (first, second):
        assert request.path == "/v1/responses" and request.status == 200
        assert request.body["reasoning"] == {"effort": "high", "summary": "auto"}
        # The web search's sources are asked for too: the model has the search tool.
        assert request.body["include"] == ["reasoning.encrypted_content",
                                           "web_search_call.action.sources"]
        assert request.body["store"] is False
    # The second request hands the first answer's reasoning back before its call, then
    # the call's output under the same call_id; the fake checked the encrypted content.
    kinds = [i.get("type") for i in second.body["input"]]
    assert kinds[-3:] == ["reasoning", "function_call", "function_call_output"]
    call_item, output = second.body["input"][-2:]
    assert call_item["call_id"] == output["call_id"] == "call_h1"
    assert "return 'hi'" in json.dumps(output["output"])
    assert [u["toolCallId"] for u in rec.of("tool_call")] == ["call_h1"]


async def test_cached_tokens_reach_the_gauge(client: LanguageClient, llm: Any) -> None:
    rec = client.rec  # type: ignore[attr-defined]
    llm.queue(Reply.text("first answer"))
    await prompt(client, client.sid, "one")  # type: ignore[attr-defined]
    llm.queue(Reply.text("second answer"))
    res = await prompt(client, client.sid, "two")  # type: ignore[attr-defined]
    usage = llm.requests[-1].usage
    cached = usage["input_tokens_details"]["cached_tokens"]
    assert cached >= 1_024  # the system prompt and tools alone pass OpenAI's caching floor
    gauge = rec.of("usage_update")[-1]["_meta"]["sidecar"]
    assert gauge["source"] == "provider"
    assert gauge["lastTurn"]["cacheReadTokens"] == cached
    assert gauge["lastTurn"]["inputTokens"] == usage["input_tokens"] - cached
    assert gauge["lastTurn"]["cacheWriteTokens"] == 0
    assert res["gauge"]["used"] == gauge["used"] >= usage["input_tokens"]


async def test_a_prompt_too_long_compacts_and_retries(client: LanguageClient, llm: Any) -> None:
    rec = client.rec  # type: ignore[attr-defined]
    llm.queue(Reply.text("noted"))
    # Long enough that a summary is a real saving.
    notes = "my notes: " + "the parser keeps state between calls. " * 600
    await prompt(client, client.sid, notes)  # type: ignore[attr-defined]
    # The next call overflows: the fake answers as the API does for a stream (the
    # response opens, then an error event); the summary and the retry get its defaults.
    llm.queue(Reply.failure("prompt_too_long"))
    res = await prompt(client, client.sid, "and now?")  # type: ignore[attr-defined]
    assert res["stopReason"] == "end_turn"
    overflowed = next(r for r in llm.requests if r.fault == "prompt_too_long")
    assert overflowed.path == "/v1/responses" and overflowed.status == 200
    compaction = rec.of("compaction_update")
    assert [u["status"] for u in compaction] == ["in_progress", "completed"]
    assert compaction[-1]["trigger"] == "auto"
    # The compact endpoint keeps every user message, so it could not shrink a context that
    # is one long prompt: our own summary did.
    assert any(r.path == "/v1/responses/compact" for r in llm.requests)
    assert compaction[-1]["backend"] == "local"
    retried = main_requests(llm)[-1]
    assert retried.index > overflowed.index and retried.status == 200
    # It starts from the summary, which took the prompt in.
    assert "continues an earlier conversation" in json.dumps(retried.body["input"])
    assert retried.input_tokens < overflowed.input_tokens
    assert rec.text().removeprefix("noted").startswith("Echo: ")  # the retry was answered


async def test_the_providers_compaction_leads_later_requests_and_survives_a_switch(
        sidecar: Any, llm: Any, workspace: Path) -> None:
    rule = "Name every file you read."
    (workspace / "CLAUDE.md").write_text(rule + "\n")
    (workspace / "big.py").write_text("".join(f"def f{i}(x):\n    return x + {i}\n" for i in range(2_000)))
    sidecar.rec.reset()
    sid = (await call(sidecar, "session/new", {"cwd": str(workspace)}))["sessionId"]
    llm.queue(Reply(content=[{"type": "tool_use", "id": "call_big", "name": "Read",
                              "input": {"file_path": "big.py"}}]))
    llm.queue(Reply.text("big.py defines f0 to f1999."))
    await prompt(sidecar, sid, "read big.py")

    res = await call(sidecar, "sidecar/compact", {"sessionId": sid})
    compacted = llm.requests[-1]
    llm.queue(Reply.text("Still here."))
    await prompt(sidecar, sid, "what next?")
    after = main_requests(llm)[-1]

    assert res["status"] == "completed" and res["backend"] == "server"
    assert compacted.path == "/v1/responses/compact"
    assert res["tokensAfter"] < res["tokensBefore"]
    items = after.body["input"]
    kinds = [i.get("type") for i in items]
    # The compaction item once, the file's text gone, the user's words and the rules once.
    assert kinds.count("compaction") == 1
    text = json.dumps(items)
    assert "return x + 1999" not in text and "read big.py" in text
    assert text.count(rule) == 1
    assert "full transcript is at" in text

    # To Anthropic: its API cannot read OpenAI's encrypted summary, so it is left out (the
    # note still points at the transcript), and the request is one the API accepts.
    await call(sidecar, "session/set_model", {"sessionId": sid, "model": "claude-sonnet-4-5",
                                              "provider": "anthropic"})
    llm.queue(Reply.text("Switched."))
    await prompt(sidecar, sid, "and on Anthropic?")
    switched = llm.requests[-1]
    assert switched.path == "/v1/messages" and switched.status == 200
    body = json.dumps(switched.body["messages"])
    assert '"compaction"' not in body and "full transcript is at" in body and rule in body
