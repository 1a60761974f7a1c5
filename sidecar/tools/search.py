"""Glob, Grep and LS: finding files and text inside the workspace, with capped output.

Walks, reads and the stats behind sorting run in a worker thread so a large tree does not
stall the event loop, and stop early when the turn is cancelled. Only regular files are
searched or listed: a FIFO would block a reader forever, a device could never end.
"""

from __future__ import annotations

import asyncio
import os
import re
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from sidecar.core.ports import ToolContext, ToolOutcome
from sidecar.tools.base import BaseTool, ToolError
from sidecar.tools.documents import MAX_FILE_BYTES, looks_binary, read_bytes, refuse_special
from sidecar.tools.globbing import (
    SKIPPED_DIRS,
    FileFilter,
    compile_glob,
    mtime_or_zero,
    split_base,
    walk_files,
)
from sidecar.tools.paths import (
    display_path,
    is_inside_roots,
    location_of,
    resolve_path,
    resolve_readable,
)
from sidecar.tools.read import split_lines

GLOB_MAX_RESULTS = 100
GREP_DEFAULT_FILES = 100
GREP_DEFAULT_LINES = 250
GREP_MAX_LINE_CHARS = 500
LS_MAX_ENTRIES = 1_000
# A walk this long is cut short with a note rather than scanning forever.
MAX_WALK_FILES = 200_000
TRUNCATED_NOTE = "(Results are truncated. Consider using a more specific path or pattern.)"


def _base_dir(raw: Any, ctx: ToolContext, field: str = "path", saved_ok: bool = False) -> Path:
    """The directory or file a search starts from; with ``saved_ok``, a saved tool output
    of the session too (Grep may search one, as the model is told)."""
    if raw is None:
        if not ctx.roots:
            raise ToolError("No workspace folder is open; tools cannot reach any file.")
        return Path(os.path.normpath(ctx.roots[0]))
    if saved_ok:
        return resolve_readable(raw, ctx.roots, ctx.readable, field)
    return resolve_path(raw, ctx.roots, field)


def _cancelled(ctx: ToolContext) -> ToolOutcome:
    return ToolOutcome.error("Search cancelled by the user.", cancelled=True)


