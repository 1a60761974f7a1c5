"""Write, Edit and MultiEdit: file changes that land in the editor (with undo) through
``apply_edit``.

All refuse to change an existing file the model has not read, or one that changed since
it was read, so the model never overwrites text it has not seen. After a change the read
state holds the new text, so a following Edit needs no re-read. MultiEdit's edits apply in
order to one text and reach the user, and the editor, as one change of the whole file.
"""

from __future__ import annotations

import asyncio
import json
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from sidecar.core.permissions.choice import refusal
from sidecar.core.ports import ToolContext, ToolOutcome
from sidecar.tools.base import BaseTool, ToolError, validate_input
from sidecar.tools.documents import Document, load_document, refuse_special, write_text
from sidecar.tools.paths import display_path, location_of, resolve_path
from sidecar.tools.read import number_lines, split_lines

SNIPPET_CONTEXT_LINES = 4
NO_CHANGE = "No changes to make: old_string and new_string are exactly the same."
NOT_READ = "File has not been read yet. Read it first before writing to it."
EDIT_REJECTED = "The user rejected this edit."
EDIT_CANCELLED = "The permission request for this edit was cancelled; the file is unchanged."
CHANGED_SINCE_READ = (
    "File has been modified since it was read, either by the user or by a linter. "
    "Read it again before attempting to write it."
)


def _check_read_state(path: Path, doc: Document, ctx: ToolContext) -> None:
    state = ctx.file_state
    if state.get(path) is None:
        raise ToolError(NOT_READ)
    if state.is_stale(path, doc.text):
        raise ToolError(CHANGED_SINCE_READ)


def _refuse_non_regular(path: Path) -> None:
    """Directories, FIFOs, sockets and devices are never written (a FIFO would block the
    write until something reads it)."""
    try:
        st = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return
    if stat.S_ISDIR(st.st_mode):
        raise ToolError(f"{path} is a directory, not a file.")
    refuse_special(path, st)


def _diff(path: Path, old: str | None, new: str) -> list[dict[str, Any]]:
    return [{"type": "diff", "path": str(path), "oldText": old, "newText": new}]


def _target(raw: str, ctx: ToolContext) -> Path:
    """The file an edit names: inside the roots, or one of the session's own writable files."""
    if ctx.writable and raw and "\x00" not in raw:
        named = Path(os.path.normpath(os.path.expanduser(raw.strip())))
        if named.is_absolute() and named in ctx.writable:
            return named
    return resolve_path(raw, ctx.roots)


async def _apply(path: Path, old: str | None, new: str, label: str, ctx: ToolContext) -> None:
    if ctx.must_ask:
        answer = await ctx.review_edit(path, old, new)
        if answer.option_id == "cancelled":
            raise ToolError(EDIT_CANCELLED)
        if answer.option_id not in ("allow_once", "allow_turn", "allow_always"):
            raise ToolError(refusal(EDIT_REJECTED, answer))
    await ctx.before_change(path)
    applied = await ctx.apply_edit(path, new, label)
    if applied is None:  # the editor cannot apply edits: write the file ourselves
        await asyncio.to_thread(write_text, path, new)  # regular files only
    elif not applied:
        raise ToolError(f"The editor did not apply the change to {path}; the file is unchanged.")
    await ctx.after_change(path)
    ctx.file_state.record_write(path, new)


@dataclass(frozen=True, slots=True)
class Replacement:
    """One old_string replaced in a text."""

    text: str  # the whole text after the replacement
    count: int  # occurrences of old_string found
    at: int  # where the first replaced occurrence starts
    inserted: str  # new_string as it was put in (CRLF endings when the file has them)


# What one replacement takes, in Edit's input and in each of MultiEdit's edits.
_REPLACEMENT_FIELDS: dict[str, Any] = {
    "old_string": {"type": "string", "description": "The exact text to replace."},
    "new_string": {"type": "string", "description": "The text to put in its place."},
    "replace_all": {
        "type": "boolean",
        "description": "Replace every occurrence of old_string (default false).",
    },
}
_REPLACEMENT_REQUIRED = ["old_string", "new_string"]


def _already_exists(path: Path) -> str:
    return f"Cannot create {path}: it already exists. Give old_string to change part of it."


def _replace(text: str, old: str, new: str, replace_all: bool, path: Path) -> Replacement:
    """``text`` with ``old`` replaced by ``new``: its one occurrence, or every one with
    ``replace_all``. An empty ``old`` stands for the whole text of a blank file."""
    if old == "":
        if text.strip() != "":
            raise ToolError(_already_exists(path))
        return Replacement(new, 1, 0, new)
    target, inserted = old, new
    count = text.count(target)
    # The model writes "\n"; a file with CRLF endings still means the same lines.
    if count == 0 and "\r\n" in text and "\n" in old and "\r\n" not in old:
        target, inserted = old.replace("\n", "\r\n"), new.replace("\n", "\r\n")
        count = text.count(target)
    if count == 0:
        raise ToolError(f"String to replace not found in file.\nString: {old}")
    if count > 1 and not replace_all:
        raise ToolError(
            f"Found {count} matches of the string to replace, but replace_all is false. "
            "To replace all occurrences, set replace_all to true. To replace only one "
            "occurrence, give more context to identify it uniquely.\n"
            f"String: {old}"
        )
    changed = text.replace(target, inserted) if replace_all else text.replace(target, inserted, 1)
    return Replacement(changed, count, text.index(target), inserted)


