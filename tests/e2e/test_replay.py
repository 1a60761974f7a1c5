"""Replay end to end: recorded sessions driven through the real engine and the fake server.

The corpus file comes from ../shared/corpus (skipped when absent); the long recording is
built here so that the engine must auto-compact it.
"""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from sidecar.cli import main as cli_main
from sidecar.replay.report import run_replay

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"
MODEL = "claude-opus-4-6"


class Recording:
    """A Claude Code 2.x style transcript, written line by line."""

    def __init__(
        self, session_id: str = "5b0c4f52-7d0e-4c57-9a34-000000000001", *, sidechain: bool = False
    ) -> None:
        self.lines: list[dict[str, Any]] = []
        self.session_id = session_id
        self.sidechain = sidechain
        self.parent: str | None = None
        self.clock = 0
        self.context = 0

    def _entry(self, kind: str, message: dict[str, Any], **extra: Any) -> dict[str, Any]:
        self.clock += 5
        uuid = f"00000000-0000-4000-8000-{len(self.lines):012d}"
        entry = {
            "parentUuid": self.parent,
            "isSidechain": self.sidechain,
            "userType": "external",
            "cwd": "/work/project",
            "sessionId": self.session_id,
            "version": "2.1.39",
            "type": kind,
            "message": message,
            "uuid": uuid,
            "timestamp": f"2026-02-01T10:{self.clock // 60:02d}:{self.clock % 60:02d}.000Z",
            **extra,
        }
        if self.sidechain:
            entry["agentId"] = "a1b2c3d"
        self.lines.append(entry)
        self.parent = uuid
        return entry

    def prompt(self, text: str) -> None:
        self._entry("user", {"role": "user", "content": text})

    def answer(self, blocks: list[dict[str, Any]], context: int, output: int = 60) -> None:
        self.context = context
        usage = {
            "input_tokens": 3,
            "cache_creation_input_tokens": 1_500,
            "cache_read_input_tokens": context - 1_503,
            "output_tokens": output,
        }
        mid = f"msg_{len(self.lines):06d}"
        stop = "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"
        for block in blocks:  # Claude Code writes one entry per content block
            self._entry(
                "assistant",
                {
                    "id": mid,
                    "type": "message",
                    "role": "assistant",
                    "model": MODEL,
                    "content": [block],
                    "stop_reason": stop,
                    "stop_sequence": None,
                    "usage": usage,
                },
                requestId=f"req_{mid}",
            )

    def result(self, tool_use_id: str, content: str) -> None:
        self._entry(
            "user",
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": tool_use_id, "content": content}
                ],
            },
            toolUseResult={"stdout": content[:20]},
        )

    def write(self, path: Path) -> Path:
        path.write_text("".join(json.dumps(line) + "\n" for line in self.lines), encoding="utf-8")
        return path


