"""Everything a session set up survives three compactions, over every transport the clients
speak: LSP (the VS Code and Neovim clients speak it to the same server) and ACP (ACP
editors); and once through the terminal client itself, typed into as a user would.

Through the real sidecar process and the strict fake, a session in a workspace with a skill
and two MCP servers (the test tree's probe server and the reference 'everything' server from
npm) enters plan mode with /plan; the model writes its plan and leaves plan mode (approved),
loads the skill, calls one tool of each server (allowed) and reads a file. Then come three
compactions: /compact, ``sidecar/compact`` and an automatic one. The first model request
after each must carry the skill's content, the plan, the MCP re-announcement naming both
servers' tools and both servers' tool specs, each within its budget; the fake's invariant
checker (rules 6 and 7) holds every request to the same and must find nothing. The test
prints what each re-injection cost, in tokens as the fake counts them.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import sys
import time
from collections import deque
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from acp import text_block

from sidecar.core.permissions.plan import PLAN_FILE_INTRO
from sidecar.core.workspace.skills import INVOKED_SKILL_MARK, LISTING_HEADER
from sidecar.fake_llm import Reply, default_reply
from sidecar.fake_llm.counting import count_text
from sidecar.fake_llm.invariants import BUDGET_TOLERANCE
from sidecar.mcp.announce import REANNOUNCE_MARK, REANNOUNCE_TOKENS, REANNOUNCE_WINDOW_DIVISOR
from sidecar.storage.paths import project_dir
from tests.e2e.acp_client import acp_agent
from tests.e2e.session_client import (
    call,
    initialize,
    prompt,
    settings_for,
    start_client,
    stop_client,
)
from tests.e2e.test_terminal import ChatProcess, chat_env
from tests.mcp_servers.helpers import (
    REPO,
    NpmUnavailable,
    everything_server,
    probe_stdio,
    write_mcp_json,
)

pytestmark = pytest.mark.asyncio

WINDOW = 60_000  # effective 40,000; auto-compact at 27,000
SETTINGS: dict[str, Any] = {
    "contextWindow": WINDOW,
    "compactionBackend": "local",
    # The sidecar's own compactions must fire, not the provider's clearing.
    "apiContextManagement": {"enabled": False},
    "mcp": {"toolTimeoutSeconds": 20, "startupTimeoutSeconds": 60, "maxRestarts": 2},
}
SKILL = "checklist"
SKILL_RULE = "Every change names the test that covers it."
PLAN_STEP = "Step 3: rename hello() to greet() and keep an alias."
PLAN = f"# Plan\n1. Read hello.py.\n2. Find its callers.\n3. {PLAN_STEP}\n4. Run the tests.\n"
FILE_MARKS = ("(read before the summary, unchanged since)",
              "These files were read before the summary but are too large")
SERVERS = ("probe", "everything")


def make_workspace(ws: Path, command: list[str]) -> None:
    folder = ws / ".claude" / "skills" / SKILL
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(
        f"---\nname: {SKILL}\ndescription: The team's review checklist\n---\n# Checklist\n"
        f"{SKILL_RULE}\n" + "".join(f"- Check item {i} before merging.\n" for i in range(30)))
    write_mcp_json(ws, {"probe": probe_stdio(),
                        "everything": {"command": command[0], "args": command[1:]}})
    # Something for each requested compaction to summarize away; and three files large
    # enough that reading them fills the window to its auto-compact threshold.
    for n in (1, 2):
        (ws / f"notes{n}.py").write_text("".join(f"NOTE_{n}_{j} = 'remember item {j}'\n" for j in range(600)))
    for i in range(3):
        (ws / f"big{i}.py").write_text("".join(f"VALUE_{i}_{j} = 'keep item {j}'\n" for j in range(600)))


class Script:
    """The model's part: scripted replies for the conversation's own requests; summaries and
    session memory from the fake's defaults."""

    def __init__(self) -> None:
        self.pending: deque[Reply | Callable[[Any], Reply]] = deque()

    def __call__(self, request: Any) -> Reply:
        if request.call == "main" and self.pending:
            reply = self.pending.popleft()
            return reply(request) if callable(reply) else reply
        return default_reply(request)

    def then(self, *replies: Reply | Callable[[Any], Reply]) -> None:
        self.pending.extend(replies)


