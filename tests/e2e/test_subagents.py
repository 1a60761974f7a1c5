"""The Task tool through the real process and the fake LLM server: a subagent makes its own
model calls, the main conversation reads only its report, several run at once, and
cancelling the main turn stops them all."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any, Callable

import pytest
import pytest_asyncio
from pytest_lsp import LanguageClient

from sidecar.core.subagents.definitions import GENERAL_PURPOSE_PROMPT
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

pytestmark = pytest.mark.asyncio(loop_scope="module")

FILE_TEXT = "return 'hi'"  # what hello.py holds: only the subagent may read it


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def sidecar(fake_llm: Any, tmp_path_factory: Any) -> Any:
    lsp_client = await start_client()
    store = tmp_path_factory.mktemp("store")
    lsp_client.store = store  # type: ignore[attr-defined]
    lsp_client.rec = await initialize(  # type: ignore[attr-defined]
        lsp_client, settings_for("anthropic", fake_llm.url, store))
    yield lsp_client
    await stop_client(lsp_client)


@pytest_asyncio.fixture(loop_scope="module")
async def client(sidecar: Any, llm: Any, workspace: Path) -> Any:
    sidecar.rec.reset()
    res = await call(sidecar, "session/new", {"cwd": str(workspace)})
    sidecar.sid = res["sessionId"]
    return sidecar


def is_subagent(request: Any) -> bool:
    system = json.dumps(request.body.get("system") or "")
    return GENERAL_PURPOSE_PROMPT[:60] in system


def first_prompt(request: Any) -> str:
    first = sent_conversation(request)[0]["content"]
    return json.dumps(first)


def has_results(request: Any) -> bool:
    last = sent_conversation(request)[-1]["content"]
    return isinstance(last, list) and any(b.get("type") == "tool_result" for b in last)


def task(tid: str, tag: str) -> dict[str, Any]:
    return {"type": "tool_use", "id": tid, "name": "Task", "input": {
        "description": f"Look up {tag}", "subagent_type": "general-purpose",
        "prompt": f"SUBTASK-{tag}: what does hello.py return? Report it."}}


def responder(main: list[Reply], sub: Callable[[str, Any], Reply]) -> Callable[[Any], Reply]:
    """Main requests get ``main`` in order; a subagent's get ``sub(tag, request)``."""
    replies = iter(main)

    def respond(request: Any) -> Reply:
        if is_subagent(request):
            tag = "A" if "SUBTASK-A" in first_prompt(request) else "B"
            return sub(tag, request)
        return next(replies)
    return respond


async def test_the_main_conversation_reads_the_report_not_the_file(
        client: LanguageClient, llm: Any, workspace: Path) -> None:
    rec = client.rec  # type: ignore[attr-defined]

    def sub(tag: str, request: Any) -> Reply:
        if not has_results(request):
            return Reply(content=[{"type": "tool_use", "id": "toolu_sub_read", "name": "Read",
                                   "input": {"file_path": "hello.py"}}])
        return Reply.text(f"REPORT-{tag}: hello() returns the string hi")

    llm.responder = responder([Reply(content=[task("task_a", "A")]), Reply.text("It says hi.")], sub)
    res = await prompt(client, client.sid, "what does hello return? use a subagent")  # type: ignore[attr-defined]
    assert res["stopReason"] == "end_turn"

    main = [r for r in llm.requests if not is_subagent(r)]
    subs = [r for r in llm.requests if is_subagent(r)]
    assert len(main) == 2 and len(subs) == 2
    # The subagent read the file in its own context; the main conversation never saw it.
    assert FILE_TEXT in json.dumps(sent_conversation(subs[1]))
    assert all(FILE_TEXT not in json.dumps(r.body) for r in main)
    results = [b for b in sent_conversation(main[1])[-1]["content"] if b.get("type") == "tool_result"]
    assert [b["tool_use_id"] for b in results] == ["task_a"]
    assert "REPORT-A: hello() returns the string hi" in json.dumps(results)
    # The subagent has no Task tool; the main conversation's lists the built-in agent.
    assert "Task" not in {t["name"] for t in subs[0].body["tools"]}
    task_spec = next(t for t in main[0].body["tools"] if t["name"] == "Task")
    assert "- general-purpose: " in task_spec["description"]

    # The subagent's tool call reaches the client nested under the Task call, never as one
    # of the main conversation's; its answer text does not reach the client at all.
    calls = {c["toolCallId"]: c for c in rec.of("tool_call")}
    assert "_meta" not in calls["task_a"]
    assert calls["toolu_sub_read"]["_meta"]["sidecar"]["parentToolCallId"] == "task_a"
    assert all(u.get("_meta", {}).get("sidecar", {}).get("parentToolCallId") == "task_a"
               for u in rec.of("tool_call_update") if u["toolCallId"] == "toolu_sub_read")
    assert "REPORT-A" not in rec.text()

    # Its records are a sidechain in a file of their own beside the main transcript.
    store: Path = client.store  # type: ignore[attr-defined]
    files = list(store.rglob(f"{client.sid}/subagents/agent-*.jsonl"))  # type: ignore[attr-defined]
    assert len(files) == 1
    records = [json.loads(line) for line in files[0].read_text().splitlines()]
    assert records and all(r["isSidechain"] is True and r["sessionId"] == client.sid  # type: ignore[attr-defined]
                           and files[0].name == f"agent-{r['agentId']}.jsonl" for r in records)
    assert records[0]["parentUuid"] is None and "SUBTASK-A" in json.dumps(records[0]["message"])
    main_file = next(store.rglob(f"{client.sid}.jsonl"))  # type: ignore[attr-defined]
    assert FILE_TEXT not in main_file.read_text() and "isSidechain\":true" not in main_file.read_text()


