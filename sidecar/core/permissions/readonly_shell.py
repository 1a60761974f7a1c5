"""The shell commands plan mode runs unasked: read-only by construction.

A command is read as a small subset of bash (``sidecar.core.permissions.shell_syntax``:
simple commands joined by ``|``, ``||``, ``&&`` and ``;``, plain or quoted words; anything
else unquoted makes the command not read-only). Each simple command must be one that
``sidecar.core.permissions.readonly_commands`` lists, and every option it is given must be
one that command's entry lists (an allow-list, not a list of blocked flags:
``sort --compress-program``, ``rg --pre``, ``find -exec``, ``git -c`` and ``git diff
--ext-diff`` are refused because they are not listed). Long options match exactly (an
abbreviation is unknown, so refused).

A word with an unquoted ``*`` or ``?`` is expanded as bash would (in the folder the
command runs in) and the names it matches are vetted as if typed, and as paths: a file
named ``--pre=sh`` cannot become an option. ``~`` at the start of a word is the home
folder.

Every path a command reads (operands of the commands that read files, path-valued
options, ``find``'s starting points, ``cd``'s target, git's operands that name files) must
resolve, symlinks followed, inside one of the session's roots; else the verdict is "ask",
as the Read tool asks. ``cd`` moves where the rest of the command runs, so each later part
is vetted in every folder it may run in (``cd`` may fail, or be skipped after ``||``).
:class:`Vetting` also says in which folders git runs, so that the caller can run it with
``sidecar.core.workspace.safe_git``'s overrides.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from sidecar.core.permissions.readonly_commands import (
    COMMANDS,
    FIND_ALONE,
    FIND_WITH_VALUE,
    FORMATS,
    GIT,
    GIT_ACTIONS,
    GIT_GLOBAL,
    LISTING_IMPLIED,
    NEWER_XY,
    SPECIAL,
    Kind,
    Spec,
)
from sidecar.core.permissions.shell_syntax import Word, expand, parse

# ----- the verdict ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Vetting:
    """``allow``: read-only and inside the roots; ``ask``: read-only but it reads outside
    them (``reason`` names what); ``refuse``: not read-only (``reason`` says why)."""

    action: Literal["allow", "ask", "refuse"]
    reason: str = ""
    git_cwds: tuple[Path, ...] = ()  # the folders git runs in


class _Refused(Exception):
    pass


def _unlisted(name: str, option: str) -> _Refused:
    return _Refused(f"`{name} {option}` is not one of the options plan mode allows for {name} "
                    "(it may write a file or run another program)")


# Each `cd` may or may not have happened, so the folders double with every `cd` elsewhere.
MAX_FOLDERS = 16


def vet(command: str, roots: Sequence[Path], cwd: Path | None = None) -> Vetting:
    """Whether ``command``, run in ``cwd`` (the first root), only reads inside ``roots``."""
    try:
        segments = parse(command)
    except ValueError as exc:
        return Vetting("refuse", str(exc))
    real_roots = [os.path.realpath(r) for r in roots]
    start = cwd if cwd is not None else (roots[0] if roots else Path.cwd())
    cwds: list[Path] = [Path(os.path.realpath(start))]
    outside: list[str] = []
    git_cwds: list[Path] = []
    try:
        for segment in segments:
            moved: list[Path] = []
            for here in cwds:
                reader = _Segment(here, real_roots)
                reader.read(segment)
                outside += [p for p in reader.outside if p not in outside]
                if reader.is_git and here not in git_cwds:
                    git_cwds.append(here)
                if reader.cd_to is not None and reader.cd_to not in cwds + moved:
                    moved.append(reader.cd_to)
            cwds += moved  # a cd may fail or be skipped: the old folders stay possible
            if len(cwds) > MAX_FOLDERS:
                raise _Refused(f"its `cd`s leave more than {MAX_FOLDERS} folders it may run in")
    except _Refused as exc:
        return Vetting("refuse", str(exc))
    if outside:
        return Vetting("ask", "it reads outside the workspace: " + ", ".join(outside[:5]),
                       tuple(git_cwds))
    return Vetting("allow", "", tuple(git_cwds))


def _inside(path: str, roots: Sequence[str]) -> bool:
    for root in roots:
        try:
            if os.path.commonpath([path, root]) == root:
                return True
        except ValueError:
            continue
    return False


class _Segment:
    """Reads one simple command in one folder: raises ``_Refused``, or notes the paths
    outside the roots, a ``cd`` target and whether it is git."""

    def __init__(self, cwd: Path, roots: Sequence[str]) -> None:
        self.cwd = cwd
        self.roots = roots
        self.outside: list[str] = []
        self.cd_to: Path | None = None
        self.is_git = False

    def check_path(self, text: str) -> None:
        if text in ("", "-"):
            return
        full = os.path.realpath(os.path.join(self.cwd, text))
        if not _inside(full, self.roots):
            self.outside.append(text)

    def read(self, segment: list[Word]) -> None:
        first = segment[0]
        if first.pattern is not None or first.home:
            raise _Refused("its command name is a pattern")
        name = first.text
        if "=" in name:
            raise _Refused(f"it sets a variable ({name})")
        words: list[str] = []
        for word in segment[1:]:
            names = expand(word, self.cwd)
            if word.pattern is not None:
                for found in names:  # a glob names paths, whatever the command
                    self.check_path(found)
            words += names
        if name == "cd":
            self.read_cd(words)
        elif name == "find":
            self.read_find(words)
        elif name == "git":
            self.is_git = True
            self.read_git(words)
        elif name in COMMANDS:
            self.read_options(name, COMMANDS[name], words)
        else:
            known = ", ".join(sorted([*COMMANDS, *SPECIAL]))
            raise _Refused(f"`{name}` is not one of the read-only commands ({known}; "
                           f"git {', '.join(sorted([*GIT, *GIT_ACTIONS]))})")

    def read_cd(self, words: list[str]) -> None:
        operands = [w for w in words if w not in ("-L", "-P")]
        if len(operands) > 1 or (operands and operands[0].startswith("-")):
            raise _Refused("`cd` takes one folder here")
        target = operands[0] if operands else os.path.expanduser("~")
        self.check_path(target)
        self.cd_to = Path(os.path.realpath(os.path.join(self.cwd, target)))

    def read_find(self, words: list[str]) -> None:
        i = 0
        while i < len(words) and words[i] == "-P":
            i += 1
        while i < len(words) and not (words[i].startswith("-") or words[i] in ("!", "(", ")", ",")):
            self.check_path(words[i])  # a starting point
            i += 1
        while i < len(words):
            word = words[i]
            if word in FIND_WITH_VALUE or word in NEWER_XY:
                if i + 1 >= len(words):
                    raise _Refused(f"`find {word}` needs a value")
                i += 2
            elif word in FIND_ALONE:
                i += 1
            else:
                raise _Refused(f"`find {word}` is not one of the find predicates plan mode "
                               "allows (it may write a file or run another program)")

    def read_git(self, words: list[str]) -> None:
        i = 0
        while i < len(words) and words[i].startswith("-"):
            if words[i] not in GIT_GLOBAL:
                raise _Refused(f"`git {words[i]}`: git options before the subcommand are not "
                               "allowed in plan mode")
            i += 1
        if i >= len(words):
            return
        sub, rest = words[i], words[i + 1:]
        actions = GIT_ACTIONS.get(sub)
        if actions is not None:
            # A bare `git stash` is `git stash push`; a bare `git reflog` shows.
            action = rest[0] if rest else "push" if sub == "stash" else "show"
            if action not in actions:
                raise _Refused(f"`git {sub} {action}` may change the repository")
            self.read_options(f"git {sub} {action}", actions[action], rest[1:] if rest else [])
            return
        if sub not in GIT:
            raise _Refused(f"`git {sub}` may change the repository or run another program")
        seen, operands = self.read_options(f"git {sub}", GIT[sub], rest)
        if sub in ("branch", "tag") and operands and not seen & LISTING_IMPLIED:
            raise _Refused(f"`git {sub} {operands[0]}` creates a {sub}")
        if sub == "remote" and operands:
            raise _Refused(f"`git remote {operands[0]}` may change the repository or connect")

    def read_options(self, name: str, spec: Spec, words: list[str]) -> tuple[set[str], list[str]]:
        """Check every option against ``spec``; check the operands it reads. Returns the
        options seen and the operands."""
        seen: set[str] = set()
        operands: list[str] = []
        i = 0
        ended = spec.operands == "any"
        while i < len(words):
            word = words[i]
            i += 1
            if ended or word == "-" or not word.startswith("-"):
                operands.append(word)
                continue
            if word == "--":
                ended = True
                continue
            if word.startswith("--"):
                option, eq, value = word.partition("=")
                seen.add(option)
                if option in spec.valued:
                    if not eq:
                        if i >= len(words):
                            raise _Refused(f"`{name} {option}` needs a value")
                        value = words[i]
                        i += 1
                    self.check_value(name, option, spec.valued[option], value)
                elif option in spec.optional:
                    if eq:
                        self.check_value(name, option, "format" if option in FORMATS else "text", value)
                elif option not in spec.flags or eq:
                    raise _unlisted(name, option)
                continue
            if spec.digits and word[1:].isdigit():
                continue
            j = 1
            while j < len(word):
                option = "-" + word[j]
                seen.add(option)
                rest = word[j + 1:]
                if option in spec.valued:
                    if not rest:
                        if i >= len(words):
                            raise _Refused(f"`{name} {option}` needs a value")
                        rest = words[i]
                        i += 1
                    self.check_value(name, option, spec.valued[option], rest)
                    break
                if option in spec.attached:
                    break  # its value, if any, is the rest of the word
                if option not in spec.flags:
                    raise _unlisted(name, option)
                j += 1
        self.check_operands(spec, operands, seen)
        return seen, operands

    def check_value(self, name: str, option: str, kind: Kind, value: str) -> None:
        if kind == "path":
            self.check_path(value)
        elif kind == "format" and "%G" in value:
            raise _Refused(f"`{name} {option}` with %G checks signatures (runs gpg)")

    def check_operands(self, spec: Spec, operands: list[str], seen: set[str]) -> None:
        if spec.operands == "none" and operands:
            raise _Refused(f"it takes no operand ({operands[0]})")
        if spec.operands == "paths":
            for word in operands:
                self.check_path(word)
                if spec.no_folders and os.path.isdir(os.path.join(self.cwd, word)):
                    self.outside.append(f"{word} (a folder: its files' links are followed)")
        elif spec.operands == "pattern":
            for word in operands if seen & spec.pattern_options else operands[1:]:
                self.check_path(word)
        elif spec.operands == "git":
            for word in operands:
                if self.names_a_path(word):
                    self.check_path(word)

    def names_a_path(self, word: str) -> bool:
        """A git operand that is a file rather than a revision: absolute, climbing, or
        there on disk."""
        return (os.path.isabs(word) or ".." in word.split("/")
                or os.path.lexists(os.path.join(self.cwd, word)))