def plan_file_named(request: Any) -> Path:
    """The plan file, as plan mode's reminder in the request names it to the model."""
    for text in user_texts(request.body):
        if PLAN_FILE_INTRO in text:
            named = text.split(PLAN_FILE_INTRO, 1)[1]
            return Path(named.split(" and it exists already", 1)[0].split("; it does not exist yet", 1)[0])
    raise AssertionError("plan mode's reminder is not in the request")


class Driver:
    """One transport's way to prompt, compact and answer permission questions."""

    plan_file: Path | None = None  # None: the client does not know it
    prompt: Callable[[str], Awaitable[Any]]
    compact: Callable[[], Awaitable[Any]]
    answer: Callable[[str], None]
    servers_connected: Callable[[], Awaitable[None]]


def user_texts(body: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for m in body["messages"]:
        if m["role"] == "user" and isinstance(m["content"], list):
            out.extend(b.get("text", "") for b in m["content"] if b.get("type") == "text")
    return out


def tool_results(body: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {b["tool_use_id"]: b for m in body["messages"] if isinstance(m["content"], list)
            for b in m["content"] if b.get("type") == "tool_result"}


def result_text(block: dict[str, Any]) -> str:
    content = block.get("content")
    return content if isinstance(content, str) else "".join(c.get("text", "") for c in content or [])


async def run_scenario(llm: Any, drive: Driver, label: str) -> list[dict[str, Any]]:
    """The scenario over one transport; returns what each compaction put back."""
    script = Script()
    llm.responder = script
    await drive.servers_connected()
    await drive.prompt("/plan")
    drive.answer("accept_edits")
    named: list[Path] = []

    def write_plan(request: Any) -> Reply:
        named.append(plan_file_named(request))
        return Reply.tool_use("Write", {"file_path": str(named[0]), "content": PLAN}, id="toolu_w1")

    script.then(write_plan,
                Reply.tool_use("ExitPlanMode", {}, id="toolu_x1"),
                Reply.text("The plan is approved."))
    await drive.prompt("plan the rename of hello()")
    results = tool_results(llm.requests[-1].body)
    assert "approved" in result_text(results["toolu_x1"]), results
    plan_file = named[0]
    assert drive.plan_file in (None, plan_file), (drive.plan_file, plan_file)
    assert plan_file.read_text() == PLAN
    drive.answer("allow_once")
    script.then(Reply.tool_use("Skill", {"skill": SKILL}, id="toolu_s1"), Reply.text("Loaded."))
    await drive.prompt("use the checklist")
    script.then(Reply.tool_use("mcp__probe__echo", {"text": "carried"}, id="toolu_p1"),
                Reply.tool_use("mcp__everything__echo", {"message": "carried too"}, id="toolu_e1"),
                Reply.tool_use("Read", {"file_path": "hello.py"}, id="toolu_r1"),
                Reply.text("Both servers answered."))
    await drive.prompt("call both servers and read hello.py")
    results = tool_results(llm.requests[-1].body)
    assert "echo: carried" in result_text(results["toolu_p1"]), results["toolu_p1"]
    assert "carried too" in result_text(results["toolu_e1"]), results["toolu_e1"]
    assert not any(r.get("is_error") for r in results.values()), results
    offered = [t["name"] for t in llm.requests[-1].body["tools"]]
    mcp_tools = {s: [n for n in offered if n.startswith(f"mcp__{s}__")] for s in SERVERS}
    assert all(mcp_tools.values()), mcp_tools

    main_before = llm.checker.reinjections[:]
    # 1: /compact typed by the user; 2: the client's compact request.
    for n, how in ((1, "command"), (2, "request")):
        script.then(Reply.tool_use("Read", {"file_path": f"notes{n}.py"}, id=f"toolu_n{n}"),
                    Reply.text("Noted."))
        await drive.prompt(f"read notes{n}.py")
        if how == "command":
            await drive.prompt("/compact")
        else:
            await drive.compact()
        script.then(Reply.text(f"Carrying on after compaction {n}."))
        await drive.prompt(f"carry on {n}")
    # 3: automatic, when reading three large files fills the window.
    script.then(*[Reply.tool_use("Read", {"file_path": f"big{i}.py"}, id=f"toolu_b{i}") for i in range(3)],
                Reply.text("Read them all."))
    await drive.prompt("read the three big files")
    script.then(Reply.text("Carrying on after compaction 3."))
    await drive.prompt("carry on 3")

    carried = [r for r in llm.checker.reinjections if r not in main_before]
    assert len(carried) == 3, [(r.index, r.call, r.input_tokens, r.headers.get("x-context-sidecar-epoch"))
                               for r in llm.requests]
    # The third came by itself, before the turn that filled the window went on.
    assert any(r.call == "memory" or r.call == "summary" for r in llm.requests
               if carried[1]["index"] < r.index < carried[2]["index"])
    requests = {r.index: r for r in llm.requests}
    rows = []
    for n, seen in enumerate(carried, 1):
        body = requests[seen["index"]].body
        texts = user_texts(body)
        joined = "\n".join(texts)
        # The skill's content, the plan, both servers' tools in the re-announcement and in
        # the tools the request offers.
        assert seen["skills"]["names"] == [SKILL] and SKILL_RULE in joined, n
        assert seen["plan"]["names"] == [str(plan_file)] and PLAN_STEP in joined, n
        announce = [t for t in texts if REANNOUNCE_MARK in t]
        assert len(announce) == 1, n
        names = [t["name"] for t in body["tools"]]
        for server, tools in mcp_tools.items():
            assert all(tool in announce[0] for tool in tools), (n, server)
            assert all(tool in names for tool in tools), (n, server)
        # Each within its budget.
        for kind in ("skills", "plan"):
            assert 0 < seen[kind]["tokens"] <= seen[kind]["budget"] * BUDGET_TOLERANCE, (n, kind, seen[kind])
        announce_tokens = count_text(announce[0])
        announce_budget = min(REANNOUNCE_TOKENS, WINDOW // REANNOUNCE_WINDOW_DIVISOR)
        assert announce_tokens <= announce_budget * BUDGET_TOLERANCE, (n, announce_tokens)
        files = sum(count_text(t) for t in texts if any(m in t for m in FILE_MARKS))
        listing = sum(count_text(t) for t in texts if LISTING_HEADER in t)
        specs = {s: count_text(str([t for t in body["tools"] if t["name"] in tools]))
                 for s, tools in mcp_tools.items()}
        rows.append({"compaction": n, "skills": seen["skills"]["tokens"], "skillBudget": seen["skills"]["budget"],
                     "plan": seen["plan"]["tokens"], "planBudget": seen["plan"]["budget"],
                     "mcpReannounce": announce_tokens, "mcpBudget": announce_budget, "files": files, "skillListing": listing,
                     "toolSpecs": specs})
        assert INVOKED_SKILL_MARK + SKILL in joined
    assert not llm.violations, llm.violations
    print(f"\nre-injection after each compaction ({label}, tokens as the fake counts them):",
          file=sys.stderr)
    for row in rows:
        print(f"  {row}", file=sys.stderr)
    return rows


def everything_or_skip() -> list[str]:
    try:
        return everything_server()
    except NpmUnavailable as exc:
        pytest.skip(str(exc))


async def test_over_lsp(llm: Any, workspace: Path, tmp_path: Path) -> None:
    make_workspace(workspace, await asyncio.to_thread(everything_or_skip))
    store = tmp_path / "store"
    client = await start_client({**os.environ, "PROBE_ROOT": str(REPO)})
    try:
        rec = await initialize(client, settings_for("anthropic", llm.url, store, **SETTINGS))
        sid = str((await call(client, "session/new", {"cwd": str(workspace)}))["sessionId"])

        async def connected() -> None:
            def both() -> bool:
                updates = rec.of("mcp_status_update")
                status = {s["name"]: s["status"] for s in updates[-1]["servers"]} if updates else {}
                return all(status.get(s) == "connected" for s in SERVERS)
            await rec.wait_for(both, 90)

        def answer(option: str) -> None:
            rec.permission_answer = lambda p: {"outcome": {"outcome": "selected", "optionId": option}}

        drive = Driver()
        drive.plan_file = project_dir(store, str(workspace)) / sid / "plan.md"
        drive.prompt = lambda text: prompt(client, sid, text)
        drive.compact = lambda: call(client, "sidecar/compact", {"sessionId": sid})
        drive.answer = answer
        drive.servers_connected = connected
        await run_scenario(llm, drive, "LSP")
        gauge = await call(client, "sidecar/gauge", {"sessionId": sid})
        assert sum(gauge["compactions"].values()) == 3, gauge["compactions"]
        print(f"  compactions by tier: {gauge['compactions']}", file=sys.stderr)
        await call(client, "session/close", {"sessionId": sid})
    finally:
        await stop_client(client)


async def test_over_acp(llm: Any, workspace: Path, tmp_path: Path, monkeypatch: Any) -> None:
    make_workspace(workspace, await asyncio.to_thread(everything_or_skip))
    monkeypatch.setenv("PROBE_ROOT", str(REPO))
    store = tmp_path / "store"
    async with acp_agent(store, llm.url, tmp_path / "sidecar.log", meta={"mcpStatusUpdates": True},
                         settings=SETTINGS) as (conn, client, _):
        sid = (await conn.new_session(cwd=str(workspace), mcp_servers=[])).session_id

        async def connected() -> None:
            def both() -> bool:
                updates = client.mcp_status(sid)
                status = {s["name"]: s["status"] for s in updates[-1]} if updates else {}
                return all(status.get(s) == "connected" for s in SERVERS)
            await client.wait_for(both, 90)

        def answer(option: str) -> None:
            client.permission_answer = option

        drive = Driver()
        drive.plan_file = project_dir(store, str(workspace)) / sid / "plan.md"
        drive.prompt = lambda text: asyncio.wait_for(
            conn.prompt(session_id=sid, prompt=[text_block(text)]), 60)
        drive.compact = lambda: asyncio.wait_for(conn.ext_method("sidecar/compact", {"sessionId": sid}), 60)
        drive.answer = answer
        drive.servers_connected = connected
        await run_scenario(llm, drive, "ACP")


class Terminal:
    """The terminal client behind pipes: each line waits for the next prompt, answering
    every permission question with its first option (allow, or leave plan mode accepting
    edits)."""

    QUESTION = "  [y] "
    NEVER = "\x00"  # never printed
    PROMPT = re.compile(r"\[ctx [^\]\n]*\]( [a-zA-Z]+)?> ")

    def __init__(self, chat: Any) -> None:
        self.chat = chat
        self.answered = 0

    def line(self, text: str, timeout: float = 45) -> None:
        prompts = len(self.PROMPT.findall(self.chat.out))
        self.chat.send(text)
        deadline = time.monotonic() + timeout
        while len(self.PROMPT.findall(self.chat.out)) <= prompts:
            if time.monotonic() > deadline:
                raise AssertionError(f"no prompt after {text!r}; output so far:\n{self.chat.out[-3000:]}")
            if self.chat.out.count(self.QUESTION) > self.answered:
                self.answered += 1
                self.chat.send("y")
            try:
                self.chat.wait_for("\\x00never", timeout=0.2)
            except AssertionError:
                pass


async def test_through_the_terminal_client(llm: Any, tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "hello.py").write_text("def hello():\n    return 'hi'\n")
    make_workspace(ws, await asyncio.to_thread(everything_or_skip))
    env = chat_env(tmp_path, llm.url)
    env["PROBE_ROOT"] = str(REPO)
    # The user trusts this workspace's servers (the approval question itself is tested in
    # test_mcp_trust.py; the LSP and ACP clients here answer it).
    env["CONTEXT_SIDECAR_SETTINGS"] = json.dumps({**json.loads(env["CONTEXT_SIDECAR_SETTINGS"]), **SETTINGS,
                                                  "mcp": {**SETTINGS["mcp"], "trustWorkspaceServers": True}})
    chat = ChatProcess(ws, env)
    try:
        await asyncio.to_thread(chat.wait_for, "]> ")
        await asyncio.to_thread(chat.wait_for, "mcp: probe connected", 90)
        await asyncio.to_thread(chat.wait_for, "mcp: everything connected", 90)
        terminal = Terminal(chat)

        async def line(text: str) -> None:
            await asyncio.to_thread(terminal.line, text)

        async def nothing() -> None:
            return None

        drive = Driver()
        drive.prompt = line
        drive.compact = lambda: line("/compact")
        drive.answer = lambda option: None
        drive.servers_connected = nothing
        await run_scenario(llm, drive, "terminal")
        assert await asyncio.to_thread(chat.finish) == 0, chat.out[-3000:]
    finally:
        if chat.proc.poll() is None:
            chat.proc.kill()
