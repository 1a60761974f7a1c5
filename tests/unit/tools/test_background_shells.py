"""Background shells: Bash's run_in_background, BashOutput and KillBash, and the session's
registry of shells ending everything it started."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from sidecar.core.ports import ToolOutcome
from sidecar.tools.background_shells import (
    BackgroundShell,
    BackgroundShells,
    BashOutputTool,
    KillBashTool,
    _split_partial_character,
)
from sidecar.tools.shell import BashTool
from tests.unit.tools.test_shell import pid_alive, wait_gone

bash = BashTool()
bash_output = BashOutputTool()
kill_bash = KillBashTool()


@pytest.fixture(autouse=True)
async def shells_closed(ctx: Any) -> AsyncIterator[None]:
    """Whatever a test leaves running ends with it."""
    yield
    await ctx.resources.aclose()


async def start(ctx: Any, command: str) -> str:
    outcome = await bash.run({"command": command, "run_in_background": True}, ctx)
    assert not outcome.is_error, outcome.content
    return str(outcome.raw_output["shellId"])


def shell_of(ctx: Any, shell_id: str) -> BackgroundShell:
    return ctx.resource(BackgroundShells).get(shell_id)


async def read(ctx: Any, shell_id: str, **extra: Any) -> ToolOutcome:
    return await bash_output.run({"bash_id": shell_id, **extra}, ctx)


async def read_until(ctx: Any, shell_id: str, done: Any, within: float = 10.0) -> list[str]:
    """BashOutput again and again until ``done(text)``; every result, in order."""
    seen: list[str] = []
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        outcome = await read(ctx, shell_id)
        assert not outcome.is_error, outcome.content
        seen.append(str(outcome.content))
        if done(seen[-1]):
            return seen
        await asyncio.sleep(0.05)
    raise AssertionError(f"not done within {within} s: {seen[-3:]}")


def output_of(text: str) -> str:
    """The lines between <output> and </output> ("" when there are none)."""
    if "<output>\n" not in text:
        return ""
    return text.split("<output>\n", 1)[1].split("\n</output>", 1)[0]


async def wait_for_file(path: Path, within: float = 5.0) -> str:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if path.exists() and path.read_text().strip():
            return path.read_text().strip()
        await asyncio.sleep(0.05)
    raise AssertionError(f"{path} never appeared")


async def test_background_start_returns_an_id_at_once(ctx: Any, ws: Path) -> None:
    began = time.monotonic()
    outcome = await bash.run({"command": "sleep 30", "run_in_background": True,
                              "description": "Wait a while"}, ctx)
    assert time.monotonic() - began < 2
    assert not outcome.is_error
    assert outcome.content == "Command running in background with ID: bash_1"
    assert pid_alive(outcome.raw_output["pid"])
    # Asked for as a foreground command is, with the same title and input.
    assert ctx.asked == [("Bash", "Wait a while", {"command": "sleep 30", "run_in_background": True,
                                                  "description": "Wait a while"})]
    second = await bash.run({"command": "sleep 30", "run_in_background": "true"}, ctx)
    assert second.content == "Command running in background with ID: bash_2"


async def test_a_refused_command_does_not_start(ctx: Any) -> None:
    ctx.permission = "reject_once"
    outcome = await bash.run({"command": "touch ran", "run_in_background": True}, ctx)
    assert outcome.is_error and "Permission denied" in str(outcome.content)
    unknown = await read(ctx, "bash_1")
    assert unknown.is_error
    assert str(unknown.content) == ("No background shell with ID 'bash_1'. This session has "
                                    "started no background shell.")


async def test_allow_listed_command_runs_unasked_in_the_first_root(ctx: Any, ws: Path) -> None:
    ctx.with_tools(allow=("pwd",))
    shell_id = await start(ctx, "pwd")
    assert ctx.asked == []
    await shell_of(ctx, shell_id).follower
    assert output_of(str((await read(ctx, shell_id)).content)) == os.path.realpath(ws)


async def test_provider_keys_do_not_reach_background_commands(
        ctx: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-secret")
    monkeypatch.setenv("PLAIN_VAR", "visible")
    shell_id = await start(ctx, 'echo "[$ANTHROPIC_API_KEY][$PLAIN_VAR]"')
    await shell_of(ctx, shell_id).follower
    assert output_of(str((await read(ctx, shell_id)).content)) == "[][visible]"


async def test_output_returns_only_what_is_new_with_the_status(ctx: Any, ws: Path) -> None:
    shell_id = await start(ctx, "echo one; while [ ! -e go ]; do sleep 0.05; done; echo two >&2; exit 3")
    seen = await read_until(ctx, shell_id, lambda text: "one" in text)
    assert seen[-1] == "<status>running</status>\n\n<output>\none\n</output>"
    assert all(text == "<status>running</status>\n\n(no new output)" for text in seen[:-1])
    (ws / "go").touch()
    seen = await read_until(ctx, shell_id, lambda text: "completed" in text)
    # stderr too; "one" was read already and is not returned again.
    assert "".join(output_of(text) for text in seen) == "two"
    assert seen[-1].startswith("<status>completed</status>\n\n<exit_code>3</exit_code>")
    last = await read(ctx, shell_id)
    assert not last.is_error
    assert last.content == "<status>completed</status>\n\n<exit_code>3</exit_code>\n\n(no new output)"
    assert last.raw_output["exitCode"] == 3 and last.raw_output["status"] == "completed"


async def test_filter_keeps_matching_lines_and_drops_the_rest(ctx: Any) -> None:
    shell_id = await start(ctx, "printf 'alpha 1\\nbeta 2\\nalpha 3\\n'")
    await shell_of(ctx, shell_id).follower
    bad = await read(ctx, shell_id, filter="alpha(")
    assert bad.is_error and "Invalid filter 'alpha('" in str(bad.content)
    # The invalid filter read nothing: the output is all still there.
    outcome = await read(ctx, shell_id, filter="^alpha")
    assert output_of(str(outcome.content)) == "alpha 1\nalpha 3"
    assert "beta" not in str(outcome.content)
    # The lines the filter left out are gone, as in Claude Code.
    assert "(no new output)" in str((await read(ctx, shell_id)).content)


async def test_filter_that_matches_nothing_says_so(ctx: Any) -> None:
    shell_id = await start(ctx, "echo hello")
    await shell_of(ctx, shell_id).follower
    outcome = await read(ctx, shell_id, filter="^nothing$")
    assert outcome.content == ("<status>completed</status>\n\n<exit_code>0</exit_code>\n\n"
                               "(no new output matched the filter)")


async def test_unread_output_is_bounded_head_and_tail_with_a_note(ctx: Any) -> None:
    ctx.with_tools(shellOutputChars=1000)
    shell_id = await start(ctx, "echo START; yes 0123456789 | head -n 5000; echo END")
    await shell_of(ctx, shell_id).follower
    outcome = await read(ctx, shell_id)
    text = str(outcome.content)
    total = len("START\n") + 11 * 5000 + len("END\n")
    cut = total - 1000
    assert output_of(text).startswith("START\n0123456789")
    assert output_of(text).endswith("0123456789\nEND")
    assert f"... [{cut} characters of output cut] ..." in text
    assert text.endswith(f"[Output was {cut} characters too long; the middle was cut.]")
    assert outcome.raw_output["cutChars"] == cut
    assert len(text) < 1300


async def test_a_character_split_between_reads_arrives_whole(ctx: Any, ws: Path) -> None:
    shell_id = await start(ctx, "printf 'caf\\303'; while [ ! -e go ]; do sleep 0.05; done; printf '\\251!'")
    first = await read_until(ctx, shell_id, lambda text: "caf" in text)
    assert output_of(first[-1]) == "caf"
    (ws / "go").touch()
    rest = await read_until(ctx, shell_id, lambda text: "completed" in text)
    assert "".join(output_of(text) for text in rest) == "\u00e9!"


def test_split_partial_character() -> None:
    whole = bytearray("aé€😀".encode())
    assert _split_partial_character(whole) == b"" and whole == bytearray("aé€😀".encode())
    for cut in (1, 2, 3):
        buf = bytearray("a😀".encode()[:-cut])
        assert _split_partial_character(buf) == "😀".encode()[:4 - cut]
        assert buf == bytearray(b"a")
    assert _split_partial_character(bytearray()) == b""


async def test_kill_ends_the_whole_process_group(ctx: Any, ws: Path) -> None:
    shell_id = await start(ctx, "sh -c 'sleep 100 & echo $! > grandchild.pid; wait' & "
                                "echo $! > child.pid; wait")
    child = int(await wait_for_file(ws / "child.pid"))
    grandchild = int(await wait_for_file(ws / "grandchild.pid"))
    assert pid_alive(child) and pid_alive(grandchild)
    began = time.monotonic()
    outcome = await kill_bash.run({"shell_id": shell_id}, ctx)
    assert not outcome.is_error
    assert str(outcome.content).startswith(f"Killed background shell {shell_id} (sh -c ")
    assert outcome.raw_output == {"shellId": shell_id, "killed": True, "status": "killed"}
    gone = [await wait_gone(pid) for pid in (child, grandchild)]
    assert gone == [True, True]
    assert time.monotonic() - began < 5
    assert str((await read(ctx, shell_id)).content).startswith("<status>killed</status>")
    again = await kill_bash.run({"shell_id": shell_id}, ctx)
    assert not again.is_error
    assert again.content == f"Background shell {shell_id} was already killed."


async def test_a_group_that_ignores_sigterm_is_killed(ctx: Any, ws: Path) -> None:
    shell_id = await start(ctx, "trap '' TERM; echo $$ > shell.pid; while :; do sleep 0.05; done")
    pid = int(await wait_for_file(ws / "shell.pid"))
    outcome = await kill_bash.run({"shell_id": shell_id}, ctx)
    assert outcome.raw_output["killed"] is True
    gone = await wait_gone(pid)
    assert gone


async def test_killing_a_completed_shell_says_so(ctx: Any) -> None:
    shell_id = await start(ctx, "exit 4")
    await shell_of(ctx, shell_id).follower
    outcome = await kill_bash.run({"shell_id": shell_id}, ctx)
    assert not outcome.is_error
    assert outcome.content == (f"Background shell {shell_id} had already completed (exit code 4); "
                               "nothing was killed.")
    assert str((await read(ctx, shell_id)).content).startswith("<status>completed</status>")


async def test_unknown_ids_list_the_known_ones(ctx: Any) -> None:
    await start(ctx, "true")
    await start(ctx, "true")
    for outcome in (await read(ctx, "bash_9"), await kill_bash.run({"shell_id": "shell_1"}, ctx)):
        assert outcome.is_error
        assert "This session's background shells: bash_1, bash_2." in str(outcome.content)


async def test_closing_the_registry_ends_every_shell(ctx: Any, ws: Path) -> None:
    pids = []
    for name in ("a", "b"):
        await start(ctx, f"sleep 100 & echo $! > {name}.pid; while :; do sleep 0.05; done")
        pids.append(int(await wait_for_file(ws / f"{name}.pid")))
    shells = ctx.resource(BackgroundShells)
    began = time.monotonic()
    await ctx.resources.aclose()
    assert time.monotonic() - began < 4  # all at once, not one grace period after another
    gone = [await wait_gone(pid) for pid in pids]
    assert gone == [True, True]
    assert [shells.get(i).status for i in ("bash_1", "bash_2")] == ["killed", "killed"]
    # The session's next shell starts a new registry.
    assert await start(ctx, "true") == "bash_1"


@pytest.mark.parametrize("mode", ["default", "plan"])
def test_reading_and_ending_own_shells_is_never_asked_about(mode: str, ws: Path) -> None:
    from sidecar.core.permissions.modes import CallView, decide

    for tool, args in ((bash_output, {"bash_id": "bash_1"}), (kill_bash, {"shell_id": "bash_1"})):
        view = CallView(mode=mode, tool=tool.name, kind=tool.kind, input=args, roots=[ws],
                        plan_file=None)
        assert decide(view).action == "allow", tool.name
