from __future__ import annotations

from pathlib import Path
from typing import Any

from sidecar.tools.read import ReadTool
from sidecar.tools.write_edit import (
    CHANGED_SINCE_READ,
    EDIT_REJECTED,
    NOT_READ,
    EditTool,
    MultiEditTool,
)

read, edit, multi = ReadTool(), EditTool(), MultiEditTool()
SOURCE = "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n"


def change(old: str, new: str, replace_all: bool | None = None) -> dict[str, Any]:
    one: dict[str, Any] = {"old_string": old, "new_string": new}
    if replace_all is not None:
        one["replace_all"] = replace_all
    return one


async def read_source(ws: Path, ctx: Any, name: str = "calc.py", text: str = SOURCE) -> Path:
    path = ws / name
    path.write_text(text)
    assert not (await read.run({"file_path": name}, ctx)).is_error
    return path


async def test_edits_apply_in_order_each_to_the_result_of_the_one_before(ws: Path, ctx: Any) -> None:
    path = await read_source(ws, ctx)
    outcome = await multi.run({"file_path": "calc.py", "edits": [
        change("def add(a, b):", "def plus(a, b):"),
        # Only there once the first edit has run.
        change("def plus(a, b):\n    return a + b", "def plus(a, b):\n    return b + a"),
        change("return a - b", "return -(b - a)"),
    ]}, ctx)
    assert not outcome.is_error, outcome.content
    expected = "def plus(a, b):\n    return b + a\n\n\ndef sub(a, b):\n    return -(b - a)\n"
    assert path.read_text() == expected
    assert outcome.content == (
        f"Applied 3 edits to {path}:\n"
        '1. Replaced "def add(a, b):" with "def plus(a, b):"\n'
        '2. Replaced "def plus(a, b):\\n    return a + b" with "def plus(a, b):\\n    return b + a"\n'
        '3. Replaced "return a - b" with "return -(b - a)"'
    )
    assert outcome.raw_output == {"path": str(path), "created": False, "edits": 3, "replacements": 3}
    # One change reached the editor, labelled as an edit of the file.
    assert [(p, label) for p, _, label in ctx.edits] == [(path, "Edit calc.py")]


async def test_the_user_reviews_one_diff_of_the_whole_file(ws: Path, ctx: Any) -> None:
    path = await read_source(ws, ctx)
    outcome = await multi.run({"file_path": "calc.py", "edits": [
        change("return a + b", "return a + b  # sum"),
        change("return a - b", "return a - b  # difference"),
    ]}, ctx)
    assert not outcome.is_error, outcome.content
    after = SOURCE.replace("a + b", "a + b  # sum").replace("a - b", "a - b  # difference")
    assert ctx.reviewed == [(path, SOURCE, after)]
    assert outcome.display == [{"type": "diff", "path": str(path), "oldText": SOURCE, "newText": after}]
    # The read state holds the new text: an Edit right after needs no re-read.
    follow = await edit.run({"file_path": "calc.py", "old_string": "# sum", "new_string": "# total"}, ctx)
    assert not follow.is_error, follow.content


async def test_a_failing_edit_leaves_the_file_unchanged_and_is_named(ws: Path, ctx: Any) -> None:
    path = await read_source(ws, ctx)
    outcome = await multi.run({"file_path": "calc.py", "edits": [
        change("return a + b", "return b + a"),
        change("return a * b", "return b * a"),
        change("return a - b", "return b - a"),
    ]}, ctx)
    assert outcome.is_error
    assert outcome.content == ("Edit 2 of 3 failed; none of the edits were applied. String to "
                               "replace not found in file.\nString: return a * b")
    assert path.read_text() == SOURCE
    assert ctx.edits == [] and ctx.reviewed == []
    assert not ctx.file_state.is_stale(path, SOURCE)


async def test_replace_all_replaces_every_occurrence(ws: Path, ctx: Any) -> None:
    path = await read_source(ws, ctx)
    outcome = await multi.run({"file_path": "calc.py", "edits": [
        change("(a, b)", "(x, y)", replace_all=True),
        change("return x + b", "return x + y"),
    ]}, ctx)
    assert outcome.is_error and "Edit 2 of 2 failed" in outcome.content  # `b` was not renamed
    assert path.read_text() == SOURCE
    outcome = await multi.run({"file_path": "calc.py", "edits": [
        change("(a, b)", "(x, y)", replace_all=True),
        change("a", "x", replace_all=True),
        change("b", "y", replace_all=True),
    ]}, ctx)
    assert not outcome.is_error, outcome.content
    assert path.read_text() == SOURCE.replace("a", "x").replace("b", "y")
    assert '1. Replaced "(a, b)" with "(x, y)" (2 occurrences)' in outcome.content
    assert outcome.raw_output["replacements"] == 2 + 3 + 3  # "add" and "sub" hold one each


