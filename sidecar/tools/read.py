"""Read: file text with Claude Code's line-number prefixes, read state, and the re-read stub."""

from __future__ import annotations

import asyncio
import base64
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from sidecar.core.ports import ToolContext, ToolOutcome
from sidecar.tools.base import BaseTool, ToolError
from sidecar.tools.documents import load_document, read_bytes
from sidecar.tools.paths import display_path, location_of, resolve_readable

MAX_LINE_CHARS = 2_000
# Claude Code refuses a single Read larger than this many tokens (bytes / 4).
MAX_OUTPUT_TOKENS = 25_000
MAX_IMAGE_BYTES = 3_750_000
IMAGE_TYPES = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
}
UNCHANGED_STUB = "File unchanged since your last Read of this range; refer to the earlier result."
EMPTY_FILE = (
    "<system-reminder>Warning: the file exists but the contents are empty.</system-reminder>"
)


def split_lines(text: str) -> list[str]:
    """Lines as an editor numbers them: a final newline does not start another line."""
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def number_lines(lines: Sequence[str], first: int) -> str:
    """``N<tab>line``: the number and one tab, as Claude Code's Read numbers lines. Padding
    the number to six columns and an arrow (``     1→``) cost about a fifth more tokens
    per line of code, paid again on every request that repeats the result."""
    out = []
    for n, line in enumerate(lines, start=first):
        if len(line) > MAX_LINE_CHARS:
            line = f"{line[:MAX_LINE_CHARS]}… [line truncated, {len(line) - MAX_LINE_CHARS} more characters]"
        out.append(f"{n}\t{line}")
    return "\n".join(out)


class ReadTool(BaseTool):
    name = "Read"
    kind = "read"
    compactable = True
    description = (
        "Reads a file from the workspace. By default up to 2000 lines are returned from the start of the file; "
        "pass offset (1-based line number) and limit to read part of a longer file. Lines "
        "longer than 2000 characters are truncated. Output is numbered like `cat -n`: each "
        "line starts with its line number and a tab; the text after the tab is the "
        "line itself. Unsaved editor changes are included. PNG, JPEG, GIF and WebP files are "
        "returned as images. Reading an unchanged range again returns a short note instead "
        "of the same content."
    )
    input_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            "file_path": {"type": "string", "description": "Path of the file to read."},
            "offset": {
                "type": "integer",
                "minimum": 0,
                "description": "Line number to start reading from (1-based).",
            },
            "limit": {"type": "integer", "minimum": 1, "description": "Number of lines to read."},
        },
        "required": ["file_path"],
    }

    def title(self, input: dict[str, Any], roots: Sequence[Path] = ()) -> str:
        raw = input.get("file_path")
        if not isinstance(raw, str):
            return "Read"
        title = f"Read {display_path(raw, roots) if roots else raw}"
        offset, limit = input.get("offset"), input.get("limit")
        if isinstance(offset, int) and isinstance(limit, int):
            title += f" (lines {max(offset, 1)}-{max(offset, 1) + limit - 1})"
        elif isinstance(offset, int):
            title += f" (from line {max(offset, 1)})"
        return title

    def locations(self, input: dict[str, Any], roots: Sequence[Path] = ()) -> list[dict[str, Any]]:
        return location_of(input.get("file_path"), roots, input.get("offset"))

    async def invoke(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        path = resolve_readable(args["file_path"], ctx.roots, ctx.readable)
        return await self._read(
            path, ctx, args.get("offset"), args.get("limit"), True, MAX_OUTPUT_TOKENS
        )

    async def _read(
        self,
        path: Path,
        ctx: ToolContext,
        offset: int | None,
        limit: int | None,
        allow_stub: bool,
        max_tokens: int,
    ) -> ToolOutcome:
        mime = IMAGE_TYPES.get(path.suffix.lower())
        if mime is not None and path.is_file():
            return await self._read_image(path, mime)
        doc = await load_document(path, ctx)
        if doc is None:
            raise ToolError(f"File does not exist: {path}")
        start = max(offset or 1, 1)
        span = limit or ctx.settings.tools.readMaxLines
        state = ctx.file_state
        entry = state.get(path)
        if (
            allow_stub
            and entry is not None
            and entry.origin == "read"
            and entry.stub_ok
            and entry.same_range(start, span)
            and not state.is_stale(path, doc.text)
        ):
            return ToolOutcome(UNCHANGED_STUB, raw_output={"path": str(path), "unchanged": True})

        lines = split_lines(doc.text)
        total = len(lines)
        raw: dict[str, Any] = {
            "path": str(path),
            "totalLines": total,
            "fromBuffer": doc.from_buffer,
        }
        if total == 0:
            body = EMPTY_FILE
        elif start > total:
            body = (
                "<system-reminder>Warning: the file exists but is shorter than the provided "
                f"offset ({start}). The file has {total} lines.</system-reminder>"
            )
        else:
            shown = lines[start - 1 : start - 1 + span]
            body = number_lines(shown, start)
            end = start + len(shown) - 1
            raw.update(startLine=start, numLines=len(shown))
            if end < total:
                body += f"\n\n(Showing lines {start}-{end} of {total}; use offset and limit to read more.)"
            if doc.lossy:
                body += "\n\n(The file is not valid UTF-8; undecodable bytes are shown as �.)"
        estimate = len(body.encode("utf-8", "surrogatepass")) // 4
        if estimate > max_tokens:
            raise ToolError(
                f"File content (about {estimate} tokens) exceeds the maximum of {max_tokens} tokens "
                "for one Read. Use offset and limit to read part of the file, or Grep to search it."
            )
        state.record_read(path, doc.text, start, span, shown=body, mtime=doc.mtime)
        return ToolOutcome(body, raw_output=raw)

    async def _read_image(self, path: Path, mime: str) -> ToolOutcome:
        size = path.stat().st_size
        if size > MAX_IMAGE_BYTES:
            raise ToolError(f"Image {path} is too large ({size} bytes, limit {MAX_IMAGE_BYTES}).")
        raw = await asyncio.to_thread(read_bytes, path, MAX_IMAGE_BYTES + 1)
        if len(raw) > MAX_IMAGE_BYTES:
            raise ToolError(f"Image {path} grew past {MAX_IMAGE_BYTES} bytes while being read.")
        data = base64.b64encode(raw).decode("ascii")
        block = {"type": "image", "source": {"type": "base64", "media_type": mime, "data": data}}
        return ToolOutcome([block], raw_output={"path": str(path), "image": mime, "bytes": size})
