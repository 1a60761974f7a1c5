"""Every recorded Claude Code session in ../shared/corpus loads and matches its statistics."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from sidecar.core.conversation.messages import SYNTHETIC_MODEL, Message
from sidecar.storage.claude_code import api_calls
from sidecar.storage.transcript_loader import LoadedTranscript, load_transcript

SHARED = Path(__file__).resolve().parents[3].parent / "shared"
CORPUS = SHARED / "corpus"
STATS_TOOL = SHARED / "tools" / "corpus_stats.py"

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason="shared corpus not present")

CORPUS_FILES = sorted(p for p in CORPUS.glob("*") if p.suffix in (".jsonl", ".traj")) if CORPUS.is_dir() else []
JSONL_FILES = [p for p in CORPUS_FILES if p.suffix == ".jsonl"]


def _stats_module() -> ModuleType:
    if not STATS_TOOL.is_file():
        pytest.skip("corpus_stats.py not present")
    spec = importlib.util.spec_from_file_location("corpus_stats", STATS_TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _raw_records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _all(loaded: LoadedTranscript) -> list[Message]:
    return loaded.messages + loaded.sidechain_messages


@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: p.name)
def test_every_corpus_file_loads(path: Path) -> None:
    loaded = load_transcript(path)
    assert loaded.torn_lines == 0
    if path.suffix == ".traj":
        assert loaded.messages == [] and loaded.warnings  # told, not crashed


@pytest.mark.parametrize("path", JSONL_FILES, ids=lambda p: p.name)
def test_counts_match_corpus_stats(path: Path) -> None:
    stats = _stats_module().analyse(str(path))
    loaded = load_transcript(path)
    everything = _all(loaded)
    assert sum(m.kind == "user" for m in everything) == stats["user"]
    assert sum(m.kind == "assistant" for m in everything) == stats["asst"]
    assert sum(len(m.tool_uses()) for m in everything) == stats["tool_use"]
    assert sum(len(m.tool_results()) for m in everything) == stats["tool_result"]
    assert sum(m.is_compact_summary for m in everything) == stats["compact_sum"]
    boundaries = [m for m in everything if m.kind == "system" and m.subtype == "compact_boundary"]
    assert len(boundaries) == stats["boundary"]
    ids = {m.message_id for m in everything if m.kind == "assistant"}
    assert len(ids) == stats["api_calls"]
    prompts = [m.usage.prompt_tokens for m in everything if m.usage is not None]
    assert max(prompts, default=0) == stats["peak_ctx"]


@pytest.mark.parametrize("path", JSONL_FILES, ids=lambda p: p.name)
def test_usage_is_grouped_by_message_id(path: Path) -> None:
    """Each response's usage is its final entry's (largest output), on every sibling."""
    expected: dict[str, int] = {}
    for record in _raw_records(path):
        body = record.get("message")
        if record.get("type") != "assistant" or not isinstance(body, dict):
            continue
        if body.get("model") == SYNTHETIC_MODEL or not isinstance(body.get("usage"), dict):
            continue
        out = body["usage"].get("output_tokens") or 0
        expected[body["id"]] = max(expected.get(body["id"], 0), out)
    loaded = load_transcript(path)
    calls = api_calls(loaded.messages) + api_calls(loaded.sidechain_messages)
    assert {c.message_id for c in calls} <= set(expected)
    for call in calls:
        assert call.usage.output_tokens == expected[call.message_id]
        first = (loaded.messages + loaded.sidechain_messages)
        siblings = [m for m in first if m.message_id == call.message_id]
        assert all(m.usage == call.usage for m in siblings)
    main_calls = api_calls(loaded.messages)
    assert [c.first_index for c in main_calls] == sorted(c.first_index for c in main_calls)
    for call in main_calls:
        first_entry = loaded.messages[call.first_index]
        assert first_entry.message_id == call.message_id
        assert call.context_tokens == first_entry.usage.context_tokens  # type: ignore[union-attr]


def test_synthetic_messages_are_api_errors_without_usage() -> None:
    loaded = load_transcript(CORPUS / "attio-2.jsonl")
    synthetic = [m for m in _all(loaded) if m.model == SYNTHETIC_MODEL]
    assert synthetic, "attio-2 holds synthetic entries"
    assert all(m.is_api_error and m.usage is None for m in synthetic)
    synthetic_ids = {m.message_id for m in synthetic}
    assert not synthetic_ids & {c.message_id for c in api_calls(loaded.messages)}


@pytest.mark.parametrize(("name", "trigger", "pre_tokens"), [("spotter-3", "auto", 167731), ("spotter-6", "manual", 142431)])
def test_compact_boundaries_in_2x_files(name: str, trigger: str, pre_tokens: int) -> None:
    loaded = load_transcript(CORPUS / f"{name}.jsonl")
    index, boundary = next(
        (i, m) for i, m in enumerate(loaded.messages) if m.subtype == "compact_boundary"
    )
    assert boundary.kind == "system" and boundary.parent_uuid is None
    metadata = boundary.extra["compactMetadata"]
    assert metadata["trigger"] == trigger and metadata["preTokens"] == pre_tokens
    assert isinstance(boundary.extra["logicalParentUuid"], str)
    summary = loaded.messages[index + 1]
    assert summary.is_compact_summary and summary.kind == "user"
    assert summary.text().startswith("This session is being continued")
    assert summary.extra == {}  # isVisibleInTranscriptOnly is the compact-summary default


@pytest.mark.parametrize("name", ["attio-2", "templar-2"])
def test_compact_summaries_in_1x_files(name: str) -> None:
    loaded = load_transcript(CORPUS / f"{name}.jsonl")
    summaries = [m for m in loaded.messages if m.is_compact_summary]
    assert len(summaries) == 1
    assert summaries[0].parent_uuid is None
    assert summaries[0].text().startswith("This session is being continued")
    assert not any(m.subtype == "compact_boundary" for m in loaded.messages)
    assert loaded.title  # from a summary title line, not mistaken for a compaction


def test_sidechains_are_kept_apart() -> None:
    loaded = load_transcript(CORPUS / "ccv-3.jsonl")
    assert len(loaded.sidechain_messages) == 161 + 244
    assert len(loaded.messages) == 14 + 18
    assert not loaded.is_subagent


def test_subagent_file_is_its_own_conversation() -> None:
    loaded = load_transcript(CORPUS / "spotter-7.jsonl")
    assert loaded.is_subagent
    assert [m.kind for m in loaded.messages] == ["user", "assistant"]
    assert loaded.messages[0].text().startswith("Your task is to create a detailed summary")


def test_parent_chain_skips_progress_and_hook_records() -> None:
    """Parents point at messages only, through the progress/hook records in between."""
    for name in ("spotter-3", "templar-2"):
        loaded = load_transcript(CORPUS / f"{name}.jsonl")
        uuids = {m.uuid for m in loaded.messages}
        parents = [m.parent_uuid for m in loaded.messages if m.parent_uuid is not None]
        assert parents
        assert sum(p in uuids for p in parents) / len(parents) > 0.98


def test_torn_last_line_of_a_real_file(tmp_path: Path) -> None:
    source = CORPUS / "spotter-6.jsonl"
    data = source.read_bytes()
    last_start = data.rstrip(b"\n").rfind(b"\n") + 1
    torn = tmp_path / "torn.jsonl"
    torn.write_bytes(data[: last_start + (len(data) - last_start) // 2])
    whole = load_transcript(source)
    loaded = load_transcript(torn)
    assert loaded.torn_lines == 1
    assert any("torn last line" in w for w in loaded.warnings)
    raw_last = json.loads(data[last_start:])
    dropped = 1 if raw_last.get("type") in ("user", "assistant") else 0
    assert len(loaded.messages) == len(whole.messages) - dropped


def test_json_array_variant(tmp_path: Path) -> None:
    records = _raw_records(CORPUS / "templar-1.jsonl")
    array = tmp_path / "chat.json"
    array.write_text(json.dumps(records, indent=2), encoding="utf-8")
    from_array = load_transcript(array)
    from_lines = load_transcript(CORPUS / "templar-1.jsonl")
    assert from_array.format == "json-array"
    assert [m.uuid for m in from_array.messages] == [m.uuid for m in from_lines.messages]
    assert from_array.title == from_lines.title


def test_claude_code_file_in_our_storage_is_listed(tmp_path: Path) -> None:
    from sidecar.storage.paths import project_dir
    from sidecar.storage.session_index import list_sessions

    loaded = load_transcript(CORPUS / "spotter-3.jsonl")
    assert loaded.cwd is not None and loaded.session_id is not None
    target = project_dir(tmp_path, loaded.cwd) / f"{loaded.session_id}.jsonl"
    target.parent.mkdir(parents=True)
    shutil.copy(CORPUS / "spotter-3.jsonl", target)
    [summary] = list_sessions(tmp_path, loaded.cwd)
    assert summary.session_id == loaded.session_id
    assert summary.title == loaded.title
    assert summary.model == loaded.model
    assert summary.created_at == loaded.created_at
    assert summary.updated_at == loaded.updated_at
