"""The memory tool: a folder of files the model keeps across conversations and compactions,
with the commands of Anthropic's ``memory_20250818`` tool (view, create, str_replace,
insert, delete, rename on paths under ``/memories``). On Anthropic it is offered as that
tool (the API adds its own instructions); elsewhere as a plain tool of the same shape.

The folder is the sidecar's own, one per workspace: ``<storageDir>/projects/<sanitized
cwd>/memory``. Every path must name something inside it: no ``..``, no symbolic link on
the way, nothing but regular files and folders; a path the model makes up outside
``/memories`` is refused, as a traversal would be.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import stat
from collections.abc import Sequence
from pathlib import Path, PurePosixPath
from typing import Any, ClassVar

from sidecar.core.ports import ToolContext, ToolOutcome
from sidecar.core.settings import Settings, storage_dir
from sidecar.core.subagents.ports import MEMORY_TOOL
from sidecar.storage.paths import project_dir
from sidecar.tools.base import BaseTool, ToolError

ANTHROPIC_TYPE = "memory_20250818"
ROOT = "/memories"
MAX_FILE_BYTES = 256 * 1024
MAX_LISTED = 200
COMMANDS = ("view", "create", "str_replace", "insert", "delete", "rename")


def memory_folder(storage: Path, cwd: str) -> Path:
    """The workspace's memory folder (``/memories`` to the model)."""
    return project_dir(storage, str(Path(cwd).resolve())) / "memory"


def _inside(folder: Path, virtual: str) -> Path:
    """The real path of a ``/memories/...`` path; ToolError for anything else."""
    if not isinstance(virtual, str) or "\x00" in virtual or "\\" in virtual:
        raise ToolError(f"The path must start with {ROOT}")
    pure = PurePosixPath(virtual)
    if not pure.is_absolute() or pure.parts[:2] != ("/", ROOT[1:]):
        raise ToolError(f"The path must start with {ROOT}: {virtual}")
    rest = pure.parts[2:]
    if any(part in ("..", ".") for part in rest):
        raise ToolError(f"The path must stay inside {ROOT}: {virtual}")
    real = folder.joinpath(*rest)
    # No symbolic link anywhere from the folder down: it could point out of it.
    here = folder
    for part in rest:
        here = here / part
        try:
            if stat.S_ISLNK(os.lstat(here).st_mode):
                raise ToolError(f"{virtual} goes through a symbolic link, which memory does not follow")
        except FileNotFoundError:
            break
    return real


def _shown(folder: Path, real: Path) -> str:
    rest = real.relative_to(folder).as_posix()
    return ROOT if rest == "." else f"{ROOT}/{rest}"


def _text_of(real: Path) -> str:
    st = os.lstat(real)
    if not stat.S_ISREG(st.st_mode):
        raise ToolError(f"{real.name} is not a file")
    if st.st_size > MAX_FILE_BYTES:
        raise ToolError(f"{real.name} holds {st.st_size:,} bytes, more than memory keeps "
                        f"({MAX_FILE_BYTES:,})")
    return real.read_bytes().decode("utf-8", errors="replace")


def _write(real: Path, text: str) -> None:
    data = text.encode("utf-8")
    if len(data) > MAX_FILE_BYTES:
        raise ToolError(f"A memory file holds at most {MAX_FILE_BYTES:,} bytes")
    real.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    from sidecar.core.json_files import replace_whole

    replace_whole(real, data)


def _view(folder: Path, real: Path, virtual: str, view_range: Any) -> str:
    if not real.exists():
        if real == folder:
            return f"{ROOT} is empty."
        raise ToolError(f"{virtual} does not exist")
    if real.is_dir():
        lines = [f"{virtual}:"]
        entries = sorted(p for p in real.rglob("*") if len(p.relative_to(real).parts) <= 2)
        for entry in entries[:MAX_LISTED]:
            if entry.is_symlink():
                continue
            size = entry.stat().st_size if entry.is_file() else 0
            tail = "/" if entry.is_dir() else f" ({size:,} bytes)"
            lines.append(f"- {_shown(folder, entry)}{tail}")
        if len(entries) > MAX_LISTED:
            lines.append(f"... and {len(entries) - MAX_LISTED} more")
        return "\n".join(lines) if len(lines) > 1 else f"{virtual} is empty."
    text_lines = _text_of(real).splitlines()
    start, end = 1, len(text_lines)
    if isinstance(view_range, list) and len(view_range) == 2:
        start = max(int(view_range[0]), 1)
        end = len(text_lines) if int(view_range[1]) == -1 else min(int(view_range[1]), end)
    return "\n".join(f"{n:6d}\t{text_lines[n - 1]}" for n in range(start, end + 1))


