"""The demo's scripted model: a responder for the fake LLM server that works like an agent.

It reads the request the sidecar sent and answers with the next step of the current user
prompt's plan (Read, Grep, Bash, Edit, then a text answer). Forked calls that ask for a
``<summary>`` (session-memory updates and compaction) get notes built from what it did.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from sidecar.fake_llm import RecordedRequest, Reply
from sidecar.terminal.demo_workspace import MODULES, Todo

MODULE_NAMES = list(MODULES)
# What distinguishes the session-memory update prompt from the compaction prompt.
MEMORY_PROMPT_MARK = "notes file"

Step = Callable[["DemoAgent"], dict[str, Any] | None]


@dataclass
class TurnPlan:
    prompt: str
    steps: list[Step]
    answer: Callable[["DemoAgent"], str]


@dataclass
class ForkedCall:
    kind: str  # "memory" or "summary"
    input_tokens: int


@dataclass
class DemoAgent:
    workspace: Path
    todos: list[Todo]
    fast: bool = True
    on_forked: Callable[[ForkedCall], None] | None = None
    turn: int = -1
    plan: TurnPlan | None = None
    results_seen: int = 0
    files_read: list[str] = field(default_factory=list)
    files_edited: list[str] = field(default_factory=list)
    commands: list[str] = field(default_factory=list)
    prompts: list[str] = field(default_factory=list)
    memory_updates: int = 0
    summaries: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _todo_index: int = 0
    refused_once: bool = False
    manual_compacted: bool = False
    _last: dict[str, Any] = field(default_factory=dict)

    # ----- the user's side --------------------------------------------------------

    def user_prompt(self, turn: int, total: int, context: int = 0, worth_compacting: int = 0) -> str:
        """The prompt of turn ``turn``; sets up the plan the responder then follows. The
        user types ``/compact`` once, past 60 % of the turns, when the context holds at least
        ``worth_compacting`` tokens (or on the last turn): right after an auto-compaction
        there would be nothing to summarize."""
        with self._lock:
            self.turn = turn
            self.results_seen = 0
            if not self.manual_compacted and _is_manual_compact_turn(
                    turn, total, context >= worth_compacting):
                self.manual_compacted = True
                self.plan = None
                text = "/compact keep the list of edited files and the commands that were run"
            else:
                self.plan = self._plan(turn)
                text = self.plan.prompt
            self.prompts.append(text)
            return text

    def _plan(self, turn: int) -> TurnPlan:
        m = MODULE_NAMES[turn % len(MODULE_NAMES)]
        other = MODULE_NAMES[(turn + 3) % len(MODULE_NAMES)]
        kind = turn % 8
        if kind == 0:
            return TurnPlan(f"What does inventory/{m}.py do?", [_read(f"inventory/{m}.py")],
                            lambda a: a._describe_module(m))
        if kind == 1:
            return TurnPlan(f"Where are the compute_ functions of {m} used?",
                            [_grep("def compute_|compute_", f"inventory/{m}.py")],
                            lambda a: a._grep_answer(m))
        if kind == 2:
            return TurnPlan("Check that the package still compiles.",
                            [_bash("python3 -m compileall -q inventory && echo compiled OK",
                                   "Compile the package")],
                            lambda a: a._bash_answer("The package compiles"))
        if kind == 3:
            return TurnPlan("Fix the next TODO in the package.",
                            [_grep("TODO\\(demo-", "inventory"), _read_todo_file, _edit_todo],
                            lambda a: a._edit_answer())
        if kind == 4:
            return TurnPlan("How many rows does the supplier feed have per warehouse?",
                            [_bash("cut -d, -f4 data/supplier_feed.csv | sort | uniq -c", "Count rows per warehouse")],
                            lambda a: a._bash_answer("Rows per warehouse"))
        if kind == 5:
            return TurnPlan(f"Read inventory/{other}.py and compare it with {m}.",
                            [_read(f"inventory/{other}.py"), _read(f"inventory/{m}.py")],
                            lambda a: a._compare(other, m))
        if kind == 6:
            return TurnPlan("Show me the raw supplier feed.",
                            [_bash("cat data/supplier_feed.csv", "Print the supplier feed")],
                            lambda a: a._bash_answer("The feed"))
        return TurnPlan("List the source and test files with their line counts.",
                        [_bash("wc -l inventory/*.py tests/*.py", "Count lines")],
                        lambda a: a._bash_answer("Line counts"))

    # ----- the model's side -------------------------------------------------------

    def respond(self, request: RecordedRequest) -> Reply:
        text = request.last_user_text
        if "<summary>" in text:
            return self._forked(request, MEMORY_PROMPT_MARK in text)
        with self._lock:
            plan = self.plan
            prefix = f"toolu_demo_t{self.turn:03d}_"
            visible = len(_tool_result_ids(request.body, prefix))
            # After a compaction in the middle of a turn the earlier steps are no longer
            # visible; what was already seen still counts.
            self.results_seen = max(self.results_seen, visible)
            step = self.results_seen
            if plan is None:
                return self._reply([{"type": "text", "text": "Nothing to do for this request."}])
            if step < len(plan.steps):
                use = plan.steps[step](self)
                if use is not None:
                    use["id"] = f"{prefix}{step}"
                    blocks: list[dict[str, Any]] = []
                    if step == 0:
                        blocks.append({"type": "thinking", "thinking": f"Plan: {_plan_summary(plan)}."})
                    blocks.append(use)
                    self._note(use)
                    return self._reply(blocks)
            self._last = {"results": _last_tool_results(request.body)}
            return self._reply([{"type": "text", "text": plan.answer(self)}])

    def _reply(self, blocks: list[dict[str, Any]]) -> Reply:
        if self.fast:
            return Reply(content=blocks, chunk_size=64)
        return Reply(content=blocks, chunk_size=6, chunk_delay_ms=12)

    def _note(self, use: dict[str, Any]) -> None:
        args = use.get("input", {})
        if use["name"] == "Read":
            self.files_read.append(str(args.get("file_path")))
        elif use["name"] == "Bash":
            self.commands.append(str(args.get("command")))
        elif use["name"] == "Edit":
            self.files_edited.append(str(args.get("file_path")))

    def _forked(self, request: RecordedRequest, memory: bool) -> Reply:
        with self._lock:
            if not memory and self.plan is None and not self.refused_once:
                # The manual /compact's first summary request is refused as too long, the
                # way a provider refuses an oversized one, so the retry tier shows itself.
                self.refused_once = True
                maximum = max(request.input_tokens * 3 // 5, 1000)
                return Reply(fault={"fault": "prompt_too_long", "tokens": request.input_tokens,
                                    "maximum": maximum})
            if memory:
                self.memory_updates += 1
            else:
                self.summaries += 1
            notes = self._notes()
        if self.on_forked is not None:
            self.on_forked(ForkedCall("memory" if memory else "summary", request.input_tokens))
        analysis = "<analysis>\nWent through the conversation in order.\n</analysis>\n"
        return Reply(content=[{"type": "text", "text": analysis + "<summary>\n" + notes + "\n</summary>"}],
                     chunk_size=256)

    def _notes(self) -> str:
        def listed(items: list[str], empty: str) -> str:
            seen = list(dict.fromkeys(items))
            return "\n".join(f"- {i}" for i in seen[-12:]) or f"- {empty}"

        return (
            "# Session Title\nInventory package maintenance\n\n"
            "# Current State\n"
            f"Working on: {self.prompts[-1] if self.prompts else 'nothing yet'}\n\n"
            "# Task specification\nExplain the inventory package, keep it compiling, fix the "
            "TODO(demo-N) markers one by one.\n\n"
            f"# Files and Functions\n{listed(self.files_read, 'none read')}\n\n"
            f"# Workflow\n{listed(self.commands, 'no commands run')}\n\n"
            f"# Errors & Corrections\n- none so far\n\n"
            f"# Key results\nEdited files:\n{listed(self.files_edited, 'no edits yet')}\n\n"
            f"# Worklog\n" + "\n".join(f"- {p}" for p in self.prompts[-8:])
        )

    # ----- answers ----------------------------------------------------------------

    def _describe_module(self, module: str) -> str:
        source = (self.workspace / "inventory" / f"{module}.py").read_text(encoding="utf-8")
        functions = re.findall(r"^def (\w+)", source, re.M)
        classes = re.findall(r"^class (\w+)", source, re.M)
        return (f"`inventory/{module}.py` defines {len(functions)} functions and {len(classes)} classes. "
                f"The compute_ functions ({', '.join(f for f in functions if f.startswith('compute_'))}) "
                "each sum `price_cents * units * (1 + rate)` over records with a positive quantity, capping "
                "the units per record. The describe_ helpers format one record; the *Tracker classes keep "
                f"running totals per warehouse ({', '.join(classes[:4])}, ...).")

    def _grep_answer(self, module: str) -> str:
        hits = self._last.get("results", "").count("compute_")
        return (f"The compute_ functions of {module} are defined in inventory/{module}.py and are not "
                f"called elsewhere in the package yet ({hits} matching lines). They are entry points for "
                "the reports module, which would import them by name.")

    def _bash_answer(self, lead: str) -> str:
        out = self._last.get("results", "")
        lines = [ln for ln in out.splitlines() if ln.strip()][:6]
        shown = "\n".join(f"    {ln}" for ln in lines)
        return f"{lead}:\n{shown}\n({len(out):,} characters of output in all.)"

    def _compare(self, a: str, b: str) -> str:
        return (f"`{a}` and `{b}` share the same structure: a `Record` dataclass, compute_/describe_ pairs "
                f"and tracker classes. They differ in their topics ({', '.join(MODULES[a][:3])} versus "
                f"{', '.join(MODULES[b][:3])}) and in the per-record caps. Both skip zero quantities.")

    def _edit_answer(self) -> str:
        results = self._last.get("results", "")
        if not self.files_edited:
            return "There is no TODO left to fix."
        if "error" in results.lower() and "updated" not in results.lower():
            return f"The edit did not apply: {results.strip()[:200]}"
        return (f"Fixed the TODO in {self.files_edited[-1]}: skipped records are now passed to "
                "`log_skipped`, which the audit report reads.")

    # ----- the TODO queue ---------------------------------------------------------

    def next_todo(self) -> Todo | None:
        while self._todo_index < len(self.todos):
            todo = self.todos[self._todo_index]
            text = (self.workspace / todo.path).read_text(encoding="utf-8")
            if todo.line in text:
                return todo
            self._todo_index += 1
        return None


def _is_manual_compact_turn(turn: int, total: int, worth_it: bool) -> bool:
    return total >= 5 and turn >= int(total * 0.6) and (worth_it or turn == total - 1)


def _plan_summary(plan: TurnPlan) -> str:
    return f"answer '{plan.prompt}' in {len(plan.steps)} tool step(s), then reply"


def _read(path: str) -> Step:
    return lambda agent: {"type": "tool_use", "name": "Read", "input": {"file_path": path}}


def _grep(pattern: str, path: str) -> Step:
    return lambda agent: {"type": "tool_use", "name": "Grep",
                          "input": {"pattern": pattern, "path": path, "output_mode": "content", "-n": True}}


def _bash(command: str, description: str) -> Step:
    return lambda agent: {"type": "tool_use", "name": "Bash",
                          "input": {"command": command, "description": description}}


def _read_todo_file(agent: DemoAgent) -> dict[str, Any] | None:
    todo = agent.next_todo()
    if todo is None:
        return None
    return {"type": "tool_use", "name": "Read", "input": {"file_path": todo.path}}


def _edit_todo(agent: DemoAgent) -> dict[str, Any] | None:
    todo = agent.next_todo()
    if todo is None:
        return None
    agent._todo_index += 1
    return {"type": "tool_use", "name": "Edit",
            "input": {"file_path": todo.path, "old_string": todo.line, "new_string": todo.fix}}


def _tool_result_ids(body: dict[str, Any], prefix: str) -> set[str]:
    ids: set[str] = set()
    for message in body.get("messages") or []:
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, list):
            continue
        for block in content:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                tid = str(block.get("tool_use_id", ""))
                if tid.startswith(prefix):
                    ids.add(tid)
    return ids


def _last_tool_results(body: dict[str, Any]) -> str:
    messages = body.get("messages") or []
    if not messages or not isinstance(messages[-1], dict):
        return ""
    content = messages[-1].get("content")
    parts: list[str] = []
    if isinstance(content, list):
        for block in content:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                inner = block.get("content")
                if isinstance(inner, str):
                    parts.append(inner)
                elif isinstance(inner, list):
                    parts.extend(str(b.get("text", "")) for b in inner if isinstance(b, dict))
    return "\n".join(parts)
