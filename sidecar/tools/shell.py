"""Bash: a shell command in the first workspace root, with permission, timeout and cancel.

The command runs in its own process group so a timeout or a cancel stops everything it
started, not just the shell (``sidecar.core.process_groups`` says how on each platform). Output (stdout
and stderr interleaved) is kept head and tail within the configured character budget. The
command's environment holds no key variable (``sidecar.credentials``), and the sidecar's
own environment block holds none either, so ``env`` or ``cat /proc/$PPID/environ`` finds
nothing. A command plan mode runs unasked gets ``plan_environment``: git there starts no
program the repository's config names. With ``run_in_background`` the command, asked for and
prepared the same way, is handed to the session's background shells
(``sidecar.tools.background_shells``) and the tool returns its ID at once.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from sidecar.core import process_groups
from sidecar.core.permissions import readonly_shell
from sidecar.core.permissions.choice import refusal
from sidecar.core.ports import ALLOWING, ToolContext, ToolOutcome
from sidecar.core.secrets.held_keys import child_environment
from sidecar.core.workspace import safe_git
from sidecar.tools.background_shells import start_in_background
from sidecar.tools.base import BaseTool, ToolError
from sidecar.tools.shell_process import OutputCollector, spawn, stop_group

DEFAULT_TIMEOUT_MS = 120_000
MAX_TIMEOUT_MS = 600_000
# A command that exited while something it started still holds its output open is
# given this long, then that something is stopped too (else the tool would hang).
LINGER_S = 1.0
POLL_S = 0.25
PERMISSION_DENIED = "Permission denied by the user"
PERMISSION_CANCELLED = "Permission request was cancelled; the command did not run."
# Characters that chain, substitute or redirect: an allow-listed prefix must not vouch
# for whatever follows them.
_SHELL_CONTROL = re.compile(r"[;&|`<>\n\r]|\$\(")


def allowed_by_prefix(command: str, prefixes: Sequence[str]) -> bool:
    """Whether ``command`` is covered by a ``tools.allow`` entry: the entry is a leading
    word sequence ("git status", "npm test"; "Bash(npm test:*)" is accepted too)."""
    cmd = command.strip()
    if not cmd or _SHELL_CONTROL.search(cmd):
        return False
    for raw in prefixes:
        prefix = raw.strip()
        if prefix.startswith("Bash(") and prefix.endswith(")"):
            prefix = prefix[5:-1]
        prefix = prefix.removesuffix(":*").removesuffix("*").strip()
        if prefix and (cmd == prefix or cmd.startswith(prefix + " ")):
            return True
    return False


@dataclass
class RunResult:
    exit_code: int | None
    output: str
    cut_chars: int
    timed_out: bool
    cancelled: bool
    lingering_stopped: bool
    duration_ms: int


async def run_command(
    command: str,
    cwd: Path,
    timeout_s: float,
    cancelled: asyncio.Event,
    output_chars: int,
    secret_env: str | None = None,
    env: Mapping[str, str] | None = None,
) -> RunResult:
    """Run ``command``; ``env`` (else the environment without keys) is its environment."""
    started = time.monotonic()
    proc = await spawn(command, cwd, env if env is not None else child_environment(secret_env))
    assert proc.stdout is not None
    collector = OutputCollector(output_chars)
    reader = asyncio.create_task(collector.drain(proc.stdout))
    # Only a wake-up source: Process.wait() returns at once when the exit was already
    # seen, without waiting for the pipe, so "done" means exited *and* output at EOF.
    exited = asyncio.create_task(proc.wait())
    cancel_wait = asyncio.create_task(cancelled.wait())
    work = (reader, exited)
    deadline = started + timeout_s
    timed_out = was_cancelled = lingering = False
    exited_at: float | None = None
    try:
        while not (reader.done() and proc.returncode is not None):
            now = time.monotonic()
            if now >= deadline:
                timed_out = True
                break
            pending = {t for t in work if not t.done()}
            done, _ = await asyncio.wait(
                pending | {cancel_wait},
                timeout=min(deadline - now, POLL_S),
                return_when=asyncio.FIRST_COMPLETED,
            )
            if cancel_wait in done:
                was_cancelled = True
                break
            if proc.returncode is not None and not reader.done():
                exited_at = exited_at or time.monotonic()
                if time.monotonic() - exited_at >= LINGER_S:
                    lingering = True
                    break
        if not (reader.done() and proc.returncode is not None):
            await stop_group(proc.pid, work)
    finally:
        cancel_wait.cancel()
        if proc.returncode is None:
            process_groups.signal_group(proc.pid, hard=True)
        for task in work:
            if not task.done():
                # Something outside the group still holds the pipe; keep what was read.
                task.cancel()
    output, cut = collector.render()
    return RunResult(
        exit_code=proc.returncode,
        output=output,
        cut_chars=cut,
        timed_out=timed_out,
        cancelled=was_cancelled,
        lingering_stopped=lingering,
        duration_ms=round((time.monotonic() - started) * 1000),
    )


class BashTool(BaseTool):
    name = "Bash"
    kind = "execute"
    compactable = True
    description = (
        "Runs a shell command (bash) in the workspace root and returns its combined stdout "
        "and stderr, and its exit code when not 0. The user is asked for permission unless "
        "the command is allow-listed. Long output is shortened in the middle. Prefer Read, "
        "Edit, Glob and Grep over cat, sed, find and grep. With run_in_background it returns "
        "at once with the shell's ID, for commands that run long (servers, watchers, long "
        "builds): BashOutput reads their output and KillBash ends them."
    )
    input_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            "command": {"type": "string", "description": "The command to run."},
            "timeout": {
                "type": "number",
                "minimum": 1,
                "description": "Timeout in milliseconds (default 120000, max 600000).",
            },
            "description": {
                "type": "string",
                "description": "What the command does, in a few words, shown to the user.",
            },
            "run_in_background": {
                "type": "boolean",
                "description": "Run the command in the background and return its ID at once "
                               "(no timeout); read its output with BashOutput.",
            },
        },
        "required": ["command"],
    }

    def title(self, input: dict[str, Any], roots: Sequence[Path] = ()) -> str:
        description = input.get("description")
        command = input.get("command")
        if isinstance(description, str) and description.strip():
            return description.strip()
        if isinstance(command, str):
            return command if len(command) <= 120 else command[:117] + "..."
        return "Bash"

    async def invoke(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        command: str = args["command"]
        if not command.strip():
            raise ToolError("Invalid input: `command` must not be empty")
        if not ctx.roots:
            raise ToolError("No workspace folder is open; commands have nowhere to run.")
        timeout_ms = min(float(args.get("timeout", DEFAULT_TIMEOUT_MS)), MAX_TIMEOUT_MS)
        # The permission mode decided whether to ask; tools.allow still spares listed commands.
        if ctx.must_ask and not allowed_by_prefix(command, ctx.settings.tools.allow):
            answer = await ctx.ask_permission(self.name, self.title(args, ctx.roots), dict(args))
            if answer.option_id == "cancelled":
                return ToolOutcome.error(PERMISSION_CANCELLED, permission=answer.option_id)
            if answer.option_id not in ALLOWING:
                return ToolOutcome.error(refusal(PERMISSION_DENIED, answer), permission=answer.option_id)
        if ctx.cancelled.is_set():
            return ToolOutcome.error("Command was cancelled before it started.", cancelled=True)
        env = child_environment(ctx.settings.apiKeyEnv)
        if getattr(ctx, "mode", None) == "plan":
            env, why = await asyncio.to_thread(plan_environment, command, ctx.roots, env)
            if why is not None:
                return ToolOutcome.error(f"Plan mode did not run this command: {why}.")
        if args.get("run_in_background"):
            return await start_in_background(command, ctx, env)
        result = await run_command(
            command,
            ctx.roots[0],
            timeout_ms / 1000,
            ctx.cancelled,
            ctx.settings.tools.shellOutputChars,
            env=env,
        )
        return _outcome(result, timeout_ms)


def plan_environment(command: str, roots: Sequence[Path],
                     env: Mapping[str, str]) -> tuple[dict[str, str], str | None]:
    """The environment of a command plan mode runs (``sidecar.core.permissions.readonly_shell`` let it
    through), and why it must not run after all (None when it may). In it git, in every
    folder the command runs it in, starts none of the programs the repository's config
    names (``sidecar.core.workspace.safe_git``), and ``cd`` goes where it says (no ``CDPATH``). A
    repository whose work tree (``core.worktree``) is outside the workspace and not above
    that folder would have git read files there: such a command does not run."""
    vetting = readonly_shell.vet(command, roots)
    out = safe_git.environment(env, vetting.git_cwds)
    out.pop("CDPATH", None)
    for cwd in vetting.git_cwds:
        top = safe_git.work_tree(cwd, out)
        if top is None or safe_git.is_above(top, cwd) or any(safe_git.is_above(r, top) for r in roots):
            continue
        return out, (f"git's work tree there is {top}, outside the workspace (the repository's "
                     "core.worktree)")
    return out, None


def _outcome(result: RunResult, timeout_ms: float) -> ToolOutcome:
    parts = [result.output.rstrip() or "(no output)"]
    if result.cut_chars:
        parts.append(f"[Output was {result.cut_chars} characters too long; the middle was cut.]")
    if result.timed_out:
        parts.append(f"Command timed out after {timeout_ms / 1000:g} s and was stopped.")
    if result.cancelled:
        parts.append("Command was cancelled by the user and stopped.")
    if result.lingering_stopped:
        parts.append("Processes the command left running with its output open were stopped.")
    code = result.exit_code
    # Success is the result's own is_error flag; a 0 would be paid for in every request
    # that carries the result.
    if code != 0:
        parts.append(f"Exit code: {code}" if code is not None else "Exit code: none (killed)")
    failed = result.timed_out or result.cancelled or code != 0
    raw = {
        "exitCode": code,
        "timedOut": result.timed_out,
        "cancelled": result.cancelled,
        "cutChars": result.cut_chars,
        "durationMs": result.duration_ms,
    }
    return ToolOutcome("\n".join(parts), is_error=failed, raw_output=raw)
