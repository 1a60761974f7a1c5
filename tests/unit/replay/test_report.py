"""The report: input discovery, the table, the JSON and the SVG chart."""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from sidecar.core.conversation.messages import Usage
from sidecar.replay.billing import billed_of
from sidecar.replay.chart import render_svg
from sidecar.replay.report import (
    ReplayInputError,
    input_files,
    latest_claude_session,
    render_json,
    render_text,
    run_replay,
)
from sidecar.replay.result import SessionResult, TierEvent

THRESHOLDS = {
    "size": 200_000,
    "effectiveWindow": 180_000,
    "autoCompactAt": 167_000,
    "warningAt": 147_000,
    "errorAt": 147_000,
    "blockingAt": 177_000,
}


def result(name: str, ours: list[int], recorded: list[int]) -> SessionResult:
    r = SessionResult(
        file=f"/corpus/{name}",
        model="claude-opus-4-6",
        out_weight=5.0,
        turns=3,
        thresholds=dict(THRESHOLDS),
    )
    r.ours_series, r.recorded_series = ours, recorded
    r.ours_main = billed_of([Usage(0, 100, v, 10) for v in ours])
    r.ours_summary = billed_of([Usage(5_000, 0, 20_000, 300)])
    r.recorded = billed_of([Usage(1, 200, v, 10) for v in recorded])
    r.events = [
        TierEvent("microcompact", turn=0, request=2, used=50_000, kind="cache_edits", cleared=10),
        TierEvent(
            "session_memory",
            turn=1,
            request=3,
            used=40_000,
            trigger="auto",
            tokens_before=168_000,
            tokens_after=40_000,
        ),
    ]
    r.compaction_points = [3]
    r.levels = {"warning": {"turn": 1, "used": 150_000}}
    r.script = {
        "responses": len(recorded),
        "played": len(recorded),
        "unplayed": 0,
        "endOfScriptReplies": 0,
    }
    return r


def test_text_report_has_one_row_per_session_totals_and_the_tiers() -> None:
    results = [
        result("a.jsonl", [30_000, 90_000, 168_000, 40_000], [30_000, 95_000, 160_000, 165_000]),
        result("b.jsonl", [20_000, 21_000], [20_500, 22_000]),
        SessionResult(
            file="/corpus/agent.jsonl", model="", out_weight=5.0, skipped="subagent transcript"
        ),
    ]
    text = render_text(results, 12.0)
    lines = text.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("session"))
    assert lines[header + 2].startswith("a.jsonl") and lines[header + 3].startswith("b.jsonl")
    assert lines[header + 4].startswith("TOTAL")
    assert "168,000" in lines[header + 2] and "165,000" in lines[header + 2]
    assert "sm@t1/r3 168K→40K" in lines[header + 2]
    assert "session_memory (auto) at turn 1, request 3: 168,000 → 40,000 tokens" in text
    assert "warning at turn 1 (150,000)" in text
    assert "skipped agent.jsonl: subagent transcript" in text
    assert "output 5" in text


def test_json_report_carries_the_same_figures() -> None:
    r = result("a.jsonl", [30_000, 168_000], [30_000, 160_000])
    payload = json.loads(render_json([r], 3.0))
    assert payload["weights"] == {"input": 1.0, "cacheWrite": 1.25, "cacheWrite1h": 2.0,
                                  "cacheRead": 0.1, "output": 5.0}
    session = payload["sessions"][0]
    assert session["peakContext"] == {"ours": 168_000, "recorded": 160_000}
    assert session["requests"] == {
        "oursMain": 2,
        "oursSummary": 1,
        "oursRejected": 0,
        "recorded": 2,
    }
    ours = session["billed"]["ours"]
    assert ours["billed"] == round(r.ours_total.total(5.0))
    assert ours["main"]["calls"] == 2 and ours["summaries"]["calls"] == 1
    assert session["billed"]["ratio"] == round(r.ours_total.total(5.0) / r.recorded.total(5.0), 3)
    assert session["tiers"][1] == {
        "tier": "session_memory",
        "turn": 1,
        "request": 3,
        "used": 40_000,
        "trigger": "auto",
        "tokensBefore": 168_000,
        "tokensAfter": 40_000,
    }
    assert session["series"] == {
        "ours": [30_000, 168_000],
        "recorded": [30_000, 160_000],
        "compactions": [3],
    }
    assert payload["totals"]["sessions"] == 1 and payload["totals"]["compactions"] == 1


def test_chart_is_valid_svg_with_both_series_and_the_threshold_lines() -> None:
    svg = render_svg([result("a.jsonl", [30_000, 90_000, 40_000], [30_000, 95_000, 160_000])])
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    polylines = root.findall(f".//{ns}polyline")
    assert len(polylines) == 2
    assert all(len(p.get("points", "").split()) == 3 for p in polylines)
    labels = " ".join(t.text or "" for t in root.iter(f"{ns}text"))
    for label in ("auto-compact 167,000", "warning 147,000", "blocking 177,000", "a.jsonl"):
        assert label in labels


def test_input_is_the_newest_claude_code_session_by_default(tmp_path: Path) -> None:
    projects = tmp_path / ".claude" / "projects"
    (projects / "-work-a").mkdir(parents=True)
    (projects / "-work-b").mkdir(parents=True)
    old = projects / "-work-a" / "old.jsonl"
    new = projects / "-work-b" / "new.jsonl"
    old.write_text("{}\n")
    new.write_text("{}\n")
    os.utime(old, (1_000, 1_000))
    assert latest_claude_session(tmp_path) == new
    assert input_files(None, tmp_path) == [new]


def test_missing_input_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ReplayInputError, match="no Claude Code session"):
        input_files(None, tmp_path)
    with pytest.raises(ReplayInputError, match="no such file"):
        input_files(str(tmp_path / "nope.jsonl"))
    (tmp_path / "empty").mkdir()
    with pytest.raises(ReplayInputError, match="holds no"):
        input_files(str(tmp_path / "empty"))
    assert run_replay(None, home=tmp_path) == 2
    assert "no session to replay" in capsys.readouterr().err


def test_a_folder_lists_its_jsonl_files(tmp_path: Path) -> None:
    for name in ("b.jsonl", "a.jsonl", "notes.txt", "x.traj"):
        (tmp_path / name).write_text("{}\n")
    assert [p.name for p in input_files(str(tmp_path))] == ["a.jsonl", "b.jsonl"]


def test_a_session_above_its_recording_says_why_and_a_warm_start_is_named() -> None:
    r = result("dear.jsonl", [30_000, 31_000], [30_000, 31_000])
    r.ours_main = billed_of([Usage(0, 30_000, 0, 2_000), Usage(0, 1_000, 30_000, 50)])
    r.recorded = billed_of([Usage(0, 20_000, 10_000, 40), Usage(0, 1_000, 30_000, 50)])
    r.ours_summary = billed_of([])
    r.warm_start_tokens, r.recorded_warm_tokens = 10_000, 10_000
    text = render_text([r], 1.0)
    ratio = r.billed_ratio()
    assert ratio is not None and ratio > 1
    assert (f"above the recording ({ratio:.2f}): cache writes +10,000 tokens (+12,500 billed), "
            "output +1,960 tokens (+9,800 billed)") in text
    assert ("warm start: the recording's first call read 10,000 tokens from an earlier "
            "session's cache; ours counts 10,000 of its first write as read") in text
    below = result("cheap.jsonl", [1_000], [1_000])
    below.ours_summary = billed_of([])
    assert "above the recording" not in render_text([below], 1.0)
