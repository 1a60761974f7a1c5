"""Reading a shell command as plan mode's read-only shell does: a small subset of bash.

Simple commands joined by ``|``, ``||``, ``&&`` and ``;``, words in plain, single- or
double-quoted text. Anything else unquoted — a redirection, ``$`` (variables,
substitutions), backquotes, ``&`` alone, parentheses, braces, brackets, ``!``, ``#``, a line
break — is outside the subset, and :func:`parse` refuses it.

A word with an unquoted ``*`` or ``?`` is kept as a glob pattern, which :func:`expand`
expands as bash would (in the folder the command runs in). ``~`` at the start of a word is
the home folder.
"""

from __future__ import annotations

import glob
import os
import re
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Word:
    text: str  # the word as bash passes it (quotes removed)
    pattern: str | None = None  # a glob pattern (quoted parts escaped) when it has unquoted * or ?
    home: bool = False  # starts with an unquoted ~ (followed by / or nothing)


_REFUSED = {
    "<": "a redirection", ">": "a redirection", "$": "a variable or substitution",
    "`": "a substitution", "(": "a subshell", ")": "a subshell", "{": "a group or brace expansion",
    "}": "a group or brace expansion", "[": "a glob class", "]": "a glob class",
    "!": "a negation", "#": "a comment", "&": "a background job", "~": "a home folder expansion bash may make of it",
}
_SPACE = " \t"


class _Unsafe(ValueError):
    pass


def parse(command: str) -> list[list[Word]]:
    """The simple commands of ``command``; raises ``ValueError`` (the reason) on anything
    outside the subset."""
    segments: list[list[Word]] = []
    words: list[Word] = []
    text: list[str] = []
    pattern: list[str] = []
    globbed = started = home = False
    i, n = 0, len(command)

    def end_word() -> None:
        nonlocal globbed, started, home
        if started:
            joined = "".join(text)
            words.append(Word(joined, "".join(pattern) if globbed else None, home))
        text.clear()
        pattern.clear()
        globbed = started = home = False

    def literal(ch: str) -> None:
        nonlocal started
        started = True
        text.append(ch)
        pattern.append(glob.escape(ch))

    def end_segment(op: str) -> None:
        end_word()
        if not words:
            raise _Unsafe(f"it has an empty part before {op!r}")
        segments.append(list(words))
        words.clear()

    while i < n:
        ch = command[i]
        if ch in _SPACE:
            end_word()
        elif ch == "'":
            close = command.find("'", i + 1)
            if close < 0:
                raise _Unsafe("it could not be read as plain words (unbalanced quotes)")
            chunk = command[i + 1:close]
            if "\n" in chunk or "\r" in chunk:
                raise _Unsafe("it has a line break")
            started = True
            for c in chunk:
                literal(c)
            i = close
        elif ch == '"':
            started = True
            i += 1
            while True:
                if i >= n:
                    raise _Unsafe("it could not be read as plain words (unbalanced quotes)")
                c = command[i]
                if c == '"':
                    break
                if c in "\n\r":
                    raise _Unsafe("it has a line break")
                if c in "$`":
                    raise _Unsafe(f"it uses {c!r} ({_REFUSED[c]})")
                if c == "\\" and i + 1 < n and command[i + 1] in '$`"\\':
                    i += 1
                    c = command[i]
                literal(c)
                i += 1
        elif ch == "\\":
            if i + 1 >= n or command[i + 1] in "\n\r":
                raise _Unsafe("it has a line break")
            i += 1
            literal(command[i])
        elif ch == "|" or ch == ";" or (ch == "&" and command[i:i + 2] == "&&"):
            op = command[i:i + 2] if command[i:i + 2] in ("||", "&&") else ch
            if command[i:i + 2] in ("|&", ";;", ";&"):
                raise _Unsafe(f"it uses {command[i:i + 2]!r} (not a plain pipe or list)")
            end_segment(op)
            i += len(op) - 1
        elif ch == "~" and not started and (i + 1 >= n or command[i + 1] in "/" + _SPACE + "|;&"):
            home = started = True
            text.append(os.path.expanduser("~"))
            pattern.append(glob.escape(os.path.expanduser("~")))
        elif ch == "~" and started and text and text[-1] not in "=:":
            literal(ch)  # HEAD~1: only a word's start, or after = or :, is expanded
        elif ch in "\n\r":
            raise _Unsafe("it has a line break")
        elif ch in _REFUSED:
            raise _Unsafe(f"it uses {ch!r} ({_REFUSED[ch]})")
        elif ch in "*?":
            started = globbed = True
            text.append(ch)
            pattern.append(ch)
        else:
            literal(ch)
        i += 1
    end_word()
    if words:
        segments.append(list(words))
    elif segments and command.rstrip()[-1:] != ";":
        raise _Unsafe("it ends with an operator")
    if not segments:
        raise _Unsafe("it is empty")
    return segments


_DOT_GLOB = re.compile(r"(^|/)\.[^/]*[*?][^/]*")


def expand(word: Word, cwd: Path) -> list[str]:
    """What bash makes of ``word`` in ``cwd``: the names a glob matches (sorted), or the
    word itself when it matches nothing or is no glob."""
    if word.pattern is None:
        return [word.text]
    if os.path.isabs(word.pattern):
        found = sorted(glob.glob(word.pattern))
    else:
        found = sorted(glob.glob(word.pattern, root_dir=cwd))
    climbing = _DOT_GLOB.sub(r"\1..", word.text, count=1)
    if climbing != word.text:
        # An older bash (or `shopt -u globskipdots`) lets `.*` match `..` too.
        found.append(climbing)
    return found or [word.text]