def _path_title(verb: str, input: dict[str, Any], roots: Sequence[Path]) -> str:
    raw = input.get("file_path")
    if not isinstance(raw, str):
        return verb
    return f"{verb} {display_path(raw, roots) if roots else raw}"


class _FileTool(BaseTool):
    """A tool that changes the one file its ``file_path`` names: titled "<verb> <path>" and
    located at that file."""

    verb: ClassVar[str]

    def title(self, input: dict[str, Any], roots: Sequence[Path] = ()) -> str:
        return _path_title(self.verb, input, roots)

    def locations(self, input: dict[str, Any], roots: Sequence[Path] = ()) -> list[dict[str, Any]]:
        return location_of(input.get("file_path"), roots)


class WriteTool(_FileTool):
    name = "Write"
    verb = "Write"
    kind = "edit"
    compactable = True
    description = (
        "Writes a file in the workspace, replacing its whole content, or creates it. An "
        "existing file must have been read with Read first in this conversation, and must "
        "not have changed since. Prefer Edit for changing part of an existing file."
    )
    input_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            "file_path": {"type": "string", "description": "Path of the file to write."},
            "content": {"type": "string", "description": "The complete new content of the file."},
        },
        "required": ["file_path", "content"],
    }

    async def invoke(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        path = _target(args["file_path"], ctx)
        content: str = args["content"]
        _refuse_non_regular(path)
        doc = await load_document(path, ctx)
        if doc is not None:
            _check_read_state(path, doc, ctx)
        await _apply(path, doc.text if doc else None, content, self.title(args, ctx.roots), ctx)
        lines = len(split_lines(content))
        if doc is None:
            message = f"File created successfully at: {path} ({lines} lines)"
        else:
            message = f"The file {path} has been overwritten ({lines} lines)."
        return ToolOutcome(
            message,
            raw_output={"path": str(path), "created": doc is None, "lines": lines},
            display=_diff(path, doc.text if doc else None, content),
        )


class EditTool(_FileTool):
    name = "Edit"
    verb = "Edit"
    kind = "edit"
    compactable = True
    description = (
        "Replaces exact text in a file. old_string must match the file exactly (including "
        "indentation; do not include the line-number prefixes Read shows) and must occur "
        "exactly once unless replace_all is true; give more surrounding context to make it "
        "unique. The file must have been read with Read first in this conversation. An "
        "empty old_string creates a new file with new_string as its content."
    )
    input_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            "file_path": {"type": "string", "description": "Path of the file to change."},
            **_REPLACEMENT_FIELDS,
        },
        "required": ["file_path", *_REPLACEMENT_REQUIRED],
    }

    async def invoke(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        path = _target(args["file_path"], ctx)
        old: str = args["old_string"]
        new: str = args["new_string"]
        replace_all: bool = args.get("replace_all", False)
        label = self.title(args, ctx.roots)
        if old == new:
            raise ToolError(NO_CHANGE)
        _refuse_non_regular(path)
        doc = await load_document(path, ctx, strict=True)
        if doc is None:
            if old != "":
                raise ToolError(f"File does not exist: {path}")
            await _apply(path, None, new, label, ctx)
            return ToolOutcome(
                f"File created successfully at: {path}",
                raw_output={"path": str(path), "created": True, "replacements": 0},
                display=_diff(path, None, new),
            )
        if old == "" and doc.text.strip() != "":
            raise ToolError(_already_exists(path))
        _check_read_state(path, doc, ctx)
        text = doc.text
        change = _replace(text, old, new, replace_all, path)
        await _apply(path, text, change.text, label, ctx)
        replacements = change.count if replace_all else 1
        raw = {"path": str(path), "created": False, "replacements": replacements}
        if replace_all and change.count > 1:
            message = (
                f"The file {path} has been updated. All {change.count} occurrences were replaced."
            )
        else:
            message = (
                f"The file {path} has been updated. Here's the result of running `cat -n` on a "
                f"snippet of the edited file:\n{_snippet(change.text, change.at, change.inserted)}"
            )
        return ToolOutcome(message, raw_output=raw, display=_diff(path, text, change.text))


def _snippet(text: str, at: int, inserted: str) -> str:
    first = text.count("\n", 0, at) + 1
    last = first + inserted.count("\n")
    lines = split_lines(text)
    start = max(first - SNIPPET_CONTEXT_LINES, 1)
    end = min(last + SNIPPET_CONTEXT_LINES, len(lines))
    return number_lines(lines[start - 1 : end], start)


# How much of a string MultiEdit's result quotes for each edit.
QUOTED_CHARS = 50
_EDIT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": _REPLACEMENT_FIELDS,
    "required": _REPLACEMENT_REQUIRED,
}


