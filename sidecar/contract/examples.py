"""One example of every message shape, for the golden fixtures clients check their mirrors
against. Params are the contract's dataclasses, updates come from its constructors and
errors from its classes (the InvalidParams one from the decoder itself), so an example
cannot describe a shape the contract does not have; results list every field their
TypedDict declares (a test holds them to it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sidecar.contract import methods as m
from sidecar.contract import updates as u
from sidecar.contract.content import text_block
from sidecar.contract.decoding import decode
from sidecar.contract.errors import (
    CODES,
    ERRORS,
    INTERNAL_ERROR,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    PARSE_ERROR,
    REQUEST_CANCELLED,
    SERVER_NOT_INITIALIZED,
    CompactionFailed,
    ContextWindowExceeded,
    InvalidParams,
    ProviderFailed,
    ProviderNotConfigured,
    SessionBusy,
    SessionNotFound,
    SidecarError,
)
from sidecar.contract.outbound import (
    PermissionParams,
    PermissionResult,
    StatusParams,
    session_update_params,
)
from sidecar.contract.params import (
    CompactParams,
    DocumentChangeParams,
    DocumentCloseParams,
    DocumentOpenParams,
    FilesChangedParams,
    ForkParams,
    HistoryListParams,
    ListSessionsParams,
    LoadSessionParams,
    McpActionParams,
    NewSessionParams,
    NoParams,
    PromptParams,
    RewindParams,
    SessionParams,
    SetModelParams,
    SetModeParams,
    SetTitleParams,
    TrustWorkspaceParams,
)
from sidecar.contract.results import (
    PERMISSION_MODES,
    CheckpointList,
    Compacted,
    ContextView,
    Empty,
    Gauge,
    HistoryEntry,
    HistoryList,
    HistoryUndone,
    McpActionDone,
    McpServer,
    ModelList,
    ModelSet,
    PromptResult,
    Rewound,
    SessionList,
    SessionOpened,
    WorkspaceTrusted,
)

SESSION = "7f3c2a9e-4b1d-4c8e-9a2f-1d5e6b7c8a90"
CWD = "/home/dev/project"
CHECKPOINT = "3b8e1f0a-6c2d-4e9b-8f7a-5d4c3b2a1e0f"
MODEL = "claude-sonnet-4-5"

GAUGE: Gauge = {
    "sessionId": SESSION,
    "seq": 12,
    "model": MODEL,
    "provider": "anthropic",
    "used": 142300,
    "size": 200000,
    "effectiveWindow": 180000,
    "autoCompactAt": 167000,
    "warningAt": 147000,
    "errorAt": 147000,
    "blockingAt": 177000,
    "percentUsed": 71.2,
    "percentLeftUntilAutoCompact": 12.3,
    "level": "ok",
    "stage": "warning",
    "next": "Auto-compact at 167K (in 25K tokens): older turns will be summarized",
    "source": "provider",
    "windowSource": "anthropic /v1/models",
    "estimator": "calibrated:2.61",
    "anchor": {"apiTokens": 140000, "estimatedSince": 2300, "messagesSince": 1},
    "breakdown": {"system": 3000, "tools": 12000, "memoryFiles": 1200, "messages": 90000,
                  "toolResults": 36100, "summary": 0, "free": 37700, "reservedOutput": 20000},
    "lastTurn": {"inputTokens": 12, "cacheReadTokens": 139000, "cacheWriteTokens": 988,
                 "outputTokens": 400},
    "cost": {"amount": 0.4213, "currency": "USD"},
    "compactions": {"session_memory": 1, "full": 2},
    "autoCompact": {"enabled": True, "circuitBreaker": "closed", "consecutiveFailures": 0},
    "deferredTools": {"count": 300, "savedTokens": 41200, "search": "server"},
}

# The gauge after a turn added 800 tokens: a usage_update's, newer (seq) than the answers'.
GAUGE_AFTER_TURN: Gauge = {
    **GAUGE,
    "seq": 13,
    "used": 143100,
    "percentUsed": 71.5,
    "percentLeftUntilAutoCompact": 11.9,
    "next": "Auto-compact at 167K (in 24K tokens): older turns will be summarized",
    "anchor": {"apiTokens": 143100, "estimatedSince": 0, "messagesSince": 0},
    "breakdown": {**GAUGE["breakdown"], "messages": 90800, "free": 36900},
}

HISTORY_ENTRY: HistoryEntry = {
    "display": "explain [Pasted text #1 +120 lines]",
    "pastedContents": {"1": {"id": 1, "type": "text", "contentHash": "9b2f6c1e0d4a7b38"}},
    "timestamp": 1767225600000,
    "project": CWD,
    "sessionId": SESSION,
}


@dataclass(frozen=True)
class RequestExample:
    method: str
    params: Any  # a params dataclass
    result: Any  # a results TypedDict


@dataclass(frozen=True)
class NotificationExample:
    method: str
    params: Any


@dataclass(frozen=True)
class ErrorExample:
    name: str  # the protocol's name (docs/protocol.md, Errors and "Reading the wire")
    code: int
    message: str
    data: Any = None
    request_id: int | None = 1  # null when the request's id could not be read


def _opened() -> SessionOpened:
    return {"sessionId": SESSION, "model": MODEL, "provider": "anthropic", "gauge": GAUGE,
            "modes": {"currentModeId": "default", "availableModes": list(PERMISSION_MODES)}}


MCP_SERVERS: list[McpServer] = [
    {"name": "docs", "status": "failed", "transport": "http", "tools": ["mcp__docs__search"],
     "error": "ConnectError: connection refused (gave up after 4 attempts)", "state": "failed",
     "label": "failed: ConnectError: connection refused (gave up after 4 attempts)",
     "actions": ["retry"], "offered": 1, "workspace": False},
    {"name": "probe", "status": "failed", "transport": "stdio", "tools": [],
     "error": "waiting for approval", "state": "waiting", "label": "waiting for your approval",
     "actions": ["approve", "reject"], "offered": 0, "workspace": True},
]
# Asked to approve a server of a folder the user has not trusted: refused, in words.
MCP_UNTRUSTED: list[McpServer] = [
    {"name": "probe", "status": "failed", "transport": "stdio", "tools": [],
     "error": "not started: the folder is in the editor's Restricted Mode (trust the folder "
              "to start its own servers)",
     "state": "untrusted", "label": "not used: the folder is not trusted", "actions": [],
     "offered": 0, "workspace": True},
]


def _context() -> ContextView:
    return {
        "gauge": GAUGE,
        "exact": {"tokens": 142410, "source": "count_tokens"},
        "watcher": "watchfiles",
        "prefix": {"parts": {"system": 3000, "memoryFiles": 1200, "tools": 12000},
                   "memoryFiles": [{"path": f"{CWD}/CLAUDE.md", "kind": "project",
                                    "tokens": 1200, "chars": 4800}]},
        "fileReadState": [{"path": f"{CWD}/src/app.py", "tokens": 2100,
                           "readAt": "2026-01-01T00:00:00.000Z", "stale": False, "offset": 1,
                           "limit": 2000, "origin": "read"}],
        "messages": [{"role": "user", "content": [{"type": "text", "text": "Fix the failing test"}]}],
        "storage": {"skippedTranscriptLines": 0, "skippedTranscriptValues": 0,
                    "skippedHistoryLines": 0, "skippedHistoryValues": 0, "pendingWrites": 0,
                    "lastWriteError": None},
        "lastCompaction": {"tier": "full", "backend": "server", "trigger": "auto",
                           "tokensBefore": 151200},
        "modelStatus": {"model": MODEL, "lifecycle": "retired", "replacement": "claude-sonnet-5-5",
                        "retiresAt": "2026-11-30", "source": "anthropic /v1/models",
                        "message": f"{MODEL} was retired on 2026-11-30: requests to it fail; "
                                   "move to claude-sonnet-5-5."},
        "editorContext": [
            {"source": "file", "uri": f"file://{CWD}/src/app.py", "path": f"{CWD}/src/app.py",
             "lines": None, "tokens": 2130},
            {"source": "selection", "uri": f"file://{CWD}/tests/test_app.py",
             "path": f"{CWD}/tests/test_app.py", "lines": "10-24", "tokens": 180},
        ],
        "skills": [{"name": "release-notes", "description": "Write release notes from the git log",
                    "source": "workspace", "invoked": True}],
        "mcpServers": MCP_SERVERS,
        "skippedHookFiles": [],
        "workspaceTrust": {"trusted": False, "source": "none",
                           "withheld": ["settings permissions.defaultMode from "
                                        ".context-sidecar/settings.json"]},
        "memory": {"folder": "/home/dev/.local/share/context-sidecar/projects/-home-dev-project/memory",
                   "files": [{"path": "/memories/plan.md", "bytes": 412}]},
        "serverTools": [
            {"tool": "web_search", "offered": True,
             "reason": "Anthropic's web_search_20260318 server tool"},
            {"tool": "web_fetch", "offered": False, "reason": "turned off by tools.webFetch"}],
    }


def requests() -> list[RequestExample]:
    listed: SessionList = {"sessions": [{
        "sessionId": SESSION, "title": "Fix the failing test", "cwd": CWD, "model": MODEL,
        "provider": "anthropic", "createdAt": "2026-01-01T00:00:00.000Z",
        "updatedAt": "2026-01-01T00:42:00.000Z", "used": 142300, "size": 200000}]}
    empty: Empty = {}
    trusted: WorkspaceTrusted = {"trusted": True, "cwd": CWD}
    approved: McpActionDone = {
        "done": False, "servers": MCP_UNTRUSTED,
        "message": "The MCP server 'probe' is not used: the folder is not trusted. Trust the "
                   "folder first."}
    prompted: PromptResult = {"stopReason": "end_turn", "gauge": GAUGE,
                              "checkpointId": CHECKPOINT}
    checkpoints: CheckpointList = {"checkpoints": [{
        "checkpointId": CHECKPOINT, "prompt": "Why does this fail?",
        "at": "2026-01-01T00:40:00.000Z", "used": 41200,
        "files": [{"path": f"{CWD}/src/app.py", "created": False},
                  {"path": f"{CWD}/tests/test_app.py", "created": True}],
        "commands": ["npm run build"]}]}
    # A preview: what a rewind would do, each file with both sides for a diff.
    rewound: Rewound = {"restore": "both", "conversation": False, "commands": ["npm run build"],
                        "prompt": "Why does this fail?", "gauge": GAUGE, "files": [
                            {"path": f"{CWD}/src/app.py", "action": "restore",
                             "oldText": "def main():\n    return run(fast=True)\n",
                             "newText": "def main():\n    return run()\n"},
                            {"path": f"{CWD}/tests/test_app.py", "action": "delete",
                             "oldText": "def test_fast():\n    assert main()\n",
                             "newText": None}]}
    model_set: ModelSet = {"gauge": GAUGE}
    models: ModelList = {"current": MODEL, "source": "provider", "models": [
        {"id": MODEL, "displayName": "Claude Sonnet 4.5", "lifecycle": "deprecated",
         "contextWindow": 200000},
        {"id": "claude-opus-5-5", "displayName": "Claude Opus 5.5", "lifecycle": "active",
         "contextWindow": 1000000},
        {"id": "claude-opus-4-5-20251101", "displayName": "Claude Opus 4.5",
         "lifecycle": "deprecated", "contextWindow": 200000}]}
    compacted: Compacted = {"compactionId": "cmp_3f9a1c2b7d4e", "status": "completed",
                            "tier": "full", "tokensBefore": 142300, "tokensAfter": 18400,
                            "backend": "server"}
    history: HistoryList = {"entries": [HISTORY_ENTRY]}
    undone: HistoryUndone = {"removed": HISTORY_ENTRY}
    return [
        RequestExample(m.SESSION_NEW, NewSessionParams(
            cwd=CWD, model=MODEL, provider="anthropic", title="Fix the failing test"), _opened()),
        RequestExample(m.SESSION_LOAD, LoadSessionParams(session_id=SESSION, cwd=CWD), _opened()),
        RequestExample(m.SESSION_LIST, ListSessionsParams(cwd=CWD), listed),
        RequestExample(m.SESSION_CLOSE, SessionParams(session_id=SESSION), empty),
        RequestExample(m.SESSION_DELETE, SessionParams(session_id=SESSION), empty),
        RequestExample(m.SESSION_PROMPT, PromptParams(session_id=SESSION, prompt=[
            text_block("Why does this fail?"),
            {"type": "resource_link", "uri": f"file://{CWD}/src/app.py", "name": "app.py"},
            {"type": "resource", "resource": {"uri": f"file://{CWD}/src/app.py#L10-L12",
                                              "text": "def main():\n    return run()\n"}},
            {"type": "image", "mimeType": "image/png", "data": "iVBORw0KGgo="},
        ]), prompted),
        RequestExample(m.SESSION_SET_MODEL, SetModelParams(
            session_id=SESSION, model="gpt-5", provider="openai"), model_set),
        RequestExample(m.SESSION_SET_MODE, SetModeParams(session_id=SESSION, mode_id="plan"), empty),
        RequestExample(m.SESSION_SET_TITLE, SetTitleParams(session_id=SESSION, title="Fix the flaky test"),
                       empty),
        RequestExample(m.GAUGE, SessionParams(session_id=SESSION), GAUGE),
        RequestExample(m.MODELS, SessionParams(session_id=SESSION), models),
        RequestExample(m.COMPACT, CompactParams(
            session_id=SESSION, instructions="keep the failing test's output",
            work_done_token="compact-1", from_checkpoint_id=CHECKPOINT), compacted),
        RequestExample(m.CONTEXT, SessionParams(session_id=SESSION), _context()),
        RequestExample(m.HISTORY_LIST, HistoryListParams(limit=20, project=CWD), history),
        RequestExample(m.HISTORY_UNDO, NoParams(), undone),
        RequestExample(m.TRUST_WORKSPACE, TrustWorkspaceParams(cwd=CWD), trusted),
        RequestExample(m.MCP_ACTION,
                       McpActionParams(session_id=SESSION, server="probe", action="approve"),
                       approved),
        RequestExample(m.CHECKPOINTS, SessionParams(session_id=SESSION), checkpoints),
        RequestExample(m.REWIND, RewindParams(session_id=SESSION, checkpoint_id=CHECKPOINT,
                                              restore="both", preview=True, force=False),
                       rewound),
        RequestExample(m.FORK, ForkParams(session_id=SESSION, checkpoint_id=CHECKPOINT,
                                          title="Try the other fix"), _opened()),
    ]


def client_notifications() -> list[NotificationExample]:
    uri = f"file://{CWD}/src/app.py"
    return [
        NotificationExample(m.SESSION_CANCEL, SessionParams(session_id=SESSION)),
        NotificationExample(m.DOCUMENT_DID_OPEN, DocumentOpenParams(uri=uri, text="print('hi')\n")),
        NotificationExample(m.DOCUMENT_DID_CHANGE, DocumentChangeParams(
            uri=uri, content_changes=[{"text": "print('hello')\n"}])),
        NotificationExample(m.DOCUMENT_DID_CLOSE, DocumentCloseParams(uri=uri)),
        NotificationExample(m.FILES_DID_CHANGE, FilesChangedParams(
            changes=[{"uri": f"file://{CWD}/CLAUDE.md", "type": 2}])),
    ]


def session_updates() -> list[Any]:
    """One ``session/update`` params of each kind, in UPDATE_KINDS' order."""
    message = "msg_01a2b3c4d5e6"
    shown = {"command": "pytest -x tests/test_app.py"}
    kinds: list[Any] = [
        u.user_message_chunk("Why does this fail?", CHECKPOINT),
        u.agent_message_chunk("The fixture is missing.", message),
        u.agent_thought_chunk("Check conftest.py first.", message),
        u.tool_call("toolu_01", "Bash: pytest -x tests/test_app.py", "execute", "pending", shown,
                    [{"path": f"{CWD}/tests/test_app.py", "line": 12}]),
        u.tool_call_update(
            "toolu_01", "completed",
            content=[{"type": "content", "content": text_block("1 passed in 0.02s\n")}],
            raw_output={"exitCode": 0},
            permission={"optionId": "allow_once", "name": "Allow once"}),
        u.usage_update(GAUGE_AFTER_TURN),
        u.compaction_update("cmp_3f9a1c2b7d4e", trigger="auto", status="completed", tier="full",
                            tokens_before=142300, tokens_after=18400,
                            summary="The user is fixing a failing test in tests/test_app.py.",
                            backend="server"),
        u.session_info_update(title="Fix the failing test", updated_at="2026-01-01T00:42:00.000Z"),
        u.available_commands_update([{"name": "compact", "description": "Summarize the conversation"}]),
        u.retry_update(1, 10, 1250, "The provider is overloaded (529)", 529),
        u.current_mode_update("plan"),
        u.hook_result_update("SessionStart", "cat .claude/notes.md",
                             "Release branch is frozen until Friday.", 0),
        u.mcp_status_update(MCP_SERVERS),
        u.plan_update([
            {"content": "Find the failing test", "priority": "medium", "status": "completed"},
            {"content": "Fix the off-by-one in app.py", "priority": "medium", "status": "in_progress",
             "_meta": {"sidecar": {"activeForm": "Fixing the off-by-one in app.py"}}},
            {"content": "Run the tests", "priority": "medium", "status": "pending"},
        ]),
    ]
    return [session_update_params(SESSION, update) for update in kinds]


