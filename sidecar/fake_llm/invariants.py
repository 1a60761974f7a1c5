"""Invariants every request of a sidecar session must keep, checked as the fake receives it.

A long test that checks only its end state can pass while request 40 of 300 was refused,
lost the project's rules, or rewrote the whole prompt cache. The fake applies this checker
to every request it records, so each test, the demo and replay fail on the request that
broke a rule, with its index.

The sidecar labels its requests with headers (real APIs ignore unknown headers):

- ``x-context-sidecar-session``: the session id;
- ``x-context-sidecar-call``: ``main`` for the conversation's own turns, else ``summary``,
  ``memory`` or ``count`` (forked and counting calls are validated but are no conversation);
- ``x-context-sidecar-epoch``: ``N:cause``; N rises each time a named cause rewrites what was
  sent before (``compaction``, ``clear``, ``microcompact``, ``context_edit``, ``model``,
  ``settings``, ``load``);
- ``x-context-sidecar-blocking-at``: the session's blocking limit.

Rules, per session:

1. ``refused``: the request passed the real API's validation (see ``validation``).
2. ``user_context``: the first block of every main request is the user context (project
   rules and date); once a session's requests carried CLAUDE.md content, every later one
   does.
3. ``blocking``: no main request holds more input tokens (as the fake counts them) than the
   blocking limit.
4. ``prefix``: within one epoch, each main request's model, tools, system and messages extend
   the previous main request's byte for byte (cache markers aside), since any other change
   throws the provider's prompt cache away.
5. ``epoch``: an epoch change names a known cause and never goes backwards.
6. ``reinjected``: the context a compaction puts back (see ``REINJECTED``: the skills the
   model loaded, the SessionStart hooks' context, the plan written in plan mode, the task
   list kept with TodoWrite) stays
   within its budgets on every request, and the first request after each compaction carries every item of each kind
   that the conversation had before it (most recent first where the kind has an order),
   each once.
7. ``mcp_reannounced``: the first request after a compaction that offers MCP tools
   (``mcp__...``) the sidecar announced earlier in the conversation carries their
   re-announcement, naming every one of them, within its budget (four bytes a token at most), so the model keeps the servers' instructions and tool set.

Requests without the headers (other clients, such as Claude Code) are checked by rule 1
only.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from sidecar.core.permissions.modes import FILE_EDIT_TOOLS
from sidecar.core.permissions.plan import PLAN_FILE_INTRO, PLAN_REINJECTED_MARK
from sidecar.core.settings import PostCompact
from sidecar.core.todos import REINJECTED_INTRO as TODO_REINJECTED_INTRO
from sidecar.core.todos import TODO_TOOL
from sidecar.core.turns.request_labels import (
    BLOCKING_HEADER,
    CALL_HEADER,
    CAUSES,
    EPOCH_HEADER,
    SESSION_HEADER,
)
from sidecar.core.workspace.hooks import HOOK_CONTEXT_MARK, hook_budget
from sidecar.core.workspace.skills import (
    INVOKED_SKILL_MARK,
    LOADED_SKILL_MARK,
    SKILL_TOOL,
    skill_budgets,
)
from sidecar.mcp.announce import DELTA_MARK, REANNOUNCE_MARK, REANNOUNCE_TOKENS

from .counting import count_text
from .responses_input import input_items, message_role, part_text, parts

# Text the sidecar's user-context block starts with, and its CLAUDE.md section heading.
USER_CONTEXT_MARK = "<system-reminder>\nThe following context may be used while you answer"
CLAUDE_MD_MARK = "\n# claudeMd\n"


@dataclass(frozen=True)
class Violation:
    index: int  # the request's position in the fake's record
    rule: str
    detail: str

    def __str__(self) -> str:
        return f"request {self.index}: {self.rule}: {self.detail}"


@dataclass
class _Conversation:
    epoch: int = -1
    cause: str = "start"
    model: str = ""
    tools: str = ""
    system: str = ""
    blocks: list[str] = field(default_factory=list)
    mcp_announced: bool = False  # a request carried the sidecar's MCP tool announcement
    had_claude_md: bool = False
    requests: int = 0
    # Skill tool calls seen (id -> skill), and the skills loaded, oldest first.
    skill_calls: dict[str, str] = field(default_factory=dict)
    skills: list[str] = field(default_factory=list)
    # The SessionStart hooks whose context the model has had, by command.
    hook_context: list[str] = field(default_factory=list)
    # The plan file plan mode named (once it did), and whether the model has written it.
    plan_file: str = ""
    plan_written: list[str] = field(default_factory=list)
    plan_edits: dict[str, str] = field(default_factory=dict)
    # TodoWrite calls seen (id -> whether the list has tasks), and whether the last one that
    # did not fail left a list to put back.
    todo_calls: dict[str, bool] = field(default_factory=dict)
    todo_kept: bool = False


# ----- re-injected context --------------------------------------------------------------

# The sidecar counts with its own estimator and the fake with a tokenizer; a block within
# its budget by one may exceed it by a little by the other.
BUDGET_TOLERANCE = 1.2
REMINDER = "<system-reminder>\n"


@dataclass(frozen=True)
class ReinjectedKind:
    """One kind of context put back after a compaction, as a request shows it.

    ``mark``: each of its text blocks starts with it (inside the ``<system-reminder>``);
    ``name``: the item a block holds (a skill's name, a hook's command); ``budget`` and
    ``per_item``: tokens, from the request's blocking limit; ``expected``: the items the
    conversation had before the compaction, in the order they must come back (None: no
    order), which the first request after it must carry."""

    kind: str
    mark: str
    name: Callable[[str], str]
    budget: Callable[[int], int]
    per_item: Callable[[int], int] | None
    expected: Callable[[_Conversation], list[str]]
    ordered: bool
    # False: items the fake never saw may come back too (a plan file written before the
    # session started, or in a transcript it did not see, is the session's plan as well).
    only_expected: bool = True


def _after_mark(mark: str, stop: str) -> Callable[[str], str]:
    def name(text: str) -> str:
        return text[len(mark):].split(stop, 1)[0].strip()
    return name


def _hook_command(text: str) -> str:
    return text.split("`", 2)[1] if text.count("`") >= 2 else text


def _plan_path(text: str) -> str:
    return text[len(PLAN_REINJECTED_MARK):].split("\n", 1)[0].rstrip(":").strip()


def _plan_budget(blocking: int) -> int:
    """The plan's ceiling: the per-file budget of re-injected files, a fortieth of the window
    up to 5,000 tokens. The fake knows only the blocking limit, and however small the window,
    its blocking limit is above three eighths of it (see sidecar.core.accounting.window), so a
    fortieth of the window is under a fifteenth of the blocking limit."""
    return min(PostCompact().perFileTokens, blocking // 15)


def _todo_budget(blocking: int) -> int:
    """The task list's ceiling: 1% of the window, at least 200 tokens; the window is under
    eight thirds of the blocking limit (see ``_plan_budget``)."""
    return max(200, blocking * 8 // 300)


# Kind -> how to recognise it in a request -> its budget. Add one entry per kind.
REINJECTED: list[ReinjectedKind] = [
    ReinjectedKind("skills", INVOKED_SKILL_MARK, _after_mark(INVOKED_SKILL_MARK, "\n"),
                   budget=lambda blocking: skill_budgets(blocking)[0],
                   per_item=lambda blocking: skill_budgets(blocking)[1],
                   expected=lambda conv: list(reversed(conv.skills)), ordered=True),
    ReinjectedKind("hooks", HOOK_CONTEXT_MARK + "SessionStart:", _hook_command,
                   budget=hook_budget, per_item=None,
                   expected=lambda conv: list(conv.hook_context), ordered=False),
    ReinjectedKind("plan", PLAN_REINJECTED_MARK, _plan_path,
                   budget=_plan_budget, per_item=_plan_budget,
                   expected=lambda conv: list(conv.plan_written), ordered=False,
                   only_expected=False),
    ReinjectedKind("todos", TODO_REINJECTED_INTRO, lambda text: "task list",
                   budget=_todo_budget, per_item=None,
                   expected=lambda conv: ["task list"] if conv.todo_kept else [], ordered=False,
                   only_expected=False),  # the fake follows TodoWrite calls on Anthropic's wire only
]


def _user_texts(provider: str, body: dict[str, Any]) -> list[str]:
    """The text of every user-side block, in order (tool results aside)."""
    out: list[str] = []
    if provider == "responses":
        for item in input_items(body):
            if message_role(item) == "user":
                out.extend(part_text(p) for p in parts(item.get("content")))
        return out
    for message in body.get("messages") or []:
        if not isinstance(message, dict) or message.get("role") != "user":
            continue
        content = message.get("content")
        if isinstance(content, str):
            out.append(content)
        elif isinstance(content, list):
            out.extend(str(b.get("text", "")) for b in content
                       if isinstance(b, dict) and b.get("type") in ("text", "input_text"))
    return out


def _result_text(block: dict[str, Any]) -> str:
    body = block.get("content")
    if isinstance(body, str):
        return body
    if isinstance(body, list):
        return "".join(str(b.get("text", "")) for b in body if isinstance(b, dict))
    return ""


def _content_blocks(body: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Every content block of the request's messages (Anthropic's wire)."""
    for message in body.get("messages") or []:
        content = message.get("content") if isinstance(message, dict) else None
        for block in content if isinstance(content, list) else []:
            if isinstance(block, dict):
                yield block


