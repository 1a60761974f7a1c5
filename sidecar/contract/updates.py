"""The ``session/update`` kinds (docs/protocol.md, Notifications) and one constructor each.

Every update the sidecar sends is built by these functions, so the kinds and their fields
are spelled in one place. A field passed as None is left out, as the protocol's optional
fields are.
"""


from typing import Any, Literal, NotRequired, TypedDict, Union, cast, get_args, get_type_hints

from sidecar.contract.content import TextBlock, text_block
from sidecar.contract.results import CompactionBackend, CompactionTier, Cost, Gauge, McpServer

ToolCallStatus = Literal["pending", "in_progress", "completed", "failed"]
CompactionStatus = Literal["in_progress", "completed", "failed", "cancelled"]
CompactionTrigger = Literal["auto", "manual"]


class _Replayable(TypedDict, total=False):
    replay: bool  # true on the updates of a replayed history (session/load)


class _UserMessageChunk(_Replayable):
    sessionUpdate: Literal["user_message_chunk"]
    content: TextBlock
    # ``{sidecar: {checkpointId}}``: the checkpoint taken before this prompt.
    _meta: NotRequired[dict[str, Any]]


class _AgentMessageChunk(_Replayable):
    sessionUpdate: Literal["agent_message_chunk"]
    content: TextBlock
    messageId: str


class _AgentThoughtChunk(_Replayable):
    sessionUpdate: Literal["agent_thought_chunk"]
    content: TextBlock
    messageId: str


class Location(TypedDict, total=False):
    path: str
    line: int


class _ToolCallRequired(TypedDict):
    sessionUpdate: Literal["tool_call"]
    toolCallId: str
    title: str
    kind: str
    status: ToolCallStatus
    rawInput: dict[str, Any]


class _ToolCall(_ToolCallRequired, total=False):
    locations: list[Location]
    replay: bool


class _ToolCallUpdateRequired(TypedDict):
    sessionUpdate: Literal["tool_call_update"]
    toolCallId: str
    status: ToolCallStatus


class _PermissionAnswerRequired(TypedDict):
    optionId: str
    name: str


class PermissionAnswer(_PermissionAnswerRequired, total=False):
    """The option the user picked when the tool call asked (its ``optionId`` and ``name``),
    and the reason they gave with a rejection."""

    reason: str


class _ToolCallUpdate(_ToolCallUpdateRequired, total=False):
    content: list[dict[str, Any]]  # ACP's [{type: "content", content: {type: "text", text}}]
    rawOutput: dict[str, Any]
    permission: PermissionAnswer  # on the final update of a call whose permission was answered
    replay: bool


class _SidecarGauge(TypedDict):
    sidecar: Gauge


class _UsageUpdateRequired(TypedDict):
    sessionUpdate: Literal["usage_update"]
    used: int
    size: int
    _meta: _SidecarGauge


class _UsageUpdate(_UsageUpdateRequired, total=False):
    cost: Cost


class _CompactionUpdateRequired(TypedDict):
    sessionUpdate: Literal["compaction_update"]
    compactionId: str
    trigger: CompactionTrigger
    status: CompactionStatus
    tier: CompactionTier


class _CompactionUpdate(_CompactionUpdateRequired, total=False):
    tokensBefore: int
    tokensAfter: int
    summary: str
    backend: CompactionBackend
    error: str
    replay: bool


class _SessionInfoUpdateRequired(TypedDict):
    sessionUpdate: Literal["session_info_update"]


class _SessionInfoUpdate(_SessionInfoUpdateRequired, total=False):
    title: str
    updatedAt: str


class _RetryUpdateRequired(TypedDict):
    sessionUpdate: Literal["retry_update"]
    attempt: int
    maxRetries: int
    delayMs: int
    reason: str
    status: int | None


class _RetryUpdate(_RetryUpdateRequired, total=False):
    done: bool  # the call went through after ``attempt`` retries


