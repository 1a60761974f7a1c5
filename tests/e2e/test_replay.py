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
        self, session_id: str = "5b0c4f52-7d0e-4c57-9a34-000000000001", *, sidechain: bool = False,
        agent_id: str | None = "a1b2c3d", model: str = MODEL,
    ) -> None:
        self.lines: list[dict[str, Any]] = []
        self.session_id = session_id
        self.sidechain = sidechain
        self.agent_id = agent_id  # None: a 1.0.x sidechain, inline in the main file
        self.model = model
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
        if self.sidechain and self.agent_id:
            entry["agentId"] = self.agent_id
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
                    "model": self.model,
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
        path.parent.mkdir(parents=True, exist_ok=True)
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


HAIKU = "claude-haiku-4-5-20251001"


def task_call(tool_id: str, prompt: str, agent_type: str = "Explore") -> dict[str, Any]:
    return {"type": "tool_use", "id": tool_id, "name": "Task",
            "input": {"description": "Find it", "prompt": prompt, "subagent_type": agent_type}}


def explore(rec: Recording, prompt: str, tag: str) -> Recording:
    """A subagent's side: it reads one large file and reports in a line."""
    rec.prompt(prompt)
    rec.answer([{"type": "tool_use", "id": f"toolu_read_{tag}", "name": "Read",
                 "input": {"file_path": f"{tag}.py"}}], 9_000)
    rec.result(f"toolu_read_{tag}", page(7, 3_000))
    rec.answer([{"type": "text", "text": f"It is in {tag}.py, load_{tag}()."}], 12_000)
    return rec


def test_a_recorded_subagent_replays_as_a_subagent_and_counts_in_both_bills(
    tmp_path: Path,
) -> None:
    """Claude Code 2.x keeps a subagent in ``<session>/subagents/agent-<id>.jsonl`` and a
    compaction call in ``agent-acompact-<id>.jsonl``: the Task call runs a subagent of ours,
    answered by the recorded one; its calls and the compaction call count in both bills."""
    folder = tmp_path / "project"
    main = Recording()
    main.prompt("Where is the config loaded?")
    main.answer([task_call("toolu_task1", "Find the config loader.")], 20_000)
    main.result("toolu_task1", "It is in config.py, load_config().")
    main.answer([{"type": "text", "text": "In config.py: load_config()."}], 20_400)
    main.write(folder / "main.jsonl")
    agent = explore(Recording(main.session_id, sidechain=True, model=HAIKU),
                    "Find the config loader.", "config")
    agent.write(folder / main.session_id / "subagents" / "agent-a1b2c3d.jsonl")
    summary = Recording(main.session_id, sidechain=True, agent_id="acompact-5e1f00")
    summary.prompt("Summarise the conversation.")
    summary.answer([{"type": "text", "text": "<summary>Config work.</summary>"}], 30_000)
    summary.write(folder / "agent-acompact-5e1f00.jsonl")  # beside it: a copied layout

    out = io.StringIO()
    assert run_replay(str(folder), as_json=True, out=out, workers=1) == 0
    report = json.loads(out.getvalue())
    beside, session = report["sessions"]  # in the order of their names
    assert beside == {"file": str(folder / "agent-acompact-5e1f00.jsonl"),
                      "within": str(folder / "main.jsonl")}
    assert session["checks"]["refused"] == 0 and session["checks"]["violations"] == []
    # Every recorded answer, the main conversation's two and the subagent's two, was asked for.
    script = session["script"]
    assert script["played"] == script["responses"] == 4
    assert script["unplayed"] == script["endOfScriptReplies"] == script["missingToolResults"] == 0
    # The subagent's read never entered the main conversation: only its report did.
    assert session["requests"]["oursMain"] == session["requests"]["recorded"] == 2
    ours = session["series"]["ours"]
    assert ours[1] - ours[0] < 300
    billed = session["billed"]
    (sub,) = billed["subagents"]["byModel"]
    assert billed["subagents"]["runs"] == 1
    assert sub["model"] == HAIKU and sub["priceScale"] == 0.2  # $1 against Opus 4.6's $5
    assert sub["ours"]["calls"] == sub["recorded"]["calls"] == 2
    # The subagent's second call read the 3,000-token file back: both sides paid for it.
    assert sub["ours"]["cacheReadTokens"] + sub["ours"]["cacheWriteTokens"] > 3_000
    assert billed["recorded"]["compactions"]["calls"] == 1
    main_recorded = billed["recorded"]["inputTokens"] + 1.25 * billed["recorded"][
        "cacheWriteTokens"] + 0.1 * billed["recorded"]["cacheReadTokens"] + 5 * billed[
        "recorded"]["outputTokens"]
    assert abs(billed["recorded"]["billed"] - (main_recorded + billed["recorded"]["compactions"][
        "billed"] + sub["recorded"]["billed"])) <= 2
    assert billed["ours"]["billed"] > billed["ours"]["main"]["billed"]
    assert report["totals"]["subagents"] == {"runs": 1, "requests": {"ours": 2, "recorded": 2}}
    assert report["totals"]["withinOthers"] == 1 and report["totals"]["skipped"] == 0