def _skill_calls(provider: str, body: dict[str, Any], conv: _Conversation) -> None:
    """Note the Skill tool calls the request shows and those that loaded a skill (Anthropic's
    wire, which the long tests speak)."""
    if provider != "anthropic":
        return
    for b in _content_blocks(body):
        if b.get("type") == "tool_use" and b.get("name") == SKILL_TOOL:
            raw = b.get("input")
            given = raw if isinstance(raw, dict) else {}
            conv.skill_calls.setdefault(str(b.get("id")), str(given.get("skill", "")).strip())
        elif b.get("type") == "tool_result" and not b.get("is_error"):
            name = conv.skill_calls.pop(str(b.get("tool_use_id")), None)
            # Only a skill the sidecar's own Skill tool loaded is its to put back (a
            # replayed recording's Skill calls were answered by the recorded client).
            if name and _result_text(b).startswith(LOADED_SKILL_MARK):
                if name in conv.skills:
                    conv.skills.remove(name)
                conv.skills.append(name)


def _todo_calls(provider: str, body: dict[str, Any], conv: _Conversation) -> None:
    """Note the TodoWrite calls the request shows and whether the last answered one left a
    list (Anthropic's wire, which the long tests speak)."""
    if provider != "anthropic":
        return
    for b in _content_blocks(body):
        if b.get("type") == "tool_use" and b.get("name") == TODO_TOOL:
            raw = b.get("input")
            todos = raw.get("todos") if isinstance(raw, dict) else None
            conv.todo_calls.setdefault(str(b.get("id")), bool(todos))
        elif b.get("type") == "tool_result" and not b.get("is_error"):
            kept = conv.todo_calls.pop(str(b.get("tool_use_id")), None)
            if kept is not None:
                conv.todo_kept = kept