class Command(TypedDict):
    name: str
    description: str


class _AvailableCommandsUpdate(TypedDict):
    sessionUpdate: Literal["available_commands_update"]
    availableCommands: list[Command]


class _CurrentModeUpdate(TypedDict):
    sessionUpdate: Literal["current_mode_update"]
    currentModeId: str


HookEventName = Literal["PreCompact", "PostCompact", "SessionStart"]


class _HookResultUpdateRequired(TypedDict):
    sessionUpdate: Literal["hook_result"]
    event: HookEventName
    command: str
    output: str  # stdout and stderr, capped
    exitCode: int | None  # None: it did not start or timed out


class _HookResultUpdate(_HookResultUpdateRequired, total=False):
    replay: bool


class _McpStatusUpdate(TypedDict):
    sessionUpdate: Literal["mcp_status_update"]
    servers: list[McpServer]


PlanEntryStatus = Literal["pending", "in_progress", "completed"]


class _PlanEntryRequired(TypedDict):
    content: str
    priority: Literal["high", "medium", "low"]
    status: PlanEntryStatus


class PlanEntry(_PlanEntryRequired, total=False):
    """One task of the model's list (ACP's PlanEntry); ``_meta.sidecar.activeForm`` is what
    the task reads as while it is being done ("Running the tests")."""

    _meta: dict[str, Any]


class _PlanUpdate(_Replayable):
    sessionUpdate: Literal["plan"]
    entries: list[PlanEntry]  # the whole list, each time: it replaces the one shown


SessionUpdate = Union[
    _UserMessageChunk, _AgentMessageChunk, _AgentThoughtChunk, _ToolCall, _ToolCallUpdate,
    _UsageUpdate, _CompactionUpdate, _SessionInfoUpdate, _AvailableCommandsUpdate, _RetryUpdate,
    _CurrentModeUpdate, _HookResultUpdate, _McpStatusUpdate, _PlanUpdate,
]

# Replayed updates (``session/load``) carry ``"replay": true`` at the top level.
REPLAY_KEY = "replay"


def replayed(update: SessionUpdate) -> SessionUpdate:
    """``update`` marked as part of a replayed history."""
    cast(dict[str, Any], update)[REPLAY_KEY] = True
    return update


def user_message_chunk(text: str, checkpoint_id: str | None = None) -> _UserMessageChunk:
    """A user message, replayed by ``session/load``; a prompt's names its checkpoint."""
    chunk: _UserMessageChunk = {"sessionUpdate": "user_message_chunk", "content": text_block(text)}
    if checkpoint_id is not None:
        chunk["_meta"] = {"sidecar": {"checkpointId": checkpoint_id}}
    return chunk


def agent_message_chunk(text: str, message_id: str) -> _AgentMessageChunk:
    return {"sessionUpdate": "agent_message_chunk", "content": text_block(text),
            "messageId": message_id}


def agent_thought_chunk(text: str, message_id: str) -> _AgentThoughtChunk:
    return {"sessionUpdate": "agent_thought_chunk", "content": text_block(text),
            "messageId": message_id}


def tool_call(tool_call_id: str, title: str, kind: str, status: ToolCallStatus,
              raw_input: dict[str, Any], locations: list[dict[str, Any]] | None = None) -> _ToolCall:
    update: _ToolCall = {"sessionUpdate": "tool_call", "toolCallId": tool_call_id, "title": title,
                         "kind": kind, "status": status, "rawInput": raw_input}
    if locations is not None:
        # Tools build them as plain dicts of these fields.
        update["locations"] = cast(list[Location], locations)
    return update