def test_inline_sidechains_of_two_task_calls_in_one_answer_replay_as_two_subagents(
    tmp_path: Path,
) -> None:
    """Claude Code 1.0.x writes its subagents inline (``isSidechain``, a root without a
    parent, no agent id), interleaved when two ran at once; each belongs to the Task call
    whose prompt it starts with."""
    main = Recording()
    main.prompt("Find the config and the router.")
    main.answer([task_call("toolu_a", "Find the config loader.", "general-purpose"),
                 task_call("toolu_b", "Find the router.", "general-purpose")], 20_000)
    head = len(main.lines)
    main.result("toolu_a", "It is in config.py, load_config().")
    main.result("toolu_b", "It is in router.py, load_router().")
    main.answer([{"type": "text", "text": "config.py and router.py."}], 20_600)
    first = explore(Recording(main.session_id, sidechain=True, agent_id=None),
                    "Find the config loader.", "config")
    second = explore(Recording(main.session_id, sidechain=True, agent_id=None),
                     "Find the router.", "router")
    for index, line in enumerate(second.lines):  # distinct uuids, as in a real file
        line["uuid"] = line["uuid"].replace("-8000-", "-9000-")
        if line["parentUuid"]:
            line["parentUuid"] = line["parentUuid"].replace("-8000-", "-9000-")
    interleaved = [line for pair in zip(first.lines, second.lines) for line in pair]
    main.lines[head:head] = interleaved
    report = replay_json(main.write(tmp_path / "inline.jsonl"))
    (session,) = report["sessions"]
    assert session["checks"]["refused"] == 0 and session["checks"]["violations"] == []
    assert session["script"]["played"] == session["script"]["responses"] == 6
    assert session["script"]["endOfScriptReplies"] == session["script"]["missingToolResults"] == 0
    (sub,) = session["billed"]["subagents"]["byModel"]
    assert session["billed"]["subagents"]["runs"] == 2
    assert sub["ours"]["calls"] == sub["recorded"]["calls"] == 4 and sub["priceScale"] == 1.0


def test_corpus_subagent_and_compaction_files_replay_with_their_session(
    capsys: pytest.CaptureFixture[str],
) -> None:
    source = CORPUS / "spotter-3.jsonl"
    if not (source.is_file() and (CORPUS / "spotter-5.jsonl").is_file()):
        pytest.skip("the shared corpus is not available")
    assert cli_main(["replay", str(source), "--json"]) == 0
    (session,) = json.loads(capsys.readouterr().out)["sessions"]
    assert session["checks"]["refused"] == 0 and session["checks"]["violations"] == []
    billed = session["billed"]
    (sub,) = billed["subagents"]["byModel"]  # the Explore subagent, on Haiku 4.5
    assert billed["subagents"]["runs"] == 1 and sub["model"].startswith("claude-haiku-4-5")
    assert sub["ours"]["calls"] == sub["recorded"]["calls"] == 13
    assert billed["recorded"]["compactions"]["calls"] == 1  # its auto compaction's call
    assert session["script"]["missingToolResults"] == session["script"]["unplayed"] == 0


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
