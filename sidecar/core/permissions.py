"""What a tool call may do in each permission mode: the one place that decides it.

The modes are Claude Code's: ``default`` asks before edits and shell commands,
``acceptEdits`` lets edits through and asks before shell commands, ``plan`` is read-only
(no edit except to the session's plan file, no shell command that could write) and
``bypassPermissions`` asks nothing. ``decide`` gives one call's verdict before it runs:
refused (with the sentence the model reads), run after asking the user, or run as is.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from sidecar.contract.results import PERMISSION_MODES as MODES

Mode = Literal["default", "acceptEdits", "plan", "bypassPermissions"]
MODE_IDS: tuple[str, ...] = tuple(m["id"] for m in MODES)
# Tool kinds that only look (ACP's ToolKind names).
_LOOKING = frozenset({"read", "search", "think", "fetch"})
_CHANGING = frozenset({"edit", "delete", "move"})
EXIT_PLAN_TOOL = "ExitPlanMode"


def is_mode(value: object) -> bool:
    return isinstance(value, str) and value in MODE_IDS


@dataclass(frozen=True)
class Verdict:
    action: Literal["allow", "ask", "refuse"]
    reason: str = ""  # why a call is refused, for the model


ALLOW = Verdict("allow")
ASK = Verdict("ask")


@dataclass(frozen=True)
class CallView:
    """What the decision looks at of one call and of its session."""

    mode: str
    tool: str
    kind: str
    input: dict[str, Any]
    roots: Sequence[Path]
    plan_file: Path | None
    # The client can show a permission request (an edit is not asked about otherwise).
    can_ask: bool = True
    # The user accepted every edit of this turn ("allow_turn").
    edits_accepted: bool = False


def decide(call: CallView) -> Verdict:
    if call.tool == EXIT_PLAN_TOOL:
        if call.mode != "plan":
            return Verdict("refuse", "Not in plan mode: ExitPlanMode is only for leaving plan mode.")
        return ALLOW  # the tool itself asks the user
    if call.kind in _LOOKING:
        return ALLOW
    if call.kind in _CHANGING:
        if call.plan_file is not None and targets(call.input, call.roots) == call.plan_file:
            return ALLOW  # the session's own plan, in any mode
        if call.mode == "plan":
            where = f" The only file you may write is the plan file, {call.plan_file}." if call.plan_file else ""
            return Verdict("refuse", f"Plan mode is read-only: {call.tool} is not allowed until the user "
                                     f"approves the plan (call ExitPlanMode).{where}")
        if call.mode in ("acceptEdits", "bypassPermissions") or call.edits_accepted or not call.can_ask:
            return ALLOW
        return ASK
    if call.kind == "execute":
        if call.mode == "plan":
            why = write_risk(str(call.input.get("command", "")))
            if why is None:
                return ALLOW
            return Verdict("refuse", f"Plan mode is read-only: this command was not run because {why}. "
                                     "Only read-only commands run in plan mode; the rest can run after "
                                     "the user approves the plan (call ExitPlanMode).")
        return ALLOW if call.mode == "bypassPermissions" else ASK
    return ALLOW


def targets(args: dict[str, Any], roots: Sequence[Path]) -> Path | None:
    """The absolute, normalized path an edit names (relative to the first root)."""
    raw = args.get("file_path")
    if not isinstance(raw, str) or not raw.strip() or "\x00" in raw:
        return None
    text = os.path.expanduser(raw.strip())
    if not os.path.isabs(text):
        if not roots:
            return None
        text = os.path.join(os.fspath(roots[0]), text)
    return Path(os.path.normpath(text))


# ----- read-only shell commands --------------------------------------------------------------

# Commands that only read, whatever plain arguments they get (the flags that write or run
# something else are refused below, per command).
READ_ONLY_COMMANDS = frozenset({
    "ls", "cat", "head", "tail", "wc", "grep", "egrep", "fgrep", "rg", "find", "pwd", "echo",
    "which", "file", "stat", "du", "df", "tree", "diff", "cmp", "sort", "cut", "tr", "basename",
    "dirname", "realpath", "readlink", "whoami", "uname", "printenv", "true", "false",
    "test", "nl", "sha256sum", "sha1sum", "md5sum", "cksum", "cd", "type", "column", "comm",
})
# Flags that write a file or run another program (a one-letter flag counts inside a
# cluster too: ``sort -ro out`` writes ``out``).
_WRITING_FLAGS = {
    "find": ("-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"),
    "sort": ("-o", "--output"),
    "rg": ("--pre",),
    "tree": ("-o",),
    "file": ("-C", "--compile"),
}
READ_ONLY_GIT = frozenset({
    "status", "log", "diff", "show", "ls-files", "ls-tree", "rev-parse", "blame", "describe",
    "shortlog", "cat-file", "whatchanged", "grep",
})
# git subcommands that only read with no argument but these.
_GIT_LISTING = {
    "branch": {"-a", "-r", "-v", "-vv", "-l", "--list", "--all", "--remotes", "--verbose",
               "--show-current", "--no-color"},
    "tag": {"-l", "--list", "-n"},
    "remote": {"-v", "--verbose"},
}
# git subcommands that only read when their first argument is one of these.
_GIT_READING_ACTIONS = {"stash": {"list", "show"}, "reflog": {"show"}}
_GIT_RUNNING_OPTIONS = ("--output", "--ext-diff", "-O", "--open-files-in-pager")
# Redirections, substitutions, background jobs and here-documents: a command that uses
# one is never called read-only.
_UNSAFE = re.compile(r"[<>`]|\$\(|\$\{|(?<![&|])&(?![&])|\n|\r")
_SEPARATORS = re.compile(r"\|\||&&|[|;]")


def write_risk(command: str) -> str | None:
    """None when ``command`` only reads; else why it may write (plain words)."""
    text = command.strip()
    if not text:
        return "it is empty"
    found = _UNSAFE.search(text)
    if found:
        shown = found.group(0).replace("\n", "a line break").replace("\r", "a line break")
        return f"it uses {shown!r} (a redirection, substitution or background job)"
    for part in _SEPARATORS.split(text):
        why = _segment_risk(part)
        if why is not None:
            return why
    return None


def _segment_risk(segment: str) -> str | None:
    try:
        words = shlex.split(segment)
    except ValueError:
        return "it could not be read as plain words (unbalanced quotes)"
    if not words:
        return "it has an empty part"
    name = words[0]
    if "=" in name:
        return f"it sets a variable ({name})"
    if name == "git":
        return _git_risk(words[1:])
    if name not in READ_ONLY_COMMANDS:
        return (f"`{name}` is not one of the read-only commands "
                f"({', '.join(sorted(READ_ONLY_COMMANDS))}, and git {', '.join(sorted(READ_ONLY_GIT))})")
    for flag in _WRITING_FLAGS.get(name, ()):
        if any(_has_flag(w, flag) for w in words[1:]):
            return f"`{name} {flag}` writes a file or runs another program"
    return None


def _has_flag(word: str, flag: str) -> bool:
    if word == flag or word.startswith(flag + "="):
        return True
    short = len(flag) == 2 and flag[0] == "-" and flag[1] != "-"
    return short and word.startswith("-") and not word.startswith("--") and flag[1] in word[1:]


def _git_risk(args: list[str]) -> str | None:
    if not args:
        return None
    sub, rest = args[0], args[1:]
    if sub.startswith("-"):
        return "git options before the subcommand are not allowed in plan mode"
    if any(_has_flag(a, option) for a in rest for option in _GIT_RUNNING_OPTIONS):
        return f"`git {sub}` with that option writes a file or runs another program"
    if sub in READ_ONLY_GIT:
        return None
    listing = _GIT_LISTING.get(sub)
    if listing is not None and all(a in listing for a in rest):
        return None
    actions = _GIT_READING_ACTIONS.get(sub)
    if actions is not None and rest and rest[0] in actions:
        return None
    return f"`git {sub}{' ' + ' '.join(rest) if rest else ''}` may change the repository"
