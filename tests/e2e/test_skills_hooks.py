"""Skills and hooks through the real sidecar process and the strict fake.

Skills live in Claude Code's layout (workspace and home), are listed to the model, load with
the Skill tool, come back after a compaction and are watched like CLAUDE.md. Hooks from the
sidecar's settings and from ``.claude/settings.json`` run at SessionStart, PreCompact and
PostCompact with Claude Code's JSON on stdin; their output is shown (live and replayed) and
SessionStart's is context for the model, also after a compaction.
"""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any

from sidecar.core.workspace.hooks import HOOK_CONTEXT_MARK
from sidecar.core.workspace.skills import INVOKED_SKILL_MARK, LISTING_HEADER
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

REVIEW_BODY = "# Review\n\nRead CHECKLIST.md beside this file, then review the diff line by line.\n"


def write_skill(root: Path, name: str, description: str, body: str) -> Path:
    folder = root / ".claude" / "skills" / name
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "SKILL.md"
    path.write_text(f"---\nname: {name}\ndescription: {description}\n---\n{body}")
    return path


def main_requests(llm: Any) -> list[Any]:
    return [r for r in llm.requests if r.call == "main" and r.status == 200]


def request_text(req: Any) -> str:
    return json.dumps(req.body["messages"])


async def fill(client: Any, sid: str, turns: int = 3) -> None:
    """Enough conversation that a summary shrinks it."""
    for n in range(turns):
        await prompt(client, sid, f"background {n}: " + " ".join(f"word{n}_{i}" for i in range(1500)))


def home_env(home: Path) -> dict[str, str]:
    return {**os.environ, "HOME": str(home)}


def skill_responder(calls: dict[str, str]) -> Any:
    """Load the skill a prompt names ("use skill X"), then answer."""

    def respond(req: Any) -> Any:
        if req.call in ("summary", "memory"):
            return default_reply(req)
        last = req.body["messages"][-1]["content"]
        if any(isinstance(b, dict) and b.get("type") == "tool_result" for b in last):
            return Reply.text("Loaded.")
        text = req.last_user_text
        if "read file " in text:
            return Reply.tool_use("Read", {"file_path": text.split("read file ")[1].split()[0]},
                                  id=f"toolu_read_{len(calls)}")
        if "use skill " in text:
            name = text.split("use skill ")[1].split()[0]
            n = len(calls)
            calls[f"toolu_skill_{n}"] = name
            return Reply.tool_use("Skill", {"skill": name}, id=f"toolu_skill_{n}")
        return Reply.text("ok")

    return respond


async def test_skills_are_listed_loaded_and_back_after_compaction(llm: Any, tmp_path: Path,
                                                                  workspace: Path) -> None:
    home = tmp_path / "home"
    write_skill(workspace, "review", "Review a diff against the team checklist", REVIEW_BODY)
    (workspace / ".claude" / "skills" / "review" / "CHECKLIST.md").write_text("- tests\n")
    write_skill(home, "notes", "Keep meeting notes in the team format", "Write notes as bullets.\n")
    template = home / ".claude" / "skills" / "notes" / "TEMPLATE.md"
    template.write_text("## Attendees\n## Decisions\n")
    calls: dict[str, str] = {}
    llm.responder = skill_responder(calls)
    client = await start_client(home_env(home))
    rec = await initialize(client, settings_for("anthropic", llm.url, tmp_path / "store"))
    try:
        sid = (await call(client, "session/new", {"cwd": str(workspace)}))["sessionId"]
        await prompt(client, sid, "hello")
        first = main_requests(llm)[0]
        assert LISTING_HEADER in request_text(first)
        assert "- review: Review a diff against the team checklist" in request_text(first)
        assert "- notes: Keep meeting notes in the team format" in request_text(first)
        assert any(t["name"] == "Skill" for t in first.body["tools"])

        await prompt(client, sid, "use skill review please")
        loaded = main_requests(llm)[-1]
        result = next(b for m in loaded.body["messages"] for b in m["content"]
                      if isinstance(b, dict) and b.get("type") == "tool_result")
        text = json.dumps(result)
        assert "Base directory for this skill: " + str(workspace / ".claude" / "skills" / "review") in text
        assert "review the diff line by line" in text

        # A file beside a user's skill is readable, though it lies outside the workspace.
        await prompt(client, sid, f"read file {template} now")
        beside = json.dumps(main_requests(llm)[-1].body["messages"][-1])
        assert "## Decisions" in beside and "is_error" not in beside

        rec.reset()
        await prompt(client, sid, "/skills")
        shown = rec.text()
        assert "review [workspace] (loaded)" in shown and "notes [user]" in shown

        view = await call(client, "sidecar/context", {"sessionId": sid})
        assert {(s["name"], s["source"], s["invoked"]) for s in view["skills"]} == {
            ("review", "workspace", True), ("notes", "user", False)}

        await fill(client, sid)
        before = len(llm.requests)
        res = await call(client, "sidecar/compact", {"sessionId": sid})
        assert res["status"] == "completed"
        summary = next(r for r in llm.requests[before:] if r.call == "summary")
        # The summarizer reads neither the listing nor the loaded skill's instructions.
        assert "review the diff line by line" not in request_text(summary)
        assert LISTING_HEADER not in request_text(summary)
        await prompt(client, sid, "and now?")
        after = main_requests(llm)[-1]
        body = request_text(after)
        assert INVOKED_SKILL_MARK + "review" in body and "review the diff line by line" in body
        assert LISTING_HEADER in body  # the model still knows what it can load
        assert INVOKED_SKILL_MARK + "notes" not in body
    finally:
        await stop_client(client)


