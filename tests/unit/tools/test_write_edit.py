from __future__ import annotations

from pathlib import Path
from typing import Any

from sidecar.tools.read import ReadTool
from sidecar.tools.write_edit import CHANGED_SINCE_READ, NOT_READ, EditTool, WriteTool

read, write, edit = ReadTool(), WriteTool(), EditTool()


async def test_write_new_file_without_read(ws: Path, ctx: Any) -> None:
    outcome = await write.run({"file_path": "pkg/new.py", "content": "a = 1\nb = 2\n"}, ctx)
    assert not outcome.is_error, outcome.content
    assert "File created successfully" in outcome.content
    assert (ws / "pkg" / "new.py").read_text() == "a = 1\nb = 2\n"
    path, text, label = ctx.edits[0]
    assert text == "a = 1\nb = 2\n"
    assert path == ws / "pkg" / "new.py" and label == "Write pkg/new.py"
    assert outcome.raw_output["created"] is True
    assert outcome.display == [
        {"type": "diff", "path": str(path), "oldText": None, "newText": "a = 1\nb = 2\n"}
    ]
    # The model wrote it, so editing it right away needs no Read.
    follow = await edit.run(
        {"file_path": "pkg/new.py", "old_string": "b = 2", "new_string": "b = 3"}, ctx
    )
    assert not follow.is_error, follow.content
    assert (ws / "pkg" / "new.py").read_text() == "a = 1\nb = 3\n"


async def test_write_existing_requires_fresh_read(ws: Path, ctx: Any) -> None:
    (ws / "a.txt").write_text("old\n")
    refused = await write.run({"file_path": "a.txt", "content": "new\n"}, ctx)
    assert refused.is_error and refused.content == NOT_READ
    assert ctx.edits == [] and (ws / "a.txt").read_text() == "old\n"
    await read.run({"file_path": "a.txt"}, ctx)
    (ws / "a.txt").write_text("someone else\n")
    stale = await write.run({"file_path": "a.txt", "content": "new\n"}, ctx)
    assert stale.is_error and stale.content == CHANGED_SINCE_READ
    await read.run({"file_path": "a.txt"}, ctx)
    done = await write.run({"file_path": "a.txt", "content": "new\n"}, ctx)
    assert not done.is_error and "overwritten" in done.content
    assert (ws / "a.txt").read_text() == "new\n"


async def test_edit_refused_when_unread_or_stale(ws: Path, ctx: Any) -> None:
    path = ws / "m.py"
    path.write_text("x = 1\ny = 2\n")
    args = {"file_path": "m.py", "old_string": "x = 1", "new_string": "x = 10"}
    unread = await edit.run(args, ctx)
    assert unread.is_error and "Read it first" in unread.content
    await read.run({"file_path": "m.py"}, ctx)
    path.write_text("x = 1\ny = 3\n")
    stale = await edit.run(args, ctx)
    assert stale.is_error and "Read it again" in stale.content
    # An editor change (didChange) also makes it stale.
    await read.run({"file_path": "m.py"}, ctx)
    ctx.file_state.mark_stale(path)
    assert (await edit.run(args, ctx)).is_error
    await read.run({"file_path": "m.py"}, ctx)
    ok = await edit.run(args, ctx)
    assert not ok.is_error and path.read_text() == "x = 10\ny = 3\n"
    assert ctx.edits[-1][2] == "Edit m.py"


async def test_edit_sees_unsaved_buffer_and_checks_it(ws: Path, ctx: Any) -> None:
    path = ws / "m.py"
    path.write_text("on disk\n")
    ctx.buffers[path] = "in buffer\n"
    await read.run({"file_path": "m.py"}, ctx)
    ok = await edit.run(
        {"file_path": "m.py", "old_string": "in buffer", "new_string": "edited"}, ctx
    )
    assert not ok.is_error, ok.content
    assert ctx.edits[-1][1] == "edited\n"
    # The user types in the buffer after the read: stale.
    ctx.buffers[path] = "edited\nmore typing\n"
    again = await edit.run({"file_path": "m.py", "old_string": "edited", "new_string": "x"}, ctx)
    assert again.is_error and again.content == CHANGED_SINCE_READ


