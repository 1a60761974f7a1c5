"""Hooks: shell commands run at PreCompact, PostCompact and SessionStart, configured in the
sidecar's settings (``preCompactHooks``, ``postCompactHooks``, ``sessionStartHooks``) and in
Claude Code's settings files (``.claude/settings.json``, ``.claude/settings.local.json``,
``~/.claude/settings.json``) in Claude Code's format::

    {"hooks": {"SessionStart": [{"matcher": "startup|compact",
                                  "hooks": [{"type": "command", "command": "...", "timeout": 60}]}]}}

Each command gets Claude Code's JSON on stdin (``session_id``, ``transcript_path``, ``cwd``,
``hook_event_name`` and the event's own fields) and runs in a worker thread in its own
process group, killed at its timeout. A failing hook is reported, never fatal.

A workspace's own files (``.claude/settings.json``, ``.claude/settings.local.json``) name
commands of the repository author's choosing: they run only in a trusted folder
(sidecar.core.workspace.trust: the editor's word, the user's ``/trust``, or Claude Code's
trust dialog accepted for the folder or a parent of it), or when the user's own setting
``hooks.trustWorkspace`` says so and the editor has not put the folder in Restricted Mode. Otherwise they are skipped: logged once, and listed in
the ``/context`` view (``skippedHookFiles``).

What a hook printed is kept as a ``hook_result`` attachment record and shown to the user as
a ``hook_result`` update. PreCompact output guides the summary; SessionStart output is
context for the model (its record is sent; Claude Code's ``additionalContext`` JSON is
understood), and comes back after every compaction within a budget
(``reinjected_hook_context``); PostCompact output is shown, not sent.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Mapping, Protocol

from sidecar.contract.updates import hook_result_update
from sidecar.core.conversation.messages import Message
from sidecar.core.process_groups import new_group_options, signal_group
from sidecar.core.secrets.held_keys import child_environment
from sidecar.core.workspace.trust import Trust

if TYPE_CHECKING:
    from sidecar.contract.updates import SessionUpdate
    from sidecar.core.accounting.tokens import TextCounter, TokenLedger
    from sidecar.core.accounting.window import Thresholds
    from sidecar.core.conversation.transcript import Transcript
    from sidecar.core.settings import Settings

log = logging.getLogger(__name__)

HookEvent = Literal["PreCompact", "PostCompact", "SessionStart"]
EVENTS: tuple[HookEvent, ...] = ("PreCompact", "PostCompact", "SessionStart")
SETTINGS_KEY: dict[HookEvent, str] = {"PreCompact": "preCompactHooks",
                                      "PostCompact": "postCompactHooks",
                                      "SessionStart": "sessionStartHooks"}
# Claude Code caps what a hook adds to the context at 10,000 characters; the same cap
# holds what is shown and stored.
OUTPUT_MAX_CHARS = 10_000
# After a compaction the SessionStart hooks' context comes back within this many tokens
# (fewer in small windows, see ``hook_budget``).
POST_COMPACT_HOOK_TOKENS = 5_000
# Each hook's context block starts with this (the invariant checker finds them by it).
HOOK_CONTEXT_MARK = "Hook output: "


@dataclass(frozen=True)
class HookCommand:
    event: HookEvent
    command: str
    timeout: float
    matcher: str = ""  # "" or "*": every trigger/source; else a regex ("manual|auto")


@dataclass(frozen=True)
class HookResult:
    event: HookEvent
    command: str
    output: str  # stdout and stderr, capped: what the user sees
    exit_code: int | None  # None: it did not start or timed out
    context: str  # what it adds for the model (SessionStart), else ""
    match: str  # the trigger or source it ran for


def matches(matcher: str, value: str) -> bool:
    if matcher in ("", "*"):
        return True
    try:
        return re.fullmatch(matcher, value) is not None
    except re.error:
        return matcher == value


def _user_settings_file(home: Path) -> Path:
    from sidecar.core.workspace.claude_config import config_dir

    return config_dir(os.environ, home) / "settings.json"


def _workspace_settings_files(cwd: Path) -> list[Path]:
    return [cwd / ".claude" / "settings.json", cwd / ".claude" / "settings.local.json"]


def workspace_hooks_trusted(settings: Settings, trust: Trust) -> bool:
    """Whether the workspace's own hooks may run: the folder is trusted, or the user's own
    setting says so where the editor has not put the folder in Restricted Mode."""
    return trust.trusted or (settings.hooks.trustWorkspace and trust.source != "editor")


def skipped_hook_files(settings: Settings, cwd: Path, trust: Trust) -> list[str]:
    """The workspace's files whose hooks do not run, for want of trust (blocking)."""
    files = [p for p in _workspace_settings_files(cwd) if p.is_file()]
    if not files or workspace_hooks_trusted(settings, trust):
        return []
    return [str(p) for p in files if _read_hooks_file(p, cwd)]


