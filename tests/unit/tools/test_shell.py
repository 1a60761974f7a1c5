from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path
from typing import Any

import pytest

from sidecar.tools.shell import (
    PERMISSION_CANCELLED,
    PERMISSION_DENIED,
    BashTool,
    OutputCollector,
    allowed_by_prefix,
)

bash = BashTool()


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (exited, not yet reaped by its new parent) counts as gone.
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ", 1)[1][0] != "Z"
    except OSError:
        return True


async def wait_gone(pid: int, within: float = 3.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not pid_alive(pid):
            return True
        await asyncio.sleep(0.05)
    return False


def test_allow_prefixes() -> None:
    allow = ("git status", "Bash(npm test:*)", "ls")
    assert allowed_by_prefix("git status", allow)
    assert allowed_by_prefix("git status --short", allow)
    assert allowed_by_prefix("npm test -- -k x", allow)
    assert not allowed_by_prefix("git statusx", allow)
    assert not allowed_by_prefix("lsblk", allow)
    # Chaining or substitution after an allowed prefix still needs permission.
    for cmd in (
        "git status; rm -rf x",
        "ls && curl x",
        "ls | sh",
        "ls $(rm x)",
        "ls `rm x`",
        "ls > f",
    ):
        assert not allowed_by_prefix(cmd, allow), cmd
    assert not allowed_by_prefix("anything", ("*",))


async def test_runs_in_first_root_and_reports_exit_code(ws: Path, ctx: Any) -> None:
    outcome = await bash.run({"command": "pwd; echo err >&2"}, ctx)
    assert not outcome.is_error
    assert outcome.content == f"{os.path.realpath(ws)}\nerr"  # success says no exit code
    assert ctx.asked == [("Bash", "pwd; echo err >&2", {"command": "pwd; echo err >&2"})]
    failed = await bash.run({"command": "exit 3", "description": "Fail on purpose"}, ctx)
    assert failed.is_error and failed.content.endswith("Exit code: 3")
    assert failed.raw_output["exitCode"] == 3
    assert ctx.asked[-1][1] == "Fail on purpose"


async def test_allow_listed_command_skips_permission(ctx: Any) -> None:
    ctx.with_tools(allow=("echo",))
    ctx.permission = "reject_once"
    outcome = await bash.run({"command": "echo hi"}, ctx)
    assert not outcome.is_error and outcome.content == "hi"
    assert ctx.asked == []


@pytest.mark.parametrize(
    "answer,message",
    [
        ("reject_once", PERMISSION_DENIED),
        ("reject_always", PERMISSION_DENIED),
        ("cancelled", PERMISSION_CANCELLED),
    ],
)
async def test_refused_permission_runs_nothing(
    ws: Path, ctx: Any, answer: str, message: str
) -> None:
    ctx.permission = answer
    outcome = await bash.run({"command": "touch ran.txt"}, ctx)
    assert outcome.is_error and outcome.content == message
    assert outcome.raw_output["permission"] == answer
    assert not (ws / "ran.txt").exists()


async def test_allow_always_runs(ws: Path, ctx: Any) -> None:
    ctx.permission = "allow_always"
    outcome = await bash.run({"command": "touch ran.txt"}, ctx)
    assert not outcome.is_error and (ws / "ran.txt").exists()


async def test_output_cap_keeps_head_and_tail(ctx: Any) -> None:
    ctx.with_tools(shellOutputChars=1000)
    outcome = await bash.run(
        {"command": "echo START; yes 0123456789 | head -n 2000; echo END"}, ctx
    )
    text = outcome.content
    assert text.startswith("START\n") and "0123456789\nEND\n[Output was" in text
    assert text.endswith("the middle was cut.]")
    total = len("START\n") + 2000 * 11 + len("END\n")
    cut = total - 1000
    assert f"[{cut} characters of output cut]" in text
    assert f"[Output was {cut} characters too long; the middle was cut.]" in text
    assert outcome.raw_output["cutChars"] == cut
    assert len(text) < 1300


def test_collector_drops_middle_of_huge_output() -> None:
    collector = OutputCollector(10)
    collector.feed(b"HEAD" + b"x" * 100_000 + b"TAIL")
    text, cut = collector.render()
    assert text.startswith("HEADx") and text.endswith("xTAIL")
    assert cut == 100_008 - 10
    assert len(collector.tail) <= 80


async def test_timeout_stops_the_command(ctx: Any) -> None:
    started = time.monotonic()
    outcome = await bash.run({"command": "echo begun; sleep 20", "timeout": 300}, ctx)
    assert time.monotonic() - started < 3
    assert outcome.is_error and outcome.raw_output["timedOut"] is True
    assert "begun" in outcome.content and "timed out after 0.3 s" in outcome.content


async def test_cancel_kills_the_whole_group_quickly(ws: Path, ctx: Any) -> None:
    cancelled_at: list[float] = []

    async def cancel_once_started() -> None:
        # On a loaded machine the shell may take seconds to start: cancel once it has.
        for _ in range(1_000):
            if (ws / "bg.pid").exists():
                break
            await asyncio.sleep(0.02)
        cancelled_at.append(time.monotonic())
        ctx.cancelled.set()

    canceller = asyncio.create_task(cancel_once_started())
    outcome = await bash.run({"command": "sleep 30 & echo $! > bg.pid; sleep 30"}, ctx)
    stopped_in = time.monotonic() - cancelled_at[0]
    await canceller
    assert stopped_in < 3
    assert outcome.is_error and outcome.raw_output["cancelled"] is True
    assert "cancelled by the user" in outcome.content
    assert await wait_gone(int((ws / "bg.pid").read_text()))


async def test_cancelled_before_start_runs_nothing(ws: Path, ctx: Any) -> None:
    ctx.cancelled.set()
    outcome = await bash.run({"command": "touch ran.txt"}, ctx)
    assert outcome.is_error and not (ws / "ran.txt").exists()


async def test_background_holding_output_does_not_hang(ws: Path, ctx: Any) -> None:
    started = time.monotonic()
    outcome = await bash.run(
        {"command": "(sleep 30; echo late) & echo $! > bg.pid; echo done"}, ctx
    )
    assert time.monotonic() - started < 4
    assert outcome.content.startswith("done") and outcome.raw_output["exitCode"] == 0
    assert "left running" in outcome.content
    assert await wait_gone(int((ws / "bg.pid").read_text()))


async def test_provider_keys_do_not_reach_commands(
    ctx: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-secret")
    monkeypatch.setenv("PLAIN_VAR", "visible")
    outcome = await bash.run({"command": 'echo "[$ANTHROPIC_API_KEY][$PLAIN_VAR]"'}, ctx)
    assert outcome.content.startswith("[][visible]")


async def test_empty_command_and_shell_title(ctx: Any) -> None:
    outcome = await bash.run({"command": "  "}, ctx)
    assert outcome.is_error and "`command` must not be empty" in outcome.content
    assert bash.title({"command": "x" * 200}).endswith("...")
    assert bash.kind == "execute"


async def test_lingering_detected_even_when_exit_is_seen_first(
    ws: Path, ctx: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # On a busy machine the shell's exit can be recorded before anyone waits for it, and
    # then Process.wait() returns without waiting for the output pipe. Force that order.
    original = asyncio.subprocess.Process.wait

    async def late_wait(self: asyncio.subprocess.Process) -> int:
        await asyncio.sleep(0.3)
        return await original(self)

    monkeypatch.setattr(asyncio.subprocess.Process, "wait", late_wait)
    outcome = await bash.run({"command": "(sleep 30; echo late) & echo $! > bg.pid; echo hi"}, ctx)
    assert outcome.content.startswith("hi\n") and "left running" in outcome.content
    assert await wait_gone(int((ws / "bg.pid").read_text()))
