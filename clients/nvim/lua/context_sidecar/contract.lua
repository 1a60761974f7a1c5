---Generated from sidecar/contract by `python -m sidecar.contract.mirrors`: do not edit by hand.
---The wire contract (docs/protocol.md) as the sidecar defines it: LuaLS annotations of
---its types, and the protocol version, method names, error codes and update kinds.

---@alias context_sidecar.ContentBlock context_sidecar.TextBlock|context_sidecar.ResourceLinkBlock|context_sidecar.ResourceBlock|context_sidecar.ImageBlock
---@alias context_sidecar.Level "ok"|"warning"|"error"|"blocking"
---@alias context_sidecar.Stage "normal"|"warning"|"error"|"blocking"
---@alias context_sidecar.StopReason "end_turn"|"max_tokens"|"max_turn_requests"|"refusal"|"cancelled"
---@alias context_sidecar.CompactionTier "session_memory"|"full"
---@alias context_sidecar.CompactionBackend "local"|"server"
---@alias context_sidecar.RewindAction "restore"|"delete"|"unchanged"|"conflict"
---@alias context_sidecar.RestoreKind "both"|"conversation"|"code"
---@alias context_sidecar.McpServerState "waiting"|"rejected"|"untrusted"|"starting"|"connected"|"failed"|"stopped"
---@alias context_sidecar.McpServerAction "approve"|"reject"|"retry"
---@alias context_sidecar.ToolCallStatus "pending"|"in_progress"|"completed"|"failed"
---@alias context_sidecar.CompactionStatus "in_progress"|"completed"|"failed"|"cancelled"
---@alias context_sidecar.CompactionTrigger "auto"|"manual"
---@alias context_sidecar.HookEventName "PreCompact"|"PostCompact"|"SessionStart"
---@alias context_sidecar.PlanEntryStatus "pending"|"in_progress"|"completed"
---@alias context_sidecar.SessionUpdate context_sidecar.UserMessageChunk|context_sidecar.AgentMessageChunk|context_sidecar.AgentThoughtChunk|context_sidecar.ToolCall|context_sidecar.ToolCallUpdate|context_sidecar.UsageUpdate|context_sidecar.CompactionUpdate|context_sidecar.SessionInfoUpdate|context_sidecar.AvailableCommandsUpdate|context_sidecar.RetryUpdate|context_sidecar.CurrentModeUpdate|context_sidecar.HookResultUpdate|context_sidecar.McpStatusUpdate|context_sidecar.PlanUpdate
---@alias context_sidecar.StatusKind "normal"|"warning"|"error"|"inactive"
---@alias context_sidecar.PermissionKind "allow_once"|"allow_always"|"reject_once"|"reject_always"

---@class context_sidecar.TextBlock
---@field type "text"
---@field text string

---A file the sidecar reads with its file tool, recording read state.
---@class context_sidecar.ResourceLinkBlock
---@field type "resource_link"
---@field uri string
---@field name? string

---@class context_sidecar.EmbeddedText
---@field uri string
---@field text string

---Embedded text, a selection say.
---@class context_sidecar.ResourceBlock
---@field type "resource"
---@field resource context_sidecar.EmbeddedText

---@class context_sidecar.ImageBlock
---@field type "image"
---@field mimeType string
---@field data string

---@class context_sidecar.Anchor
---@field apiTokens integer
---@field estimatedSince integer
---@field messagesSince integer

---@class context_sidecar.Breakdown
---@field system integer
---@field tools integer
---@field memoryFiles integer
---@field messages integer
---@field toolResults integer
---@field summary integer
---@field free integer
---@field reservedOutput integer

---@class context_sidecar.LastTurn
---@field inputTokens integer
---@field cacheReadTokens integer
---@field cacheWriteTokens integer
---@field outputTokens integer

---@class context_sidecar.Cost
---@field amount number
---@field currency string

---docs/protocol.md, Tool search: the tools whose definitions wait for a search.
---@class context_sidecar.DeferredTools
---@field count integer
---@field savedTokens integer
---@field search "server"|"client"

---@class context_sidecar.AutoCompact
---@field enabled boolean
---@field circuitBreaker "closed"|"open"
---@field consecutiveFailures integer

