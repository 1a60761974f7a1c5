"""A chat turn through the real process and the fake LLM server, for each wire: Anthropic
Messages, OpenAI Responses (``openai``) and Chat Completions (``openai-compatible``)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from sidecar.fake_llm import Reply
from tests.e2e.session_client import (
    call,
    initialize,
    prompt,
    sent_conversation,
    settings_for,
    start_client,
    stop_client,
)

PROVIDERS = ["anthropic", "openai", "openai-compatible"]


pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(params=PROVIDERS, scope="module", loop_scope="module")
async def sidecar(request: Any, fake_llm: Any, tmp_path_factory: Any) -> Any:
    """One sidecar process per provider; every test gets a fresh session in it."""
    lsp_client = await start_client()
    store = tmp_path_factory.mktemp("store")
    lsp_client.rec = await initialize(lsp_client, settings_for(request.param, fake_llm.url, store))  # type: ignore[attr-defined]
    yield lsp_client
    await stop_client(lsp_client)


@pytest_asyncio.fixture(loop_scope="module")
async def client(sidecar: Any, llm: Any, workspace: Path) -> Any:
    sidecar.rec.reset()
    res = await call(sidecar, "session/new", {"cwd": str(workspace)})
    sidecar.sid = res["sessionId"]
    return sidecar


def last_request_messages(llm: Any) -> list[dict[str, Any]]:
    return sent_conversation(llm.requests[-1])


async def test_streamed_text_and_usage(client: LanguageClient, llm: Any) -> None:
    rec = client.rec  # type: ignore[attr-defined]
    llm.queue(Reply.text("Hello there, this answer arrives in many small chunks.", chunk_size=4))
    res = await prompt(client, client.sid, "say hello")  # type: ignore[attr-defined]
    assert res["stopReason"] == "end_turn"
    assert rec.text() == "Hello there, this answer arrives in many small chunks."
    chunks = rec.of("agent_message_chunk")
    assert 1 <= len(chunks) < 14  # coalesced: fewer notifications than deltas
    usage = rec.of("usage_update")[-1]
    gauge = usage["_meta"]["sidecar"]
    assert gauge["source"] == "provider" and gauge["used"] == usage["used"] > 0
    assert gauge["lastTurn"]["inputTokens"] + gauge["lastTurn"]["cacheReadTokens"] \
        + gauge["lastTurn"]["cacheWriteTokens"] > 0
    assert res["gauge"]["used"] == gauge["used"]


async def test_multi_tool_round_trip(client: LanguageClient, llm: Any, workspace: Path) -> None:
    rec = client.rec  # type: ignore[attr-defined]
    llm.queue(Reply(content=[
        {"type": "text", "text": "Let me look."},
        {"type": "tool_use", "id": "toolu_a", "name": "Read", "input": {"file_path": "hello.py"}},
        {"type": "tool_use", "id": "toolu_b", "name": "Glob", "input": {"pattern": "*.py"}},
    ]))
    llm.queue(Reply.text("It returns hi."))
    res = await prompt(client, client.sid, "what does hello return?")  # type: ignore[attr-defined]
    assert res["stopReason"] == "end_turn"
    calls = rec.of("tool_call")
    assert [c["toolCallId"] for c in calls] == ["toolu_a", "toolu_b"]
    done = [u for u in rec.of("tool_call_update") if u["status"] == "completed"]
    assert {u["toolCallId"] for u in done} == {"toolu_a", "toolu_b"}
    body = json.dumps(last_request_messages(llm))
    assert "return 'hi'" in body and "hello.py" in body
    sent = last_request_messages(llm)
    if llm.requests[-1].provider == "anthropic":
        results = [b for b in sent[-1]["content"] if b["type"] == "tool_result"]
        assert [r["tool_use_id"] for r in results] == ["toolu_a", "toolu_b"]
    elif llm.requests[-1].path == "/v1/responses":
        # The ids the model gave its calls come back as the call_id of calls and outputs.
        calls = [i["call_id"] for i in sent if i.get("type") == "function_call"]
        outputs = [i["call_id"] for i in sent if i.get("type") == "function_call_output"]
        assert calls == outputs == ["toolu_a", "toolu_b"]
    else:
        tools = [m for m in sent if m["role"] == "tool"]
        assert [t["tool_call_id"] for t in tools] == ["toolu_a", "toolu_b"]


async def test_edit_goes_through_apply_edit(client: LanguageClient, llm: Any, workspace: Path) -> None:
    rec = client.rec  # type: ignore[attr-defined]
    llm.queue(Reply(content=[{"type": "tool_use", "id": "t1", "name": "Read", "input": {"file_path": "hello.py"}}]))
    llm.queue(Reply(content=[{"type": "tool_use", "id": "t2", "name": "Edit", "input": {
        "file_path": "hello.py", "old_string": "'hi'", "new_string": "'hello'"}}]))
    llm.queue(Reply.text("Done."))
    await prompt(client, client.sid, "change hi to hello")  # type: ignore[attr-defined]
    # In the default permission mode the edit is asked about first (the recorder accepts).
    assert [r["toolCall"]["kind"] for r in rec.permission_requests] == ["edit"]
    assert len(rec.edits) == 1
    assert "'hello'" in (workspace / "hello.py").read_text()


async def test_edit_refused_without_read(client: LanguageClient, llm: Any, workspace: Path) -> None:
    llm.queue(Reply(content=[{"type": "tool_use", "id": "t1", "name": "Edit", "input": {
        "file_path": "hello.py", "old_string": "'hi'", "new_string": "'x'"}}]))
    llm.queue(Reply.text("ok"))
    await prompt(client, client.sid, "edit blindly")  # type: ignore[attr-defined]
    failed = [u for u in client.rec.of("tool_call_update") if u["status"] == "failed"]  # type: ignore[attr-defined]
    assert failed and "read" in json.dumps(failed).lower()
    assert "'hi'" in (workspace / "hello.py").read_text()


@pytest.mark.parametrize("answer,expect_ran", [("allow_once", True), ("reject_once", False), ("cancelled", False)])
async def test_shell_permission(client: LanguageClient, llm: Any, answer: str, expect_ran: bool) -> None:
    rec = client.rec  # type: ignore[attr-defined]
    rec.permission_answer = lambda p: (
        {"outcome": {"outcome": "cancelled"}} if answer == "cancelled"
        else {"outcome": {"outcome": "selected", "optionId": answer}})
    llm.queue(Reply(content=[{"type": "tool_use", "id": "sh1", "name": "Bash", "input": {"command": "echo ran-$((40+2))"}}]))
    llm.queue(Reply.text("ok"))
    await prompt(client, client.sid, "run it")  # type: ignore[attr-defined]
    assert len(rec.permission_requests) == 1
    assert rec.permission_requests[0]["options"][0]["kind"] == "allow_once"
    sent = json.dumps(last_request_messages(llm))
    assert ("ran-42" in sent) is expect_ran


async def test_path_escape_refused(client: LanguageClient, llm: Any) -> None:
    llm.queue(Reply(content=[{"type": "tool_use", "id": "e1", "name": "Read", "input": {"file_path": "../../etc/passwd"}}]))
    llm.queue(Reply.text("ok"))
    await prompt(client, client.sid, "read outside")  # type: ignore[attr-defined]
    sent = json.dumps(last_request_messages(llm))
    assert "root:" not in sent
    failed = [u for u in client.rec.of("tool_call_update") if u["status"] == "failed"]  # type: ignore[attr-defined]
    assert failed


async def test_cancel_midway_through_stream(client: LanguageClient, llm: Any) -> None:
    rec = client.rec  # type: ignore[attr-defined]
    llm.queue(Reply.text("word " * 2000, chunk_size=5, chunk_delay_ms=20))
    task = asyncio.ensure_future(prompt(client, client.sid, "long answer"))  # type: ignore[attr-defined]
    await rec.wait_for(lambda: len(rec.of("agent_message_chunk")) >= 2, timeout=40)
    client.protocol.notify("session/cancel", {"sessionId": client.sid})  # type: ignore[attr-defined]
    res = await asyncio.wait_for(task, 10)
    assert res["stopReason"] == "cancelled"
    # The session stays usable, and the partial answer is kept, marked as interrupted.
    llm.queue(Reply.text("next"))
    res = await prompt(client, client.sid, "again")  # type: ignore[attr-defined]
    assert res["stopReason"] == "end_turn"
    assert "[Response interrupted]" in json.dumps(last_request_messages(llm))


async def test_second_prompt_is_busy(client: LanguageClient, llm: Any) -> None:
    llm.queue(Reply.text("slow " * 50, chunk_size=5, chunk_delay_ms=20))
    first = asyncio.ensure_future(prompt(client, client.sid, "one"))  # type: ignore[attr-defined]
    await client.rec.wait_for(lambda: bool(client.rec.of("agent_message_chunk")), timeout=40)  # type: ignore[attr-defined]
    with pytest.raises(JsonRpcException) as err:
        await prompt(client, client.sid, "two")  # type: ignore[attr-defined]
    assert err.value.code == -33006
    client.protocol.notify("session/cancel", {"sessionId": client.sid})  # type: ignore[attr-defined]
    await asyncio.wait_for(first, 10)


@pytest.mark.parametrize("fault", [
    {"fault": "rate_limit", "retry_after": 0}, {"fault": "overloaded"}, {"fault": "server_error"},
    {"fault": "cut_stream", "after_events": 3}, {"fault": "malformed_event"},
])
async def test_faults_are_retried(client: LanguageClient, llm: Any, fault: dict[str, Any]) -> None:
    llm.queue(Reply(fault=fault))
    llm.queue(Reply.text("recovered"))
    res = await prompt(client, client.sid, "try")  # type: ignore[attr-defined]
    assert res["stopReason"] == "end_turn"
    assert "recovered" in client.rec.text()  # type: ignore[attr-defined]


async def test_retries_are_shown_as_retry_updates(client: LanguageClient, llm: Any) -> None:
    rec = client.rec  # type: ignore[attr-defined]
    llm.queue(Reply(fault={"fault": "overloaded"}))
    llm.queue(Reply(fault={"fault": "rate_limit", "retry_after": 0}))
    llm.queue(Reply.text("through at last"))
    res = await prompt(client, client.sid, "try hard")  # type: ignore[attr-defined]
    assert res["stopReason"] == "end_turn"
    kinds = [u["sessionUpdate"] for u in rec.updates]
    retries = rec.of("retry_update")
    # The statuses the provider answered (Anthropic's overloaded is a 529, OpenAI's a 503).
    overloaded, limited = [r.status for r in llm.requests[-3:-1]]
    assert limited == 429
    # One before each wait, in order, before the answer; then one when the call went through:
    # once its answer is complete, after its text.
    assert [(u["attempt"], u["maxRetries"], u["status"], u.get("done", False)) for u in retries] == [
        (1, 2, overloaded, False), (2, 2, 429, False), (2, 2, None, True)]
    assert retries[0]["reason"].endswith(f"({overloaded})") and "rate limit" in retries[1]["reason"]
    assert retries[0]["delayMs"] > 0 and retries[1]["delayMs"] == 0 and retries[2]["delayMs"] == 0
    waits = [i for i, u in enumerate(rec.updates) if u["sessionUpdate"] == "retry_update" and not u.get("done")]
    [through] = [i for i, u in enumerate(rec.updates) if u["sessionUpdate"] == "retry_update" and u.get("done")]
    assert max(waits) < kinds.index("agent_message_chunk")
    assert through > max(i for i, k in enumerate(kinds) if k == "agent_message_chunk")
    # A call that goes through at once says nothing of retries.
    rec.reset()
    llm.queue(Reply.text("first time"))
    await prompt(client, client.sid, "easy")  # type: ignore[attr-defined]
    assert not rec.of("retry_update")


async def test_exhausted_retries_answer_provider_error(client: LanguageClient, llm: Any) -> None:
    for _ in range(3):
        llm.queue(Reply(fault={"fault": "server_error"}))
    with pytest.raises(JsonRpcException) as err:
        await prompt(client, client.sid, "fail")  # type: ignore[attr-defined]
    assert err.value.code == -33004
    assert err.value.data["status"] == 500
    llm.queue(Reply.text("fine again"))
    res = await prompt(client, client.sid, "after")  # type: ignore[attr-defined]
    assert res["stopReason"] == "end_turn"


async def test_slash_context_and_clear(client: LanguageClient, llm: Any) -> None:
    rec = client.rec  # type: ignore[attr-defined]
    def model_calls() -> int:
        # Counting endpoints: the Messages API's count_tokens, the Responses API's input_tokens.
        return sum(1 for r in llm.requests if not r.path.endswith(("count_tokens", "input_tokens")))

    n = model_calls()
    res = await prompt(client, client.sid, "/context")  # type: ignore[attr-defined]
    assert res["stopReason"] == "end_turn" and "Context" in rec.text()
    await prompt(client, client.sid, "/clear")  # type: ignore[attr-defined]
    assert model_calls() == n  # slash commands never reach the model (/context may count tokens)
    view = await call(client, "sidecar/context", {"sessionId": client.sid})  # type: ignore[attr-defined]
    assert view["gauge"]["sessionId"] == client.sid and "breakdown" in view["gauge"]  # type: ignore[attr-defined]
