"""The real Claude Code (from npm, against the fake) resumes a transcript the sidecar rewound:
it follows the rewind's branch of the ``parentUuid`` chain and sends the rewound
conversation, not the abandoned one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sidecar.fake_llm import Reply
from tests import claude_code
from tests.e2e.session_client import call, initialize, prompt, settings_for, start_client, stop_client

pytestmark = pytest.mark.asyncio


@pytest.fixture(scope="module")
def claude_binary() -> Path:
    try:
        return claude_code.install()
    except claude_code.ClaudeCodeUnavailable as exc:
        pytest.skip(f"Claude Code cannot be installed here: {exc}")


async def test_claude_code_resumes_the_rewound_conversation(
        claude_binary: Path, llm: Any, tmp_path: Path) -> None:
    home = tmp_path / "home"
    workspace = tmp_path / "ws"
    workspace.mkdir()
    # The sidecar's transcripts where Claude Code keeps its own.
    store = home / ".claude"
    client = await start_client()
    try:
        await initialize(client, settings_for("anthropic", llm.url, store))
        sid = (await call(client, "session/new", {"cwd": str(workspace)}))["sessionId"]
        llm.queue(Reply.text("The kept answer."))
        await prompt(client, sid, "the kept question")
        llm.queue(Reply.text("The abandoned answer."))
        abandoned = await prompt(client, sid, "the abandoned question")
        await call(client, "sidecar/rewind", {"sessionId": sid, "restore": "conversation",
                                              "checkpointId": abandoned["checkpointId"]})
    finally:
        await stop_client(client)

    llm.reset()
    run = claude_code.run(claude_binary, ["-p", "the next question", "--resume", sid,
                                          "--model", "claude-sonnet-4-5"],
                          cwd=workspace, home=home, base_url=llm.url, timeout=180)
    assert run.returncode == 0, run.stderr[-2000:]
    main = [r for r in llm.requests if r.body.get("tools")]
    assert main, [r.body.get("messages") for r in llm.requests]
    sent = json.dumps(main[0].body["messages"])
    assert "the kept question" in sent and "The kept answer." in sent
    assert "the next question" in sent
    assert "abandoned" not in sent