async def test_old_string_must_be_unique_in_the_text_it_applies_to(ws: Path, ctx: Any) -> None:
    path = await read_source(ws, ctx)
    twice = await multi.run({"file_path": "calc.py", "edits": [change("(a, b)", "(x, y)")]}, ctx)
    assert twice.is_error and twice.content.startswith("Edit 1 of 1 failed")
    assert "Found 2 matches" in twice.content and "replace_all" in twice.content
    # Unique in the file, but the first edit makes a second one.
    made_twice = await multi.run({"file_path": "calc.py", "edits": [
        change("return a - b", "return a + b"),
        change("return a + b", "return a"),
    ]}, ctx)
    assert made_twice.is_error and made_twice.content.startswith("Edit 2 of 2 failed")
    assert "Found 2 matches" in made_twice.content
    assert path.read_text() == SOURCE and ctx.edits == []


async def test_each_edit_is_checked_before_the_file_is_touched(ws: Path, ctx: Any) -> None:
    path = await read_source(ws, ctx)
    cases = [
        ([change("add", "plus"), change("sub", "sub")],
         "Edit 2 of 2 failed; none of the edits were applied. No changes to make: old_string "
         "and new_string are exactly the same."),
        ([change("add", "plus"), {"old_string": "sub"}],
         "Edit 2 of 2 failed; none of the edits were applied. Invalid input: `new_string` is "
         "required"),
        ([change("add", "plus"), change("", "x")],
         "Edit 2 of 2 failed; none of the edits were applied. old_string is empty: only the "
         "first edit may have an empty old_string, to create a new file."),
        ([], "Invalid input: `edits` must hold at least one edit"),
    ]
    for edits, error in cases:
        outcome = await multi.run({"file_path": "calc.py", "edits": edits}, ctx)
        assert outcome.is_error and outcome.content == error
    undone = await multi.run({"file_path": "calc.py", "edits": [
        change("def add", "def plus"), change("def plus", "def add")]}, ctx)
    assert undone.is_error
    assert undone.content == "No changes to make: the edits together leave the file as it was."
    not_a_list = await multi.run({"file_path": "calc.py", "edits": "add -> plus"}, ctx)
    assert not_a_list.is_error and "`edits` must be an array" in not_a_list.content
    assert path.read_text() == SOURCE and ctx.edits == []


async def test_unread_or_stale_file_is_refused(ws: Path, ctx: Any) -> None:
    path = ws / "calc.py"
    path.write_text(SOURCE)
    args = {"file_path": "calc.py", "edits": [change("add", "plus")]}
    unread = await multi.run(args, ctx)
    assert unread.is_error and unread.content == NOT_READ
    await read.run({"file_path": "calc.py"}, ctx)
    path.write_text(SOURCE + "# changed by someone else\n")
    stale = await multi.run(args, ctx)
    assert stale.is_error and stale.content == CHANGED_SINCE_READ
    assert ctx.edits == [] and path.read_text() == SOURCE + "# changed by someone else\n"


async def test_a_rejected_review_writes_nothing(ws: Path, ctx: Any) -> None:
    path = await read_source(ws, ctx)
    ctx.permission = "reject_once"
    outcome = await multi.run({"file_path": "calc.py", "edits": [change("add", "plus")]}, ctx)
    assert outcome.is_error and outcome.content == EDIT_REJECTED
    assert len(ctx.reviewed) == 1 and ctx.edits == [] and path.read_text() == SOURCE


async def test_an_empty_first_old_string_creates_a_missing_file_only(ws: Path, ctx: Any) -> None:
    outcome = await multi.run({"file_path": "pkg/new.py", "edits": [
        change("", "A = 1\nB = 2\n"), change("B = 2", "B = 3")]}, ctx)
    assert not outcome.is_error, outcome.content
    path = ws / "pkg" / "new.py"
    assert path.read_text() == "A = 1\nB = 3\n"
    assert outcome.content.startswith(f"File created successfully at: {path} with 2 edits:\n")
    assert ctx.reviewed == [(path, None, "A = 1\nB = 3\n")]
    assert outcome.raw_output["created"] is True
    # The file exists now: an empty old_string is no longer a creation.
    exists = await multi.run({"file_path": "pkg/new.py", "edits": [change("", "again")]}, ctx)
    assert exists.is_error and "already exists" in exists.content
    # A missing file with a non-empty first old_string is no creation either.
    missing = await multi.run({"file_path": "gone.py", "edits": [change("x", "y")]}, ctx)
    assert missing.is_error and missing.content == f"File does not exist: {ws / 'gone.py'}"
    assert not (ws / "gone.py").exists()


async def test_a_directory_is_refused(ws: Path, ctx: Any) -> None:
    (ws / "pkg").mkdir()
    outcome = await multi.run({"file_path": "pkg", "edits": [change("", "x")]}, ctx)
    assert outcome.is_error and "is a directory" in outcome.content
    assert ctx.edits == []
