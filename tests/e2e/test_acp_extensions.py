"""What ACP has no update kind for reaches an ACP client in the kinds it has.

Before, a 529 answered on the first model call made the sidecar send ``retry_update``,
which the official schema (and so acpx, on the TypeScript SDK) refuses with -32602; hook
output, MCP status and compaction progress travelled the same way. Every message here is
judged by the schema (tests/acp_conformance.py), so such a kind fails the test.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from acp import text_block

from sidecar.fake_llm import Reply
from tests.e2e.acp_client import acp_agent


def meta(update: dict[str, Any], key: str) -> Any:
    return ((update.get("_meta") or {}).get("sidecar") or {}).get(key)


async def test_retries_hooks_and_compactions_arrive_as_standard_kinds(
        llm: Any, tmp_path: Path, workspace: Path) -> None:
    (workspace / ".claude").mkdir()
    (workspace / ".claude" / "settings.json").write_text(json.dumps({"hooks": {
        "SessionStart": [{"hooks": [{"type": "command", "command": "echo from the hook"}]}]}}))
    async with acp_agent(tmp_path / "store", llm.url, tmp_path / "acp.log",
                         settings={"hooks": {"trustWorkspace": True}}) as (conn, client, _):
        sid = (await conn.new_session(cwd=str(workspace), mcp_servers=[])).session_id
        llm.queue(Reply.failure("overloaded"))
        llm.queue(Reply.text("answered after a retry. " + "Some long explanation. " * 3000))
        result = await asyncio.wait_for(conn.prompt(session_id=sid, prompt=[text_block("hello")]), 30)
        assert result.stop_reason == "end_turn"
        kinds = {u["sessionUpdate"] for u in client.updates(sid)}
        assert not kinds & {"retry_update", "hook_result", "mcp_status_update", "compaction_update"}
        # The retry, as thought every client shows, with its fields for clients that know them.
        retries = [u for u in client.updates(sid, "agent_thought_chunk") if meta(u, "retry")]
        assert retries and "Retrying the model call" in retries[0]["content"]["text"]
        assert meta(retries[0], "retry")["status"] == 529
        # The hook, as a finished shell command.
        hooks = [u for u in client.updates(sid, "tool_call") if meta(u, "hookResult")]
        assert [h["title"] for h in hooks] == ["SessionStart hook: echo from the hook"]
        assert hooks[0]["kind"] == "execute" and hooks[0]["status"] == "completed"
        assert "from the hook" in hooks[0]["content"][0]["content"]["text"]
        # A compaction, as a tool call and its update.
        llm.queue(Reply.text("<summary>the summary</summary>"))
        await asyncio.wait_for(conn.prompt(session_id=sid, prompt=[text_block("/compact")]), 30)
        started = [u for u in client.updates(sid, "tool_call") if meta(u, "compaction")]
        assert started and started[0]["kind"] == "think"
        done = [u for u in client.updates(sid, "tool_call_update")
                if u["toolCallId"] == started[0]["toolCallId"]]
        assert done and done[-1]["status"] == "completed"
        assert "Context compacted" in done[-1]["content"][0]["content"]["text"]
        print(f"\nACP messages checked against the schema on this connection: "
              f"{client.conformance.checked}")


async def test_the_model_is_a_session_config_option(llm: Any, tmp_path: Path, workspace: Path) -> None:
    async with acp_agent(tmp_path / "store", llm.url, tmp_path / "acp.log") as (conn, client, _):
        opened = await conn.new_session(cwd=str(workspace), mcp_servers=[])
        sid = opened.session_id
        [option] = opened.config_options
        assert option.id == "model" and option.category == "model"
        assert option.current_value == "claude-sonnet-5-5"
        assert "claude-opus-5-5" in [o.value for o in option.options]
        answer = await conn.set_config_option(config_id="model", session_id=sid, value="claude-opus-5-5")
        assert answer.config_options[0].current_value == "claude-opus-5-5"
        llm.queue(Reply.text("hi"))
        await asyncio.wait_for(conn.prompt(session_id=sid, prompt=[text_block("hello")]), 30)
        assert llm.requests[-1].body["model"] == "claude-opus-5-5"
        # A change made in the chat reaches the client's picker.
        await asyncio.wait_for(conn.prompt(session_id=sid, prompt=[text_block("/model claude-haiku-5-5")]), 30)
        updates = client.updates(sid, "config_option_update")
        assert updates and updates[-1]["configOptions"][0]["currentValue"] == "claude-haiku-5-5"
        resumed = await conn.resume_session(session_id=sid, cwd=str(workspace), mcp_servers=[])
        assert resumed.config_options[0].current_value == "claude-haiku-5-5"
