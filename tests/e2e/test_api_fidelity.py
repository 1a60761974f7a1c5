"""What the sidecar sends holds against the real APIs, through the real process.

Every request here also passes the fake's validator (the SDKs' request types and the APIs'
documented rules) and its invariant checker; these tests pin the defects that once went
through anyway: the project's rules lost after a compaction or /clear, a window suffix sent
as a model id, a refused image sent again on every turn, long pastes kept in the history
line, and manual compaction still on with DISABLE_COMPACT.
"""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path
from typing import Any

import pytest
from pygls.exceptions import JsonRpcException

from sidecar.fake_llm import Reply, default_reply
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

RULE = "Every answer names the file it comes from."


def first_message(req: Any) -> str:
    """The first user message (Chat Completions' first message is the system prompt, and
    the Responses API's input holds items other than messages too)."""
    return json.dumps(next(m for m in sent_conversation(req) if m.get("role") == "user"))


def main_requests(llm: Any) -> list[Any]:
    return [r for r in llm.requests if r.call == "main"]


async def open_session(llm: Any, tmp_path: Path, workspace: Path, provider: str = "anthropic",
                       env: dict[str, str] | None = None, **settings: Any) -> tuple[Any, Any, str]:
    client = await start_client(env)
    rec = await initialize(client, settings_for(provider, llm.url, tmp_path / "store", **settings))
    sid = (await call(client, "session/new", {"cwd": str(workspace)}))["sessionId"]
    return client, rec, sid


@pytest.mark.parametrize("provider", ["anthropic", "openai", "openai-compatible"])
async def test_project_rules_survive_compaction_clear_load_and_model_switch(
        sidecars: Any, llm: Any, workspace: Path, provider: str) -> None:
    (workspace / "CLAUDE.md").write_text(RULE + "\n")
    client = await sidecars.session(workspace, provider)
    sid = client.sid
    model = "claude-opus-4-6" if provider == "anthropic" else "gpt-4.1"
    try:
        await prompt(client, sid, "hello, here are my notes: " + "the parser keeps state. " * 800)
        assert RULE in first_message(llm.requests[-1])
        await call(client, "sidecar/compact", {"sessionId": sid})
        await prompt(client, sid, "after the compaction")
        assert "continues an earlier conversation" in json.dumps(sent_conversation(llm.requests[-1]))
        assert RULE in first_message(llm.requests[-1])
        await prompt(client, sid, "/clear")
        await prompt(client, sid, "after clear")
        assert RULE in first_message(llm.requests[-1])
        await prompt(client, sid, f"/model {model}")
        await prompt(client, sid, "after the switch")
        assert llm.requests[-1].body["model"] == model
        assert RULE in first_message(llm.requests[-1])
    finally:
        await call(client, "session/close", {"sessionId": sid})
    # Another process resumes the session from its transcript.
    store = client.store
    client = await start_client()
    await initialize(client, settings_for(provider, llm.url, store))
    try:
        await call(client, "session/load", {"sessionId": sid})
        await prompt(client, sid, "after the reload")
        assert RULE in first_message(llm.requests[-1])
    finally:
        await stop_client(client)
    main = main_requests(llm)
    assert len(main) == 5 and all(RULE in first_message(r) for r in main)


async def test_a_long_context_name_is_a_beta_not_a_model_id(
        llm: Any, tmp_path: Path, workspace: Path) -> None:
    client, rec, sid = await open_session(llm, tmp_path, workspace, model="claude-opus-4-6[1m]")
    try:
        res = await prompt(client, sid, "hello")
        assert res["gauge"]["size"] == 1_000_000
        sent = llm.requests[-1]
        assert sent.body["model"] == "claude-opus-4-6"
        assert "context-1m-2025-08-07" in sent.headers.get("anthropic-beta", "")
    finally:
        await stop_client(client)


