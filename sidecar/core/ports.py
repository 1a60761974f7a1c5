"""The ports of the engine: what it needs from a model provider, a tool, an editor, storage
and the MCP servers.

Adapters (``sidecar.providers``, ``sidecar.tools``, ``sidecar.mcp``, the transports) implement these; the
engine only knows them. Requests and responses are in Anthropic content-block form; a
provider adapter translates to its wire and back, importing its SDK on first use.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, AsyncIterator, Callable, Literal, Mapping, Protocol, Sequence

from sidecar.contract.updates import SessionUpdate
from sidecar.core.conversation.file_state import FileReadState
from sidecar.core.conversation.messages import ApiMessage, Block, Message, Usage
from sidecar.core.permissions.choice import PermissionChoice
from sidecar.core.prompt_too_long import classify_prompt_too_long
from sidecar.core.server_tool_offers import ServerToolPolicy, no_server_tools
from sidecar.core.session_resources import Kept
from sidecar.core.settings import Settings
from sidecar.core.storage_health import StorageHealth

if TYPE_CHECKING:
    from sidecar.core.checkpoints.ports import FileHistory
    from sidecar.contract.results import McpServer
    from sidecar.core.accounting.tokens import TokenLedger
    from sidecar.core.workspace.prefix import PrefixStore
    from sidecar.core.workspace.trust import Trust

# ----- model providers ---------------------------------------------------------------------

@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    input_schema: dict[str, Any]
    anthropic_type: str | None = None  # the type Anthropic defines for it (memory_20250818)
    deferred: bool = False  # loaded only once a tool search finds it (core.turns.deferred_tools)

    def definition(self, typed: bool = False) -> dict[str, Any]:
        """As a Messages API tool; ``typed``: one Anthropic defines goes as its type and name."""
        if typed and self.anthropic_type:
            return {"type": self.anthropic_type, "name": self.name}
        return {"name": self.name, "description": self.description, "input_schema": self.input_schema}


@dataclass
class ModelRequest:
    model: str
    system: list[Block]  # text blocks; the adapter places cache breakpoints
    messages: list[ApiMessage]
    tools: list[ToolSpec] = field(default_factory=list)
    max_tokens: int = 8_192
    # Thinking: at most ``thinking_budget`` tokens, or ``thinking_adaptive`` (the model
    # decides); ``effort`` as the provider names it (Anthropic output_config.effort, OpenAI
    # reasoning_effort).
    thinking_budget: int | None = None
    thinking_adaptive: bool = False
    effort: str | None = None
    long_context: bool = False  # the 1M window, asked for with a ``[1m]`` suffix
    # Anthropic server-side context editing (tier 2); adapters for other providers ignore it
    # because the session applies the same edit client-side for them.
    context_management: dict[str, Any] | None = None
    prompt_cache_key: str | None = None
    # Cache the latest message too (off for forked one-shot calls such as summaries).
    cache_latest_message: bool = True
    # Breakpoints of their own (adapters without breakpoints ignore them): the message cached
    # for an hour (core.accounting.cache_anchor), the one the cache resumes at (cache_resume).
    cache_anchor: int | None = None
    cache_resume: int | None = None
    timeout_seconds: float = 600.0
    # Sent as HTTP headers (see sidecar.core.turns.request_labels); the APIs ignore them.
    headers: dict[str, str] = field(default_factory=dict)
    # The provider's own tools it runs itself (``web_search``, ``web_fetch``): each adapter
    # sends its API's definition of them (see ServerToolOffer).
    server_tools: tuple[str, ...] = ()


@dataclass(frozen=True)
class TextDelta:
    index: int
    text: str


@dataclass(frozen=True)
class ThinkingDelta:
    index: int
    text: str


@dataclass(frozen=True)
class ToolUseStart:
    index: int
    id: str
    name: str


@dataclass(frozen=True)
class ToolInputDelta:
    index: int
    partial_json: str


@dataclass(frozen=True)
class Completed:
    """The whole response: blocks in Anthropic form, usage, stop reason."""

    content: list[Block]
    usage: Usage
    stop_reason: str  # end_turn, tool_use, max_tokens, refusal, stop_sequence
    message_id: str
    model: str
    applied_edits: list[dict[str, Any]] = field(default_factory=list)


StreamEvent = TextDelta | ThinkingDelta | ToolUseStart | ToolInputDelta | Completed

class ProviderError(Exception):
    """A provider failure, classified so retry and compaction can act on it."""

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        type: str = "api_error",
        retry_after: float | None = None,
        retryable: bool = False,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.type = type
        self.retry_after = retry_after
        self.retryable = retryable
        self.prompt_too_long, self.token_gap = classify_prompt_too_long(message, type)

    def to_data(self) -> dict[str, Any]:
        return {"status": self.status, "type": self.type, "retryAfter": self.retry_after}


@dataclass(frozen=True)
class ServerCompaction:
    """A compaction the provider made itself: what later requests send first, in place of
    the messages it summarizes.

    ``blocks`` are in our block form, the ``type: "compaction"`` one with the provider's
    opaque fields kept verbatim (Anthropic's signed ``content``; OpenAI's
    ``encrypted_content``); ``role`` is the message they are sent in: Anthropic's block
    alone, as the assistant's; OpenAI's the user messages it kept, then its compaction
    item, as the user's. ``summary`` is readable text when the provider returns it
    (Anthropic does, OpenAI's is encrypted), for the user and for the transcript.
    """

    blocks: list[Block]
    summary: str | None
    usage: Usage
    role: Literal["assistant", "user"] = "assistant"


# Anthropic's words for where a model is in its life (``ModelInfo.lifecycle``).
Lifecycle = Literal["active", "deprecated", "retired"]


@dataclass(frozen=True)
class ModelDescription:
    """What a provider's models endpoint says of one model."""

    model: str
    context_window: int | None
    max_output_tokens: int | None
    lifecycle: Lifecycle = "active"
    # Capability names the provider lists (thinking, effort, context_management, compaction...).
    capabilities: frozenset[str] = frozenset()
    replacement: str | None = None  # a current model to move to, when it says so
    source: str = ""  # which endpoint said it, e.g. "anthropic /v1/models", "vllm max_model_len"
    retires_at: str | None = None  # ISO date of the scheduled (or past) retirement, if said
    # False when the endpoint says nothing of lifecycles (vLLM, llama.cpp, Ollama,
    # OpenRouter): ``lifecycle`` is then only the default, and the catalog's word stands.
    lifecycle_known: bool = True
    display_name: str | None = None  # the name the provider shows people, when it gives one


class Provider(Protocol):
    name: str
    # The provider clears old tool results itself (Anthropic's context_management); for the
    # others the engine makes the same edit on the outgoing request.
    server_context_management: bool
    # The provider can summarize the conversation itself (``compact``).
    server_compaction: bool
    # The provider's prompt cache takes explicit breakpoints with TTLs (Anthropic's): the
    # one-hour anchor (sidecar.core.accounting.cache_anchor) is planned only then.
    cache_breakpoints: bool

    def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        """Yield deltas, then exactly one ``Completed``; raise ``ProviderError`` on failure."""
        ...

    async def count_tokens(self, request: ModelRequest) -> int | None:
        """Exact input tokens where the provider can count them, else None."""
        ...

    async def compact(self, request: ModelRequest, instructions: str | None) -> ServerCompaction:
        """Summarize ``request``'s conversation server-side (only when ``server_compaction``);
        raise ``ProviderError`` when the provider refuses."""
        ...

    async def describe_models(self) -> list[ModelDescription]:
        """What the provider's models endpoint says of its models ([] when it has none or
        is unreachable). Called off the start-up path; the result is cached on disk."""
        ...

    async def aclose(self) -> None: ...


# ----- tools -------------------------------------------------------------------------------

# ACP tool kinds (agentclientprotocol.com, ToolKind).
ToolKind = Literal["read", "edit", "delete", "move", "search", "execute", "think", "fetch",
                   "switch_mode", "other"]
ALLOWING: frozenset[str] = frozenset({"allow_once", "allow_always"})


class ToolContext(Protocol):
    """What a session gives its tools."""

    roots: list[Path]
    file_state: FileReadState
    cancelled: asyncio.Event
    settings: Settings
    # Directories outside the roots that Read and Grep may reach: the session's saved
    # tool outputs, which the model was told to read in slices.
    readable: list[Path]
    # Files outside the roots that Write and Edit may change: the session's plan file.
    writable: list[Path]
    # Whether the running call must ask the user first (sidecar.core.permissions.modes decides).
    must_ask: bool

    async def read_buffer(self, path: Path) -> str | None:
        """The editor's unsaved text of ``path``, or None when the editor has none open."""
        ...

    async def apply_edit(self, path: Path, new_text: str, label: str) -> bool | None:
        """Replace (or create) the whole document through the editor; True when applied,
        None when the editor cannot apply edits (the tool then writes the file itself)."""
        ...

    async def before_change(self, path: Path) -> None:
        """Before an edit of ``path``: its content is kept for a rewind of the turn."""
        ...

    async def after_change(self, path: Path) -> None:
        """After an edit of ``path``: what it now holds is noted for a later rewind."""
        ...

    async def ask_permission(self, tool_name: str, title: str,
                             raw_input: dict[str, Any]) -> PermissionChoice:
        """One of ``allow_once, allow_always, reject_once, reject_always, cancelled``, with
        the user's reason when they gave one."""
        ...

    async def review_edit(self, path: Path, old_text: str | None, new_text: str) -> PermissionChoice:
        """Ask the user about one edit shown as a diff: ``allow_once``, ``allow_turn``,
        ``reject_once`` or ``cancelled``, with the user's reason when they gave one."""
        ...

    @property
    def mode(self) -> str:
        """The session's permission mode."""
        ...

    def plan_file(self) -> Path | None:
        """Where the session's plan is written (None without storage)."""
        ...

    def resource(self, kind: type[Kept]) -> Kept:
        """The session's ``kind`` (``sidecar.core.session_resources``), kept across calls."""
        ...

    def set_mode(self, mode: str) -> None:
        """Leave plan mode for ``mode`` (an approved plan)."""
        ...

    async def ask_to_leave_plan(self, plan: str) -> PermissionChoice:
        """Show the plan and ask to leave plan mode: ``accept_edits``, ``default``,
        ``reject_once`` (with what the user wants changed, when they said) or ``cancelled``."""
        ...


@dataclass
class ToolOutcome:
    content: str | list[Block]
    is_error: bool = False
    raw_output: dict[str, Any] = field(default_factory=dict)
    # ACP tool_call content for the editor (e.g. a diff); text content is used when empty.
    display: list[dict[str, Any]] = field(default_factory=list)
    # Session updates to send once the call's own update is out (TodoWrite's task list).
    updates: list[SessionUpdate] = field(default_factory=list)

    @classmethod
    def error(cls, message: str, **raw: Any) -> ToolOutcome:
        return cls(message, is_error=True, raw_output={"error": message, **raw})

    def text(self) -> str:
        if isinstance(self.content, str):
            return self.content
        return "".join(str(b.get("text", "")) for b in self.content if b.get("type") == "text")

    def acp_content(self) -> list[dict[str, Any]]:
        """``content`` of a ``tool_call_update``."""
        if self.display:
            return self.display
        if isinstance(self.content, str):
            return [{"type": "content", "content": {"type": "text", "text": self.content}}]
        return [{"type": "content", "content": b} for b in self.content if b.get("type") == "text"]


class Tool(Protocol):
    """A tool the model may call. ``run`` never raises for bad input or a failing file
    system: every failure is an ``is_error`` outcome the model reads."""

    @property
    def name(self) -> str: ...

    @property
    def description(self) -> str: ...

    @property
    def input_schema(self) -> dict[str, Any]: ...

    @property
    def kind(self) -> ToolKind: ...

    @property
    def compactable(self) -> bool:
        """Whether old results of this tool may be cleared by microcompact."""

    def title(self, input: dict[str, Any], roots: Sequence[Path] = ()) -> str: ...

    def locations(self, input: dict[str, Any], roots: Sequence[Path] = ()) -> list[dict[str, Any]]: ...

    async def run(self, input: dict[str, Any], ctx: ToolContext) -> ToolOutcome: ...


def tool_specs(tools: Sequence[Tool]) -> list[ToolSpec]:
    return [ToolSpec(t.name, t.description, t.input_schema, getattr(t, "anthropic_type", None))
            for t in tools]


# ----- the editor --------------------------------------------------------------------------

class Editor(Protocol):
    def session_update(self, session_id: str, update: SessionUpdate) -> None:
        """Send a ``session/update`` notification."""

    def status(self, kind: str, busy: bool, message: str) -> None:
        """Global state for a status bar (``sidecar/didChangeStatus``)."""

    def show_message(self, level: str, text: str) -> None:
        """A visible message to the user (warning, error, info)."""

    async def request_permission(
        self, session_id: str, tool_call: dict[str, Any], options: list[dict[str, str]]
    ) -> PermissionChoice:
        """The option picked ("cancelled" when withdrawn; "reject_once" when the editor cannot
        ask) and, with a rejection, the reason the user gave."""

    async def apply_edit(self, path: Path, new_text: str, label: str, exists: bool) -> bool | None:
        """Apply a whole-file change in the editor; None when the editor cannot apply edits."""

    def buffer_text(self, path: Path) -> str | None:
        """The editor's unsaved content of a file, when it has the file open."""

    async def progress(self, token: str | None, kind: str, title: str, message: str = "",
                       percentage: int | None = None) -> str | None:
        """Work-done progress (begin / report / end); returns the token used, if any."""


# ----- storage -----------------------------------------------------------------------------


class Jsonable(Protocol):
    def to_json(self) -> dict[str, Any]: ...


class TranscriptStore(Protocol):
    """Where a session's records go, as they happen (append-only)."""

    def path_for(self, session_id: str, cwd: str) -> Path: ...

    def results_dir(self, session_id: str, cwd: str) -> Path:
        """Where the session's tool outputs too large for its context are saved."""

    def save_result(self, session_id: str, cwd: str, tool_use_id: str, text: str) -> Path:
        """Save one such output whole and return its path (blocking: call it in a worker
        thread)."""

    def prepare(self, session_id: str, cwd: str) -> None:
        """Open a continued transcript (blocking: call it in a worker thread)."""

    def append(self, message: Message, session_id: str, cwd: str) -> object: ...

    def append_many(self, messages: list[Message], session_id: str, cwd: str) -> object:
        """All or nothing on a crash (a compaction's records)."""

    def append_state(self, session_id: str, cwd: str, *, model: str, provider: str,
                     title: str | None, used: int, size: int,
                     permission_mode: str | None = None) -> object: ...

    def close_session(self, session_id: str, cwd: str) -> None: ...

    def close(self) -> None: ...


class PromptHistoryStore(Protocol):
    """The global prompt history (``history.jsonl``), long pastes kept apart."""

    def add_prompt(self, blocks: list[Block], *, project: str, session_id: str) -> None: ...

    def list(self, limit: int, project: str | None = None) -> Sequence[Jsonable]: ...

    def undo(self) -> Jsonable | None: ...

    def flush(self) -> bool: ...

    def close(self) -> None: ...


class StoredSession(Protocol):
    """A transcript read back: its records and what they say about the session."""

    path: Path
    messages: list[Message]
    session_id: str | None
    cwd: str | None
    title: str | None
    model: str | None
    provider: str | None
    permission_mode: str | None
    torn_lines: int
    skipped_values: int
    warnings: list[str]


class SessionArchive(Protocol):
    """Stored sessions: find, list, read and delete (all blocking: use worker threads)."""

    def find(self, session_id: str) -> Path | None: ...

    def list(self, cwd: str | None) -> Sequence[Jsonable]: ...

    def read(self, path: Path) -> StoredSession: ...

    def delete(self, session_id: str) -> bool:
        """Remove a stored session; False when there is none."""

    def retitle(self, session_id: str, title: str) -> bool:
        """Store a new title for a session that is not open; False when there is none."""


# ----- workspace changes ---------------------------------------------------------------------


class WorkspaceWatcher(Protocol):
    """Reports changed CLAUDE.md files and git state of one workspace to its prefix store."""

    @property
    def mode(self) -> str:
        """``watchfiles``, ``client`` or ``off``."""

    def feed(self, paths: list[Path]) -> None:
        """Changes the editor reported (``workspace/didChangeWatchedFiles``)."""

    async def start(self) -> None: ...

    async def stop(self) -> None: ...


# ----- MCP servers ---------------------------------------------------------------------------
# A session here is the engine's ``sidecar.core.session.Session``, which imports this module,
# so it is named ``Any``.


class McpSessionLink(Protocol):
    """One session's view of its workspace's MCP servers (``Session.mcp``)."""

    def sync(self, session: Any) -> None:
        """Take the servers' changes since the last call into the session: its tools, and
        attachments announcing them and the servers' instructions."""

    def reannounce(self, ledger: TokenLedger, window: int, loaded: Sequence[str] = ()) -> str | None:
        """The servers' instructions and the tool set (with the deferred ones ``loaded`` by a
        search) in one text, re-injected after a compaction; None when nothing to say."""


class McpServers(Protocol):
    """The MCP servers of the open workspaces, each linked to the sessions opened there."""

    def link(self, session: Any) -> None:
        """Give ``session`` its workspace's servers (sets ``session.mcp``)."""

    def unlink(self, session_id: str) -> None:
        """Forget a closed session; the last one of a workspace stops its servers."""

    def reconfigure(self, sessions: list[Any]) -> None:
        """The servers' settings changed: connect the sessions' workspaces anew."""

    def statuses(self, session: Any) -> list[McpServer]: ...

    def render(self, session: Any) -> str:
        """The ``/mcp`` text."""

    async def command(self, session: Any, arg: str) -> str:
        """``/mcp ARG``'s answer."""

    async def act(self, session: Any, name: str, action: str) -> tuple[bool, str]:
        """Approve, reject or retry a server of the session's workspace: (done, in words);
        KeyError when it has none of that name."""

    def files_changed(self, cwd: str) -> None:
        """The workspace's MCP configuration files changed: read them again and connect
        what changed."""

    def config_files(self, cwd: str) -> list[Path]:
        """The files a workspace's servers are configured in (watched for changes)."""

    async def trusted(self, folder: str) -> None:
        """The user trusted ``folder``: its workspaces' held servers are judged again."""

    async def aclose(self) -> None: ...


class NoMcpServers:
    """A service built without MCP servers: no session gets any, and ``/mcp`` says so."""

    def link(self, session: Any) -> None:
        pass

    def unlink(self, session_id: str) -> None:
        pass

    def reconfigure(self, sessions: list[Any]) -> None:
        pass

    def statuses(self, session: Any) -> list[McpServer]:
        return []

    def render(self, session: Any) -> str:
        return "This sidecar was built without MCP servers."

    async def command(self, session: Any, arg: str) -> str:
        return self.render(session)

    async def act(self, session: Any, name: str, action: str) -> tuple[bool, str]:
        raise KeyError(name)

    def files_changed(self, cwd: str) -> None:
        pass

    def config_files(self, cwd: str) -> list[Path]:
        return []

    async def trusted(self, folder: str) -> None:
        pass

    async def aclose(self) -> None:
        pass


def no_mcp_servers(trust: Callable[[str], Trust]) -> McpServers:
    return NoMcpServers()


# ----- the pieces a service is built from ---------------------------------------------------


@dataclass(frozen=True)
class Adapters:
    """The concrete pieces behind the ports, chosen in one place (``sidecar.composition``)
    for the transports, and replaced piece by piece by replay and tests."""

    provider: Callable[[Settings, Mapping[str, str]], Provider]
    tools: Callable[[Settings], list[Tool]]
    transcripts: Callable[[Path, StorageHealth], TranscriptStore]
    history: Callable[[Path, Settings, StorageHealth], PromptHistoryStore]
    archive: Callable[[Path], SessionArchive]
    prefix: Callable[[Path, Settings], PrefixStore]
    # None: no watching (replay, tests); the sidecar still works, only less current.
    watcher: Callable[[PrefixStore], WorkspaceWatcher] | None = None
    # Given whether a folder is trusted (a workspace's own servers wait for that).
    mcp: Callable[[Callable[[str], Trust]], McpServers] = no_mcp_servers
    home: Callable[[], Path] = Path.home  # the user's own folder (their agents)
    # Where checkpoints keep file contents: given the storage directory and the workspace
    # (None: in memory).
    file_history: Callable[[Path, str], FileHistory] | None = None
    # Which of the provider's own tools (web search, web fetch) a session's model gets.
    server_tools: ServerToolPolicy = no_server_tools
