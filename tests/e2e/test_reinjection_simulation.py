"""A 300-turn session in a small window with skills loaded, hooks configured and files read,
through the real sidecar process and the strict fake.

Compactions of both tiers happen many times; the fake's invariant checker (rule 6,
``REINJECTED`` in sidecar/fake_llm/invariants.py) holds every request to the re-injection
budgets and the first request after each compaction to carrying every skill loaded so far
(most recent first) and every SessionStart hook's context. At the end the test checks that
those checks really ran (not vacuously) and prints what each re-injection cost.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import sys
from pathlib import Path
from typing import Any

from sidecar.core.workspace.skills import LISTING_HEADER
from sidecar.fake_llm import Reply, default_reply
from tests.e2e.session_client import (
    call,
    initialize,
    prompt,
    settings_for,
    start_client,
    stop_client,
    trust_folder,
)

TURNS = 300
SETTINGS = {
    "contextWindow": 60_000,  # effective 40,000; auto-compact 27,000; blocking 37,000
    "sessionMemory": {"initTokens": 6000, "updateTokens": 4000, "updateToolCalls": 2,
                      "minTokens": 3000, "maxTokens": 9000},
    # The compaction tiers must fire, not the provider's clearing.
    "apiContextManagement": {"enabled": False},
    "sessionStartHooks": ["echo 'Team rule: every change gets a test.'"],
}
# Turn -> the skill loaded then (the last loads a skill again: it becomes the most recent).
SKILL_TURNS = {4: "review", 30: "handbook", 75: "deploy", 130: "notes", 190: "lint",
               240: "review"}
# A manual compaction every 100 turns waits till the context is this large: right after an
# automatic one (where those fall depends on the size of the tools offered) the summary and
# what comes back with it would not shrink the context, and the compaction rightly fails.
MANUAL_COMPACT_FROM = 15_000
# Marks of what a compaction puts back, for the report (the checker knows the budgeted ones).
FILE_MARK = "(read before the summary, unchanged since)"


def make_skills(workspace: Path, home: Path) -> None:
    def skill(root: Path, name: str, description: str, body: str) -> None:
        folder = root / ".claude" / "skills" / name
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "SKILL.md").write_text(f"---\nname: {name}\ndescription: {description}\n---\n{body}")

    skill(workspace, "review", "Review changes against the checklist",
          "# Review\n" + "".join(f"{i}. Check rule {i} of the checklist.\n" for i in range(40)))
    # Far larger than a skill's budget in this window: it comes back cut, with a note.
    skill(workspace, "handbook", "The team's coding handbook",
          "# Handbook\n" + "".join(f"Section {i}: write code that reads well, rule {i}.\n"
                                   for i in range(400)))
    skill(workspace, "deploy", "Deploy to staging", "Run make deploy, then check the health page.\n")
    skill(home, "notes", "Keep notes in the team format", "Write notes as short bullets.\n" * 20)
    skill(home, "lint", "Lint before committing", "Run ruff check --fix on changed files.\n")
    (workspace / ".claude" / "settings.json").write_text(json.dumps({"hooks": {
        "SessionStart": [{"matcher": "startup|compact", "hooks": [
            {"type": "command", "command": "echo 'Release branch is frozen until Friday.'"}]}],
        "PreCompact": [{"hooks": [{"type": "command", "command": "echo keep file names"}]}],
        "PostCompact": [{"hooks": [{"type": "command", "command": "cat > /dev/null; echo noted"}]}],
    }}))
    trust_folder(home, workspace)  # the workspace's own hooks run in a trusted folder only


def block_texts(body: dict[str, Any]) -> list[str]:
    out = []
    for m in body["messages"]:
        if m["role"] == "user" and isinstance(m["content"], list):
            out.extend(b.get("text", "") for b in m["content"] if b.get("type") == "text")
    return out


async def context_used(client: Any, sid: str) -> int:
    gauge = await call(client, "sidecar/gauge", {"sessionId": sid})
    return int(gauge["used"])


async def test_every_compaction_puts_back_skills_and_hooks(llm: Any, tmp_path: Path,
                                                           workspace: Path) -> None:
    home = tmp_path / "home"
    make_skills(workspace, home)
    rng = random.Random(11)
    for i in range(0, TURNS, 3):
        kb = rng.choice([2, 3, 5])
        (workspace / f"f{i}.py").write_text(
            "".join(f"value_{i}_{j} = compute({j})\n" for j in range(kb * 1024 // 24)))

    def respond(req: Any) -> Any:
        if req.call in ("summary", "memory"):
            return default_reply(req)
        last = req.body["messages"][-1]["content"]
        if any(isinstance(b, dict) and b.get("type") == "tool_result" for b in last):
            return Reply.text("Done.")
        text = req.last_user_text
        if "turn " not in text:
            return Reply.text("Continuing.")
        turn = int(text.split("turn ")[1].split(":")[0])
        if turn in SKILL_TURNS:
            return Reply.tool_use("Skill", {"skill": SKILL_TURNS[turn]}, id=f"toolu_s{turn:03d}")
        if turn % 3 == 0:
            return Reply.tool_use("Read", {"file_path": f"f{turn}.py"}, id=f"toolu_r{turn:03d}")
        return Reply.text(f"Noted turn {turn}.")

    llm.responder = respond
    client = await start_client({**os.environ, "HOME": str(home)})
    await initialize(client, settings_for("anthropic", llm.url, tmp_path / "store", **SETTINGS))
    sid = (await call(client, "session/new", {"cwd": str(workspace)}))["sessionId"]
    filler = " ".join(f"note{i}" for i in range(250))
    compact_due = False
    try:
        for turn in range(TURNS):
            compact_due = compact_due or (turn > 0 and turn % 100 == 0)
            if compact_due and await context_used(client, sid) >= MANUAL_COMPACT_FROM:
                res = await call(client, "sidecar/compact", {"sessionId": sid})
                assert res["status"] == "completed" and res["tier"] == "full"
                compact_due = False
            res = await prompt(client, sid, f"turn {turn}: carry on. {filler}")
            assert res["stopReason"] == "end_turn"
        gauge = await call(client, "sidecar/gauge", {"sessionId": sid})
    finally:
        await stop_client(client)

    compactions = gauge["compactions"]
    assert compactions.get("session_memory", 0) >= 2, compactions
    assert compactions.get("full", 0) >= 2, compactions
    checked = [r for r in llm.checker.reinjections if r["session"] == sid]
    # Every compaction was followed by a conversation request the checker looked at.
    assert len(checked) == sum(compactions.values()), (len(checked), compactions)
    with_skills = [r for r in checked if r["skills"]["expected"]]
    assert len(with_skills) >= len(checked) - 2
    assert all(r["skills"]["names"] for r in with_skills)
    assert all(r["hooks"]["names"] for r in checked)
    # The last compactions put back five skills, "review" first (loaded again last).
    assert checked[-1]["skills"]["names"][0] == "review"
    main = {r.index: r for r in llm.requests if r.call == "main"}
    report = []
    for r in checked:
        texts = block_texts(main[r["index"]].body)
        from sidecar.fake_llm.counting import count_text

        files = sum(count_text(t) for t in texts if FILE_MARK in t)
        listing = sum(count_text(t) for t in texts if LISTING_HEADER in t)
        report.append({"skills": r["skills"]["tokens"], "hooks": r["hooks"]["tokens"],
                       "files": files, "listing": listing,
                       "skillBudget": r["skills"]["budget"], "hookBudget": r["hooks"]["budget"]})
    assert not llm.violations
    assert any("call the Skill tool with skill \"handbook\"" in t
               for t in block_texts(main[checked[-1]["index"]].body))

    def line(key: str) -> str:
        values = [x[key] for x in report]
        return (f"{key}: median {statistics.median(values):,.0f}, max {max(values):,} tokens"
                f" over {len(values)} compactions")

    print("\nre-injection after a compaction (tokens as the fake counts them; window 60K, "
          f"skill budget {report[-1]['skillBudget']:,}, hook budget {report[-1]['hookBudget']:,}):\n  "
          + "\n  ".join(line(k) for k in ("skills", "hooks", "listing", "files")),
          file=sys.stderr)
