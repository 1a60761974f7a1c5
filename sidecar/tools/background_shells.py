"""Background shells, as Claude Code has them: Bash with ``run_in_background`` starts one and
returns its ID at once, BashOutput reads what it printed since the last read, KillBash ends it.

Bash asks for and prepares the command exactly as in the foreground (permission, environment,
the first workspace root) and then hands it to the session's ``BackgroundShells``, kept for the
session (``ToolContext.resource``). Each shell runs in a process group of its own; its output
(stdout and stderr interleaved) is collected as it comes, head and tail within Bash's character
budget until it is read. KillBash, and the end of the session (close, delete, ``/clear``, the
sidecar's shutdown: ``sidecar.core.session_resources``), stop the whole group as Bash stops a
command that timed out. While a shell runs, its group is also known to the watchdog that ends
the MCP servers' groups (``sidecar.mcp.stdio.Reaper``), so it ends even when the sidecar is
killed outright.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar, Literal

from sidecar.core import process_groups
from sidecar.core.ports import ToolContext, ToolOutcome
from sidecar.tools.base import BaseTool, ToolError
from sidecar.tools.shell_process import READ_CHUNK, OutputCollector, spawn, stop_group

ShellStatus = Literal["running", "completed", "killed"]
ID_PREFIX = "bash_"


class BackgroundShell:
    """One command running (or run) in the background, and its output not read yet."""

    def __init__(self, shell_id: str, command: str, process: asyncio.subprocess.Process,
                 output_chars: int) -> None:
        self.id = shell_id
        self.command = command
        self.process = process
        self._output_chars = output_chars
        self._unread = OutputCollector(output_chars)
        self.killed = False
        # Done when the command has exited and its output has ended.
        self.follower = asyncio.create_task(self._follow(), name=f"background shell {shell_id}")

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def status(self) -> ShellStatus:
        if self.killed:
            return "killed"
        return "completed" if self.follower.done() else "running"

    async def _follow(self) -> None:
        stdout = self.process.stdout
        assert stdout is not None
        while chunk := await stdout.read(READ_CHUNK):
            self._unread.feed(chunk)
        await self.process.wait()
        _unwatch(self.pid)

    def take(self) -> tuple[str, int]:
        """The output since the last take, and how many characters were cut from its middle
        (its head and tail are kept, as Bash keeps a long output's)."""
        unread, self._unread = self._unread, OutputCollector(self._output_chars)
        if not self.follower.done():
            # A character whose last bytes have not arrived yet waits for them.
            self._unread.feed(_split_partial_character(unread.tail or unread.head))
        return unread.render()

    async def stop(self) -> bool:
        """End the shell's whole process group: SIGTERM, then SIGKILL after a grace period.
        False when it had already ended."""
        if self.follower.done():
            return False
        self.killed = True
        await stop_group(self.pid, (self.follower,))
        if self.process.returncode is None:
            process_groups.signal_group(self.pid, hard=True)
        if not self.follower.done():
            # Something outside the group still holds the output open; keep what was read.
            self.follower.cancel()
        _unwatch(self.pid)
        return True


class BackgroundShells:
    """A session's background shells by ID (``bash_1``, ``bash_2``, ...)."""

    def __init__(self) -> None:
        self._shells: dict[str, BackgroundShell] = {}
        self._started = 0

    async def start(self, command: str, cwd: Path, env: Mapping[str, str],
                    output_chars: int) -> BackgroundShell:
        process = await spawn(command, cwd, env)
        _watch(process.pid)
        self._started += 1
        shell = BackgroundShell(f"{ID_PREFIX}{self._started}", command, process, output_chars)
        self._shells[shell.id] = shell
        return shell

    def get(self, shell_id: str) -> BackgroundShell:
        shell = self._shells.get(shell_id)
        if shell is not None:
            return shell
        known = ", ".join(self._shells)
        raise ToolError(f"No background shell with ID {shell_id!r}. "
                        + (f"This session's background shells: {known}." if known
                           else "This session has started no background shell."))

    async def aclose(self) -> None:
        """End every shell still running, all at once."""
        await asyncio.gather(*(shell.stop() for shell in self._shells.values()))


async def start_in_background(command: str, ctx: ToolContext, env: Mapping[str, str]) -> ToolOutcome:
    """Bash's ``run_in_background``: the command, already allowed, starts in the first root."""
    shell = await ctx.resource(BackgroundShells).start(
        command, ctx.roots[0], env, ctx.settings.tools.shellOutputChars)
    return ToolOutcome(f"Command running in background with ID: {shell.id}",
                       raw_output={"shellId": shell.id, "pid": shell.pid, "background": True})


class BashOutputTool(BaseTool):
    name = "BashOutput"
    # It only reads what the session's own shell printed: never asked about, allowed in
    # plan mode (sidecar.core.permissions.modes lets "read" tools through).
    kind = "read"
    description = (
        "Returns the output (stdout and stderr) a background shell produced since the last "
        "BashOutput call for it, and its status: running, completed with its exit code, or "
        "killed. Background shells are started by Bash with run_in_background. With filter (a "
        "regular expression) only the lines that match are returned; the others are dropped "
        "and cannot be read again. Long output is shortened in the middle."
    )
    input_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            "bash_id": {"type": "string",
                        "description": "The ID of the background shell, e.g. bash_1."},
            "filter": {"type": "string",
                       "description": "A regular expression; only output lines that match it "
                                      "are returned."},
        },
        "required": ["bash_id"],
    }

    def title(self, input: dict[str, Any], roots: Sequence[Path] = ()) -> str:
        shell_id = input.get("bash_id")
        return f"Output of {shell_id}" if isinstance(shell_id, str) else self.name

    async def invoke(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        pattern = _compile(args.get("filter"))
        shell = ctx.resource(BackgroundShells).get(args["bash_id"])
        # The status first: a shell seen completed has nothing more to print after the take.
        status = shell.status
        output, cut = shell.take()
        if pattern is not None:
            output = "\n".join(line for line in output.splitlines() if pattern.search(line))
        parts = [f"<status>{status}</status>"]
        if status == "completed":
            parts.append(f"<exit_code>{shell.process.returncode}</exit_code>")
        if output.strip():
            parts.append(f"<output>\n{output.rstrip()}\n</output>")
        else:
            parts.append("(no new output matched the filter)" if pattern is not None
                         else "(no new output)")
        if cut:
            parts.append(f"[Output was {cut} characters too long; the middle was cut.]")
        raw = {"shellId": shell.id, "status": status, "exitCode": shell.process.returncode,
               "cutChars": cut}
        return ToolOutcome("\n\n".join(parts), raw_output=raw)


class KillBashTool(BaseTool):
    name = "KillBash"
    # It stops what the session's own shell started, a command already allowed (or run
    # read-only in plan mode): as in Claude Code it is never asked about, in any mode
    # (sidecar.core.permissions.modes says so by name). The kind is what editors show.
    kind = "execute"
    description = (
        "Ends a background shell (started by Bash with run_in_background) and everything it "
        "started, by its ID."
    )
    input_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            "shell_id": {"type": "string",
                         "description": "The ID of the background shell to end, e.g. bash_1."},
        },
        "required": ["shell_id"],
    }

    def title(self, input: dict[str, Any], roots: Sequence[Path] = ()) -> str:
        shell_id = input.get("shell_id")
        return f"Kill {shell_id}" if isinstance(shell_id, str) else self.name

    async def invoke(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        shell = ctx.resource(BackgroundShells).get(args["shell_id"])
        before = shell.status
        stopped = await shell.stop()
        if stopped:
            text = f"Killed background shell {shell.id} ({_short(shell.command)})."
        elif before == "killed":
            text = f"Background shell {shell.id} was already killed."
        else:
            text = (f"Background shell {shell.id} had already completed (exit code "
                    f"{shell.process.returncode}); nothing was killed.")
        return ToolOutcome(text, raw_output={"shellId": shell.id, "killed": stopped,
                                             "status": shell.status})


def _compile(source: Any) -> re.Pattern[str] | None:
    if source is None or source == "":
        return None
    try:
        return re.compile(source)
    except re.error as exc:
        raise ToolError(f"Invalid filter {source!r}: not a regular expression ({exc}).") from None


def _short(command: str) -> str:
    line = " ".join(command.split())
    return line if len(line) <= 80 else line[:77] + "..."


def _split_partial_character(buf: bytearray) -> bytes:
    """Take off the end of ``buf`` the first bytes of a UTF-8 character whose other bytes are
    still to come, and return them (b"" when it ends on a whole character)."""
    for back in range(1, min(4, len(buf)) + 1):
        byte = buf[-back]
        if byte & 0xC0 == 0x80:
            continue  # a continuation byte: its lead is further back
        need = 2 if byte >> 5 == 0b110 else 3 if byte >> 4 == 0b1110 else 4 if byte >> 3 == 0b11110 else 1
        if need <= back:
            return b""
        partial = bytes(buf[-back:])
        del buf[-back:]
        return partial
    return b""


def _watch(pid: int) -> None:
    """Have the watchdog end the group if the sidecar dies before the shell ends."""
    if process_groups.has_process_groups():
        from sidecar.mcp.stdio import REAPER

        REAPER.watch(pid)


def _unwatch(pid: int) -> None:
    if process_groups.has_process_groups():
        from sidecar.mcp.stdio import REAPER

        REAPER.forget(pid)
