"""The session's saved tool outputs: Read and Grep may open them, nothing else outside."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sidecar.tools.read import ReadTool
from sidecar.tools.search import GrepTool


def saved_output(tmp_path: Path, ctx: Any) -> Path:
    directory = tmp_path / "store" / "sess" / "tool-results"
    directory.mkdir(parents=True)
    path = directory / "toolu_01.txt"
    path.write_text("".join(f"row {i}\n" for i in range(1, 501)))
    ctx.readable = [directory]
    return path


async def test_read_and_grep_open_a_saved_output(tmp_path: Path, ctx: Any) -> None:
    path = saved_output(tmp_path, ctx)
    outcome = await ReadTool().run({"file_path": str(path), "offset": 250, "limit": 2}, ctx)
    assert not outcome.is_error
    assert outcome.content.splitlines()[:2] == ["250\trow 250", "251\trow 251"]
    found = await GrepTool().run({"pattern": "row 42$", "path": str(path),
                                  "output_mode": "content"}, ctx)
    assert not found.is_error and "row 42" in str(found.content)


async def test_only_the_saved_outputs_are_readable_outside_the_workspace(tmp_path: Path, ctx: Any) -> None:
    path = saved_output(tmp_path, ctx)
    beside = tmp_path / "store" / "sess" / "other.txt"
    beside.write_text("not a saved output\n")
    escape = path.parent / "escape.txt"
    escape.symlink_to(beside)
    for target in (beside, escape, path.parent / ".." / "other.txt"):
        outcome = await ReadTool().run({"file_path": str(target)}, ctx)
        assert outcome.is_error and "Access denied" in str(outcome.content), target
    ctx.readable = []
    outcome = await ReadTool().run({"file_path": str(path)}, ctx)
    assert outcome.is_error and "Access denied" in str(outcome.content)