async def test_edit_uniqueness_and_replace_all(ws: Path, ctx: Any) -> None:
    path = ws / "dup.txt"
    path.write_text("a\nfoo\nb\nfoo\n")
    await read.run({"file_path": "dup.txt"}, ctx)
    many = await edit.run({"file_path": "dup.txt", "old_string": "foo", "new_string": "bar"}, ctx)
    assert many.is_error and "Found 2 matches" in many.content and "replace_all" in many.content
    missing = await edit.run({"file_path": "dup.txt", "old_string": "zzz", "new_string": "q"}, ctx)
    assert missing.is_error and "not found" in missing.content
    same = await edit.run({"file_path": "dup.txt", "old_string": "foo", "new_string": "foo"}, ctx)
    assert same.is_error and "No changes" in same.content
    assert ctx.edits == []
    unique = await edit.run(
        {"file_path": "dup.txt", "old_string": "b\nfoo", "new_string": "b\nbaz"}, ctx
    )
    assert not unique.is_error and path.read_text() == "a\nfoo\nb\nbaz\n"
    assert "3\tb\n4\tbaz" in unique.content
    everything = await edit.run(
        {"file_path": "dup.txt", "old_string": "a", "new_string": "A", "replace_all": True}, ctx
    )
    assert not everything.is_error and path.read_text() == "A\nfoo\nb\nbAz\n"
    assert everything.raw_output["replacements"] == 2


async def test_edit_crlf_file_with_lf_strings(ws: Path, ctx: Any) -> None:
    path = ws / "win.txt"
    path.write_bytes(b"one\r\ntwo\r\nthree\r\n")
    await read.run({"file_path": "win.txt"}, ctx)
    ok = await edit.run(
        {"file_path": "win.txt", "old_string": "one\ntwo", "new_string": "1\n2"}, ctx
    )
    assert not ok.is_error, ok.content
    assert path.read_bytes() == b"1\r\n2\r\nthree\r\n"


async def test_edit_create_with_empty_old_string(ws: Path, ctx: Any) -> None:
    created = await edit.run({"file_path": "c.txt", "old_string": "", "new_string": "hi\n"}, ctx)
    assert not created.is_error and (ws / "c.txt").read_text() == "hi\n"
    exists = await edit.run({"file_path": "c.txt", "old_string": "", "new_string": "again"}, ctx)
    assert exists.is_error and "already exists" in exists.content
    gone = await edit.run({"file_path": "no.txt", "old_string": "x", "new_string": "y"}, ctx)
    assert gone.is_error and "does not exist" in gone.content


async def test_editor_refusing_the_edit_leaves_state(ws: Path, ctx: Any) -> None:
    path = ws / "r.txt"
    path.write_text("keep\n")
    await read.run({"file_path": "r.txt"}, ctx)
    ctx.apply_ok = False
    outcome = await edit.run(
        {"file_path": "r.txt", "old_string": "keep", "new_string": "lose"}, ctx
    )
    assert outcome.is_error and "did not apply" in outcome.content
    assert path.read_text() == "keep\n"
    assert not ctx.file_state.is_stale(path, "keep\n")


async def test_reread_after_edit_returns_content_not_stub(ws: Path, ctx: Any) -> None:
    path = ws / "s.txt"
    path.write_text("v1\n")
    await read.run({"file_path": "s.txt"}, ctx)
    await edit.run({"file_path": "s.txt", "old_string": "v1", "new_string": "v2"}, ctx)
    outcome = await read.run({"file_path": "s.txt"}, ctx)
    assert outcome.content == "1\tv2"


async def test_non_utf8_and_directory_refused(ws: Path, ctx: Any) -> None:
    (ws / "l1.txt").write_bytes("caf\xe9".encode("latin-1"))
    await read.run({"file_path": "l1.txt"}, ctx)
    outcome = await edit.run({"file_path": "l1.txt", "old_string": "caf", "new_string": "x"}, ctx)
    assert outcome.is_error and "not UTF-8" in outcome.content
    (ws / "dir").mkdir()
    assert (await write.run({"file_path": "dir", "content": "x"}, ctx)).is_error