def server_notifications() -> list[NotificationExample]:
    status: StatusParams = {"kind": "normal", "busy": True, "message": "Thinking…"}
    return [NotificationExample(m.DID_CHANGE_STATUS, status)]


def server_requests() -> list[tuple[str, PermissionParams, PermissionResult]]:
    params: PermissionParams = {
        "sessionId": SESSION,
        "toolCall": {"toolCallId": "toolu_01", "title": "Bash: pytest -x tests/test_app.py",
                     "kind": "execute", "rawInput": {"command": "pytest -x tests/test_app.py"}},
        "options": [{"optionId": "allow_once", "name": "Allow once", "kind": "allow_once"},
                    {"optionId": "allow_always", "name": "Always allow in this session",
                     "kind": "allow_always"},
                    {"optionId": "reject_once", "name": "Reject", "kind": "reject_once"}],
    }
    result: PermissionResult = {"outcome": {"outcome": "selected", "optionId": "allow_once"}}
    return [(m.SESSION_REQUEST_PERMISSION, params, result)]


def _decoded_error(cls: type, params: dict[str, Any]) -> InvalidParams:
    try:
        decode(cls, params)
    except InvalidParams as exc:
        return exc
    raise AssertionError(f"{params} decoded as {cls.__name__}")


def errors() -> list[ErrorExample]:
    """One answer for every code of ``CODES``, in its order."""
    raised: list[tuple[str, SidecarError]] = [
        ("InvalidParams", _decoded_error(NewSessionParams, {"cwd": "relative/dir"})),
        ("SessionNotFound", SessionNotFound("Unknown session 'nope'", data={"sessionId": "nope"})),
        ("ProviderNotConfigured", ProviderNotConfigured(
            "No API key for provider anthropic: the environment variable ANTHROPIC_API_KEY is "
            "not set", data={"provider": "anthropic", "apiKeyEnv": "ANTHROPIC_API_KEY",
                             "fix": "Set ANTHROPIC_API_KEY to your API key before starting the "
                                    "editor, or run 'Context Sidecar: Set API Key' in VS Code.",
                             "retryable": False})),
        ("ContextWindowExceeded", ContextWindowExceeded("The context is full; run /compact")),
        ("ProviderError", ProviderFailed(
            "The provider is overloaded (529), still after 4 retries: Overloaded", data={
                "status": 529, "type": "overloaded_error", "retryAfter": None,
                "fix": "The provider is busy: send the prompt again in a moment.",
                "retryable": True})),
        ("CompactionFailed", CompactionFailed(
            "Compaction failed, nothing was changed: the summary was empty",
            data={"tier": "full", "reason": "the summary was empty"})),
        ("SessionBusy", SessionBusy("A turn is already running in this session; cancel it or wait",
                                    data={"sessionId": SESSION})),
    ]
    out = [
        ErrorExample("ParseError", PARSE_ERROR, "invalid JSON: Expecting value", request_id=None),
        ErrorExample("InvalidRequest", INVALID_REQUEST, '"jsonrpc" must be "2.0"'),
        ErrorExample("MethodNotFound", METHOD_NOT_FOUND, "Method not found: session/frobnicate",
                     {"method": "session/frobnicate"}),
        ErrorExample("InternalError", INTERNAL_ERROR, "the answer could not be encoded"),
        ErrorExample("ServerNotInitialized", SERVER_NOT_INITIALIZED,
                     "the server is not initialized: send initialize first"),
        ErrorExample("RequestCancelled", REQUEST_CANCELLED, "Request 1 was cancelled"),
    ]
    for name, error in raised:
        if not isinstance(error, ERRORS[name]):
            raise AssertionError(f"{name} is answered by {ERRORS[name].__name__}")
        out.append(ErrorExample(name, error.code, error.message, error.data))
    by_name = {e.name: e for e in out}
    return [by_name[name] for name in CODES]