def page(index: int, tokens: int) -> str:
    """About ``tokens`` tokens of varied, code-like text (about 4 bytes per token)."""
    lines = [f"page {index}"]
    for j in range(tokens // 16):
        lines.append(f"{j:04d}: handler_{index}_{j % 37} returns {(j * 13) % 97} for case {j % 11}")
    return "\n".join(lines)


def long_recording(turns: int = 4, rounds: int = 9, result_tokens: int = 5_000) -> Recording:
    """A session whose recorded context grows well past the auto-compact threshold."""
    rec = Recording()
    context = 24_000
    for turn in range(turns):
        rec.prompt(f"Audit section {turn} of the API reference and list the inconsistencies.")
        for step in range(rounds):
            tid = f"toolu_{turn:02d}{step:02d}"
            rec.answer(
                [
                    {"type": "text", "text": f"Fetching part {step} of section {turn}."},
                    {
                        "type": "tool_use",
                        "id": tid,
                        "name": "mcp__docs__fetch",
                        "input": {"section": turn, "part": step},
                    },
                ],
                context,
            )
            rec.result(tid, page(turn * rounds + step, result_tokens))
            context += result_tokens * 23 // 25  # the recording's tokenizer is a little denser
        rec.answer(
            [{"type": "text", "text": f"Section {turn}: three inconsistencies found."}], context
        )
        context += 200
    return rec


def replay_json(path: Path, **kwargs: Any) -> dict[str, Any]:
    out = io.StringIO()
    assert run_replay(str(path), as_json=True, out=out, workers=1, **kwargs) == 0
    return json.loads(out.getvalue())


def test_corpus_session_replays_every_recorded_call(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = CORPUS / "spotter-2.jsonl"
    if not source.is_file():
        pytest.skip("the shared corpus is not available")
    chart = tmp_path / "replay.svg"
    assert cli_main(["replay", str(source), "--json", "--chart", str(chart)]) == 0
    report = json.loads(capsys.readouterr().out)
    (session,) = report["sessions"]
    assert session["model"] == MODEL
    # The engine asked for exactly the recorded answers, in order, and no more.
    assert session["requests"]["oursMain"] == session["requests"]["recorded"] == 4
    assert session["script"]["played"] == session["script"]["responses"] == 4
    assert session["script"]["unplayed"] == session["script"]["endOfScriptReplies"] == 0
    assert session["script"]["missingToolResults"] == 0
    assert session["peakContext"]["recorded"] == 27_666
    # The hidden prefix is modelled: the first request costs what the recording's did.
    assert session["series"]["ours"][0] == session["series"]["recorded"][0] == 25_801
    assert session["hiddenPrefix"]["filler"] > 20_000
    assert session["pastBlocking"] == 0 and session["errors"] == []
    # The recording began warm (its first call read an earlier session's cache): ours too.
    assert session["warmStart"] == {"recordedRead": 17_915, "oursCountedRead": 17_915}
    billed = session["billed"]
    assert billed["weights"]["output"] == 5.0
    assert billed["recorded"]["calls"] == 4 and billed["ours"]["main"]["calls"] == 4
    # The recording's writes had the one-hour TTL, billed at 2 (ours: 0.48 of it).
    assert billed["recorded"]["cacheWrite1hTokens"] == billed["recorded"]["cacheWriteTokens"] > 0
    assert 0.3 < billed["ratio"] < 3
    svg = ET.fromstring(chart.read_text(encoding="utf-8"))
    assert len(svg.findall(".//{http://www.w3.org/2000/svg}polyline")) == 2


def test_long_recording_auto_compacts_and_never_sends_past_blocking(tmp_path: Path) -> None:
    path = long_recording().write(tmp_path / "long.jsonl")
    report = replay_json(path, chart=str(tmp_path / "long.svg"))
    (session,) = report["sessions"]
    th = session["thresholds"]
    assert (th["size"], th["autoCompactAt"], th["blockingAt"]) == (200_000, 167_000, 177_000)
    assert session["peakContext"]["recorded"] > th["autoCompactAt"]
    compactions = [t for t in session["tiers"] if t["tier"] in ("session_memory", "full")]
    assert compactions, session["tiers"]
    for event in compactions:
        assert event["trigger"] == "auto"
        assert event["tokensAfter"] < event["tokensBefore"]
        assert event["tokensBefore"] >= th["autoCompactAt"]
        assert 0 <= event["turn"] < session["turns"]
    assert session["series"]["compactions"] == [e["request"] for e in compactions]
    assert max(session["series"]["ours"]) < th["blockingAt"]
    assert session["pastBlocking"] == 0
    assert session["errors"] == []
    assert session["script"]["played"] == session["script"]["responses"] == 4 * 10
    assert session["requests"]["oursSummary"] >= 1
    assert session["billed"]["ours"]["summaries"]["calls"] == session["requests"]["oursSummary"]
    assert report["totals"]["compactions"] == len(compactions)
    assert (tmp_path / "long.svg").read_text().count("<polyline") == 2


def test_folder_replays_main_sessions_and_skips_subagent_files(tmp_path: Path) -> None:
    folder = tmp_path / "project"
    folder.mkdir()
    small = long_recording(turns=2, rounds=2, result_tokens=300)
    small.write(folder / "main.jsonl")
    agent = Recording("5b0c4f52-7d0e-4c57-9a34-000000000002", sidechain=True)
    agent.prompt("Find the config loader.")
    agent.answer([{"type": "text", "text": "It is in config.py."}], 9_000)
    agent.write(folder / "agent-a1b2c3d.jsonl")
    out = io.StringIO()
    assert run_replay(str(folder), out=out, workers=1) == 0
    text = out.getvalue()
    assert "main.jsonl" in text
    assert "skipped agent-a1b2c3d.jsonl: subagent transcript" in text
    assert "1 session(s) replayed" in text


def test_the_replayed_answers_output_is_billed_alike_on_both_sides(tmp_path: Path) -> None:
    """The same answers are replayed, so their output costs the same on both sides: the
    larger of the recording's count and the fake's count of the answer. A recording counts
    thinking the transcript does not show (ours, counted from the shown text, had paid
    less), and some recordings logged only the first streamed count (ours had paid more)."""
    rec = Recording()
    rec.prompt("Summarise the design notes.")
    shown = page(1, 600)
    rec.answer([{"type": "text", "text": shown}], 20_000, output=2)  # the first streamed count
    rec.prompt("And the risks?")
    rec.answer([{"type": "text", "text": "Two risks."}], 21_000, output=4_000)  # hidden thinking
    report = replay_json(rec.write(tmp_path / "output.jsonl"))
    (session,) = report["sessions"]
    ours, recorded = session["billed"]["ours"]["main"], session["billed"]["recorded"]
    assert session["script"]["played"] == 2 and session["billed"]["ours"]["summaries"]["calls"] == 0
    assert ours["outputTokens"] == recorded["outputTokens"]
    # The first answer at the fake's count of its text (far above 2), the second at 4,000.
    assert recorded["outputTokens"] > 4_000 + 400
    alike = session["outputAlike"]
    assert alike["recordedRaised"] > 400 and alike["oursRaised"] > 3_900