---docs/protocol.md, Gauge: the one view of the context's size every other view shows.
---@class context_sidecar.Gauge
---@field sessionId string
---@field seq integer
---@field model string
---@field provider string
---@field used integer
---@field size integer
---@field effectiveWindow integer
---@field autoCompactAt integer|nil
---@field warningAt integer
---@field errorAt integer
---@field blockingAt integer
---@field percentUsed number
---@field percentLeftUntilAutoCompact number|nil
---@field level context_sidecar.Level
---@field stage context_sidecar.Stage
---@field next string
---@field source "provider"|"estimate"
---@field windowSource string|nil
---@field estimator string
---@field anchor context_sidecar.Anchor
---@field breakdown context_sidecar.Breakdown
---@field lastTurn context_sidecar.LastTurn
---@field cost context_sidecar.Cost|nil
---@field compactions table<string, integer>
---@field autoCompact context_sidecar.AutoCompact
---@field deferredTools context_sidecar.DeferredTools|nil

---@class context_sidecar.SessionMode
---@field id string
---@field name string
---@field description string

---ACP's session mode state: the permission modes and the one in force.
---@class context_sidecar.SessionModes
---@field currentModeId string
---@field availableModes context_sidecar.SessionMode[]

---`session/new` and `session/load`.
---@class context_sidecar.SessionOpened
---@field sessionId string
---@field model string
---@field provider string
---@field gauge context_sidecar.Gauge
---@field modes context_sidecar.SessionModes

---@class context_sidecar.SessionSummary
---@field sessionId string
---@field title string|nil
---@field cwd string
---@field model string
---@field provider string
---@field createdAt string
---@field updatedAt string
---@field used integer
---@field size integer

---@class context_sidecar.SessionList
---@field sessions context_sidecar.SessionSummary[]

---`session/close`, `session/delete`, `session/set_mode` and `session/set_title`.
---@class context_sidecar.Empty

---@class context_sidecar.PromptResult
---@field stopReason context_sidecar.StopReason
---@field gauge context_sidecar.Gauge
---@field checkpointId? string

---@class context_sidecar.CheckpointFile
---@field path string
---@field created boolean

---The state just before one prompt: what a rewind goes back to.
---@class context_sidecar.Checkpoint
---@field checkpointId string
---@field prompt string
---@field at string
---@field used integer
---@field files context_sidecar.CheckpointFile[]
---@field commands string[]

---@class context_sidecar.CheckpointList
---@field checkpoints context_sidecar.Checkpoint[]

---@class context_sidecar.RewoundFile
---@field path string
---@field action context_sidecar.RewindAction
---@field oldText? string|nil
---@field newText? string|nil

---@class context_sidecar.Rewound
---@field restore context_sidecar.RestoreKind
---@field conversation boolean
---@field files context_sidecar.RewoundFile[]
---@field commands string[]
---@field prompt string
---@field gauge context_sidecar.Gauge

---@class context_sidecar.ModelSet
---@field gauge context_sidecar.Gauge

---One model a session can switch to.
---@class context_sidecar.ModelChoice
---@field id string
---@field displayName string|nil
---@field lifecycle "active"|"deprecated"|"retired"
---@field contextWindow integer|nil

---`sidecar/models`: what the session's provider serves, the session's model included.
---
---`source` says where the list came from: the provider's models endpoint, or the
---catalog's picks when the endpoint said nothing (unreachable, no such endpoint).
---@class context_sidecar.ModelList
---@field current string
---@field models context_sidecar.ModelChoice[]
---@field source "provider"|"catalog"

---@class context_sidecar.Compacted
---@field compactionId string
---@field status "completed"
---@field tier context_sidecar.CompactionTier
---@field tokensBefore integer
---@field tokensAfter integer
---@field backend context_sidecar.CompactionBackend

---@class context_sidecar.ExactCount
---@field tokens integer
---@field source string

---@class context_sidecar.MemoryFile
---@field path string
---@field kind string
---@field tokens integer
---@field chars integer

---@class context_sidecar.Prefix
---@field parts table<string, integer>
---@field memoryFiles context_sidecar.MemoryFile[]

---@class context_sidecar.FileRead
---@field path string
---@field tokens integer
---@field readAt string
---@field stale boolean
---@field offset integer|nil
---@field limit integer|nil
---@field origin string

---@class context_sidecar.StorageState
---@field skippedTranscriptLines integer
---@field skippedTranscriptValues integer
---@field skippedHistoryLines integer
---@field skippedHistoryValues integer
---@field pendingWrites integer
---@field lastWriteError string|nil

---@class context_sidecar.LastCompaction
---@field tier context_sidecar.CompactionTier
---@field backend context_sidecar.CompactionBackend
---@field trigger string|nil
---@field tokensBefore integer|nil

---What is known of the session's model: retired, deprecated or active, and what to use.
---@class context_sidecar.ModelStatus
---@field model string
---@field lifecycle "active"|"deprecated"|"retired"
---@field replacement string|nil
---@field retiresAt string|nil
---@field source string|nil
---@field message string|nil

