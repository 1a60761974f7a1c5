"""Agent definitions through the real process: a user's agent with its own tools and model,
whose edit is asked about through the main session's editor; a workspace's agent that does
not apply in an untrusted folder; an unknown agent type as the Task call's error."""

from __future__ import annotations

import json
import os
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
    sent_conversation,
    settings_for,
    start_client,
    stop_client,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")

EDITOR_AGENT = """---
name: fixer
description: Fixes one small thing in a file
tools: Read, Edit
model: claude-haiku-4-5
---
FIXER-PROMPT: you fix exactly what you are told, then say what you changed.
"""


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def sidecar(fake_llm: Any, tmp_path_factory: Any) -> Any:
    home = tmp_path_factory.mktemp("home")
    agents = home / ".claude" / "agents"
    agents.mkdir(parents=True)
    (agents / "fixer.md").write_text(EDITOR_AGENT)
    lsp_client = await start_client({**os.environ, "HOME": str(home)})
    store = tmp_path_factory.mktemp("store")
    lsp_client.rec = await initialize(  # type: ignore[attr-defined]
        lsp_client, settings_for("anthropic", fake_llm.url, store))
    yield lsp_client
    await stop_client(lsp_client)


@pytest_asyncio.fixture(loop_scope="module")
async def client(sidecar: Any, llm: Any, workspace: Path) -> Any:
    # The workspace's own agent: it must not apply, the folder being untrusted.
    own = workspace / ".claude" / "agents"
    own.mkdir(parents=True)
    (own / "sneaky.md").write_text("---\nname: sneaky\ndescription: SNEAKY agent\n---\nSNEAKY\n")
    sidecar.rec.reset()
    res = await call(sidecar, "session/new", {"cwd": str(workspace)})
    sidecar.sid = res["sessionId"]
    return sidecar


def is_fixer(request: Any) -> bool:
    return "FIXER-PROMPT" in json.dumps(request.body.get("system") or "")


def task_call(agent: str) -> Reply:
    return Reply(content=[{"type": "tool_use", "id": "task_fix", "name": "Task", "input": {
        "description": "Fix the greeting", "subagent_type": agent,
        "prompt": "In hello.py make hello return 'hello' instead of 'hi'."}}])


async def test_a_users_agent_runs_with_its_tools_and_model_and_asks_through_the_editor(
        client: LanguageClient, llm: Any, workspace: Path) -> None:
    rec = client.rec  # type: ignore[attr-defined]
    fixer_replies = iter([
        Reply.tool_use("Read", {"file_path": "hello.py"}, id="toolu_fix_read"),
        Reply.tool_use("Edit", {"file_path": "hello.py", "old_string": "'hi'",
                                "new_string": "'hello'"}, id="toolu_fix_edit"),
        Reply.text("Changed 'hi' to 'hello' in hello.py."),
    ])
    main_replies = iter([task_call("fixer"), Reply.text("Fixed.")])
    llm.responder = lambda req: next(fixer_replies) if is_fixer(req) else next(main_replies)
    res = await prompt(client, client.sid, "fix the greeting")  # type: ignore[attr-defined]
    assert res["stopReason"] == "end_turn"
    assert "'hello'" in (workspace / "hello.py").read_text()

    fixer = [r for r in llm.requests if is_fixer(r)]
    main = [r for r in llm.requests if not is_fixer(r)]
    assert len(fixer) == 3 and len(main) == 2
    assert {r.body["model"] for r in fixer} == {"claude-haiku-4-5"}
    assert {r.body["model"] for r in main} == {"claude-sonnet-5-5"}
    assert sorted(t["name"] for t in fixer[0].body["tools"]) == ["Edit", "Read"]
    spec = next(t for t in main[0].body["tools"] if t["name"] == "Task")["description"]
    assert "- fixer: Fixes one small thing in a file" in spec and "SNEAKY" not in spec
    # The edit was asked about in the main session, nested under the Task call.
    asked = rec.permission_requests
    assert len(asked) == 1 and asked[0]["sessionId"] == client.sid  # type: ignore[attr-defined]
    assert asked[0]["toolCall"]["toolCallId"] == "toolu_fix_edit"
    assert asked[0]["toolCall"]["_meta"]["sidecar"]["parentToolCallId"] == "task_fix"
    result = [b for b in sent_conversation(main[1])[-1]["content"] if b.get("type") == "tool_result"]
    assert "Changed 'hi' to 'hello'" in json.dumps(result)


async def test_an_unknown_agent_type_is_an_error_naming_the_known_ones(
        client: LanguageClient, llm: Any) -> None:
    main_replies = iter([task_call("sneaky"), Reply.text("I see.")])
    llm.responder = lambda req: next(main_replies)
    res = await prompt(client, client.sid, "use the sneaky agent")  # type: ignore[attr-defined]
    assert res["stopReason"] == "end_turn"
    assert len(llm.requests) == 2  # no subagent ran
    result = next(b for b in sent_conversation(llm.requests[1])[-1]["content"]
                  if b.get("type") == "tool_result")
    assert result.get("is_error") is True
    text = json.dumps(result)
    assert "'sneaky' not found" in text and "general-purpose, fixer" in text
