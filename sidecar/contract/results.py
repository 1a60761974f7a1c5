"""What each request answers: plain dicts on the wire, described here as TypedDicts."""


from typing import Any, Literal, NotRequired, TypedDict

Level = Literal["ok", "warning", "error", "blocking"]
Stage = Literal["normal", "warning", "error", "blocking"]
StopReason = Literal["end_turn", "max_tokens", "max_turn_requests", "refusal", "cancelled"]
CompactionTier = Literal["session_memory", "full"]
CompactionBackend = Literal["local", "server"]  # who wrote the summary: the sidecar or the provider


class Anchor(TypedDict):
    apiTokens: int
    estimatedSince: int
    messagesSince: int


class Breakdown(TypedDict):
    system: int
    tools: int
    memoryFiles: int
    messages: int
    toolResults: int
    summary: int
    free: int
    reservedOutput: int


class LastTurn(TypedDict):
    inputTokens: int
    cacheReadTokens: int
    cacheWriteTokens: int
    outputTokens: int


class Cost(TypedDict):
    amount: float
    currency: str


class DeferredTools(TypedDict):
    """docs/protocol.md, Tool search: the tools whose definitions wait for a search."""

    count: int
    savedTokens: int  # their definitions' tokens, kept out of every request
    search: Literal["server", "client"]  # the provider's own search, or the sidecar's ToolSearch


class AutoCompact(TypedDict):
    enabled: bool
    circuitBreaker: Literal["closed", "open"]
    consecutiveFailures: int


class Gauge(TypedDict):
    """docs/protocol.md, Gauge: the one view of the context's size every other view shows."""

    sessionId: str
    seq: int
    model: str
    provider: str
    used: int
    size: int
    effectiveWindow: int
    autoCompactAt: int | None
    warningAt: int
    errorAt: int
    blockingAt: int
    percentUsed: float
    percentLeftUntilAutoCompact: float | None
    level: Level
    stage: Stage  # the presentation ramp clients colour by (docs/protocol.md, Gauge)
    next: str  # what happens next as the context grows, in plain words
    source: Literal["provider", "estimate"]
    windowSource: str | None  # which rule decided the window (the provider's endpoint, a setting...)
    estimator: str
    anchor: Anchor
    breakdown: Breakdown
    lastTurn: LastTurn
    cost: Cost | None
    compactions: dict[str, int]
    autoCompact: AutoCompact
    deferredTools: DeferredTools | None  # None while no tool is deferred


class SessionMode(TypedDict):
    id: str
    name: str
    description: str


# The permission modes every session offers (sidecar.core.permissions.modes says what each allows).
PERMISSION_MODES: tuple[SessionMode, ...] = (
    {"id": "default", "name": "Ask before edits", "description": "Ask before edits and shell commands"},
    {"id": "acceptEdits", "name": "Accept edits",
     "description": "Edits go through; shell commands still ask"},
    {"id": "plan", "name": "Plan",
     "description": "Read-only: explore and write a plan, then ask to leave plan mode"},
    {"id": "bypassPermissions", "name": "Bypass permissions", "description": "Nothing asks"},
)


class SessionModes(TypedDict):
    """ACP's session mode state: the permission modes and the one in force."""

    currentModeId: str
    availableModes: list[SessionMode]


class SessionOpened(TypedDict):
    """``session/new`` and ``session/load``."""

    sessionId: str
    model: str
    provider: str
    gauge: Gauge
    modes: SessionModes


class SessionSummary(TypedDict):
    sessionId: str
    title: str | None
    cwd: str
    model: str
    provider: str
    createdAt: str
    updatedAt: str
    used: int
    size: int


class SessionList(TypedDict):
    sessions: list[SessionSummary]  # newest first


class Empty(TypedDict):
    """``session/close``, ``session/delete``, ``session/set_mode`` and ``session/set_title``."""


class PromptResult(TypedDict):
    stopReason: StopReason
    gauge: Gauge
    checkpointId: NotRequired[str]  # the checkpoint taken before the turn


class CheckpointFile(TypedDict):
    path: str
    created: bool  # the turn created it: a rewind of the code deletes it


class Checkpoint(TypedDict):
    """The state just before one prompt: what a rewind goes back to."""

    checkpointId: str
    prompt: str
    at: str
    used: int
    files: list[CheckpointFile]
    commands: list[str]  # shell commands of its turn that may have changed files


class CheckpointList(TypedDict):
    checkpoints: list[Checkpoint]


RewindAction = Literal["restore", "delete", "unchanged", "conflict"]


class RewoundFile(TypedDict):
    path: str
    action: RewindAction
    oldText: NotRequired[str | None]  # preview: its content now (None: absent)
    newText: NotRequired[str | None]  # preview: what it gets back (None: deleted)


RestoreKind = Literal["both", "conversation", "code"]


class Rewound(TypedDict):
    restore: RestoreKind
    conversation: bool
    files: list[RewoundFile]
    commands: list[str]
    prompt: str
    gauge: Gauge


class ModelSet(TypedDict):
    gauge: Gauge


class ModelChoice(TypedDict):
    """One model a session can switch to."""

    id: str  # what session/set_model takes
    displayName: str | None  # the provider's name for people, when it gives one
    lifecycle: Literal["active", "deprecated", "retired"]  # retired only for the current model
    contextWindow: int | None  # tokens, from the provider's list or the catalog


