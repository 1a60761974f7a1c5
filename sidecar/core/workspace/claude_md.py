"""The CLAUDE.md files of a workspace (and AGENTS.md, CLAUDE.local.md, the user's own), with
the files their ``@path`` mentions include.

Where they are looked for, in which order, how each is cleaned (frontmatter and HTML
comments dropped), and the bounds: the include depth, a file's size, all of them together.
A project file is read only where it resolves inside the workspace (one in a folder above
the workspace: inside that folder), and its includes only inside the workspace; the user's
own file, and what it includes, may lie anywhere.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sidecar.core.workspace.own_files import RefusedFile, is_own_file, read_own_text

log = logging.getLogger(__name__)

MAX_INCLUDE_DEPTH = 5
# A memory file larger than this is not read (it would fill any window).
MEMORY_FILE_MAX_BYTES = 4 << 20
# All memory files together are cut at this many characters (about 50K tokens), so that a
# repository's CLAUDE.md cannot leave a session no room: it is in every request, and
# neither a compaction nor /clear can make it smaller.
MEMORY_TOTAL_MAX_CHARS = 200_000
MEMORY_CUT_NOTE = ("\n\n[The memory files were cut here: together they exceed {limit:,} "
                   "characters. Keep CLAUDE.md files short.]")
LARGE_MEMORY_FILE_CHARS = 40_000
KIND_TEXT = {
    "user": "the user's private instructions for all projects",
    "project": "project instructions, checked into the codebase",
    "local": "the user's private instructions for this project, not checked in",
}
# Only text is worth injecting; an @mention of a binary would flood the prompt.
TEXT_SUFFIXES = frozenset({
    ".md", ".markdown", ".mdx", ".txt", ".rst", ".adoc", ".org", ".json", ".jsonc", ".yaml",
    ".yml", ".toml", ".ini", ".cfg", ".conf", ".env", ".xml", ".html", ".css", ".scss", ".csv",
    ".sql", ".graphql", ".proto", ".py", ".pyi", ".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs",
    ".go", ".rs", ".java", ".kt", ".kts", ".scala", ".c", ".h", ".cc", ".cpp", ".hpp", ".cs",
    ".rb", ".php", ".swift", ".m", ".lua", ".sh", ".bash", ".zsh", ".fish", ".ps1", ".r", ".jl",
    ".ex", ".exs", ".erl", ".hs", ".ml", ".clj", ".dart", ".vue", ".svelte", ".tf", ".nix",
    ".gradle", ".cmake", ".mk", ".dockerfile", ".gitignore",
})
_FRONTMATTER = re.compile(r"\A\ufeff?---[ \t]*\n.*?^---[ \t]*$\n?", re.DOTALL | re.MULTILINE)
_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})[^\n]*\n.*?^[ \t]*\1[ \t]*$", re.DOTALL | re.MULTILINE)
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_INLINE_CODE = re.compile(r"`[^`\n]*`")
_MENTION = re.compile(r"(?:^|(?<=\s))@((?:[^\s\\]|\\ )+)")


@dataclass(frozen=True)
class MemoryFile:
    path: Path
    kind: str  # user | project | local
    content: str  # as injected: frontmatter and HTML comments stripped, trimmed
    parent: Path | None = None  # the file whose @include brought it in


def memory_slots(cwd: Path, home: Path) -> list[tuple[list[Path], str]]:
    """Candidate files in load order (later wins); in a slot the first existing one is used."""
    slots: list[tuple[list[Path], str]] = [([home / ".claude" / "CLAUDE.md"], "user")]
    for d in [*reversed(cwd.parents), cwd]:
        slots.append(([d / "AGENTS.md", d / "CLAUDE.md"], "project"))
        slots.append(([d / ".claude" / "CLAUDE.md"], "project"))
        slots.append(([d / "CLAUDE.local.md"], "local"))
    return slots


def memory_locations(cwd: Path, home: Path) -> list[Path]:
    return [p for paths, _ in memory_slots(cwd, home) for p in paths]


def _outside_code(text: str, fn: Callable[[str], str]) -> str:
    out, pos = [], 0
    for m in _FENCE.finditer(text):
        out += [fn(text[pos:m.start()]), m.group(0)]
        pos = m.end()
    out.append(fn(text[pos:]))
    return "".join(out)


def clean_memory_text(raw: str) -> str:
    return _outside_code(_FRONTMATTER.sub("", raw, count=1), lambda s: _COMMENT.sub("", s)).strip()


def include_targets(text: str, base: Path, home: Path) -> list[Path]:
    """`@path` mentions outside code: relative to the file, `~/` or absolute."""
    found: list[Path] = []

    def scan(chunk: str) -> str:
        for m in _MENTION.finditer(_INLINE_CODE.sub(" ", chunk)):
            # Trailing punctuation belongs to the sentence, not to the path.
            raw = m.group(1).split("#", 1)[0].replace("\\ ", " ").rstrip(".,;:!?)]")
            if raw.startswith("~/"):
                p = home / raw[2:]
            elif raw.startswith("/") and len(raw) > 1:
                p = Path(raw)
            elif raw.startswith("./") or re.match(r"[A-Za-z0-9._-]", raw):
                p = base / raw
            else:
                continue
            if p.suffix == "" or p.suffix.lower() in TEXT_SUFFIXES:
                found.append(Path(os.path.normpath(p)))
        return chunk

    _outside_code(text, scan)
    return found


def _slot_folder(path: Path) -> Path:
    """The folder a memory file belongs to (``d`` for ``d/CLAUDE.md`` and ``d/.claude/CLAUDE.md``)."""
    folder = path.parent
    return folder.parent if folder.name == ".claude" else folder


def discover_memory_files(cwd: Path, home: Path, roots: tuple[Path, ...]) -> list[MemoryFile]:
    """Every memory file in load order, each followed by what it includes.

    A project file is read only where it resolves (symlinks followed) inside the workspace
    (``roots``), or, for one in a folder above the workspace, inside that folder; its
    includes only inside the workspace. The user's own file, and what it includes, may lie
    anywhere: the user chose it.
    """
    seen: set[str] = set()
    out: list[MemoryFile] = []
    room = [MEMORY_TOTAL_MAX_CHARS]

    def load(path: Path, kind: str, depth: int, parent: Path | None,
             within: tuple[Path, ...] | None) -> None:
        key, real = os.path.normpath(path), os.path.realpath(path)
        if depth >= MAX_INCLUDE_DEPTH or key in seen or real in seen or room[0] <= 0:
            return
        seen.update((key, real))
        try:
            text = clean_memory_text(read_own_text(path, within, limit=MEMORY_FILE_MAX_BYTES))
        except RefusedFile as exc:
            log.warning("memory file %s not read: %s", path, exc.why)
            return
        except (OSError, ValueError):
            return
        if len(text) > LARGE_MEMORY_FILE_CHARS:
            log.warning("%s holds %d characters; large memory files crowd the context",
                        path, len(text))
        if len(text) > room[0]:
            log.warning("%s cut: the memory files exceed %d characters", path, MEMORY_TOTAL_MAX_CHARS)
            text = text[:room[0]] + MEMORY_CUT_NOTE.format(limit=MEMORY_TOTAL_MAX_CHARS)
            room[0] = 0
        else:
            room[0] -= len(text)
        if text:
            out.append(MemoryFile(path, kind, text, parent))
        for target in include_targets(text, path.parent, home):
            allowed = None if kind == "user" else roots
            if is_own_file(target, allowed):
                load(target, kind, depth + 1, path, allowed)
            elif os.path.lexists(target):
                log.warning("%s not included from %s: it resolves outside the workspace "
                            "or is not a regular file", target, path)

    for candidates, kind in memory_slots(cwd, home):
        chosen = next((p for p in candidates if p.is_file()), None)
        if chosen is None:
            continue
        if kind == "user":
            load(chosen, kind, 0, None, None)
        else:
            inside_roots = any(r == chosen or r in chosen.parents for r in roots)
            load(chosen, kind, 0, None, roots if inside_roots else (_slot_folder(chosen),))
    return out