class GlobTool(BaseTool):
    name = "Glob"
    kind = "search"
    compactable = True
    description = (
        'Finds files by name pattern, such as "**/*.py" or "src/**/*.{ts,tsx}". `*` matches '
        "within one path component, `**` across directories. Returns absolute paths, most "
        f"recently modified first, at most {GLOB_MAX_RESULTS}. Version-control and dependency "
        "directories "
        "(.git, node_modules, virtual environments) are skipped unless the pattern names them."
    )
    input_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            "pattern": {"type": "string", "description": "The glob pattern to match."},
            "path": {
                "type": "string",
                "description": "Directory to search in (default: workspace root).",
            },
        },
        "required": ["pattern"],
    }

    def title(self, input: dict[str, Any], roots: Sequence[Path] = ()) -> str:
        pattern = input.get("pattern")
        where = input.get("path")
        title = f"Glob {pattern}" if isinstance(pattern, str) else "Glob"
        return title + (f" in {display_path(where, roots)}" if isinstance(where, str) else "")

    def locations(self, input: dict[str, Any], roots: Sequence[Path] = ()) -> list[dict[str, Any]]:
        return location_of(input.get("path"), roots)

    async def invoke(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        pattern: str = args["pattern"].strip()
        if not pattern:
            raise ToolError("Invalid input: `pattern` must not be empty")
        fixed, rest = split_base(pattern)
        base = _base_dir(args.get("path"), ctx)
        if fixed:
            base = resolve_path(os.path.join(base, fixed), ctx.roots, "pattern")
        if not base.is_dir():
            raise ToolError(f"Directory does not exist: {base}")
        regex = compile_glob(rest)
        keep = frozenset(d for d in SKIPPED_DIRS if d in pattern)

        def find() -> tuple[list[Path], bool]:
            found: list[Path] = []
            cut = False
            walk = walk_files(base, ctx.roots, ctx.cancelled.is_set, keep)
            for seen, (path, rel) in enumerate(walk, start=1):
                if seen > MAX_WALK_FILES:
                    cut = True
                    break
                if regex.match(rel):
                    found.append(path)
            found.sort(key=lambda p: (-mtime_or_zero(p), str(p)))
            return found, cut

        found, walk_cut = await asyncio.to_thread(find)
        if ctx.cancelled.is_set():
            return _cancelled(ctx)
        shown = found[:GLOB_MAX_RESULTS]
        raw = {"numFiles": len(found), "truncated": len(found) > len(shown) or walk_cut}
        if not shown:
            return ToolOutcome("No files found", raw_output=raw)
        text = "\n".join(str(p) for p in shown)
        if raw["truncated"]:
            text += "\n" + TRUNCATED_NOTE
        return ToolOutcome(text, raw_output=raw)


class GrepTool(BaseTool):
    name = "Grep"
    kind = "search"
    compactable = True
    description = (
        # What the parameters' own descriptions say is not repeated here: every word of a
        # tool definition is paid for on every request.
        "Searches file contents with a regular expression (Python `re` syntax): matching "
        "files (most recently modified first), lines or counts per file, as output_mode "
        "says. Binary files, .git, node_modules and virtual environments are skipped."
    )
    input_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            "pattern": {"type": "string", "description": "Regular expression to search for."},
            "path": {
                "type": "string",
                "description": "File or directory to search (default: workspace root).",
            },
            "glob": {"type": "string", "description": "Only search files matching this glob."},
            "output_mode": {
                "type": "string",
                "enum": ["files_with_matches", "content", "count"],
                "description": "What to return (default files_with_matches).",
            },
            "-i": {"type": "boolean", "description": "Case-insensitive search."},
            "-n": {
                "type": "boolean",
                "description": "Show line numbers in content mode (default true).",
            },
            "-A": {
                "type": "integer",
                "minimum": 0,
                "description": "Lines of context after each match.",
            },
            "-B": {
                "type": "integer",
                "minimum": 0,
                "description": "Lines of context before each match.",
            },
            "-C": {
                "type": "integer",
                "minimum": 0,
                "description": "Lines of context around each match.",
            },
            "head_limit": {
                "type": "integer",
                "minimum": 1,
                "description": "Maximum number of results.",
            },
        },
        "required": ["pattern"],
    }

    def title(self, input: dict[str, Any], roots: Sequence[Path] = ()) -> str:
        pattern = input.get("pattern")
        where = input.get("path")
        title = f"Grep {pattern!r}" if isinstance(pattern, str) else "Grep"
        if isinstance(where, str):
            title += f" in {display_path(where, roots)}"
        if isinstance(input.get("glob"), str):
            title += f" ({input['glob']})"
        return title

    def locations(self, input: dict[str, Any], roots: Sequence[Path] = ()) -> list[dict[str, Any]]:
        return location_of(input.get("path"), roots)

    async def invoke(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        try:
            regex = re.compile(args["pattern"], re.IGNORECASE if args.get("-i") else 0)
        except re.error as exc:
            raise ToolError(f"Invalid regular expression {args['pattern']!r}: {exc}") from None
        base = _base_dir(args.get("path"), ctx, saved_ok=True)
        try:
            refuse_special(base, os.stat(base))
        except FileNotFoundError:
            raise ToolError(f"Path does not exist: {base}") from None
        mode: str = args.get("output_mode", "files_with_matches")
        file_filter = FileFilter.of(args["glob"]) if args.get("glob") else None
        context = args.get("-C", 0)
        before, after = args.get("-B", context), args.get("-A", context)
        numbers = args.get("-n", True)
        default_cap = GREP_DEFAULT_LINES if mode == "content" else GREP_DEFAULT_FILES
        cap: int = args.get("head_limit", default_cap)
        keep = frozenset(d for d in SKIPPED_DIRS if d in (args.get("glob") or ""))

        def candidates() -> list[Path]:
            if base.is_file():
                return [base]
            out: list[Path] = []
            for path, rel in walk_files(base, ctx.roots, ctx.cancelled.is_set, keep):
                if len(out) >= MAX_WALK_FILES:
                    break
                if file_filter is None or file_filter.matches(rel):
                    out.append(path)
            return out

        def scan() -> list[tuple[Path, list[int], list[str]]]:
            hits = []
            for path in candidates():
                if ctx.cancelled.is_set():
                    break
                lines = _text_lines(path)
                if lines is None:
                    continue
                matched = [i for i, line in enumerate(lines) if regex.search(line)]
                if matched:
                    hits.append((path, matched, lines))
            hits.sort(key=lambda h: (-mtime_or_zero(h[0]), str(h[0])))
            return hits

        hits = await asyncio.to_thread(scan)
        if ctx.cancelled.is_set():
            return _cancelled(ctx)
        raw: dict[str, Any] = {"mode": mode, "numFiles": len(hits)}
        if not hits:
            return ToolOutcome(
                "No matches found" if mode == "content" else "No files found", raw_output=raw
            )
        if mode == "files_with_matches":
            shown = hits[:cap]
            text = f"Found {len(hits)} file{'s' if len(hits) != 1 else ''}\n"
            text += "\n".join(str(h[0]) for h in shown)
            raw["truncated"] = len(shown) < len(hits)
        elif mode == "count":
            shown = hits[:cap]
            total = sum(len(h[1]) for h in hits)
            text = "\n".join(f"{h[0]}:{len(h[1])}" for h in shown)
            text += f"\n\nFound {total} matching line{'s' if total != 1 else ''} across {len(hits)} file{'s' if len(hits) != 1 else ''}."
            raw.update(numMatches=total, truncated=len(shown) < len(hits))
        else:
            out_lines = _content_lines(hits, before, after, numbers)
            raw.update(numLines=len(out_lines), truncated=len(out_lines) > cap)
            text = "\n".join(out_lines[:cap])
        if raw.get("truncated"):
            text += "\n" + TRUNCATED_NOTE
        return ToolOutcome(text, raw_output=raw)


def _text_lines(path: Path) -> list[str] | None:
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            return None
        data = read_bytes(path, MAX_FILE_BYTES + 1)  # regular files only, never blocks
    except (OSError, ToolError):
        return None
    if len(data) > MAX_FILE_BYTES:
        return None
    if looks_binary(data):
        return None
    # Split exactly as Read splits, so line numbers agree between the two tools.
    return split_lines(data.decode("utf-8", "replace"))


def _clip(line: str) -> str:
    if len(line) <= GREP_MAX_LINE_CHARS:
        return line
    return line[:GREP_MAX_LINE_CHARS] + " [... line truncated]"


def _content_lines(
    hits: list[tuple[Path, list[int], list[str]]], before: int, after: int, numbers: bool
) -> list[str]:
    out: list[str] = []
    for path, matched, lines in hits:
        wanted: dict[int, bool] = {}
        for i in matched:
            for j in range(max(i - before, 0), min(i + after, len(lines) - 1) + 1):
                wanted.setdefault(j, False)
            wanted[i] = True
        previous = None
        for j in sorted(wanted):
            if previous is not None and j != previous + 1:
                out.append("--")
            sep = ":" if wanted[j] else "-"
            prefix = f"{path}{sep}{j + 1}{sep}" if numbers else f"{path}{sep}"
            out.append(prefix + _clip(lines[j]))
            previous = j
    return out


class LSTool(BaseTool):
    name = "LS"
    kind = "read"
    compactable = True
    description = (
        "Lists a directory as a tree, recursing into subdirectories (at most "
        f"{LS_MAX_ENTRIES} entries). Hidden entries, .git, node_modules and virtual "
        "environments are left out. Prefer "
        "Glob and Grep when you know what you are looking for."
    )
    input_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            "path": {
                "type": "string",
                "description": "Directory to list (default: workspace root).",
            },
            "ignore": {
                "type": "array",
                "items": {"type": "string"},
                "description": "Glob patterns of names to leave out.",
            },
        },
        "required": [],
    }

    def title(self, input: dict[str, Any], roots: Sequence[Path] = ()) -> str:
        where = input.get("path")
        return f"List {display_path(where, roots)}" if isinstance(where, str) else "List"

    def locations(self, input: dict[str, Any], roots: Sequence[Path] = ()) -> list[dict[str, Any]]:
        return location_of(input.get("path"), roots)

    async def invoke(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        base = _base_dir(args.get("path"), ctx)
        try:
            st = os.stat(base)
        except FileNotFoundError:
            raise ToolError(f"Directory does not exist: {base}") from None
        refuse_special(base, st)
        if not stat.S_ISDIR(st.st_mode):
            raise ToolError(f"{base} is a file, not a directory; use Read to see it.")
        ignores = [FileFilter.of(p) for p in args.get("ignore", [])]
        entries, cut = await asyncio.to_thread(
            _list_tree, base, ignores, ctx.cancelled.is_set, ctx.roots
        )
        if ctx.cancelled.is_set():
            return _cancelled(ctx)
        text = _render_tree(base, entries)
        if cut:
            text = (
                f"There are more than {LS_MAX_ENTRIES} entries under {base}. Use LS on a "
                "subdirectory, or Glob and Grep, to explore further. The first "
                f"{LS_MAX_ENTRIES} are included below:\n\n" + text
            )
        return ToolOutcome(
            text, raw_output={"path": str(base), "entries": len(entries), "truncated": cut}
        )


def _list_tree(
    base: Path, ignores: list[FileFilter], should_stop: Any, roots: Sequence[Path] = ()
) -> tuple[list[str], bool]:
    """Relative entries, directories ending in "/", breadth first so a cut keeps the top
    levels whole. FIFOs, sockets, devices and symlinks leading out of the workspace are
    left out: no tool would open them."""
    entries: list[str] = []
    queue = [""]
    while queue:
        if should_stop():
            break
        rel_dir = queue.pop(0)
        try:
            with os.scandir(base / rel_dir if rel_dir else base) as it:
                items = sorted(it, key=lambda e: e.name)
        except OSError:
            continue
        for item in items:
            if item.name.startswith(".") or item.name in SKIPPED_DIRS:
                continue
            rel = f"{rel_dir}{item.name}"
            if any(f.matches(rel) for f in ignores):
                continue
            try:
                is_dir = item.is_dir(follow_symlinks=False)
                if not is_dir and not _listable(item, roots):
                    continue
            except OSError:
                continue
            if len(entries) >= LS_MAX_ENTRIES:
                return entries, True
            entries.append(rel + "/" if is_dir else rel)
            if is_dir:
                queue.append(rel + "/")
    return entries, False


def _listable(item: os.DirEntry[str], roots: Sequence[Path]) -> bool:
    if item.is_symlink():
        return bool(roots) and is_inside_roots(item.path, roots) and (
            item.is_file() or item.is_dir())
    return item.is_file(follow_symlinks=False)


def _render_tree(base: Path, entries: list[str]) -> str:
    lines = [f"- {base}{os.sep}"]
    for rel in sorted(entries, key=lambda r: r.rstrip("/").split("/")):
        parts = rel.rstrip("/").split("/")
        depth = len(parts)
        lines.append("  " * depth + f"- {parts[-1]}{'/' if rel.endswith('/') else ''}")
    return "\n".join(lines)