---@class context_sidecar.EditorContextItem
---@field source "file"|"selection"
---@field uri string
---@field path string
---@field lines string|nil
---@field tokens integer

---A skill the model can load (`sidecar/context`'s `skills`).
---@class context_sidecar.SkillInfo
---@field name string
---@field description string
---@field source "workspace"|"user"
---@field invoked boolean

---One configured MCP server: its state and the model-facing names of its tools.
---`status` is the connection's; `state` tells apart a server held back (`waiting`
---for the user's approval, `rejected`, `untrusted`: the folder is not trusted) from one
---that failed, `label` says it in words, `actions` are what `sidecar/mcpAction` can
---do about it now, `offered` how many of its tools the next request offers the model.
---@class context_sidecar.McpServer
---@field name string
---@field status "starting"|"connected"|"failed"|"stopped"
---@field transport "stdio"|"http"
---@field tools string[]
---@field error? string
---@field state? context_sidecar.McpServerState
---@field label? string
---@field actions? context_sidecar.McpServerAction[]
---@field offered? integer
---@field workspace? boolean

---`sidecar/mcpAction`: whether it was done, what was done or why not (in words), and
---every server of the session's workspace as they are now.
---@class context_sidecar.McpActionDone
---@field done boolean
---@field message string
---@field servers context_sidecar.McpServer[]

---`sidecar/trustWorkspace`: the folder is trusted from now on.
---@class context_sidecar.WorkspaceTrusted
---@field trusted boolean
---@field cwd string

---Whether the session's folder is trusted, who says so, and what of the workspace's
---own is not applied (in words).
---@class context_sidecar.WorkspaceTrust
---@field trusted boolean
---@field source "editor"|"sidecar"|"claude-code"|"none"
---@field withheld string[]

---@class context_sidecar.MemoryToolFile
---@field path string
---@field bytes integer

---The memory tool's folder: what the model keeps across conversations.
---@class context_sidecar.MemoryFolder
---@field folder string
---@field files context_sidecar.MemoryToolFile[]

---One of the provider's own tools (web search, web fetch): whether the model gets it,
---and why or why not.
---@class context_sidecar.ServerToolState
---@field tool "web_search"|"web_fetch"
---@field offered boolean
---@field reason string

---`sidecar/context`: the `/context` view.
---@class context_sidecar.ContextView
---@field gauge context_sidecar.Gauge
---@field exact context_sidecar.ExactCount|nil
---@field watcher "watchfiles"|"client"|"off"
---@field prefix context_sidecar.Prefix
---@field fileReadState context_sidecar.FileRead[]
---@field messages table<string, any>[]
---@field storage context_sidecar.StorageState
---@field lastCompaction context_sidecar.LastCompaction|nil
---@field modelStatus context_sidecar.ModelStatus
---@field editorContext context_sidecar.EditorContextItem[]
---@field skills context_sidecar.SkillInfo[]
---@field mcpServers context_sidecar.McpServer[]
---@field skippedHookFiles string[]
---@field workspaceTrust context_sidecar.WorkspaceTrust
---@field memory context_sidecar.MemoryFolder|nil
---@field serverTools context_sidecar.ServerToolState[]

---@class context_sidecar.HistoryEntry
---@field display string
---@field pastedContents table<string, table<string, any>>
---@field timestamp integer
---@field project string|nil
---@field sessionId string|nil

---@class context_sidecar.HistoryList
---@field entries context_sidecar.HistoryEntry[]

---@class context_sidecar.HistoryUndone
---@field removed context_sidecar.HistoryEntry|nil

---@class context_sidecar.UserMessageChunk
---@field sessionUpdate "user_message_chunk"
---@field content context_sidecar.TextBlock
---@field replay? boolean
---@field _meta? table<string, any>

---@class context_sidecar.AgentMessageChunk
---@field sessionUpdate "agent_message_chunk"
---@field content context_sidecar.TextBlock
---@field messageId string
---@field replay? boolean

---@class context_sidecar.AgentThoughtChunk
---@field sessionUpdate "agent_thought_chunk"
---@field content context_sidecar.TextBlock
---@field messageId string
---@field replay? boolean

---@class context_sidecar.Location
---@field path? string
---@field line? integer

---@class context_sidecar.ToolCall
---@field sessionUpdate "tool_call"
---@field toolCallId string
---@field title string
---@field kind string
---@field status context_sidecar.ToolCallStatus
---@field rawInput table<string, any>
---@field locations? context_sidecar.Location[]
---@field replay? boolean

---The option the user picked when the tool call asked (its `optionId` and `name`),
---and the reason they gave with a rejection.
---@class context_sidecar.PermissionAnswer
---@field optionId string
---@field name string
---@field reason? string

---@class context_sidecar.ToolCallUpdate
---@field sessionUpdate "tool_call_update"
---@field toolCallId string
---@field status context_sidecar.ToolCallStatus
---@field content? table<string, any>[]
---@field rawOutput? table<string, any>
---@field permission? context_sidecar.PermissionAnswer
---@field replay? boolean

---@class context_sidecar.SidecarGauge
---@field sidecar context_sidecar.Gauge

---@class context_sidecar.UsageUpdate
---@field sessionUpdate "usage_update"
---@field used integer
---@field size integer
---@field _meta context_sidecar.SidecarGauge
---@field cost? context_sidecar.Cost

---@class context_sidecar.CompactionUpdate
---@field sessionUpdate "compaction_update"
---@field compactionId string
---@field trigger context_sidecar.CompactionTrigger
---@field status context_sidecar.CompactionStatus
---@field tier context_sidecar.CompactionTier
---@field tokensBefore? integer
---@field tokensAfter? integer
---@field summary? string
---@field backend? context_sidecar.CompactionBackend
---@field error? string
---@field replay? boolean

---@class context_sidecar.SessionInfoUpdate
---@field sessionUpdate "session_info_update"
---@field title? string
---@field updatedAt? string

---@class context_sidecar.RetryUpdate
---@field sessionUpdate "retry_update"
---@field attempt integer
---@field maxRetries integer
---@field delayMs integer
---@field reason string
---@field status integer|nil
---@field done? boolean

---@class context_sidecar.Command
---@field name string
---@field description string

---@class context_sidecar.AvailableCommandsUpdate
---@field sessionUpdate "available_commands_update"
---@field availableCommands context_sidecar.Command[]

---@class context_sidecar.CurrentModeUpdate
---@field sessionUpdate "current_mode_update"
---@field currentModeId string

---@class context_sidecar.HookResultUpdate
---@field sessionUpdate "hook_result"
---@field event context_sidecar.HookEventName
---@field command string
---@field output string
---@field exitCode integer|nil
---@field replay? boolean

---@class context_sidecar.McpStatusUpdate
---@field sessionUpdate "mcp_status_update"
---@field servers context_sidecar.McpServer[]

---One task of the model's list (ACP's PlanEntry); `_meta.sidecar.activeForm` is what
---the task reads as while it is being done ("Running the tests").
---@class context_sidecar.PlanEntry
---@field content string
---@field priority "high"|"medium"|"low"
---@field status context_sidecar.PlanEntryStatus
---@field _meta? table<string, any>

