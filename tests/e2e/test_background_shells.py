"""Background shells through the real sidecar and the strict fake: the model starts a command
with Bash's run_in_background, reads it twice with BashOutput and ends it with KillBash; and
a shell left running ends with the sidecar however the sidecar ends (LSP shutdown, end of
input, kill -9, the end of an ACP connection). Processes are found by a marker in their
command line and by their process group, in /proc."""

from __future__ import annotations

import asyncio
import os
import re
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from sidecar.fake_llm import Reply
from tests.e2e.acp_client import acp_agent
from tests.e2e.session_client import (
    call,
    initialize,
    prompt,
    sent_conversation,
    settings_for,
    start_client,
    stop_client,
)

pytestmark = [pytest.mark.asyncio(loop_scope="module"),
              pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")]


def living(marker: str, pgid: int) -> list[str]:
    """Processes (not zombies) whose command line holds ``marker`` or that are in group ``pgid``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue  # gone meanwhile
        state, _ppid, pgrp = stat.rsplit(")", 1)[1].split()[:3]
        if state != "Z" and (marker in cmdline or int(pgrp) == pgid):
            found.append(f"{entry} [{state}] {cmdline.strip()}")
    return found


async def all_gone(marker: str, pgid: int, within: float = 10.0) -> list[str]:
    """What still lives after ``within`` seconds ([] as soon as nothing does)."""
    deadline = time.monotonic() + within
    while (left := living(marker, pgid)) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    return left


async def wait_for_pid(path: Path, within: float = 10.0) -> int:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if path.exists() and path.read_text().strip():
            return int(path.read_text())
        await asyncio.sleep(0.05)
    raise AssertionError(f"{path} never appeared")


async def end_client(client: Any) -> None:
    """Stop the client and its sidecar; a sidecar left between shutdown and exit by a failed
    check is killed rather than waited for."""
    server = client._server
    try:
        await asyncio.wait_for(stop_client(client), 20)
    except asyncio.TimeoutError:
        if server is not None and server.returncode is None:
            server.kill()
            await server.wait()


def ticking(marker: str) -> str:
    """A command that prints a numbered line every 0.1 s until stopped, with a child that
    would sleep 100 s, and writes its group's id (its own pid) to ``<marker>.pid``."""
    return (f"echo $$ > {marker}.pid; sleep 100 & i=0; "
            f"while :; do i=$((i+1)); echo tick-$i; sleep 0.1; done")


def results_by_id(request: Any) -> dict[str, dict[str, Any]]:
    return {b["tool_use_id"]: b for m in sent_conversation(request) if isinstance(m["content"], list)
            for b in m["content"] if b.get("type") == "tool_result"}


def text_of(block: dict[str, Any]) -> str:
    content = block["content"]
    return content if isinstance(content, str) else "".join(c.get("text", "") for c in content)


def ticks(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"^tick-(\d+)$", text, re.MULTILINE)]


async def test_read_twice_then_killed(sidecars: Any, llm: Any, workspace: Path) -> None:
    marker = f"bgshell-{uuid.uuid4().hex[:12]}"
    client = await sidecars.session(workspace)
    sid, rec = client.sid, client.rec
    pgid = -1
    try:
        # The pauses between a reply's events let the shell print before each read.
        llm.queue_many([
            Reply.tool_use("Bash", {"command": ticking(marker), "run_in_background": True,
                                    "description": "Tick in the background"}, id="toolu_bg"),
            Reply(content=[{"type": "tool_use", "id": "toolu_out1", "name": "BashOutput",
                            "input": {"bash_id": "bash_1"}}], chunk_delay_ms=100),
            Reply(content=[{"type": "tool_use", "id": "toolu_out2", "name": "BashOutput",
                            "input": {"bash_id": "bash_1"}}], chunk_delay_ms=100),
            Reply.tool_use("KillBash", {"shell_id": "bash_1"}, id="toolu_kill"),
            Reply.text("Stopped the ticker."),
        ])
        began = time.monotonic()
        res = await prompt(client, sid, "start a ticker, look at it twice, then stop it")
        assert res["stopReason"] == "end_turn"
        assert time.monotonic() - began < 30  # the background command never held the turn up
        pgid = await wait_for_pid(workspace / f"{marker}.pid")

        # Only the command itself was asked about.
        asked = [r["toolCall"]["rawInput"] for r in rec.permission_requests]
        assert asked == [{"command": ticking(marker), "run_in_background": True,
                          "description": "Tick in the background"}]

        # What reached the model: each request carries the results before it.
        started = results_by_id(llm.requests[1])["toolu_bg"]
        assert text_of(started) == "Command running in background with ID: bash_1"
        assert not started.get("is_error")
        first = text_of(results_by_id(llm.requests[2])["toolu_out1"])
        second = text_of(results_by_id(llm.requests[3])["toolu_out2"])
        killed = results_by_id(llm.requests[4])["toolu_kill"]
        assert first.startswith("<status>running</status>\n\n<output>\n"), first
        assert second.startswith("<status>running</status>\n\n<output>\n"), second
        seen1, seen2 = ticks(first), ticks(second)
        # The first read starts at the first line; the second goes on where it stopped.
        assert seen1 and seen1 == list(range(1, len(seen1) + 1)), first
        assert seen2 and seen2 == list(range(seen1[-1] + 1, seen1[-1] + 1 + len(seen2))), second
        assert text_of(killed).startswith("Killed background shell bash_1 (echo $$ > "), text_of(killed)
        assert not killed.get("is_error")
        # KillBash ended the whole group, the sleeping child too, before the answer.
        assert await all_gone(marker, pgid, within=3) == []
        kinds = {u["toolCallId"]: u["kind"] for u in rec.of("tool_call")}
        assert kinds == {"toolu_bg": "execute", "toolu_out1": "read", "toolu_out2": "read",
                         "toolu_kill": "execute"}
    finally:
        await call(client, "session/close", {"sessionId": sid})
    assert await all_gone(marker, pgid) == []