def run_command(folder: Path, args: dict[str, Any]) -> str:
    """One memory command on ``folder`` (blocking); its answer, or ToolError."""
    command = args.get("command")
    if command == "rename":
        old = _inside(folder, str(args.get("old_path", "")))
        new = _inside(folder, str(args.get("new_path", "")))
        if not old.exists() or old == folder:
            raise ToolError(f"{args.get('old_path')} does not exist")
        if new.exists():
            raise ToolError(f"{args.get('new_path')} already exists")
        new.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.replace(old, new)
        return f"Renamed {args.get('old_path')} to {args.get('new_path')}"
    virtual = str(args.get("path", ""))
    real = _inside(folder, virtual)
    if command == "view":
        return _view(folder, real, virtual, args.get("view_range"))
    if real == folder:
        raise ToolError(f"{ROOT} itself cannot be {command}d; name a file inside it")
    if command == "create":
        _write(real, str(args.get("file_text", "")))
        return f"File created successfully at: {virtual}"
    if command == "delete":
        if not real.exists():
            raise ToolError(f"{virtual} does not exist")
        shutil.rmtree(real) if real.is_dir() else real.unlink()
        return f"Deleted {virtual}"
    text = _text_of(real) if real.exists() else None
    if text is None:
        raise ToolError(f"{virtual} does not exist")
    if command == "str_replace":
        wanted, put = str(args.get("old_str", "")), str(args.get("new_str", ""))
        count = text.count(wanted) if wanted else 0
        if count != 1:
            raise ToolError(f"old_str must occur exactly once in {virtual}; it occurs {count} times")
        _write(real, text.replace(wanted, put, 1))
        return f"The memory file {virtual} has been edited."
    if command == "insert":
        lines = text.splitlines(keepends=True)
        at = int(args.get("insert_line", 0))
        if not 0 <= at <= len(lines):
            raise ToolError(f"insert_line must be between 0 and {len(lines)}")
        inserted = str(args.get("insert_text", ""))
        if inserted and not inserted.endswith("\n"):
            inserted += "\n"
        _write(real, "".join(lines[:at]) + inserted + "".join(lines[at:]))
        return f"Inserted text at line {at} of {virtual}"
    raise ToolError(f"Unknown command {command!r}; one of {', '.join(COMMANDS)}")


def listing(folder: Path) -> list[dict[str, Any]]:
    """The files of the folder as the model names them, with their sizes (blocking)."""
    if not folder.is_dir():
        return []
    return [{"path": _shown(folder, p), "bytes": p.stat().st_size}
            for p in sorted(folder.rglob("*")) if p.is_file() and not p.is_symlink()][:MAX_LISTED]


class MemoryTool(BaseTool):
    name = MEMORY_TOOL
    kind = "think"  # the sidecar's own folder, never the workspace
    anthropic_type: ClassVar[str | None] = ANTHROPIC_TYPE
    description = (
        "Your memory: a folder of files under /memories that outlives this conversation and "
        "its compactions. ALWAYS view /memories first, before starting work. Record progress, "
        "decisions and facts you will need later in files there as you work (keep them short "
        "and current; delete what is obsolete), since the conversation may be summarized at "
        "any time. Commands: view {path, view_range?}, create {path, file_text}, str_replace "
        "{path, old_str, new_str}, insert {path, insert_line, insert_text}, delete {path}, "
        "rename {old_path, new_path}. Paths start with /memories."
    )
    input_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            "command": {"type": "string", "enum": list(COMMANDS)},
            "path": {"type": "string", "description": "A path under /memories"},
            "view_range": {"type": "array", "items": {"type": "integer"},
                           "description": "view: the first and last line (-1: the end)"},
            "file_text": {"type": "string", "description": "create: the file's content"},
            "old_str": {"type": "string"},
            "new_str": {"type": "string"},
            "insert_line": {"type": "integer", "description": "insert: after this line (0: first)"},
            "insert_text": {"type": "string"},
            "old_path": {"type": "string"},
            "new_path": {"type": "string"},
        },
        "required": ["command"],
    }

    def title(self, input: dict[str, Any], roots: Sequence[Path] = ()) -> str:
        target = input.get("path") or input.get("old_path") or ROOT
        return f"Memory: {input.get('command', '')} {target}".strip()

    def folder_listing(self, settings: Settings, cwd: str) -> dict[str, Any]:
        """The ``memory`` section of sidecar/context (blocking)."""
        folder = memory_folder(storage_dir(settings), cwd)
        return {"folder": str(folder), "files": listing(folder)}

    async def invoke(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        folder = memory_folder(storage_dir(ctx.settings), str(ctx.roots[0]))
        answer = await asyncio.to_thread(run_command, folder, args)
        return ToolOutcome(answer, raw_output={"command": args.get("command")})