def tool_call_update(tool_call_id: str, status: ToolCallStatus, *,
                     content: list[dict[str, Any]] | None = None,
                     raw_output: dict[str, Any] | None = None,
                     permission: PermissionAnswer | None = None) -> _ToolCallUpdate:
    update: _ToolCallUpdate = {"sessionUpdate": "tool_call_update", "toolCallId": tool_call_id,
                               "status": status}
    if content is not None:
        update["content"] = content
    if raw_output is not None:
        update["rawOutput"] = raw_output
    if permission is not None:
        update["permission"] = permission
    return update


def retry_update(attempt: int, max_retries: int, delay_ms: int, reason: str,
                 status: int | None, *, done: bool = False) -> _RetryUpdate:
    """A model call is being retried (before each wait), or went through after retries."""
    update: _RetryUpdate = {"sessionUpdate": "retry_update", "attempt": attempt,
                            "maxRetries": max_retries, "delayMs": delay_ms, "reason": reason,
                            "status": status}
    if done:
        update["done"] = True
    return update


def usage_update(gauge: Gauge) -> _UsageUpdate:
    """ACP's fields at the root (Zed draws its ring from them), the whole gauge in ``_meta``."""
    update: _UsageUpdate = {"sessionUpdate": "usage_update", "used": gauge["used"],
                            "size": gauge["size"], "_meta": {"sidecar": gauge}}
    cost = gauge.get("cost")
    if cost:
        update["cost"] = cost
    return update


def compaction_update(compaction_id: str, *, trigger: CompactionTrigger,
                      status: CompactionStatus, tier: CompactionTier,
                      tokens_before: int | None = None, tokens_after: int | None = None,
                      summary: str | None = None, backend: CompactionBackend | None = None,
                      error: str | None = None) -> _CompactionUpdate:
    update: _CompactionUpdate = {"sessionUpdate": "compaction_update",
                                 "compactionId": compaction_id, "trigger": trigger,
                                 "status": status, "tier": tier}
    if tokens_before is not None:
        update["tokensBefore"] = tokens_before
    if tokens_after is not None:
        update["tokensAfter"] = tokens_after
    if summary is not None:
        update["summary"] = summary
    if backend is not None:
        update["backend"] = backend
    if error is not None:
        update["error"] = error
    return update


def session_info_update(*, title: str | None = None,
                        updated_at: str | None = None) -> _SessionInfoUpdate:
    update: _SessionInfoUpdate = {"sessionUpdate": "session_info_update"}
    if title is not None:
        update["title"] = title
    if updated_at is not None:
        update["updatedAt"] = updated_at
    return update


def available_commands_update(commands: list[Command]) -> _AvailableCommandsUpdate:
    return {"sessionUpdate": "available_commands_update", "availableCommands": commands}


def current_mode_update(mode_id: str) -> _CurrentModeUpdate:
    """The session's permission mode changed (a request, a slash command, an approved plan)."""
    return {"sessionUpdate": "current_mode_update", "currentModeId": mode_id}


def hook_result_update(event: HookEventName, command: str, output: str, exit_code: int | None,
                       *, replay: bool = False) -> _HookResultUpdate:
    """What a hook printed (live, and with ``replay`` when a loaded session is replayed)."""
    update: _HookResultUpdate = {"sessionUpdate": "hook_result", "event": event,
                                 "command": command, "output": output, "exitCode": exit_code}
    if replay:
        update["replay"] = True
    return update


def mcp_status_update(servers: list[McpServer]) -> _McpStatusUpdate:
    """Every configured MCP server, sent when one's status (or tool list) changes."""
    return {"sessionUpdate": "mcp_status_update", "servers": servers}


def plan_update(entries: list[PlanEntry]) -> _PlanUpdate:
    """The model's task list changed (TodoWrite): the whole list, as ACP's ``plan``."""
    return {"sessionUpdate": "plan", "entries": entries}


# Every kind, in docs/protocol.md's order (the union's), read off the TypedDicts above.
UPDATE_KINDS: tuple[str, ...] = tuple(
    get_args(get_type_hints(shape)["sessionUpdate"])[0] for shape in get_args(SessionUpdate))