@pytest.mark.parametrize("end", ["shutdown", "end of input", "kill -9", "session/close", "/clear"])
async def test_a_shell_left_running_ends_with_its_session_or_the_sidecar(
        sidecars: Any, llm: Any, tmp_path: Path, workspace: Path, end: str) -> None:
    marker = f"bgshell-{uuid.uuid4().hex[:12]}"
    # The ends that leave the sidecar running take the module's shared one.
    shared = end in ("session/close", "/clear")
    client = await sidecars.session(workspace) if shared else await start_client()
    pgid = -1
    try:
        if shared:
            sid = client.sid
        else:
            await initialize(client, settings_for("anthropic", llm.url, tmp_path / "store"))
            sid = (await call(client, "session/new", {"cwd": str(workspace)}))["sessionId"]
        llm.queue_many([Reply.tool_use("Bash", {"command": ticking(marker), "run_in_background": True},
                                       id="toolu_bg"),
                        Reply.text("It is ticking.")])
        await prompt(client, sid, "start a ticker and leave it running")
        pgid = await wait_for_pid(workspace / f"{marker}.pid")
        await asyncio.sleep(0.3)  # the child has started
        assert len(living(marker, pgid)) >= 2  # the shell and its sleeping child at least
        server = client._server
        assert server is not None
        if end == "shutdown":
            await client.shutdown_async(None)
            # Ended while shutting down, before the sidecar exits (no watchdog needed).
            assert living(marker, pgid) == []
            client.exit(None)
            await asyncio.wait_for(server.wait(), 15)
        elif end == "end of input":
            assert server.stdin is not None
            server.stdin.close()
            await asyncio.wait_for(server.wait(), 15)
        elif end == "kill -9":
            server.kill()  # no shutdown at all: the watchdog ends the group
            await asyncio.wait_for(server.wait(), 15)
        elif end == "session/close":
            await call(client, "session/close", {"sessionId": sid})
            assert living(marker, pgid) == []
        else:
            await prompt(client, sid, "/clear")
            assert living(marker, pgid) == []
            # The fresh conversation's shells are numbered anew, and the old one is unknown.
            llm.queue_many([Reply.tool_use("BashOutput", {"bash_id": "bash_1"}, id="toolu_old"),
                            Reply.text("Gone.")])
            await prompt(client, sid, "look at the old ticker")
            old = results_by_id(llm.requests[-1])["toolu_old"]
            assert old.get("is_error")
            assert "This session has started no background shell." in text_of(old)
    finally:
        if not shared:
            await end_client(client)
    assert await all_gone(marker, pgid) == []


async def test_a_shell_left_running_ends_with_an_acp_connection(
        fake_llm: Any, llm: Any, tmp_path: Path, workspace: Path) -> None:
    from acp import text_block

    marker = f"bgshell-{uuid.uuid4().hex[:12]}"
    pgid = -1
    async with acp_agent(tmp_path / "store", fake_llm.url, tmp_path / "sidecar.log") as (conn, client, _):
        sid = (await conn.new_session(cwd=str(workspace), mcp_servers=[])).session_id
        llm.queue_many([Reply.tool_use("Bash", {"command": ticking(marker), "run_in_background": True},
                                       id="toolu_bg"),
                        Reply.text("It is ticking.")])
        await asyncio.wait_for(conn.prompt(session_id=sid, prompt=[text_block("start a ticker")]), 30)
        pgid = await wait_for_pid(workspace / f"{marker}.pid")
        assert living(marker, pgid)
        assert len(client.permission_requests) == 1
    assert await all_gone(marker, pgid) == []
