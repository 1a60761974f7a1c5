"""A 300-turn session with large tool results through the real process.

At every request it checks that nothing passed the blocking limit and that every tool_use
travels with its tool_result; the fake's invariant checker also holds every request to the
real API's rules, the project's CLAUDE.md in every conversation request, and a prefix that
only changes for a named cause. At the end, that the transcript rebuilds the visible history
and that compactions of every tier were observed, so the test cannot pass vacuously.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from sidecar.fake_llm import Reply, default_reply
from sidecar.storage.transcript_loader import load_transcript
from tests.e2e.session_client import (
    call,
    initialize,
    prompt,
    settings_for,
    start_client,
    stop_client,
)

TURNS = 300
SETTINGS = {
    "contextWindow": 60_000,  # effective 40,000; auto-compact 27,000; blocking 37,000
    "sessionMemory": {"initTokens": 6000, "updateTokens": 4000, "updateToolCalls": 2,
                      "minTokens": 3000, "maxTokens": 9000},
    # Server-side clearing would keep this session under the auto-compact point on its own;
    # it has its own test (test_compaction.py), here the compaction tiers must fire.
    "apiContextManagement": {"enabled": False},
}


def is_summary_call(req: Any) -> bool:
    """A forked call over the conversation: a summary, or a session-notes update."""
    return req.call in ("summary", "memory")


def first_user(messages: list[dict[str, Any]]) -> dict[str, Any]:
    return next(m for m in messages if m["role"] == "user")


def check_pairing(messages: list[dict[str, Any]]) -> None:
    for i, msg in enumerate(messages):
        if msg["role"] != "assistant" or isinstance(msg["content"], str):
            continue
        uses = [b["id"] for b in msg["content"] if b.get("type") == "tool_use"]
        if not uses:
            continue
        nxt = messages[i + 1]["content"] if i + 1 < len(messages) else []
        results = [b["tool_use_id"] for b in nxt if isinstance(b, dict) and b.get("type") == "tool_result"]
        assert results[: len(uses)] == uses, f"tool_use {uses} without its results at message {i}"


async def test_three_hundred_turns(llm: Any, tmp_path: Path, workspace: Path) -> None:
    (workspace / "CLAUDE.md").write_text("Always name the file you read.\n")
    rng = random.Random(7)
    sizes = [rng.choice([2, 3, 5, 8, 12]) for _ in range(TURNS)]
    for i, kb in enumerate(sizes):
        lines = "".join(f"value_{i}_{j} = compute({j}, '{'x' * (j % 17)}')\n" for j in range(kb * 1024 // 40))
        (workspace / f"f{i}.py").write_text(lines)

    def respond(req: Any) -> Any:
        if is_summary_call(req):
            return default_reply(req)
        last = req.body["messages"][-1]["content"]
        if any(isinstance(b, dict) and b.get("type") == "tool_result" for b in last):
            return Reply.text("Noted the values in that file.")
        text = json.dumps(last)
        if "turn " not in text:
            return Reply.text("Continuing from the summary.")
        turn = int(text.split("turn ")[1].split(":")[0])
        return Reply(content=[{"type": "text", "text": f"Reading f{turn}.py."},
                              {"type": "tool_use", "id": f"toolu_{turn:04d}", "name": "Read",
                               "input": {"file_path": f"f{turn}.py"}}])

    llm.responder = respond
    client = await start_client()
    await initialize(client, settings_for("anthropic", llm.url, tmp_path / "store", **SETTINGS))
    sid = (await call(client, "session/new", {"cwd": str(workspace)}))["sessionId"]
    prompts: list[str] = []
    checked = 0
    try:
        for turn in range(TURNS):
            if turn and turn % 100 == 0:
                res = await call(client, "sidecar/compact", {"sessionId": sid, "instructions": "keep file names"})
                assert res["status"] == "completed" and res["tier"] == "full"
            text = f"turn {turn}: read f{turn}.py and note its values"
            prompts.append(text)
            res = await prompt(client, sid, text)
            assert res["stopReason"] == "end_turn"
            blocking = res["gauge"]["blockingAt"]
            for req in llm.requests[checked:]:
                if req.status == 200 and not is_summary_call(req):
                    assert req.input_tokens < blocking, f"turn {turn}: {req.input_tokens} >= {blocking}"
                    check_pairing(req.body["messages"])
            checked = len(llm.requests)
        gauge = await call(client, "sidecar/gauge", {"sessionId": sid})
    finally:
        await stop_client(client)

    compactions = gauge["compactions"]
    assert compactions.get("session_memory", 0) >= 3, compactions
    assert compactions.get("full", 0) >= 2, compactions
    main = [r for r in llm.requests if r.call == "main"]
    assert len(main) >= 2 * TURNS
    # The project's rules survived every compaction: in every conversation request, in its
    # first user message (after the provider's compaction, which must lead, when it did one).
    assert all("Always name the file you read." in json.dumps(first_user(r.body["messages"]))
               for r in main)
    assert llm.checker.checked == len(llm.requests) and not llm.violations

    transcript = next((tmp_path / "store" / "projects").rglob(f"{sid}.jsonl"))
    loaded = load_transcript(transcript)
    assert loaded.torn_lines == 0
    typed = [m.text() for m in loaded.messages
             if m.kind == "user" and not m.is_meta and not m.is_compact_summary and m.text().startswith("turn ")]
    # Kept tails are re-appended after a session-memory boundary: the first occurrence of each
    # prompt, in order, is the visible history.
    seen: list[str] = []
    for t in typed:
        if t not in seen:
            seen.append(t)
    assert seen == prompts