async def test_a_refused_image_is_not_sent_again(sidecars: Any, llm: Any, workspace: Path) -> None:
    client = await sidecars.session(workspace)
    sid = client.sid
    big = base64.b64encode(b"\x89PNG\r\n\x1a\n" + os.urandom(5 * 1024 * 1024)).decode()
    with pytest.raises(JsonRpcException) as err:
        await call(client, "session/prompt", {"sessionId": sid, "prompt": [
            {"type": "text", "text": "what is in this screenshot?"},
            {"type": "image", "mimeType": "image/png", "data": big}]})
    assert "image exceeds 5 MB maximum" in str(err.value)
    (refusal,) = llm.take_violations()
    assert refusal.rule == "refused" and "image exceeds" in refusal.detail
    await prompt(client, sid, "never mind, just say hi")
    sent = json.dumps(llm.requests[-1].body["messages"])
    assert '"image"' not in sent and "media removed" in sent
    assert "what is in this screenshot?" in sent  # what the user said stays


async def test_a_long_paste_goes_to_the_paste_store(llm: Any, tmp_path: Path, workspace: Path) -> None:
    client, _, sid = await open_session(llm, tmp_path, workspace)
    pasted = "".join(f"line {i}: some logged output\n" for i in range(200))
    try:
        await call(client, "session/prompt", {"sessionId": sid, "prompt": [
            {"type": "text", "text": "why does this fail?"}, {"type": "text", "text": pasted}]})
        (entry,) = (await call(client, "sidecar/history/list", {"limit": 5}))["entries"]
    finally:
        await stop_client(client)
    assert entry["display"] == "why does this fail? [Pasted text #1 +200 lines]"
    (paste,) = entry["pastedContents"].values()
    assert paste["content"] == pasted  # resolved from the store on the way out
    line = json.loads((tmp_path / "store" / "history.jsonl").read_text().splitlines()[-1])
    (stored,) = line["pastedContents"].values()
    assert "content" not in stored and stored["contentHash"]
    assert (tmp_path / "store" / "paste-cache").is_dir()


async def test_disable_compact_turns_manual_compaction_off(
        llm: Any, tmp_path: Path, workspace: Path) -> None:
    env = {**os.environ, "DISABLE_COMPACT": "1"}
    client, _, sid = await open_session(llm, tmp_path, workspace, env=env)
    try:
        await prompt(client, sid, "hello")
        with pytest.raises(JsonRpcException) as err:
            await call(client, "sidecar/compact", {"sessionId": sid})
        assert "DISABLE_COMPACT" in str(err.value)
        gauge = await call(client, "sidecar/gauge", {"sessionId": sid})
        assert gauge["autoCompact"]["enabled"] is False and gauge["compactions"] == {}
    finally:
        await stop_client(client)
    assert not any(r.call == "summary" for r in llm.requests)


async def test_a_reading_session_in_a_small_window_keeps_its_rules(
        llm: Any, tmp_path: Path, workspace: Path) -> None:
    """30 reads of ~8K-token files in a 60K window: several compactions, the project's rules
    and the date in every request, and (by the checker) no cache break without a cause."""
    (workspace / "CLAUDE.md").write_text(RULE + "\n")
    for i in range(30):
        body = "".join(f"def handler_{i}_{j}(event):\n    return route(event, {j})\n\n"
                       for j in range(300))
        (workspace / f"m{i}.py").write_text(body)

    def respond(req: Any) -> Any:
        if req.call in ("summary", "memory"):
            return default_reply(req)
        last = req.body["messages"][-1]["content"]
        if any(isinstance(b, dict) and b.get("type") == "tool_result" for b in last):
            return Reply.text("Noted its handlers.")
        text = json.dumps(last)
        if "read m" not in text:
            return Reply.text("Noted.")
        n = int(text.split("read m")[1].split(".py")[0])
        return Reply(content=[{"type": "tool_use", "id": f"toolu_m{n:02d}", "name": "Read",
                               "input": {"file_path": f"m{n}.py"}}])

    llm.responder = respond
    client, _, sid = await open_session(llm, tmp_path, workspace, contextWindow=60_000)
    try:
        for i in range(30):
            res = await prompt(client, sid, f"read m{i}.py")
            assert res["stopReason"] == "end_turn"
        gauge = await call(client, "sidecar/gauge", {"sessionId": sid})
    finally:
        await stop_client(client)
    assert sum(gauge["compactions"].values()) >= 3, gauge["compactions"]
    main = main_requests(llm)
    # Each read fits the room a compaction leaves: it enters the context whole.
    assert not any("Full output saved to" in json.dumps(r.body["messages"]) for r in main)
    assert len(main) >= 60
    assert all(RULE in first_message(r) and "currentDate" in first_message(r) for r in main)
