"""An in-process engine for tests: the real service, session and context tiers, with a
scripted model, a recording editor, a fixed prefix and two small tools.

Nothing here talks HTTP or imports an SDK. The scripted provider counts every request with
the seed's byte rule (the estimator the sessions under test use), so the usage it reports
and the ledger's estimates agree, and "no request passes the blocking limit" can be checked
exactly. Every request is audited as it is made, against the same rules the fake LLM server
holds the end-to-end tests to (the API's documented rules, then the session invariants:
user context first, the blocking limit, a prefix that only changes for a named cause).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from sidecar.contract.params import (
    CompactParams,
    NewSessionParams,
    PromptParams,
    SessionParams,
)
from sidecar.core.accounting.tokens import SeedBytes, block_tokens
from sidecar.core.compaction.pipeline import ContextTiers
from sidecar.core.conversation.messages import (
    CLEARED_TOOL_RESULT,
    Block,
    Message,
    Usage,
    is_compact_boundary,
)
from sidecar.core.permissions.choice import PermissionChoice
from sidecar.core.ports import (
    Adapters,
    Completed,
    ModelDescription,
    ModelRequest,
    ProviderError,
    ServerCompaction,
    StreamEvent,
    TextDelta,
    ToolInputDelta,
    ToolOutcome,
    ToolUseStart,
)
from sidecar.core.service import SessionService
from sidecar.core.session import Session
from sidecar.core.settings import (
    Microcompact,
    Retry,
    SessionMemory,
    Settings,
    StepClearing,
    Tokens,
)
from sidecar.core.turns.request_labels import (
    BLOCKING_HEADER,
    CALL_HEADER,
    CAUSES,
    EPOCH_HEADER,
    SESSION_HEADER,
)
from sidecar.core.workspace.claude_md import MemoryFile
from sidecar.core.workspace.prefix import PrefixStore, PrefixView
from sidecar.fake_llm.invariants import InvariantChecker
from sidecar.fake_llm.request_rules import anthropic_problems
from sidecar.providers.anthropic_messages import betas_for, build_messages_body

COUNTER = SeedBytes()
RULES = "Always run the tests before you say a change is done."
SUMMARY_TEXT = "The user asked for changes; files were read; work goes on."
MEMORY_NOTES = "# Session Title\n_A short title_\nEngine tests\n\n# Current State\n_Now_\nReading files"


# ----- text of a known size ----------------------------------------------------------------


def filler(tokens: int, seed: str = "x") -> str:
    """Plain text of ``tokens`` tokens by the seed's rule (4 bytes each, never JSON)."""
    unit = f"{seed} lorem ipsum dolor sit amet, consectetur adipiscing elit. "
    size = max(tokens, 1) * 4
    return (unit * (size // len(unit) + 1))[:size]


def request_tokens(request: ModelRequest) -> int:
    """A request's tokens as the ledger counts them: system, tools and every message block
    (the user context is a message block here, as it is on the wire)."""
    system = sum(COUNTER.text(str(b.get("text", ""))) for b in request.system)
    specs = [{"name": s.name, "description": s.description, "input_schema": s.input_schema}
             for s in request.tools]
    tools = COUNTER.text(json.dumps(specs)) if request.tools else 0.0
    messages = sum(block_tokens(b, COUNTER) for m in request.messages for b in m.content)
    return round(system + tools + messages)


def call_kind(request: ModelRequest) -> str:
    return request.headers.get(CALL_HEADER, "?")


def epoch_of(request: ModelRequest) -> tuple[int, str]:
    number, _, cause = request.headers.get(EPOCH_HEADER, "-1:?").partition(":")
    return int(number), cause


def texts(request: ModelRequest) -> str:
    """Every text the request carries, for "does it mention X" checks."""
    out: list[str] = []
    for m in request.messages:
        for b in m.content:
            if b.get("type") == "text":
                out.append(str(b.get("text", "")))
            elif b.get("type") == "tool_result":
                content = b.get("content")
                out.append(content if isinstance(content, str) else json.dumps(content))
    return "\n".join(out)


def tool_result_contents(request: ModelRequest) -> dict[str, str]:
    return {str(b["tool_use_id"]): str(b.get("content")) for m in request.messages
            for b in m.content if b.get("type") == "tool_result"}


# ----- the scripted model --------------------------------------------------------------------


@dataclass
class Reply:
    """One scripted answer: text, tool calls, or a failure (before or during the stream)."""

    text: str = "Done."
    tools: Sequence[tuple[str, dict[str, Any]]] = ()
    error: ProviderError | None = None
    error_after: int | None = None  # text chunks streamed before ``error`` is raised
    hang_after: int | None = None  # text chunks streamed before the stream stalls for good
    applied_edits: list[dict[str, Any]] = field(default_factory=list)


Script = deque[Reply]


class ScriptedProvider:
    """A ``Provider`` that answers from scripts, one per kind of call, and records requests.

    Main calls take the next scripted reply (``Done.`` when the script is empty); summary
    and memory calls answer a fixed summary and notes unless scripted otherwise. Usage is
    the request counted as the ledger counts it, so the gauge's anchors are exact.
    """

    def __init__(self, *, server_context_management: bool = True, name: str = "anthropic",
                 chunk_chars: int = 16, server_compaction: bool = False) -> None:
        self.name = name
        self.server_context_management = server_context_management
        # The provider summarizes itself (``compact``): its summary script answers.
        self.server_compaction = server_compaction
        self.cache_breakpoints = name == "anthropic"
        self.main: Script = deque()
        self.summary: Script = deque()
        self.memory: Script = deque()
        self.requests: list[ModelRequest] = []
        # Told of each request and the reply it gets, before the reply streams.
        self.observers: list[Callable[[ModelRequest, Reply], None]] = []
        self.hung = asyncio.Event()
        self.closed = False
        self._chunk = chunk_chars
        self._ids = 0

    def _next_id(self, prefix: str) -> str:
        self._ids += 1
        return f"{prefix}_{self._ids:05d}"

    def _reply_for(self, request: ModelRequest) -> Reply:
        kind = call_kind(request)
        if kind == "summary":
            return self.summary.popleft() if self.summary else Reply(
                f"<analysis>notes</analysis>\n<summary>{SUMMARY_TEXT}</summary>")
        if kind == "memory":
            return self.memory.popleft() if self.memory else Reply(f"<summary>{MEMORY_NOTES}</summary>")
        return self.main.popleft() if self.main else Reply()

    async def compact(self, request: ModelRequest, instructions: str | None) -> ServerCompaction:
        self.requests.append(request)
        reply = self._reply_for(request)
        for observe in self.observers:
            observe(request, reply)
        if reply.error is not None:
            raise reply.error
        text = reply.text
        block = {"type": "compaction", "content": text, "signature": f"sig-{len(text)}"}
        return ServerCompaction(blocks=[block], summary=text,
                                usage=Usage(input_tokens=request_tokens(request), output_tokens=1))

    async def describe_models(self) -> list[ModelDescription]:
        return []

    def requests_of(self, kind: str) -> list[ModelRequest]:
        return [r for r in self.requests if call_kind(r) == kind]

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        self.requests.append(request)
        reply = self._reply_for(request)
        for observe in self.observers:
            observe(request, reply)
        if reply.error is not None and reply.error_after is None:
            raise reply.error
        chunks = [reply.text[i:i + self._chunk] for i in range(0, len(reply.text), self._chunk)]
        for n, chunk in enumerate(chunks):
            if reply.error is not None and n == reply.error_after:
                raise reply.error
            if reply.hang_after is not None and n == reply.hang_after:
                self.hung.set()
                await asyncio.Event().wait()
            yield TextDelta(0, chunk)
        content: list[Block] = [{"type": "text", "text": reply.text}] if reply.text else []
        for index, (name, tool_input) in enumerate(reply.tools, start=1):
            tid = self._next_id("toolu")
            yield ToolUseStart(index, tid, name)
            yield ToolInputDelta(index, json.dumps(tool_input))
            content.append({"type": "tool_use", "id": tid, "name": name, "input": tool_input})
        output = round(sum(block_tokens(b, COUNTER) for b in content))
        yield Completed(content=content, usage=Usage(input_tokens=request_tokens(request),
                                                     output_tokens=output),
                        stop_reason="tool_use" if reply.tools else "end_turn",
                        message_id=self._next_id("msg"), model=request.model,
                        applied_edits=list(reply.applied_edits))

    async def count_tokens(self, request: ModelRequest) -> int | None:
        return request_tokens(request)

    async def aclose(self) -> None:
        self.closed = True


# ----- the editor ----------------------------------------------------------------------------


@dataclass
class RecordingEditor:
    """Records what the engine tells the editor; answers permission prompts as told."""

    updates: list[dict[str, Any]] = field(default_factory=list)
    statuses: list[tuple[str, bool, str]] = field(default_factory=list)
    messages: list[tuple[str, str]] = field(default_factory=list)
    permission: str = "allow_once"
    reason: str | None = None  # what the user says with a rejection
    buffers: dict[Path, str] = field(default_factory=dict)

    def session_update(self, session_id: str, update: dict[str, Any]) -> None:
        self.updates.append(update)

    def status(self, kind: str, busy: bool, message: str) -> None:
        self.statuses.append((kind, busy, message))

    def show_message(self, level: str, text: str) -> None:
        self.messages.append((level, text))

    async def request_permission(self, session_id: str, tool_call: dict[str, Any],
                                 options: list[dict[str, str]]) -> PermissionChoice:
        return PermissionChoice(self.permission, self.reason)

    async def apply_edit(self, path: Path, new_text: str, label: str, exists: bool) -> bool | None:
        return None

    def buffer_text(self, path: Path) -> str | None:
        return self.buffers.get(path)

    async def progress(self, token: str | None, kind: str, title: str, message: str = "",
                       percentage: int | None = None) -> str | None:
        return token

    def of_kind(self, kind: str) -> list[dict[str, Any]]:
        return [u for u in self.updates if u.get("sessionUpdate") == kind]

    def streamed_text(self) -> str:
        return "".join(str(u["content"]["text"]) for u in self.of_kind("agent_message_chunk"))


# ----- the prefix ----------------------------------------------------------------------------


class FixedPrefix(PrefixStore):
    """A small prefix that never changes: one system block and a user context holding one
    CLAUDE.md file and a fixed date, rendered as the real store renders them."""

    def __init__(self, cwd: Path, settings: Settings) -> None:
        super().__init__(cwd, settings, now=lambda: datetime(2025, 1, 2, 3, 4, 5))
        self._system: list[Block] = [{"type": "text", "text": "You are a coding assistant in tests."}]
        self._user = self._render_user([MemoryFile(cwd / "CLAUDE.md", "project", RULES)])

    def view(self) -> PrefixView:
        return PrefixView([dict(b) for b in self._system], self._user, [], 0)

    def user_text(self) -> str:
        return self._user

    def watch_paths(self) -> list[Path]:
        return []

    def changes_since(self, cursor: int) -> tuple[list[Message], int]:
        return [], cursor


# ----- the tools -----------------------------------------------------------------------------


class _ScriptedTool:
    name = ""
    description = ""
    input_schema: dict[str, Any] = {"type": "object"}
    kind: Any = "other"
    compactable = True

    def title(self, input: dict[str, Any], roots: Sequence[Path] = ()) -> str:
        return f"{self.name} {json.dumps(input)[:40]}"

    def locations(self, input: dict[str, Any], roots: Sequence[Path] = ()) -> list[dict[str, Any]]:
        return []


class ReadFile(_ScriptedTool):
    """Reads a workspace file and remembers it in the read state, as the real Read does."""

    name = "Read"
    description = "Read a file of the workspace."
    input_schema = {"type": "object", "properties": {"file_path": {"type": "string"}},
                    "required": ["file_path"]}
    kind = "read"

    async def run(self, input: dict[str, Any], ctx: Any) -> ToolOutcome:
        path = Path(str(input.get("file_path", "")))
        if not path.is_absolute():
            path = ctx.roots[0] / path
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            return ToolOutcome.error(f"cannot read {path}: {exc}")
        ctx.file_state.record_read(path, text, 1, 2_000)
        return ToolOutcome(text)


class Shell(_ScriptedTool):
    """A command whose output is ``output_tokens`` tokens of text."""

    name = "Bash"
    description = "Run a shell command."
    input_schema = {"type": "object", "properties": {"command": {"type": "string"},
                                                     "output_tokens": {"type": "integer"}},
                    "required": ["command"]}
    kind = "execute"

    async def run(self, input: dict[str, Any], ctx: Any) -> ToolOutcome:
        size = int(input.get("output_tokens", 10))
        return ToolOutcome(filler(size, seed=str(input.get("command", "out"))))


def read(path: Path | str) -> tuple[str, dict[str, Any]]:
    return ("Read", {"file_path": str(path)})


def shell(command: str, output_tokens: int) -> tuple[str, dict[str, Any]]:
    return ("Bash", {"command": command, "output_tokens": output_tokens})


# ----- the audit -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Finding:
    index: int  # the request's position in the provider's record
    call: str
    rule: str  # header, api, pairing, user_context, context_management, blocking, prefix, epoch
    detail: str

    def __str__(self) -> str:
        return f"request {self.index} ({self.call}): {self.rule}: {self.detail}"


class RequestAudit:
    """Checks every request of one session as it is made; ``findings`` lists what broke."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.checker = InvariantChecker()
        self.findings: list[Finding] = []
        self.main_tokens: list[int] = []
        # Per main request: the results it went out with cleared that the transcript has not
        # cleared, i.e. the client-side edit it carried.
        self.client_cleared: dict[int, frozenset[str]] = {}

    @property
    def problems(self) -> list[str]:
        return [str(f) for f in self.findings]

    def __call__(self, request: ModelRequest, reply: Reply) -> None:
        index = len(self.engine.provider.requests) - 1
        # A request refused before any answer never reached the provider's cache, so the
        # next one need not extend it (the fake server skips refused requests alike).
        refused = reply.error is not None and reply.error_after is None
        if call_kind(request) == "main":
            cleared = {tid for tid, text in tool_result_contents(request).items()
                       if text == CLEARED_TOOL_RESULT}
            self.client_cleared[index] = frozenset(
                cleared - self.engine.session.transcript.cleared_ids())
        for rule, detail in self.problems_of(request, accepted=not refused):
            self.findings.append(Finding(index, call_kind(request), rule, detail))

    def problems_of(self, request: ModelRequest, *,
                    accepted: bool = True) -> list[tuple[str, str]]:
        session = self.engine.session
        found: list[tuple[str, str]] = []
        kind = call_kind(request)
        headers = request.headers
        if headers.get(SESSION_HEADER) != session.id:
            found.append(("header", f"session {headers.get(SESSION_HEADER)!r}"))
        if kind not in ("main", "summary", "memory"):
            found.append(("header", f"call {kind!r}"))
        number, cause = epoch_of(request)
        if number < 0 or cause not in CAUSES:
            found.append(("header", f"epoch {headers.get(EPOCH_HEADER)!r}"))
        if headers.get(BLOCKING_HEADER) != str(session.thresholds.blocking_at):
            found.append(("header", f"blocking at {headers.get(BLOCKING_HEADER)!r}"))
        # The API's own rules (tool pairing, empty blocks, betas, breakpoints...).
        body = build_messages_body(request)
        wire_headers = {"anthropic-version": "2023-06-01",
                        "anthropic-beta": ",".join(betas_for(request, body))}
        found.extend(("api", msg) for _, msg in anthropic_problems(body, wire_headers))
        found.extend(("pairing", msg) for msg in pairing_problems(request))
        # The project's rules and the date lead the first user message of every request.
        expected = self.engine.user_context
        if expected is not None:
            first = request.messages[0] if request.messages else None
            lead = first.content[0] if first is not None and first.content else {}
            if first is None or first.role != "user" or lead.get("text") != expected:
                found.append(("user_context", f"the first block is {str(lead)[:80]}"))
        # Tier 2 rides on every call of a provider that has it, and on none of the others.
        wanted = self.engine.provider.server_context_management and \
            session.settings.apiContextManagement.enabled
        if (request.context_management is not None) != wanted:
            found.append(("context_management", repr(request.context_management)))
        tokens = request_tokens(request)
        if kind == "main":
            self.main_tokens.append(tokens)
            if tokens > session.thresholds.blocking_at:
                found.append(("blocking", f"{tokens:,} tokens past the blocking limit "
                                          f"{session.thresholds.blocking_at:,}"))
        if kind == "main" and accepted:
            saved = (InvariantChecker.process_checked, InvariantChecker.process_refused)
            violations = self.checker.observe(len(self.main_tokens) - 1, "anthropic", "/v1/messages",
                                              request.headers, body, refusal=None,
                                              input_tokens=tokens)
            # Those counters report the fake server's requests; these never reached it.
            InvariantChecker.process_checked, InvariantChecker.process_refused = saved
            # The limit is checked above; without a prefix there is no user context to lead.
            found.extend((v.rule, v.detail) for v in violations if v.rule != "blocking"
                         and (expected is not None or v.rule != "user_context"))
        return found


def pairing_problems(request: ModelRequest) -> list[str]:
    """Every tool_use is answered in the very next message, every tool_result answers a
    tool_use of the message just before it."""
    found: list[str] = []
    messages = request.messages
    for i, m in enumerate(messages):
        uses = {str(b.get("id")) for b in m.content if b.get("type") == "tool_use"}
        results = {str(b.get("tool_use_id")) for b in m.content if b.get("type") == "tool_result"}
        if m.role == "assistant" and uses:
            nxt = messages[i + 1] if i + 1 < len(messages) else None
            answered = {str(b.get("tool_use_id")) for b in nxt.content
                        if b.get("type") == "tool_result"} if nxt is not None else set()
            if nxt is None or nxt.role != "user" or uses - answered:
                found.append(f"message {i}: tool_use without its result: {sorted(uses - answered)}")
        if m.role == "user" and results:
            prev = messages[i - 1] if i > 0 else None
            asked = {str(b.get("id")) for b in prev.content
                     if b.get("type") == "tool_use"} if prev is not None else set()
            if prev is None or prev.role != "assistant" or results - asked:
                found.append(f"message {i}: tool_result without its call: {sorted(results - asked)}")
    return found


# ----- the engine ----------------------------------------------------------------------------


class FakeClock:
    """The session's clock: the wall clock plus a jump. The session stamps its records with
    this clock, so a jump is a gap between the records before it and the calls after it,
    as an idle spell is (the sweep ages the records instead)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset

    def advance(self, minutes: float) -> None:
        self.offset += minutes * 60


def engine_settings(storage: Path, *, window: int = 40_000, **changes: Any) -> Settings:
    """The seed's defaults on a small window with the byte counter, fast retries and (unless
    a test turns them on) no session memory and no step clearing, so each test fires only
    the tiers it is about."""
    base = Settings(
        contextWindow=window,
        maxOutputTokens=4_000,
        storageDir=str(storage),
        tokens=Tokens(estimator="bytes4"),
        retry=Retry(maxRetries=2, baseDelayMs=1, maxDelayMs=2, timeoutSeconds=30),
        sessionMemory=SessionMemory(enabled=False),
        microcompact=Microcompact(stepClearing=StepClearing(enabled=False)),
    )
    return dataclasses.replace(base, **changes)


@dataclass
class Engine:
    service: SessionService
    session: Session
    provider: ScriptedProvider
    editor: RecordingEditor
    clock: FakeClock
    workspace: Path
    user_context: str | None
    audit: RequestAudit = field(init=False)

    def __post_init__(self) -> None:
        self.audit = RequestAudit(self)
        self.provider.observers.append(self.audit)

    @property
    def tiers(self) -> ContextTiers:
        assert self.session.tiers is not None
        return self.session.tiers

    async def prompt(self, text: str | list[Block]) -> dict[str, Any]:
        blocks = [{"type": "text", "text": text}] if isinstance(text, str) else text
        return dict(await self.service.prompt(PromptParams(session_id=self.session.id, prompt=blocks)))

    async def compact(self, instructions: str | None = None) -> dict[str, Any]:
        return dict(await self.service.compact(CompactParams(session_id=self.session.id, instructions=instructions)))

    async def cancel(self) -> None:
        await self.service.cancel(SessionParams(session_id=self.session.id))

    def main_requests(self) -> list[ModelRequest]:
        return self.provider.requests_of("main")

    def fired(self) -> list[str]:
        """The tiers that fired, in order (ContextTiers.events)."""
        return [str(e["tier"]) for e in self.tiers.events]

    def boundaries(self) -> list[Message]:
        return [m for m in self.session.transcript.records if is_compact_boundary(m)]

    def boundary_tiers(self) -> list[str]:
        out: list[str] = []
        for m in self.boundaries():
            meta = m.extra.get("compactMetadata") or {}
            out.append("clear" if meta.get("trigger") == "clear" else str(meta.get("tier")))
        return out

    def write(self, name: str, tokens: int) -> Path:
        path = self.workspace / name
        path.write_text(filler(tokens, seed=name), encoding="utf-8")
        return path

    def assert_clean(self) -> None:
        assert self.audit.problems == [], "\n".join(self.audit.problems[:10])


async def tool_turns(engine: Engine, count: int, tokens: int = 3_000, start: int = 0) -> None:
    """``count`` turns of one tool round each (``tokens`` of output) and a short answer."""
    for i in range(start, start + count):
        engine.provider.main.extend([Reply(f"Running step {i}.", tools=[shell(f"step{i}", tokens)]),
                                     Reply(f"Step {i} is done.")])
        await engine.prompt(f"do step {i}")


class MemoryTranscripts:
    """A TranscriptStore that keeps nothing: for sweeps, where the disk adds time, not checks."""

    def __init__(self, storage_dir: Path, health: Any = None) -> None:
        self.storage_dir = storage_dir

    def path_for(self, session_id: str, cwd: str) -> Path:
        return self.storage_dir / f"{session_id}.jsonl"

    def results_dir(self, session_id: str, cwd: str) -> Path:
        return self.storage_dir / session_id / "tool-results"

    def save_result(self, session_id: str, cwd: str, tool_use_id: str, text: str) -> Path:
        raise OSError("this store keeps nothing")  # large results then stay whole

    def prepare(self, session_id: str, cwd: str) -> None:
        pass

    def append(self, message: Message, session_id: str, cwd: str) -> None:
        pass

    def append_many(self, messages: list[Message], session_id: str, cwd: str) -> None:
        pass

    def append_state(self, session_id: str, cwd: str, **state: Any) -> None:
        pass

    def close_session(self, session_id: str, cwd: str) -> None:
        pass

    def close(self) -> None:
        pass


def build_engine(tmp_path: Path, *, provider: ScriptedProvider | None = None,
                 prefix: bool = True, editor: RecordingEditor | None = None,
                 on_disk: bool = True, **settings_changes: Any) -> Engine:
    """A session of the real service on ``tmp_path``, wired as ``sidecar.composition`` wires
    one, with the provider, tools, prefix and editor above in place of the real ones (and,
    unless ``on_disk``, a transcript store that keeps nothing)."""
    from sidecar import composition

    workspace = tmp_path / "ws"
    workspace.mkdir(parents=True, exist_ok=True)
    settings = engine_settings(tmp_path / "store", **settings_changes)
    provider = provider or ScriptedProvider()
    editor = editor or RecordingEditor()
    fixed = FixedPrefix(workspace, settings)
    tools: list[Any] = [ReadFile(), Shell()]
    adapters = Adapters(
        provider=lambda s, env: provider,
        tools=lambda s: list(tools),
        transcripts=composition.transcripts if on_disk else MemoryTranscripts,
        history=composition.history,
        archive=composition.archive,
        # A session without a prefix is one Session supports; the port's type leaves it out.
        prefix=(lambda cwd, s: fixed) if prefix else (lambda cwd, s: None),  # type: ignore[arg-type,return-value]
        watcher=None,
        mcp=composition.mcp,
    )
    service = SessionService(editor, settings, adapters=adapters,
                             environ={"CLAUDE_CODE_SKIP_PROMPT_HISTORY": "1"})
    opened = service.new_session(NewSessionParams(cwd=str(workspace)))
    session = service.get(opened["sessionId"])
    clock = FakeClock()
    session.clock = clock
    return Engine(service, session, provider, editor, clock, workspace,
                  fixed.user_text() if prefix else None)
