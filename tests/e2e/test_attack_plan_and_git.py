"""A cloned repository must not make the sidecar run commands: plan mode's unasked shell
commands and the sidecar's own git snapshot, through the real process, over LSP and ACP.

- (a) ``sort -S 1K --compress-program=sh data.txt`` in plan mode: sort pipes its temporary
  chunks through ``sh``, which runs the file's lines (``touch PWNED``); refused now.
- (b) ``git diff`` in plan mode, in a repository whose ``.git/config`` gives a driver of
  ``.gitattributes`` a ``textconv`` script; the script never starts.
- (c) ``cat ../outside/secret.txt`` in plan mode: asks (the client rejects), and the secret
  never reaches the model.
- (d) ``core.fsmonitor`` set to a script: ``session/new`` and a prompt start nothing, and
  the git snapshot is still in the system prompt.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from acp import text_block

from sidecar.fake_llm import Reply
from tests.e2e.acp_client import acp_agent
from tests.e2e.session_client import (
    call,
    initialize,
    prompt,
    settings_for,
    start_client,
    stop_client,
)

pytestmark = [pytest.mark.asyncio(loop_scope="module"),
              pytest.mark.skipif(not Path("/bin/sh").exists(), reason="shell scripts as git helpers")]


class Lsp:
    def __init__(self, client: Any, rec: Any) -> None:
        self.client, self.rec = client, rec

    async def new_session(self, cwd: Path) -> str:
        self.rec.reset()
        self.rec.permission_answer = lambda p: {"outcome": {"outcome": "selected", "optionId": "reject_once"}}
        return str((await call(self.client, "session/new", {"cwd": str(cwd)}))["sessionId"])

    async def plan(self, sid: str) -> None:
        await call(self.client, "session/set_mode", {"sessionId": sid, "modeId": "plan"})

    async def prompt(self, sid: str, text: str) -> None:
        await asyncio.wait_for(prompt(self.client, sid, text), 60)

    def asked(self) -> list[str]:
        return [r["toolCall"]["toolCallId"] for r in self.rec.permission_requests]


class Acp:
    def __init__(self, conn: Any, client: Any) -> None:
        self.conn, self.client = conn, client

    async def new_session(self, cwd: Path) -> str:
        self.client.permission_answer = "reject_once"
        self.client.permission_requests.clear()
        return str((await self.conn.new_session(cwd=str(cwd), mcp_servers=[])).session_id)

    async def plan(self, sid: str) -> None:
        await asyncio.wait_for(self.conn.set_session_mode(session_id=sid, mode_id="plan"), 30)

    async def prompt(self, sid: str, text: str) -> None:
        await asyncio.wait_for(self.conn.prompt(session_id=sid, prompt=[text_block(text)]), 60)

    def asked(self) -> list[str]:
        return [r["toolCall"].tool_call_id for r in self.client.permission_requests]


@pytest_asyncio.fixture(scope="module", loop_scope="module", params=["lsp", "acp"])
async def wire(request: Any, fake_llm: Any, tmp_path_factory: Any) -> Any:
    root = tmp_path_factory.mktemp(request.param)
    if request.param == "lsp":
        client = await start_client()
        rec = await initialize(client, settings_for("anthropic", fake_llm.url, root / "store"))
        yield Lsp(client, rec)
        await stop_client(client)
    else:
        async with acp_agent(root / "store", fake_llm.url, root / "sidecar.log") as (conn, recording, _):
            yield Acp(conn, recording)


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=T", "-c", "user.email=t@example.com", *args], cwd=cwd,
                   check=True, capture_output=True)


def marker_script(folder: Path, marker: Path) -> str:
    script = folder / "helper.sh"
    script.write_text(f"#!/bin/sh\ntouch '{marker}'\nexit 0\n")
    script.chmod(0o755)
    return str(script)


def repository(ws: Path) -> None:
    git(ws, "init", "-q", "-b", "main")
    git(ws, "add", ".")
    git(ws, "commit", "-q", "-m", "first")


def sent(llm: Any) -> str:
    return json.dumps([r.body for r in llm.requests])


def tool_result(llm: Any, tool_id: str) -> str:
    for message in llm.requests[-1].body.get("messages", []):
        for block in message["content"] if isinstance(message["content"], list) else []:
            if block.get("type") == "tool_result" and block.get("tool_use_id") == tool_id:
                content = block["content"]
                return content if isinstance(content, str) else "".join(c.get("text", "") for c in content)
    raise AssertionError(f"no result for {tool_id}")


async def test_plan_mode_sort_cannot_run_a_compress_program(wire: Any, llm: Any, workspace: Path) -> None:
    # (a) sort's temporary chunks go through `sh`: the file's first line would run.
    lines = "".join(f"echo line {i} >/dev/null\n" for i in range(3000))
    (workspace / "data.txt").write_text("touch PWNED\n" + lines)
    sid = await wire.new_session(workspace)
    await wire.plan(sid)
    llm.queue(Reply.tool_use("Bash", {"command": "sort -S 1K --compress-program=sh data.txt"}, id="b1"))
    llm.queue(Reply.text("Sorted."))
    await wire.prompt(sid, "sort the data")
    assert not (workspace / "PWNED").exists()
    result = tool_result(llm, "b1")
    assert "Plan mode is read-only" in result and "`sort --compress-program`" in result
    assert wire.asked() == []


async def test_plan_mode_git_diff_runs_no_textconv(wire: Any, llm: Any, workspace: Path, tmp_path: Path) -> None:
    # (b) a diff driver of .gitattributes, given a textconv script by .git/config.
    marker = tmp_path / "TEXTCONV_RAN"
    (workspace / ".gitattributes").write_text("*.py diff=evil\n")
    repository(workspace)
    git(workspace, "config", "diff.evil.textconv", marker_script(tmp_path, marker))
    (workspace / "hello.py").write_text("def hello():\n    return 'changed'\n")
    sid = await wire.new_session(workspace)
    await wire.plan(sid)
    llm.queue(Reply.tool_use("Bash", {"command": "git diff"}, id="b1"))
    llm.queue(Reply.tool_use("Bash", {"command": "git log -p -1 && git show --stat"}, id="b2"))
    llm.queue(Reply.tool_use("Bash", {"command": "git diff --no-textconv"}, id="b3"))
    llm.queue(Reply.text("Seen."))
    await wire.prompt(sid, "what changed?")
    assert not marker.exists()
    assert wire.asked() == []  # read-only inside the workspace: run unasked
    assert "+    return 'changed'" in tool_result(llm, "b3")


async def test_plan_mode_reading_outside_the_workspace_asks(wire: Any, llm: Any, workspace: Path,
                                                            tmp_path: Path) -> None:
    # (c) the Read tool asks for this path; the shell must not read it unasked.
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("SECRET-7f3a9c\n")
    sid = await wire.new_session(workspace)
    await wire.plan(sid)
    llm.queue(Reply.tool_use("Bash", {"command": "cat ../outside/secret.txt"}, id="b1"))
    llm.queue(Reply.tool_use("Bash", {"command": "cd .. && cat outside/secret.txt"}, id="b2"))
    llm.queue(Reply.text("Could not read it."))
    await wire.prompt(sid, "read the secret")
    assert wire.asked() == ["b1", "b2"]
    assert "Permission denied by the user" in tool_result(llm, "b1")
    assert "SECRET-7f3a9c" not in sent(llm)


async def test_a_repository_fsmonitor_never_runs_and_the_snapshot_stays(wire: Any, llm: Any, workspace: Path,
                                                                        tmp_path: Path) -> None:
    # (d) git status and diff start core.fsmonitor; the snapshot runs both kinds of command.
    marker = tmp_path / "FSMONITOR_RAN"
    repository(workspace)
    git(workspace, "config", "core.fsmonitor", marker_script(tmp_path, marker))
    (workspace / "new.txt").write_text("untracked\n")
    sid = await wire.new_session(workspace)
    llm.queue(Reply.text("Hello."))
    await wire.prompt(sid, "hi")
    assert not marker.exists()
    system = json.dumps(llm.requests[0].body.get("system"))
    assert "gitStatus:" in system and "Current branch: main" in system and "?? new.txt" in system
    await wire.plan(sid)
    llm.queue(Reply.tool_use("Bash", {"command": "git status --short && git diff"}, id="b1"))
    llm.queue(Reply.text("Clean."))
    await wire.prompt(sid, "status?")
    assert not marker.exists()
    assert "?? new.txt" in tool_result(llm, "b1")