---@class context_sidecar.PlanUpdate
---@field sessionUpdate "plan"
---@field entries context_sidecar.PlanEntry[]
---@field replay? boolean

---`session/update`.
---@class context_sidecar.SessionUpdateParams
---@field sessionId string
---@field update context_sidecar.SessionUpdate

---`sidecar/didChangeStatus`: global state for a status bar.
---@class context_sidecar.StatusParams
---@field kind context_sidecar.StatusKind
---@field busy boolean
---@field message string

---@class context_sidecar.PermissionOption
---@field optionId string
---@field name string
---@field kind context_sidecar.PermissionKind

---`session/request_permission`, server to client.
---@class context_sidecar.PermissionParams
---@field sessionId string
---@field toolCall table<string, any>
---@field options context_sidecar.PermissionOption[]

---@class context_sidecar.AnswerMeta
---@field reason? string

---@class context_sidecar.SelectedMeta
---@field sidecar? context_sidecar.AnswerMeta

---@class context_sidecar.Selected
---@field outcome "selected"
---@field optionId string
---@field _meta? context_sidecar.SelectedMeta

---@class context_sidecar.Cancelled
---@field outcome "cancelled"

---@class context_sidecar.PermissionResult
---@field outcome context_sidecar.Selected|context_sidecar.Cancelled

---@class context_sidecar.NewSessionParams
---@field cwd string
---@field model? string
---@field provider? string
---@field title? string

---@class context_sidecar.TrustWorkspaceParams
---@field cwd string

---@class context_sidecar.McpActionParams
---@field sessionId string
---@field server string
---@field action context_sidecar.McpServerAction

---@class context_sidecar.LoadSessionParams
---@field sessionId string
---@field cwd? string

---@class context_sidecar.ListSessionsParams
---@field cwd? string