def _plan_writes(provider: str, body: dict[str, Any], texts: list[str],
                 conv: _Conversation) -> None:
    """Learn the plan file from plan mode's reminder, and note it as written once a Write,
    Edit or MultiEdit of it succeeded (or the reminder says it exists). Anthropic's wire, as
    above."""
    for t in texts:
        at = t.find(PLAN_FILE_INTRO)
        if at < 0:
            continue
        rest = t[at + len(PLAN_FILE_INTRO):]
        for end, exists in ((" and it exists already", True), ("; it does not exist yet", False)):
            if end in rest:
                conv.plan_file = rest.split(end, 1)[0].strip()
                if exists and conv.plan_file not in conv.plan_written:
                    conv.plan_written.append(conv.plan_file)
                break
    if provider != "anthropic" or not conv.plan_file:
        return
    for b in _content_blocks(body):
        if b.get("type") == "tool_use" and b.get("name") in FILE_EDIT_TOOLS:
            raw = b.get("input")
            path = str(raw.get("file_path", "")) if isinstance(raw, dict) else ""
            if path == conv.plan_file:
                conv.plan_edits[str(b.get("id"))] = path
        elif b.get("type") == "tool_result" and not b.get("is_error"):
            path = conv.plan_edits.pop(str(b.get("tool_use_id")), "")
            if path and path not in conv.plan_written:
                conv.plan_written.append(path)


