"""The clients' mirrors of the contract are generated from it, and committed current."""

from __future__ import annotations

from pathlib import Path
from typing import get_type_hints

from sidecar.contract import errors, mirrors, results, updates
from sidecar.contract.updates import UPDATE_KINDS
from sidecar.contract.version import PROTOCOL_VERSION


def test_the_committed_mirrors_are_the_generated_ones() -> None:
    # What `python -m sidecar.contract.mirrors --check` reports; run the module to fix it.
    assert mirrors.stale() == []


def test_check_names_the_stale_files_and_passes_once_written(tmp_path: Path, capsys) -> None:
    assert mirrors.main(["--check", "--root", str(tmp_path)]) == 1
    report = capsys.readouterr().err
    assert f"missing: {mirrors.TS_PATH}" in report and f"missing: {mirrors.LUA_PATH}" in report

    mirrors.main(["--root", str(tmp_path)])
    assert mirrors.main(["--check", "--root", str(tmp_path)]) == 0

    lua = tmp_path / mirrors.LUA_PATH
    lua.write_text(lua.read_text(encoding="utf-8") + "-- edited\n", encoding="utf-8")
    assert mirrors.main(["--check", "--root", str(tmp_path)]) == 1
    assert capsys.readouterr().err.splitlines()[0] == f"differs: {mirrors.LUA_PATH}"


def test_the_output_is_the_same_every_time() -> None:
    assert mirrors.generate() == mirrors.generate()


def test_every_field_of_the_gauge_is_mirrored_with_its_optionality() -> None:
    ts, lua = (mirrors.generate()[p] for p in (mirrors.TS_PATH, mirrors.LUA_PATH))
    ts_gauge = ts.split("export interface Gauge {")[1].split("}")[0]
    lua_gauge = lua.split("---@class context_sidecar.Gauge\n")[1].split("\n\n")[0]
    for name in get_type_hints(results.Gauge):
        assert f"  {name}: " in ts_gauge
        assert f"---@field {name} " in lua_gauge
    # total=False fields are optional in both.
    mcp_ts = ts.split("export interface McpServer {")[1].split("}")[0]
    assert "  error?: string;" in mcp_ts
    assert "---@field error? string" in lua


def test_private_shapes_are_mirrored_by_their_public_name_and_bases_are_folded() -> None:
    contract = mirrors.read_contract()
    names = {shape.name for shape in contract.shapes}
    assert {"ToolCall", "ToolCallUpdate", "UsageUpdate", "SidecarGauge", "Selected"} <= names
    assert not {"ToolCallRequired", "Replayable", "McpServerRequired"} & names
    tool_call = next(s for s in contract.shapes if s.name == "ToolCall")
    assert {f.name for f in tool_call.fields} == set(get_type_hints(updates._ToolCall))
    params = next(s for s in contract.shapes if s.name == "CompactParams")
    assert [(f.name, f.required) for f in params.fields] == [
        ("sessionId", True), ("instructions", False), ("workDoneToken", False),
        ("fromCheckpointId", False)]


def test_the_values_are_the_contracts() -> None:
    ts, lua = (mirrors.generate()[p] for p in (mirrors.TS_PATH, mirrors.LUA_PATH))
    assert f"export const PROTOCOL_VERSION = {PROTOCOL_VERSION};" in ts
    assert f"  PROTOCOL_VERSION = {PROTOCOL_VERSION}," in lua
    for name, code in errors.CODES.items():
        assert f"  {name[0].lower()}{name[1:]}: {code}," in ts
        assert f"    {name} = {code}," in lua
    for name, method in mirrors.method_names().items():
        assert f'"{method}",' in ts
        assert f'    {name} = "{method}",' in lua
    for kind in UPDATE_KINDS:
        assert f"  {kind}: true," in ts
        assert f'    "{kind}",' in lua
