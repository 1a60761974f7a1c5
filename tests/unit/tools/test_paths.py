from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from sidecar.tools.base import ToolError, validate_input
from sidecar.tools.paths import display_path, location_of, resolve_path
from sidecar.tools.read import ReadTool
from sidecar.tools.search import GlobTool, GrepTool, LSTool
from sidecar.tools.write_edit import EditTool, MultiEditTool, WriteTool


def test_relative_paths_resolve_against_first_root(ws: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    assert resolve_path("src/a.py", [ws, other]) == ws / "src" / "a.py"
    assert resolve_path("src/../b.py", [ws]) == ws / "b.py"
    assert resolve_path(str(other / "x"), [ws, other]) == other / "x"
    assert resolve_path(f"file://{ws}/c.py", [ws]) == ws / "c.py"


@pytest.mark.parametrize("raw", ["../x", "/etc/passwd", "a/../../x", "~/x"])
def test_escapes_are_refused(ws: Path, raw: str) -> None:
    with pytest.raises(ToolError, match="outside the workspace"):
        resolve_path(raw, [ws])


def test_symlink_to_outside_is_refused(ws: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("s")
    (ws / "link.txt").symlink_to(secret)
    (ws / "dirlink").symlink_to(tmp_path)
    with pytest.raises(ToolError, match="symlink"):
        resolve_path("link.txt", [ws])
    with pytest.raises(ToolError, match="symlink"):
        resolve_path("dirlink/secret.txt", [ws])
    # A symlink that stays inside is fine, and keeps the name the model used.
    (ws / "real.txt").write_text("r")
    (ws / "inner").symlink_to(ws / "real.txt")
    assert resolve_path("inner", [ws]) == ws / "inner"


def test_no_roots_and_empty_paths(ws: Path) -> None:
    with pytest.raises(ToolError, match="No workspace"):
        resolve_path("a", [])
    with pytest.raises(ToolError, match="`file_path` must not be empty"):
        resolve_path("  ", [ws])


def test_display_and_locations(ws: Path) -> None:
    assert display_path(ws / "a" / "b.py", [ws]) == os.path.join("a", "b.py")
    assert display_path("/elsewhere/x", [ws]) == "/elsewhere/x"
    assert location_of("a.py", [ws], 3) == [{"path": str(ws / "a.py"), "line": 3}]
    assert location_of(None, [ws]) == []


@pytest.mark.parametrize(
    "tool,input",
    [
        (ReadTool(), {"file_path": "../outside.txt"}),
        (WriteTool(), {"file_path": "/etc/passwd", "content": "x"}),
        (EditTool(), {"file_path": "/etc/passwd", "old_string": "a", "new_string": "b"}),
        (MultiEditTool(), {"file_path": "/etc/passwd", "edits": [{"old_string": "a", "new_string": "b"}]}),
        (GlobTool(), {"pattern": "*", "path": "/etc"}),
        (GlobTool(), {"pattern": "../**/*"}),
        (GrepTool(), {"pattern": "root", "path": "/etc/passwd"}),
        (LSTool(), {"path": ".."}),
    ],
)
async def test_every_path_tool_refuses_escapes(ctx: Any, tool: Any, input: dict[str, Any]) -> None:
    outcome = await tool.run(input, ctx)
    assert outcome.is_error
    assert "outside the workspace" in outcome.content
    assert ctx.edits == []


def test_validate_input_names_the_field() -> None:
    schema = ReadTool.input_schema
    with pytest.raises(ToolError, match="`file_path` is required"):
        validate_input(schema, {})
    with pytest.raises(ToolError, match="`offset` must be an integer"):
        validate_input(schema, {"file_path": "a", "offset": "ten"})
    with pytest.raises(ToolError, match="`limit` must be at least 1"):
        validate_input(schema, {"file_path": "a", "limit": 0})
    with pytest.raises(ToolError, match="expected an object"):
        validate_input(schema, ["a"])
    # Quoted numbers are accepted, unknown keys dropped.
    assert validate_input(schema, {"file_path": "a", "offset": "5", "extra": 1}) == {
        "file_path": "a",
        "offset": 5,
    }
    with pytest.raises(ToolError, match="`output_mode` must be one of"):
        validate_input(GrepTool.input_schema, {"pattern": "x", "output_mode": "lines"})
    with pytest.raises(ToolError, match="`ignore` must be an array of strings"):
        validate_input(LSTool.input_schema, {"ignore": [1]})


async def test_invalid_input_is_an_error_outcome_not_an_exception(ctx: Any) -> None:
    outcome = await EditTool().run({"file_path": "a.txt", "old_string": 3, "new_string": "b"}, ctx)
    assert outcome.is_error and "`old_string` must be a string" in outcome.content
    outcome = await ReadTool().run("not a dict", ctx)  # type: ignore[arg-type]
    assert outcome.is_error
