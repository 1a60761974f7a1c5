"""Full compaction by the provider itself (Anthropic's ``compaction`` parameter), through the
real process: the request the API expects, the signed block leading every later request,
the project's rules still first among the user's words, and our own summary when the
provider refuses."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sidecar.fake_llm import Reply
from tests.e2e.session_client import call, prompt

pytestmark = pytest.mark.asyncio(loop_scope="module")

RULE = "Keep functions short."
NOTES = "notes: " + "the parser keeps its state between calls. " * 500


async def open_session(sidecars: Any, workspace: Path, **settings: Any) -> tuple[Any, Any, str]:
    """A new session on the module's one process with these settings."""
    (workspace / "CLAUDE.md").write_text(RULE + "\n")
    client = await sidecars.session(workspace, compactionBackend="server", **settings)
    return client, client.rec, client.sid


async def test_the_provider_compacts_and_its_block_leads_later_requests(
        sidecars: Any, llm: Any, workspace: Path) -> None:
    client, rec, sid = await open_session(sidecars, workspace)
    await prompt(client, sid, NOTES)
    llm.queue(Reply.text("The user shared notes on the parser's state."))
    res = await call(client, "sidecar/compact", {"sessionId": sid, "instructions": "keep file names"})
    compaction_request = llm.requests[-1]
    await prompt(client, sid, "what next?")
    after = llm.requests[-1]
    assert res["status"] == "completed" and res["tier"] == "full" and res["backend"] == "server"
    assert res["tokensAfter"] < res["tokensBefore"]
    # The compaction request: the conversation as it stood, the compaction parameter with our
    # instructions, its beta, and no context_management beside it.
    body = compaction_request.body
    assert body["compaction"]["type"] == "summarize"
    assert "keep file names" in body["compaction"]["instructions"]
    # Its answer is signed and resent verbatim: nothing in it may be meant for discarding.
    assert "<analysis>" not in body["compaction"]["instructions"]
    assert "compact-2026-09-04" in compaction_request.headers["anthropic-beta"]
    assert "context_management" not in body
    assert NOTES[:40] in json.dumps(body["messages"])
    # Later requests send the signed block first, then the user's words, rules leading.
    first, second = after.body["messages"][0], after.body["messages"][1]
    assert first["role"] == "assistant" and first["content"][0]["type"] == "compaction"
    assert first["content"][0]["content"] == "The user shared notes on the parser's state."
    assert first["content"][0]["signature"]
    assert second["role"] == "user" and RULE in second["content"][0]["text"]
    assert "full transcript is at" in json.dumps(after.body["messages"])
    assert NOTES[:40] not in json.dumps(after.body["messages"])
    done = [u for u in rec.of("compaction_update") if u["status"] == "completed"][-1]
    assert done["backend"] == "server" and "parser" in done["summary"]


async def test_a_refused_server_compaction_falls_back_to_our_summary(
        sidecars: Any, llm: Any, workspace: Path) -> None:
    client, rec, sid = await open_session(sidecars, workspace)
    await prompt(client, sid, NOTES)
    # The provider turns the compaction down (a 400: it is not offered for this model).
    llm.queue(Reply(fault={"fault": "invalid_request",
                           "message": "compaction is not supported for this model"}))
    res = await call(client, "sidecar/compact", {"sessionId": sid})
    said = [m.message if hasattr(m, "message") else m["message"] for m in client.messages]
    assert res["status"] == "completed" and res["backend"] == "local"
    summary_request = llm.requests[-1]
    assert "compaction" not in summary_request.body
    assert "<summary>" in json.dumps(summary_request.body["messages"][-1])
    assert any("did not compact" in m and "summarized it instead" in m for m in said)


async def test_a_failing_provider_fails_the_compaction_without_a_second_summary(
        sidecars: Any, llm: Any, workspace: Path) -> None:
    client, rec, sid = await open_session(sidecars, workspace)
    await prompt(client, sid, NOTES)
    # Failing as it would on any call (the first try and two retries): our own summary,
    # from the same provider, would only fail again.
    for _ in range(3):
        llm.queue(Reply(fault={"fault": "server_error"}))
    sent = len(llm.requests)
    try:
        await call(client, "sidecar/compact", {"sessionId": sid})
        raise AssertionError("the compaction succeeded")
    except Exception as err:  # noqa: BLE001 - the JSON-RPC error is what is checked
        assert getattr(err, "code", None) == -33005
    tried = llm.requests[sent:]
    assert len(tried) == 3 and all("compaction" in r.body for r in tried)
    assert [u["status"] for u in rec.of("compaction_update")] == ["in_progress", "failed"]


async def test_a_model_listed_without_compaction_goes_straight_to_our_summary(
        sidecars: Any, llm: Any, workspace: Path) -> None:
    """The models endpoint says which models take ``compaction``; for one that does not,
    the sidecar does not spend a refused call finding out."""
    llm.configure_models({"models": [
        {"id": "claude-haiku-4-5-20251001", "context_window": 200_000, "max_output": 64_000,
         "line": "haiku", "adaptive_thinking": False, "budget_thinking": True}]})
    client, rec, sid = await open_session(sidecars, workspace, model="claude-haiku-4-5")
    # The listing has arrived once the window comes from it (the alias names the snapshot).
    await rec.wait_for(lambda: any(
        u["_meta"]["sidecar"].get("windowSource") == "anthropic /v1/models"
        for u in rec.of("usage_update")))
    await prompt(client, sid, NOTES)
    sent = len(llm.requests)
    res = await call(client, "sidecar/compact", {"sessionId": sid})
    assert res["status"] == "completed" and res["backend"] == "local"
    assert not any("compaction" in r.body for r in llm.requests[sent:])
    assert llm.model_requests == ["GET /v1/models"]


async def test_a_file_read_before_the_providers_compaction_comes_back_after_its_block(
        sidecars: Any, llm: Any, workspace: Path) -> None:
    """Continuity holds for the provider's backend as for ours: after the signed block, the
    project's rules lead the user's words and the file read last is re-injected."""
    (workspace / "parser.py").write_text("def parse(text):\n    return text.split()  # PARSER-MARK\n")
    client, rec, sid = await open_session(sidecars, workspace)
    llm.queue(Reply.tool_use("Read", {"file_path": "parser.py"}, text="Reading it."))
    llm.queue(Reply.text("It splits on whitespace."))
    await prompt(client, sid, NOTES + " What does parser.py do?")
    llm.queue(Reply.text("The user asked what the parser does."))
    res = await call(client, "sidecar/compact", {"sessionId": sid})
    await prompt(client, sid, "and then?")
    after = llm.requests[-1]
    assert res["backend"] == "server"
    messages = after.body["messages"]
    assert messages[0]["content"][0]["type"] == "compaction"
    later = json.dumps(messages[1:])
    assert RULE in json.dumps(messages[1]["content"][0]) and "PARSER-MARK" in later
    assert "PARSER-MARK" not in json.dumps(messages[0])