async def test_a_changed_skill_reaches_the_next_request_as_a_delta(llm: Any, tmp_path: Path,
                                                                   workspace: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    path = write_skill(workspace, "deploy", "Deploy to staging", "Run make deploy.\n")
    llm.responder = skill_responder({})
    client = await start_client(home_env(home))
    await initialize(client, settings_for("anthropic", llm.url, tmp_path / "store"))
    try:
        sid = (await call(client, "session/new", {"cwd": str(workspace)}))["sessionId"]
        await prompt(client, sid, "hello")
        await asyncio.sleep(0.5)  # the watcher is armed
        path.write_text("---\nname: deploy\ndescription: Deploy to production\n---\nRun make prod.\n")
        write_skill(workspace, "lint", "Lint the code base", "Run ruff.\n")
        # The watcher's batch lands within its debounce; the next prompt carries it.
        for _ in range(50):
            await asyncio.sleep(0.1)
            await prompt(client, sid, "anything new?")
            body = request_text(main_requests(llm)[-1])
            if "Deploy to production" in body and "\\\"lint\\\"" in body:
                break
        else:
            raise AssertionError("the skill changes never reached a request")
        # The prefix invariant (checked on every request) held: no rebuild, only deltas.
        assert not llm.violations
    finally:
        await stop_client(client)


def hooks_settings(workspace: Path, log: Path) -> None:
    (workspace / ".claude").mkdir(exist_ok=True)
    (workspace / ".claude" / "settings.json").write_text(json.dumps({"hooks": {
        "SessionStart": [{"matcher": "startup|compact", "hooks": [
            {"type": "command", "command": "echo 'Release branch is frozen.'"}]}],
        "PreCompact": [{"matcher": "manual", "hooks": [
            {"type": "command", "command": f"(cat; echo) >> {log}; echo keep the release notes"}]}],
        "PostCompact": [{"hooks": [
            {"type": "command", "command": f"(cat; echo) >> {log}; echo post done"},
            {"type": "command", "command": "exit 3"},
            {"type": "command", "command": "sleep 5", "timeout": 1}]}],
    }}))


async def test_hooks_run_with_claude_code_input_and_their_context_survives(
        llm: Any, tmp_path: Path, workspace: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    log = tmp_path / "hook-input.jsonl"
    hooks_settings(workspace, log)
    trust_folder(home, workspace)  # the workspace's own hooks run in a trusted folder only
    llm.responder = skill_responder({})
    client = await start_client(home_env(home))
    rec = await initialize(client, settings_for(
        "anthropic", llm.url, tmp_path / "store",
        sessionStartHooks=["echo '{\"hookSpecificOutput\": {\"hookEventName\": \"SessionStart\", "
                           "\"additionalContext\": \"Use tabs.\"}}'"]))
    try:
        sid = (await call(client, "session/new", {"cwd": str(workspace)}))["sessionId"]
        await prompt(client, sid, "hello")
        first = request_text(main_requests(llm)[0])
        assert HOOK_CONTEXT_MARK + "SessionStart:startup" in first
        assert "Release branch is frozen." in first and "Use tabs." in first
        started = rec.of("hook_result")
        assert {u["event"] for u in started} == {"SessionStart"} and len(started) == 2

        await fill(client, sid)
        rec.reset()
        before = len(llm.requests)
        res = await call(client, "sidecar/compact", {"sessionId": sid, "instructions": "short"})
        assert res["status"] == "completed"
        summary = json.dumps(next(r for r in llm.requests[before:] if r.call == "summary").body)
        assert "keep the release notes" in summary  # PreCompact output guides the summary
        events = [(u["event"], u["exitCode"]) for u in rec.of("hook_result")]
        assert ("PreCompact", 0) in events and ("SessionStart", 0) in events
        assert ("PostCompact", 0) in events and ("PostCompact", 3) in events
        assert ("PostCompact", None) in events  # the one that timed out, reported
        inputs = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
        pre = next(i for i in inputs if i["hook_event_name"] == "PreCompact")
        post = next(i for i in inputs if i["hook_event_name"] == "PostCompact")
        assert pre["trigger"] == "manual" and pre["custom_instructions"] == "short"
        assert pre["session_id"] == sid and pre["cwd"] == str(workspace)
        assert pre["transcript_path"].endswith(f"{sid}.jsonl")
        assert "Primary Request" in post["compact_summary"]

        await prompt(client, sid, "go on")
        after = request_text(main_requests(llm)[-1])
        # The startup hook ran again for the compaction; the settings hook's context was carried.
        assert HOOK_CONTEXT_MARK + "SessionStart:compact" in after
        assert "Release branch is frozen." in after and "Use tabs." in after
        assert "post done" not in after and "keep the release notes" not in after

        # /clear starts over: SessionStart runs for "clear" (only the hook matching it).
        await prompt(client, sid, "/clear")
        await prompt(client, sid, "fresh start")
        cleared = request_text(main_requests(llm)[-1])
        assert HOOK_CONTEXT_MARK + "SessionStart:clear" in cleared and "Use tabs." in cleared
        assert "Release branch is frozen." not in cleared
    finally:
        await stop_client(client)

    client = await start_client(home_env(home))
    rec = await initialize(client, settings_for("anthropic", llm.url, tmp_path / "store"))
    try:
        await call(client, "session/load", {"sessionId": sid, "cwd": str(workspace)})
        replayed = [u for u in rec.of("hook_result") if u.get("replay")]
        assert [u["event"] for u in replayed].count("PostCompact") == 3
        assert all(u["replay"] is True for u in replayed)
    finally:
        await stop_client(client)
