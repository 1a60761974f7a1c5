from __future__ import annotations

from pathlib import Path
from typing import Any

from sidecar.tools.read import EMPTY_FILE, MAX_LINE_CHARS, UNCHANGED_STUB, ReadTool

read = ReadTool()


def lines_file(ws: Path, n: int, name: str = "f.txt") -> Path:
    path = ws / name
    path.write_text("".join(f"line {i}\n" for i in range(1, n + 1)))
    return path


async def test_numbered_output_like_claude_code(ws: Path, ctx: Any) -> None:
    lines_file(ws, 3)
    outcome = await read.run({"file_path": "f.txt"}, ctx)
    assert not outcome.is_error
    assert outcome.content == "1\tline 1\n2\tline 2\n3\tline 3"
    assert outcome.raw_output["totalLines"] == 3


async def test_offset_and_limit(ws: Path, ctx: Any) -> None:
    lines_file(ws, 50)
    outcome = await read.run({"file_path": str(ws / "f.txt"), "offset": 10, "limit": 3}, ctx)
    body = outcome.content
    assert body.splitlines()[:3] == ["10\tline 10", "11\tline 11", "12\tline 12"]
    assert "Showing lines 10-12 of 50" in body
    entry = ctx.file_state.get(ws / "f.txt")
    assert (entry.offset, entry.limit) == (10, 3)
    # offset 0 means the start, like offset 1.
    outcome = await read.run({"file_path": "f.txt", "offset": 0, "limit": 1}, ctx)
    assert outcome.content.startswith("1\tline 1")


async def test_default_limit_comes_from_settings(ws: Path, ctx: Any) -> None:
    lines_file(ws, 30)
    ctx.with_tools(readMaxLines=20)
    outcome = await read.run({"file_path": "f.txt"}, ctx)
    assert outcome.raw_output["numLines"] == 20
    assert "20\tline 20" in outcome.content and "line 21" not in outcome.content
    assert "Showing lines 1-20 of 30" in outcome.content


async def test_long_lines_truncated_and_crlf_stripped(ws: Path, ctx: Any) -> None:
    (ws / "long.txt").write_bytes(b"x" * (MAX_LINE_CHARS + 50) + b"\r\nshort\r\n")
    outcome = await read.run({"file_path": "long.txt"}, ctx)
    first, second = outcome.content.split("\n")
    assert first == "1\t" + "x" * MAX_LINE_CHARS + "… [line truncated, 50 more characters]"
    assert second == "2\tshort"


async def test_empty_missing_short_and_directory(ws: Path, ctx: Any) -> None:
    (ws / "empty.txt").write_text("")
    assert (await read.run({"file_path": "empty.txt"}, ctx)).content == EMPTY_FILE
    missing = await read.run({"file_path": "nope.txt"}, ctx)
    assert missing.is_error and "does not exist" in missing.content
    lines_file(ws, 2)
    short = await read.run({"file_path": "f.txt", "offset": 9}, ctx)
    assert not short.is_error and "shorter than the provided offset (9)" in short.content
    (ws / "d").mkdir()
    assert "is a directory" in (await read.run({"file_path": "d"}, ctx)).content


async def test_binary_and_non_utf8(ws: Path, ctx: Any) -> None:
    (ws / "bin.dat").write_bytes(b"\x00\x01\x02abc")
    outcome = await read.run({"file_path": "bin.dat"}, ctx)
    assert outcome.is_error and "binary" in outcome.content
    (ws / "latin.txt").write_bytes("caf\xe9\n".encode("latin-1"))
    outcome = await read.run({"file_path": "latin.txt"}, ctx)
    assert (
        not outcome.is_error
        and "caf\ufffd" in outcome.content
        and "not valid UTF-8" in outcome.content
    )


async def test_image_is_returned_as_image_block(ws: Path, ctx: Any) -> None:
    (ws / "pic.png").write_bytes(b"\x89PNG\r\n\x1a\nfake")
    outcome = await read.run({"file_path": "pic.png"}, ctx)
    assert isinstance(outcome.content, list)
    assert outcome.content[0]["type"] == "image"
    assert outcome.content[0]["source"]["media_type"] == "image/png"


async def test_too_large_output_is_refused(ws: Path, ctx: Any) -> None:
    (ws / "big.txt").write_text(("y" * 1900 + "\n") * 1000)
    outcome = await read.run({"file_path": "big.txt"}, ctx)
    assert outcome.is_error and "exceeds the maximum" in outcome.content
    assert ctx.file_state.get(ws / "big.txt") is None
    part = await read.run({"file_path": "big.txt", "limit": 10}, ctx)
    assert not part.is_error


async def test_editor_buffer_wins_over_disk(ws: Path, ctx: Any) -> None:
    path = lines_file(ws, 2)
    ctx.buffers[path] = "unsaved\n"
    outcome = await read.run({"file_path": "f.txt"}, ctx)
    assert outcome.content == "1\tunsaved" and outcome.raw_output["fromBuffer"]
    assert not ctx.file_state.is_stale(path, "unsaved\n")
    # A file open only in the editor, never saved, can be read too.
    ctx.buffers[ws / "new.py"] = "x = 1\n"
    assert (await read.run({"file_path": "new.py"}, ctx)).content == "1\tx = 1"


async def test_stub_on_unchanged_reread_of_same_range(ws: Path, ctx: Any) -> None:
    path = lines_file(ws, 5)
    first = await read.run({"file_path": "f.txt"}, ctx)
    again = await read.run({"file_path": "f.txt"}, ctx)
    assert again.content == UNCHANGED_STUB and not again.is_error
    assert again.raw_output["unchanged"] is True
    assert first.content != UNCHANGED_STUB
    # Another range is new content.
    other = await read.run({"file_path": "f.txt", "offset": 2, "limit": 2}, ctx)
    assert other.content.startswith("2\tline 2")
    # After a change, the same range returns content again.
    await read.run({"file_path": "f.txt"}, ctx)
    path.write_text("changed\n")
    changed = await read.run({"file_path": "f.txt"}, ctx)
    assert changed.content == "1\tchanged"


async def test_content_again_after_forget_results_or_editor_change(ws: Path, ctx: Any) -> None:
    path = lines_file(ws, 2)
    await read.run({"file_path": "f.txt"}, ctx)
    ctx.file_state.forget_results()
    assert (await read.run({"file_path": "f.txt"}, ctx)).content.startswith("1\tline 1")
    assert (await read.run({"file_path": "f.txt"}, ctx)).content == UNCHANGED_STUB
    ctx.file_state.mark_stale(path)
    assert (await read.run({"file_path": "f.txt"}, ctx)).content.startswith("1\tline 1")
    ctx.buffers[path] = "edited in editor\n"
    assert (await read.run({"file_path": "f.txt"}, ctx)).content == "1\tedited in editor"


def test_title_and_locations(ws: Path) -> None:
    assert read.title({"file_path": str(ws / "a.py")}, [ws]) == "Read a.py"
    assert read.title({"file_path": "a.py", "offset": 5, "limit": 10}) == "Read a.py (lines 5-14)"
    assert read.title({}) == "Read"
    assert read.locations({"file_path": "a.py", "offset": 7}, [ws]) == [
        {"path": str(ws / "a.py"), "line": 7}
    ]
