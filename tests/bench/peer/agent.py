"""The scripted model: one responder for the fake LLM server, blind to which client calls.

It decides each reply from two things only:

1. server-side state the driver sets: which turn of the workload is running
   (``start_turn(i)`` before each user prompt);
2. client-agnostic facts about the request: is it a summary call (compaction or session
   notes), a side call with no tools, or a turn of the conversation; and does its latest
   *user* message carry the result of the tool call the agent issued last (Claude Code may
   put a ``system``-role message after the user message, so the last message is not it).

A result for the last call advances the script; a request without it re-issues the pending
call under a new id (after a compaction the result may be gone), at most twice, then the
step is skipped so nothing loops. Ids are never reused: Claude Code reads a repeated id as
an interrupted call and loops.

Summary calls of either client get the same kind of reply, sized from the request alone:
5 % of its input tokens, at least 200 and at most 4,000 tokens.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from typing import Any

from sidecar.fake_llm import RecordedRequest, Reply
from sidecar.fake_llm.counting import count_text
from tests.bench.peer.workloads import Turn, Workload, prose

MAX_REISSUES = 2
SUMMARY_SHARE = 0.05
SUMMARY_FLOOR = 200
SUMMARY_CAP = 4_000
# Claude Code's compaction prompt opens with this; the sidecar's summary and session-notes
# prompts ask for <summary> tags.
CLAUDE_CODE_COMPACT_MARK = "CRITICAL: Respond with TEXT ONLY"
SUMMARY_TAG = "<summary>"
SIDE_REPLY = "The file holds small record helpers; nothing in it needs attention now."


def latest_user_message(body: dict[str, Any]) -> dict[str, Any] | None:
    for message in reversed(body.get("messages") or []):
        if isinstance(message, dict) and message.get("role") == "user":
            return message
    return None


def _blocks(message: dict[str, Any] | None) -> list[dict[str, Any]]:
    if message is None:
        return []
    content = message.get("content")
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [b for b in content or [] if isinstance(b, dict)]


def message_text(message: dict[str, Any] | None) -> str:
    return "\n".join(str(b.get("text", "")) for b in _blocks(message) if b.get("type") == "text")


def is_summary_request(body: dict[str, Any]) -> bool:
    """A compaction summary or a session-notes update, by its prompt (either client), or a
    request for the provider's own compaction (its ``compaction`` parameter)."""
    if isinstance(body.get("compaction"), dict):
        return True
    texts = [str(b.get("text", "")) for b in _blocks(latest_user_message(body))
             if b.get("type") == "text"]
    return any(SUMMARY_TAG in t or t.lstrip().startswith(CLAUDE_CODE_COMPACT_MARK)
               for t in texts)


def is_side_call(body: dict[str, Any]) -> bool:
    """A one-shot call with no tools (Claude Code asks such questions about files it read)."""
    return not body.get("tools")


def tool_result_for(body: dict[str, Any], tool_id: str) -> dict[str, Any] | None:
    for block in _blocks(latest_user_message(body)):
        if block.get("type") == "tool_result" and block.get("tool_use_id") == tool_id:
            return block
    return None


def summary_reply(request: RecordedRequest) -> Reply:
    """A realistic summary whose size depends only on the request's input tokens."""
    target = min(SUMMARY_CAP, max(SUMMARY_FLOOR, round(SUMMARY_SHARE * request.input_tokens)))
    facts = _facts(request.body)
    lines = ["<analysis>",
             ("Went through the conversation in order; noted each request, the files read, "
              "the edits made and the commands run with their outcomes."),
             "</analysis>", "<summary>",
             ("1. Primary Request and Intent: work through the user's requests one turn at a "
              "time, reading files, editing constants and running commands as asked."),
             "2. Key Technical Concepts: record helpers, rate constants, log analysis.",
             "3. Files and Code Sections:"]
    lines += [f"   - {fact}" for fact in facts] or ["   - none"]
    lines += ["4. Errors and Fixes: none seen.", "5. Problem Solving: each step succeeded.",
              "6. All User Messages: as listed under Current Work.",
              "7. Pending Tasks: continue with the latest request.",
              "8. Current Work:"]
    closing = ["9. Next Steps: carry on with the user's latest request.", "</summary>"]
    # The notes grow with a terse worklog until the size rule is met.
    worklog = prose(request.input_tokens, target).split(". ")
    body = lines[:]
    for entry in worklog:
        if count_text("\n".join(body + closing)) >= target:
            break
        body.append(f"   - {entry.strip().rstrip('.')}.")
    return Reply.text("\n".join(body + closing))


def _facts(body: dict[str, Any]) -> list[str]:
    """The files and commands the conversation's tool calls name, in first-seen order."""
    seen: dict[str, None] = {}
    for message in body.get("messages") or []:
        if not isinstance(message, dict) or message.get("role") != "assistant":
            continue
        for block in _blocks(message):
            if block.get("type") != "tool_use":
                continue
            data = block.get("input") or {}
            if "file_path" in data:
                seen[f"{block.get('name')} {data['file_path']}"] = None
            elif "command" in data:
                seen[f"ran `{data['command']}`"] = None
    return list(seen)


@dataclass
class AgentStats:
    main_replies: int = 0
    summaries: int = 0
    side_calls: int = 0
    results: int = 0
    error_results: int = 0
    reissued: int = 0
    skipped: int = 0
    finished_turns: set[int] = field(default_factory=set)

    def to_json(self) -> dict[str, Any]:
        return {**{k: v for k, v in self.__dict__.items() if k != "finished_turns"},
                "finishedTurns": sorted(self.finished_turns)}


class ScriptedAgent:
    """The fake's ``responder`` for one run of one workload."""

    def __init__(self, workload: Workload) -> None:
        self.workload = workload
        self.stats = AgentStats()
        self._lock = threading.Lock()  # the fake answers each connection on its own thread
        self._turn = -1
        self._step = 0
        self._last_id: str | None = None
        self._issued = 0  # how often the pending step was issued
        self._ids = 0

    def start_turn(self, index: int) -> None:
        with self._lock:
            self._turn, self._step, self._last_id, self._issued = index, 0, None, 0

    def __call__(self, request: RecordedRequest) -> Reply:
        body = request.body
        if is_summary_request(body):
            with self._lock:
                self.stats.summaries += 1
            return summary_reply(request)
        if is_side_call(body):
            with self._lock:
                self.stats.side_calls += 1
            return Reply.text(SIDE_REPLY)
        with self._lock:
            self.stats.main_replies += 1
            if self._turn < 0:
                return Reply.text("Ready.")
            return self._next(self.workload.turns[self._turn], body)

    def _next(self, turn: Turn, body: dict[str, Any]) -> Reply:
        if self._last_id is not None:
            result = tool_result_for(body, self._last_id)
            if result is not None:
                self.stats.results += 1
                self.stats.error_results += bool(result.get("is_error"))
                self._step, self._last_id, self._issued = self._step + 1, None, 0
            elif self._issued > MAX_REISSUES:
                self.stats.skipped += 1
                self._step, self._last_id, self._issued = self._step + 1, None, 0
            else:
                self.stats.reissued += 1
        if self._step >= len(turn.steps):
            self.stats.finished_turns.add(self._turn)
            return Reply.text(turn.answer)
        step = turn.steps[self._step]
        self._ids += 1
        self._last_id = f"toolu_peer{self._turn:02d}_{self._ids:04d}"
        self._issued += 1
        return Reply(content=[{"type": "text", "text": step.note},
                              {"type": "tool_use", "id": self._last_id, "name": step.tool,
                               "input": json.loads(json.dumps(step.input))}])