class ModelList(TypedDict):
    """``sidecar/models``: what the session's provider serves, the session's model included.

    ``source`` says where the list came from: the provider's models endpoint, or the
    catalog's picks when the endpoint said nothing (unreachable, no such endpoint)."""

    current: str
    models: list[ModelChoice]
    source: Literal["provider", "catalog"]


class Compacted(TypedDict):
    compactionId: str
    status: Literal["completed"]
    tier: CompactionTier
    tokensBefore: int
    tokensAfter: int
    backend: CompactionBackend


class ExactCount(TypedDict):
    tokens: int
    source: str  # "count_tokens" or "tiktoken:<encoding>"


class MemoryFile(TypedDict):
    path: str
    kind: str
    tokens: int
    chars: int


class Prefix(TypedDict):
    parts: dict[str, int]
    memoryFiles: list[MemoryFile]


class FileRead(TypedDict):
    path: str
    tokens: int
    readAt: str
    stale: bool
    offset: int | None
    limit: int | None
    origin: str


class StorageState(TypedDict):
    skippedTranscriptLines: int
    skippedTranscriptValues: int
    skippedHistoryLines: int
    skippedHistoryValues: int
    pendingWrites: int
    lastWriteError: str | None


class LastCompaction(TypedDict):
    tier: CompactionTier
    backend: CompactionBackend
    trigger: str | None
    tokensBefore: int | None


class ModelStatus(TypedDict):
    """What is known of the session's model: retired, deprecated or active, and what to use."""

    model: str
    lifecycle: Literal["active", "deprecated", "retired"]
    replacement: str | None
    retiresAt: str | None
    source: str | None
    message: str | None


class EditorContextItem(TypedDict):
    source: Literal["file", "selection"]
    uri: str
    path: str
    lines: str | None  # "10-20" or "10": a selection's lines (None: the whole text)
    tokens: int


class SkillInfo(TypedDict):
    """A skill the model can load (``sidecar/context``'s ``skills``)."""

    name: str
    description: str
    source: Literal["workspace", "user"]
    invoked: bool  # loaded with the Skill tool in this session


class _McpServerRequired(TypedDict):
    name: str
    status: Literal["starting", "connected", "failed", "stopped"]
    transport: Literal["stdio", "http"]
    tools: list[str]


McpServerState = Literal["waiting", "rejected", "untrusted", "starting", "connected", "failed",
                         "stopped"]
McpServerAction = Literal["approve", "reject", "retry"]


class McpServer(_McpServerRequired, total=False):
    """One configured MCP server: its state and the model-facing names of its tools.
    ``status`` is the connection's; ``state`` tells apart a server held back (``waiting``
    for the user's approval, ``rejected``, ``untrusted``: the folder is not trusted) from one
    that failed, ``label`` says it in words, ``actions`` are what ``sidecar/mcpAction`` can
    do about it now, ``offered`` how many of its tools the next request offers the model."""

    error: str
    state: McpServerState
    label: str
    actions: list[McpServerAction]
    offered: int
    workspace: bool  # configured by the workspace (.mcp.json), so approved by the user


class McpActionDone(TypedDict):
    """``sidecar/mcpAction``: whether it was done, what was done or why not (in words), and
    every server of the session's workspace as they are now."""

    done: bool
    message: str
    servers: list[McpServer]


class WorkspaceTrusted(TypedDict):
    """``sidecar/trustWorkspace``: the folder is trusted from now on."""

    trusted: bool
    cwd: str


class WorkspaceTrust(TypedDict):
    """Whether the session's folder is trusted, who says so, and what of the workspace's
    own is not applied (in words)."""

    trusted: bool
    source: Literal["editor", "sidecar", "claude-code", "none"]
    withheld: list[str]


class MemoryToolFile(TypedDict):
    path: str  # as the model names it: /memories/...
    bytes: int


class MemoryFolder(TypedDict):
    """The memory tool's folder: what the model keeps across conversations."""

    folder: str  # where it is on disk
    files: list[MemoryToolFile]


class ServerToolState(TypedDict):
    """One of the provider's own tools (web search, web fetch): whether the model gets it,
    and why or why not."""

    tool: Literal["web_search", "web_fetch"]
    offered: bool
    reason: str


class ContextView(TypedDict):
    """``sidecar/context``: the ``/context`` view."""

    gauge: Gauge
    exact: ExactCount | None
    watcher: Literal["watchfiles", "client", "off"]
    prefix: Prefix
    fileReadState: list[FileRead]
    messages: list[dict[str, Any]]  # the next request's messages, as the provider gets them
    storage: StorageState
    lastCompaction: LastCompaction | None
    modelStatus: ModelStatus
    editorContext: list[EditorContextItem]  # what the editor attached since the last compaction
    skills: list[SkillInfo]
    mcpServers: list[McpServer]
    skippedHookFiles: list[str]  # the workspace's hook files not run: the folder is not trusted
    workspaceTrust: WorkspaceTrust
    memory: MemoryFolder | None  # the memory tool's folder (None: the tool is off)
    serverTools: list[ServerToolState]  # the provider's own tools, offered or why not


class HistoryEntry(TypedDict):
    display: str
    pastedContents: dict[str, dict[str, Any]]
    timestamp: int  # milliseconds since the epoch
    project: str | None
    sessionId: str | None


class HistoryList(TypedDict):
    entries: list[HistoryEntry]  # newest first


class HistoryUndone(TypedDict):
    removed: HistoryEntry | None