async def test_the_subagents_cost_is_counted_in_the_main_session(
        client: LanguageClient, llm: Any) -> None:
    rec = client.rec  # type: ignore[attr-defined]
    big = {"input_tokens": 150_000, "output_tokens": 20_000}

    def sub(tag: str, request: Any) -> Reply:
        return Reply.text(f"REPORT-{tag}", usage=big)

    llm.responder = responder([Reply(content=[task("task_c", "A")]), Reply.text("ok")], sub)
    res = await prompt(client, client.sid, "delegate")  # type: ignore[attr-defined]
    assert res["stopReason"] == "end_turn"
    main_usage = [r.usage for r in llm.requests if not is_subagent(r)]
    assert all((u or {}).get("input_tokens", 0) < 20_000 for u in main_usage)
    # 150k input and 20k output tokens of the subagent cost most of a dollar; the main
    # calls, a few thousand tokens, cents.
    assert res["gauge"]["cost"]["amount"] > 0.5
    assert rec.of("usage_update")[-1]["cost"]["amount"] > 0.5


async def test_two_task_calls_run_at_once(client: LanguageClient, llm: Any) -> None:
    def sub(tag: str, request: Any) -> Reply:
        # Slow: about a second and a half of streaming each.
        return Reply.text(f"REPORT-{tag}: hi " + "." * 30, chunk_size=2, chunk_delay_ms=100)

    llm.responder = responder(
        [Reply(content=[task("task_a", "A"), task("task_b", "B")]), Reply.text("Both done.")], sub)
    res = await prompt(client, client.sid, "two lookups at once")  # type: ignore[attr-defined]
    assert res["stopReason"] == "end_turn"
    subs = {("A" if "SUBTASK-A" in first_prompt(r) else "B"): r for r in llm.requests if is_subagent(r)}
    assert set(subs) == {"A", "B"}
    # Run one after the other, B's call would start after A's stream of 1.5 s had ended.
    assert abs(subs["A"].time - subs["B"].time) < 0.7
    last = [r for r in llm.requests if not is_subagent(r)][-1]
    results = [b for b in sent_conversation(last)[-1]["content"] if b.get("type") == "tool_result"]
    assert [b["tool_use_id"] for b in results] == ["task_a", "task_b"]
    assert "REPORT-A" in json.dumps(results[0]) and "REPORT-B" in json.dumps(results[1])


async def test_cancelling_the_main_turn_stops_every_subagent(client: LanguageClient, llm: Any) -> None:
    def sub(tag: str, request: Any) -> Reply:
        return Reply(fault={"fault": "endless", "text": f"thinking {tag} ", "chunk_delay_ms": 50,
                            "seconds": 30})

    llm.responder = responder([Reply(content=[task("task_a", "A"), task("task_b", "B")])], sub)
    turn = asyncio.ensure_future(prompt(client, client.sid, "two long lookups"))  # type: ignore[attr-defined]
    deadline = asyncio.get_running_loop().time() + 20
    while len([r for r in llm.requests if is_subagent(r)]) < 2:
        assert asyncio.get_running_loop().time() < deadline, "the subagents never called the model"
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.3)
    cancelled_at = asyncio.get_running_loop().time()
    client.protocol.notify("session/cancel", {"sessionId": client.sid})  # type: ignore[attr-defined]
    res = await asyncio.wait_for(turn, 10)
    assert res["stopReason"] == "cancelled"
    # The subagents stop at once: not after the few seconds a tool is given to end by itself.
    assert asyncio.get_running_loop().time() - cancelled_at < 3
    subs = [r for r in llm.requests if is_subagent(r)]
    for _ in range(100):  # the fake notes the end of a stream once the client has gone
        if all(r.stream_ended is not None for r in subs):
            break
        await asyncio.sleep(0.05)
    assert len(subs) == 2 and all(r.stream_ended is not None for r in subs)
    assert len([r for r in llm.requests if not is_subagent(r)]) == 1
    # The session stays usable.
    llm.responder = None
    llm.queue(Reply.text("next"))
    res = await prompt(client, client.sid, "again")  # type: ignore[attr-defined]
    assert res["stopReason"] == "end_turn"