@dataclass(frozen=True, slots=True)
class OneEdit:
    """One of MultiEdit's edits."""

    old: str
    new: str
    replace_all: bool


def _failed(number: int, total: int, reason: str) -> ToolError:
    return ToolError(f"Edit {number} of {total} failed; none of the edits were applied. {reason}")


def _edits_of(raw: list[Any]) -> list[OneEdit]:
    """MultiEdit's edits, each checked as Edit checks its input, before the file is touched."""
    if not raw:
        raise ToolError("Invalid input: `edits` must hold at least one edit")
    edits: list[OneEdit] = []
    for number, item in enumerate(raw, start=1):
        try:
            args = validate_input(_EDIT_SCHEMA, item)
        except ToolError as exc:
            raise _failed(number, len(raw), str(exc)) from None
        edit = OneEdit(args["old_string"], args["new_string"], args.get("replace_all", False))
        if edit.old == edit.new:
            raise _failed(number, len(raw), NO_CHANGE)
        if edit.old == "" and number > 1:
            raise _failed(number, len(raw), "old_string is empty: only the first edit may "
                          "have an empty old_string, to create a new file.")
        edits.append(edit)
    return edits


def _replace_each(text: str, edits: list[OneEdit], path: Path) -> list[Replacement]:
    """The edits applied in order, each to the text the one before left."""
    changes: list[Replacement] = []
    for number, edit in enumerate(edits, start=1):
        try:
            change = _replace(text, edit.old, edit.new, edit.replace_all, path)
        except ToolError as exc:
            raise _failed(number, len(edits), str(exc)) from None
        changes.append(change)
        text = change.text
    return changes


def _quoted(text: str) -> str:
    shown = text if len(text) <= QUOTED_CHARS else text[:QUOTED_CHARS] + "…"
    return json.dumps(shown, ensure_ascii=False)


def _edit_line(number: int, edit: OneEdit, change: Replacement) -> str:
    if edit.old == "":
        return f"{number}. Wrote {_quoted(edit.new)} as the file's content"
    line = f"{number}. Replaced {_quoted(edit.old)} with {_quoted(edit.new)}"
    if edit.replace_all and change.count > 1:
        line += f" ({change.count} occurrences)"
    return line


class MultiEditTool(_FileTool):
    name = "MultiEdit"
    verb = "Edit"
    kind = "edit"
    compactable = True
    description = (
        "Makes several replacements of exact text in one file at once; prefer it to several "
        "Edit calls on the same file. The edits apply in order, each to the result of the one "
        "before, and either all of them apply or none does. Each edit follows Edit's rules: "
        "old_string must match the file exactly (including indentation; do not include the "
        "line-number prefixes Read shows) and must occur exactly once unless replace_all is "
        "true. The file must have been read with Read first in this conversation. An empty "
        "old_string in the first edit creates a new file with that edit's new_string."
    )
    input_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            "file_path": {"type": "string", "description": "Path of the file to change."},
            "edits": {
                "type": "array",
                "description": "The replacements, applied in order to the file.",
                "minItems": 1,
                "items": _EDIT_SCHEMA,
            },
        },
        "required": ["file_path", "edits"],
    }

    async def invoke(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        path = _target(args["file_path"], ctx)
        edits = _edits_of(args["edits"])
        _refuse_non_regular(path)
        doc = await load_document(path, ctx, strict=True)
        if doc is None and edits[0].old != "":
            raise ToolError(f"File does not exist: {path}")
        if doc is not None:
            _check_read_state(path, doc, ctx)
        before = doc.text if doc is not None else None
        changes = _replace_each(before or "", edits, path)
        after = changes[-1].text
        if after == before:
            raise ToolError("No changes to make: the edits together leave the file as it was.")
        await _apply(path, before, after, self.title(args, ctx.roots), ctx)
        done = "\n".join(_edit_line(n, e, c) for n, (e, c) in enumerate(zip(edits, changes), 1))
        edit_count = f"{len(edits)} edit{'' if len(edits) == 1 else 's'}"
        if before is None:
            message = f"File created successfully at: {path} with {edit_count}:\n{done}"
        else:
            message = f"Applied {edit_count} to {path}:\n{done}"
        raw = {"path": str(path), "created": before is None, "edits": len(edits),
               "replacements": sum(c.count if e.replace_all else 1 for e, c in zip(edits, changes))}
        return ToolOutcome(message, raw_output=raw, display=_diff(path, before, after))