# The files already logged as skipped: one warning each in the log.
_logged_skips: set[str] = set()


def _read_hooks_file(path: Path, within: Path | None = None) -> Mapping[str, Any]:
    """The ``hooks`` of a Claude Code settings file; a workspace's own (``within`` its
    folder) must not lead outside it."""
    from sidecar.core.workspace.own_files import read_own_text

    try:
        data = json.loads(read_own_text(path, None if within is None else [within]))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        log.warning("hooks in %s not read: %s", path, exc)
        return {}
    hooks = data.get("hooks") if isinstance(data, dict) else None
    return hooks if isinstance(hooks, dict) else {}


def may_have_hooks(settings: Settings, cwd: Path, home: Path, event: HookEvent) -> bool:
    """Whether ``event`` may have a command: a few stats, cheap enough for the event loop,
    so that a workspace without hooks never waits for a worker thread."""
    if getattr(settings, SETTINGS_KEY[event]):
        return True
    return any(p.is_file() for p in (_user_settings_file(home), *_workspace_settings_files(cwd)))


def configured_hooks(settings: Settings, cwd: Path, home: Path, event: HookEvent,
                     trust: Trust) -> list[HookCommand]:
    """Every command of ``event``: the sidecar's settings first, then Claude Code's files
    (user, then project and local when the workspace is trusted). Blocking (reads files): call it off the event loop."""
    timeout = float(settings.hookTimeoutSeconds)
    out = [HookCommand(event, c, timeout) for c in getattr(settings, SETTINGS_KEY[event])]
    paths: list[tuple[Path, Path | None]] = [(_user_settings_file(home), None)]
    skipped = skipped_hook_files(settings, cwd, trust)
    paths += [(p, cwd) for p in _workspace_settings_files(cwd) if str(p) not in skipped]
    for name in skipped:
        if name not in _logged_skips:
            _logged_skips.add(name)
            log.warning("the hooks in %s do not run: the folder is %s", name, trust.why())
    for path, within in paths:
        groups = _read_hooks_file(path, within).get(event)
        for group in groups if isinstance(groups, list) else []:
            if not isinstance(group, dict):
                continue
            matcher = group.get("matcher") if isinstance(group.get("matcher"), str) else ""
            for hook in group.get("hooks") or []:
                if not isinstance(hook, dict) or hook.get("type", "command") != "command":
                    continue
                command = hook.get("command")
                if not isinstance(command, str) or not command.strip():
                    continue
                limit = hook.get("timeout")
                seconds = float(limit) if isinstance(limit, (int, float)) and limit > 0 else timeout
                out.append(HookCommand(event, command, seconds, matcher or ""))
    # One run per command and matcher, as Claude Code de-duplicates identical commands.
    return list(dict.fromkeys(out))


def _cap(text: str) -> str:
    text = text.strip()
    if len(text) <= OUTPUT_MAX_CHARS:
        return text
    return text[:OUTPUT_MAX_CHARS] + f"\n… [output cut at {OUTPUT_MAX_CHARS:,} characters]"


def _context_of(event: HookEvent, stdout: str, exit_code: int | None) -> str:
    """What a SessionStart hook adds for the model: ``additionalContext`` of its JSON, else
    its plain stdout (exit code 0 only, as in Claude Code)."""
    if event != "SessionStart" or exit_code != 0:
        return ""
    text = stdout.strip()
    if text.startswith("{"):
        try:
            data = json.loads(text)
        except ValueError:
            return _cap(text)
        specific = data.get("hookSpecificOutput") if isinstance(data, dict) else None
        extra = specific.get("additionalContext") if isinstance(specific, dict) else None
        return _cap(extra) if isinstance(extra, str) else ""
    return _cap(text)