def _tool_names(tools: Any) -> list[str]:
    """Tool names on any wire (Anthropic and Responses ``name``, Chat Completions
    ``function.name``)."""
    out: list[str] = []
    for tool in tools if isinstance(tools, list) else []:
        if isinstance(tool, dict):
            fn = tool.get("function")
            name = fn.get("name") if isinstance(fn, dict) else tool.get("name")
            if isinstance(name, str):
                out.append(name)
    return out


def _header(headers: dict[str, str], name: str) -> str | None:
    for key, value in headers.items():
        if key.lower() == name:
            return value
    return None


def _strip_markers(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _strip_markers(v) for k, v in node.items() if k != "cache_control"}
    if isinstance(node, list):
        return [_strip_markers(v) for v in node]
    return node


def _canonical(node: Any) -> str:
    return json.dumps(_strip_markers(node), sort_keys=True, ensure_ascii=False)


def _wire(provider: str, path: str) -> str:
    """``anthropic``, ``openai`` (Chat Completions) or ``responses``: the body's shape."""
    return "responses" if path.startswith("/v1/responses") else provider


def _message_blocks(provider: str, body: dict[str, Any]) -> list[str]:
    """The conversation as a flat list of strings the provider's cache matches in order.

    Anthropic: one per (role, block), so a request that merged a new user block into the
    previous user message still extends it, as it does for the cache. OpenAI: one per
    message, its content text last, so a message whose text grew still extends (its
    cache is a token prefix). Responses: one per message part and one per other item, for
    the same reason as Anthropic's blocks.
    """
    if provider == "responses":
        return _response_blocks(body)
    out: list[str] = []
    for message in body.get("messages") or []:
        if not isinstance(message, dict):
            continue
        role = str(message.get("role"))
        content = message.get("content")
        if provider == "openai":
            rest = {k: v for k, v in message.items() if k != "content"}
            text = content if isinstance(content, str) else _canonical(content)
            out.append(f"{role}\x00{_canonical(rest)}\x00{text}")
            continue
        if isinstance(content, list):
            out.extend(f"{role}\x00{_canonical(b)}" for b in content)
        elif content is not None:
            out.append(f"{role}\x00{_canonical({'type': 'text', 'text': content})}")
    return out