---Params that name a session and nothing else (close, delete, gauge, context, cancel).
---@class context_sidecar.SessionParams
---@field sessionId string

---@class context_sidecar.PromptParams
---@field sessionId string
---@field prompt context_sidecar.ContentBlock[]

---@class context_sidecar.SetModelParams
---@field sessionId string
---@field model string
---@field provider? string

---@class context_sidecar.SetModeParams
---@field sessionId string
---@field modeId string

---@class context_sidecar.SetTitleParams
---@field sessionId string
---@field title string

---@class context_sidecar.CompactParams
---@field sessionId string
---@field instructions? string
---@field workDoneToken? string|integer
---@field fromCheckpointId? string

---@class context_sidecar.RewindParams
---@field sessionId string
---@field checkpointId string
---@field restore string
---@field preview? boolean
---@field force? boolean

---@class context_sidecar.ForkParams
---@field sessionId string
---@field checkpointId? string
---@field title? string

---@class context_sidecar.HistoryListParams
---@field limit? integer
---@field project? string

---A request without params (an object, when sent, is ignored).
---@class context_sidecar.NoParams

---@class context_sidecar.DocumentOpenParams
---@field uri string
---@field text string

---@class context_sidecar.DocumentChangeParams
---@field uri string
---@field contentChanges any[]

---@class context_sidecar.DocumentCloseParams
---@field uri string

---@class context_sidecar.FilesChangedParams
---@field changes table<string, any>[]

return {
  PROTOCOL_VERSION = 8,
  OWN_PREFIX = "sidecar/",
  ---Every method name, by the contract's name for it.
  methods = {
    SESSION_NEW = "session/new",
    SESSION_LOAD = "session/load",
    SESSION_LIST = "session/list",
    SESSION_CLOSE = "session/close",
    SESSION_DELETE = "session/delete",
    SESSION_PROMPT = "session/prompt",
    SESSION_SET_MODEL = "session/set_model",
    SESSION_SET_MODE = "session/set_mode",
    SESSION_SET_TITLE = "session/set_title",
    GAUGE = "sidecar/gauge",
    MODELS = "sidecar/models",
    COMPACT = "sidecar/compact",
    CONTEXT = "sidecar/context",
    HISTORY_LIST = "sidecar/history/list",
    HISTORY_UNDO = "sidecar/history/undo",
    TRUST_WORKSPACE = "sidecar/trustWorkspace",
    MCP_ACTION = "sidecar/mcpAction",
    CHECKPOINTS = "sidecar/checkpoints",
    REWIND = "sidecar/rewind",
    FORK = "sidecar/fork",
    SESSION_CANCEL = "session/cancel",
    DOCUMENT_DID_OPEN = "document/didOpen",
    DOCUMENT_DID_CHANGE = "document/didChange",
    DOCUMENT_DID_CLOSE = "document/didClose",
    FILES_DID_CHANGE = "workspace/didChangeWatchedFiles",
    SESSION_UPDATE = "session/update",
    SESSION_REQUEST_PERMISSION = "session/request_permission",
    DID_CHANGE_STATUS = "sidecar/didChangeStatus",
  },
  ---Every error code a client can be answered with, by the protocol's name.
  errors = {
    ParseError = -32700,
    InvalidRequest = -32600,
    MethodNotFound = -32601,
    InternalError = -32603,
    ServerNotInitialized = -32002,
    InvalidParams = -32602,
    RequestCancelled = -32800,
    SessionNotFound = -33001,
    ProviderNotConfigured = -33002,
    ContextWindowExceeded = -33003,
    ProviderError = -33004,
    CompactionFailed = -33005,
    SessionBusy = -33006,
  },
  ---Every `session/update` kind, in the protocol's order.
  update_kinds = {
    "user_message_chunk",
    "agent_message_chunk",
    "agent_thought_chunk",
    "tool_call",
    "tool_call_update",
    "usage_update",
    "compaction_update",
    "session_info_update",
    "available_commands_update",
    "retry_update",
    "current_mode_update",
    "hook_result",
    "mcp_status_update",
    "plan",
  },
  ---The permission modes every session offers, as the sidecar names them.
  ---@type context_sidecar.SessionMode[]
  permission_modes = {
    { id = "default", name = "Ask before edits", description = "Ask before edits and shell commands" },
    { id = "acceptEdits", name = "Accept edits", description = "Edits go through; shell commands still ask" },
    { id = "plan", name = "Plan", description = "Read-only: explore and write a plan, then ask to leave plan mode" },
    { id = "bypassPermissions", name = "Bypass permissions", description = "Nothing asks" },
  },
}