def run_hook(hook: HookCommand, payload: dict[str, Any], cwd: Path, match: str) -> HookResult:
    """Run one command with ``payload`` on stdin. Blocking: call it off the event loop."""
    try:
        proc = subprocess.Popen(hook.command, shell=True, cwd=cwd, env=child_environment(),
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, **new_group_options())
    except OSError as exc:
        log.warning("%s hook %r did not start: %s", hook.event, hook.command, exc)
        return HookResult(hook.event, hook.command, f"the hook did not start: {exc}", None, "", match)
    try:
        out, err = proc.communicate(json.dumps(payload).encode(), timeout=hook.timeout)
    except subprocess.TimeoutExpired:
        signal_group(proc.pid, hard=True)
        try:
            proc.kill()
            proc.communicate(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            pass
        log.warning("%s hook %r timed out after %ss", hook.event, hook.command, hook.timeout)
        return HookResult(hook.event, hook.command,
                          f"the hook timed out after {hook.timeout:g} s and was stopped", None, "", match)
    stdout = out.decode("utf-8", "replace")
    stderr = err.decode("utf-8", "replace")
    shown = _cap("\n".join(t for t in (stdout.strip(), stderr.strip()) if t))
    if proc.returncode != 0:
        log.warning("%s hook %r exited with %s", hook.event, hook.command, proc.returncode)
    return HookResult(hook.event, hook.command, shown, proc.returncode,
                      _context_of(hook.event, stdout, proc.returncode), match)


class HookHost(Protocol):
    settings: Settings
    transcript: Transcript
    # Whether the session's folder is trusted (blocking: reads the records).
    workspace_trust: Callable[[], Trust]

    @property
    def id(self) -> str: ...

    def update(self, payload: SessionUpdate) -> None: ...


class CompactHookHost(HookHost, Protocol):
    """What the hooks around a compaction use of a session (a ``CompactionHost``)."""

    thresholds: Thresholds
    ledger: TokenLedger

    def append(self, message: Message) -> Message: ...


async def run_hooks(host: HookHost, event: HookEvent, match: str,
                    fields: dict[str, Any]) -> list[HookResult]:
    """Run ``event``'s commands whose matcher takes ``match`` (a trigger or a source), side
    by side off the event loop; each result is shown to the user as it is known."""
    cwd = Path(host.transcript.cwd)
    if not may_have_hooks(host.settings, cwd, Path.home(), event):
        return []
    hooks = await asyncio.to_thread(
        lambda: configured_hooks(host.settings, cwd, Path.home(), event, host.workspace_trust()))
    hooks = [h for h in hooks if matches(h.matcher, match)]
    if not hooks:
        return []
    payload = {"session_id": host.id, "transcript_path": str(host.transcript.path()),
               "cwd": str(cwd), "hook_event_name": event, **fields}
    results = await asyncio.gather(*(asyncio.to_thread(run_hook, h, payload, cwd, match)
                                     for h in hooks))
    for result in results:
        host.update(hook_result_update(result.event, result.command, result.output,
                                       result.exit_code))
    return list(results)


def context_text(result: HookResult, context: str | None = None) -> str:
    return (f"{HOOK_CONTEXT_MARK}{result.event}:{result.match} hook `{result.command}` said:\n"
            f"{result.context if context is None else context}")


def hook_record(result: HookResult, *, reinjected: bool = False, carried: bool = False,
                context: str | None = None) -> Message:
    """The transcript's record of one run: sent to the model when it adds context, else
    kept for the user only (virtual)."""
    attachment: dict[str, Any] = {"type": "hook_result", "event": result.event,
                                  "command": result.command, "output": result.output,
                                  "exitCode": result.exit_code, "match": result.match}
    if reinjected:
        attachment["reinjected"] = True
    if carried:
        attachment["carried"] = True  # a copy of an earlier run's context: not shown again
    body = context if context is not None else result.context
    if body:
        return Message(kind="attachment", attachment=attachment,
                       content=[{"type": "text", "text": context_text(result, body)}], is_meta=True)
    return Message(kind="attachment", attachment=attachment, content=[], is_meta=True,
                   is_virtual=True)


def result_of(record: Message) -> HookResult | None:
    """The run a ``hook_result`` record holds."""
    att = record.attachment or {}
    if record.kind != "attachment" or att.get("type") != "hook_result":
        return None
    event = att.get("event")
    if event not in EVENTS:
        return None
    text = record.text()
    context = text.split(":\n", 1)[1] if text.startswith(HOOK_CONTEXT_MARK) and ":\n" in text else ""
    code = att.get("exitCode")
    return HookResult(event, str(att.get("command", "")), str(att.get("output", "")),
                      code if isinstance(code, int) else None, context, str(att.get("match", "")))


def hook_budget(blocking_at: int) -> int:
    """Tokens the SessionStart hooks' context may take after a compaction."""
    return min(POST_COMPACT_HOOK_TOKENS, blocking_at // 20)


async def with_hook_output(host: CompactHookHost, trigger: str,
                           instructions: str | None) -> str | None:
    """The user's instructions for the summary, with what the PreCompact hooks printed
    (each run kept as a record, shown to the user)."""
    results = await run_hooks(host, "PreCompact", trigger,
                              {"trigger": trigger, "custom_instructions": instructions or ""})
    for result in results:
        host.append(hook_record(result))
    said = "\n\n".join(r.output for r in results if r.exit_code == 0 and r.output)
    if said:
        return f"{instructions or ''}\n\nFrom the pre-compact hooks:\n{said}".strip()
    return instructions


async def after_compaction(host: CompactHookHost, trigger: str, summary: str) -> None:
    """PostCompact: the hooks get the summary; what they print is shown, not sent."""
    results = await run_hooks(host, "PostCompact", trigger,
                              {"trigger": trigger, "compact_summary": summary})
    for result in results:
        host.append(hook_record(result))


async def session_start(host: HookHost, source: str) -> list[Message]:
    """SessionStart for ``source`` (startup, resume, clear): the records to append."""
    results = await run_hooks(host, "SessionStart", source, {"source": source})
    return [hook_record(r) for r in results]


# The SessionStart(compact) runs of the compaction under way, per session: a session-memory
# attempt that falls back to a full summary must not run them twice.
_compact_runs: dict[str, tuple[str | None, list[HookResult]]] = {}


def _last_conversation_uuid(records: list[Message]) -> str | None:
    for m in reversed(records):
        if not (m.attachment or {}).get("type") == "hook_result":
            return m.uuid
    return None


def fit_contexts(results: list[HookResult], budget: int,
                 counter: TextCounter) -> list[tuple[HookResult, str]]:
    """Each result's context, in order, within ``budget`` tokens; a context past what is
    left is cut with a note, and none follow it."""
    from sidecar.core.workspace.skills import cut_to_tokens

    out: list[tuple[HookResult, str]] = []
    left = float(budget)
    for result in results:
        text = result.context
        tokens = counter.text(context_text(result, text))
        if tokens > left:
            note = "\n[cut to fit the context after the summary]"
            room = left - counter.text(context_text(result, "")) - counter.text(note) - 1
            if room <= 0:
                break
            text = cut_to_tokens(text, int(room), counter) + note
            out.append((result, text))
            break
        left -= tokens
        out.append((result, text))
    return out


async def reinjected_hook_context(session: CompactHookHost, tier: str) -> list[Message]:
    """After a summary: the SessionStart hooks run again with source ``compact`` (their
    context is fresh), and the context earlier SessionStart runs gave (startup, resume,
    clear) comes back for the commands that did not run now; all within ``hook_budget``."""
    records = session.transcript.records
    key = _last_conversation_uuid(records)
    memo = _compact_runs.get(session.id)
    if memo is not None and memo[0] == key:
        fresh = memo[1]
    else:
        fresh = await run_hooks(session, "SessionStart", "compact", {"source": "compact"})
        _compact_runs[session.id] = (key, fresh)
    from sidecar.core.conversation.messages import since_clear

    latest: dict[str, HookResult] = {}
    for record in since_clear(records):
        result = result_of(record)
        if result is not None and result.event == "SessionStart" and result.context \
                and result.match != "compact":
            latest[result.command] = result
    ran = {r.command for r in fresh}
    carried = [r for c, r in latest.items() if c not in ran]
    chosen = [r for r in fresh if r.context] + carried
    fitted = fit_contexts(chosen, hook_budget(session.thresholds.blocking_at),
                          session.ledger.counter)
    kept = {id(r) for r, _ in fitted}
    out = [hook_record(r, reinjected=True, carried=r in carried, context=text) for r, text in fitted]
    # Runs that add nothing for the model (or did not fit) are still kept for the user.
    out += [hook_record(r, context="") for r in fresh if id(r) not in kept]
    return out