def _response_blocks(body: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for item in input_items(body):
        role = message_role(item)
        if role is None:
            out.append(_canonical(item))
            continue
        rest = _canonical({k: v for k, v in item.items() if k != "content"})
        out.extend(f"{role}\x00{rest}\x00{_canonical(part)}" for part in parts(item.get("content")))
    return out


def _first_text(provider: str, body: dict[str, Any]) -> str:
    if provider == "responses":
        first = next((i for i in input_items(body) if message_role(i) == "user"), None)
        found = parts(first.get("content")) if first is not None else []
        return part_text(found[0]) if found else ""
    messages = body.get("messages") or []
    for message in messages:
        if not isinstance(message, dict) or message.get("role") != "user":
            continue
        content = message.get("content")
        if isinstance(content, str):
            return content
        if isinstance(content, list) and content:
            first = content[0]
            if isinstance(first, dict):
                return str(first.get("text", ""))
        return ""
    return ""


def _system(provider: str, body: dict[str, Any]) -> str:
    if provider == "responses":
        return _canonical(body.get("instructions"))
    if provider == "openai":
        return _canonical([m for m in body.get("messages") or []
                           if isinstance(m, dict) and m.get("role") in ("system", "developer")][:1])
    return _canonical(body.get("system"))


class InvariantChecker:
    """Keeps the state the rules need; ``observe`` returns the violations of one request."""

    # Every checker of this process, for a test run's summary line.
    process_checked = 0
    process_refused = 0

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._conversations: dict[str, _Conversation] = {}
        self.violations: list[Violation] = []
        self.checked = 0
        self.refused = 0
        # Per first request after a compaction: what each re-injected kind held (names,
        # tokens as the fake counts them, budget), for reports.
        self.reinjections: list[dict[str, Any]] = []

    def reset(self) -> None:
        with self._lock:
            self._conversations.clear()
            self.violations.clear()
            self.reinjections.clear()
            self.checked = 0
            self.refused = 0

    def observe(self, index: int, provider: str, path: str, headers: dict[str, str],
                body: dict[str, Any], *, refusal: str | None, input_tokens: int) -> list[Violation]:
        found: list[Violation] = []
        with self._lock:
            self.checked += 1
            InvariantChecker.process_checked += 1
            if refusal is not None:
                self.refused += 1
                InvariantChecker.process_refused += 1
                found.append(Violation(index, "refused", refusal))
            session = _header(headers, SESSION_HEADER)
            call = _header(headers, CALL_HEADER)
            if session is not None and call == "main" and refusal is None:
                found.extend(self._main(index, _wire(provider, path), session, headers, body,
                                        input_tokens))
            self.violations.extend(found)
        return found

    def _main(self, index: int, provider: str, session: str, headers: dict[str, str],
              body: dict[str, Any], input_tokens: int) -> list[Violation]:
        found: list[Violation] = []
        conv = self._conversations.setdefault(session, _Conversation())
        first = _first_text(provider, body)
        if not first.startswith(USER_CONTEXT_MARK):
            found.append(Violation(index, "user_context",
                                   f"the first block is not the user context: {first[:80]!r}"))
        has_md = CLAUDE_MD_MARK in first
        if conv.had_claude_md and not has_md:
            found.append(Violation(index, "user_context", "the CLAUDE.md content is gone"))
        limit = _header(headers, BLOCKING_HEADER)
        if limit is not None and limit.isdigit() and input_tokens > int(limit):
            found.append(Violation(index, "blocking",
                                   f"{input_tokens:,} input tokens past the blocking limit "
                                   f"{int(limit):,}"))
        epoch, cause = self._epoch(headers)
        model = str(body.get("model"))
        tools = _canonical(body.get("tools"))
        system = _system(provider, body)
        blocks = _message_blocks(provider, body)
        if conv.requests and epoch < conv.epoch:
            found.append(Violation(index, "epoch", f"epoch went back from {conv.epoch} to {epoch}"))
        elif conv.requests and epoch != conv.epoch and cause not in CAUSES:
            found.append(Violation(index, "epoch", f"unknown cause {cause!r}"))
        elif conv.requests and epoch == conv.epoch:
            found.extend(self._extends(index, conv, model, tools, system, blocks,
                                       growable_last=provider == "openai"))
        compacted = conv.requests > 0 and epoch != conv.epoch and cause == "compaction"
        if conv.requests and epoch != conv.epoch and cause == "clear":
            conv.skills.clear()  # a cleared conversation starts over: nothing comes back
            conv.skill_calls.clear()
            conv.hook_context.clear()
            conv.todo_calls.clear()
            conv.todo_kept = False
        found.extend(self._reinjected(index, provider, conv, body, limit, compacted, session))
        if compacted and conv.mcp_announced:
            found.extend(self._reannounced(index, body, blocks))
        # Only tools the sidecar announced are its to re-announce (a replayed recording
        # offers the recorded client's MCP tools, which no server of ours provides).
        conv.mcp_announced = conv.mcp_announced or any(
            DELTA_MARK in b or REANNOUNCE_MARK in b for b in blocks)
        conv.epoch, conv.cause = epoch, cause
        conv.model, conv.tools, conv.system, conv.blocks = model, tools, system, blocks
        conv.had_claude_md = conv.had_claude_md or has_md
        conv.requests += 1
        return found

    def _reinjected(self, index: int, provider: str, conv: _Conversation, body: dict[str, Any],
                    limit: str | None, compacted: bool, session: str) -> list[Violation]:
        found: list[Violation] = []
        seen: dict[str, Any] = {"session": session, "index": index}
        texts = [t[len(REMINDER):] if t.startswith(REMINDER) else t for t in _user_texts(provider, body)]
        blocking = int(limit) if limit is not None and limit.isdigit() else None
        for kind in REINJECTED:
            blocks = [t for t in texts if t.startswith(kind.mark)]
            names = [kind.name(t) for t in blocks]
            twice = sorted({n for n in names if names.count(n) > 1})
            if twice:
                found.append(Violation(index, "reinjected", f"{kind.kind}: {twice} put back twice"))
            if blocking is not None:
                sizes = [count_text(t) for t in blocks]
                budget = kind.budget(blocking)
                if sum(sizes) > budget * BUDGET_TOLERANCE:
                    found.append(Violation(index, "reinjected",
                                           f"{kind.kind}: {sum(sizes):,} tokens past the budget "
                                           f"of {budget:,}"))
                per = kind.per_item(blocking) if kind.per_item else None
                for name, size in zip(names, sizes):
                    if per is not None and size > per * BUDGET_TOLERANCE:
                        found.append(Violation(index, "reinjected",
                                               f"{kind.kind}: {name!r} holds {size:,} tokens, "
                                               f"past {per:,}"))
            if compacted:
                expected = kind.expected(conv)
                seen[kind.kind] = {"names": names, "expected": expected,
                                   "tokens": sum(count_text(t) for t in blocks),
                                   "budget": kind.budget(blocking) if blocking is not None else None}
                if kind.ordered:
                    wrong = names != expected[:len(names)]
                    missing = expected[len(names):]
                else:
                    wrong = kind.only_expected and not set(names) <= set(expected)
                    missing = [e for e in expected if e not in names]
                # Items may be left out only when the budget is (about) full.
                full = blocking is not None and \
                    sum(count_text(t) for t in blocks) * 2 >= kind.budget(blocking)
                if wrong or (missing and not full):
                    found.append(Violation(index, "reinjected",
                                           f"{kind.kind} after the compaction: {names} where "
                                           f"{expected} were expected"))
        if compacted:
            self.reinjections.append(seen)
        _skill_calls(provider, body, conv)
        _todo_calls(provider, body, conv)
        _plan_writes(provider, body, texts, conv)
        hook_kind = next(k for k in REINJECTED if k.kind == "hooks")
        for t in texts:
            if t.startswith(hook_kind.mark):
                command = hook_kind.name(t)
                if command not in conv.hook_context:
                    conv.hook_context.append(command)
        return found

    @staticmethod
    def _reannounced(index: int, body: dict[str, Any], blocks: list[str]) -> list[Violation]:
        # A deferred tool's definition is not in the context: the model finds it by a
        # search, so only the loaded ones must be named again.
        loaded = [t for t in body.get("tools") or []
                  if not (isinstance(t, dict) and t.get("defer_loading") is True)]
        offered = [name for name in _tool_names(loaded) if name.startswith("mcp__")]
        if not offered:
            return []
        found = [b for b in blocks if REANNOUNCE_MARK in b]
        if not found:
            return [Violation(index, "mcp_reannounced", "the first request after a compaction "
                              f"offers {len(offered)} MCP tools but does not re-announce them")]
        text = found[-1]
        missing = [name for name in offered if name not in text]
        if missing:
            return [Violation(index, "mcp_reannounced", f"not re-announced: {missing[:5]}")]
        if len(text.encode("utf-8")) > REANNOUNCE_TOKENS * 4 + 400:
            return [Violation(index, "mcp_reannounced", f"the re-announcement takes "
                              f"{len(text.encode('utf-8')):,} bytes, past its budget")]
        return []

    @staticmethod
    def _epoch(headers: dict[str, str]) -> tuple[int, str]:
        raw = _header(headers, EPOCH_HEADER) or "0:start"
        number, _, cause = raw.partition(":")
        return (int(number) if number.isdigit() else -1), cause

    @staticmethod
    def _extends(index: int, conv: _Conversation, model: str, tools: str, system: str,
                 blocks: list[str], *, growable_last: bool) -> list[Violation]:
        if model != conv.model:
            return [Violation(index, "prefix", f"the model changed ({conv.model} -> {model}) "
                                               "with no named cause")]
        if tools != conv.tools:
            return [Violation(index, "prefix", "the tools changed with no named cause")]
        if system != conv.system:
            return [Violation(index, "prefix", "the system prompt changed with no named cause")]
        for position, (old, new) in enumerate(zip(conv.blocks, blocks)):
            last = position == len(conv.blocks) - 1
            if old != new and not (last and growable_last and new.startswith(old)):
                return [Violation(index, "prefix",
                                  f"message block {position} changed with no named cause: "
                                  f"{old[:120]!r} -> {new[:120]!r}")]
        if len(blocks) < len(conv.blocks):
            return [Violation(index, "prefix", f"the conversation shrank from {len(conv.blocks)} "
                                               f"to {len(blocks)} blocks with no named cause")]
        return []
