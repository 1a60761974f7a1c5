// Generated from sidecar/contract by `python -m sidecar.contract.mirrors`: do not edit by hand.
// The wire contract (docs/protocol.md) as the sidecar defines it.

export const PROTOCOL_VERSION = 8;

/** Every method name, client to server and server to client. */
export const Methods = {
  sessionNew: "session/new",
  sessionLoad: "session/load",
  sessionList: "session/list",
  sessionClose: "session/close",
  sessionDelete: "session/delete",
  sessionPrompt: "session/prompt",
  sessionSetModel: "session/set_model",
  sessionSetMode: "session/set_mode",
  sessionSetTitle: "session/set_title",
  gauge: "sidecar/gauge",
  models: "sidecar/models",
  compact: "sidecar/compact",
  context: "sidecar/context",
  historyList: "sidecar/history/list",
  historyUndo: "sidecar/history/undo",
  trustWorkspace: "sidecar/trustWorkspace",
  mcpAction: "sidecar/mcpAction",
  checkpoints: "sidecar/checkpoints",
  rewind: "sidecar/rewind",
  fork: "sidecar/fork",
  sessionCancel: "session/cancel",
  documentDidOpen: "document/didOpen",
  documentDidChange: "document/didChange",
  documentDidClose: "document/didClose",
  filesDidChange: "workspace/didChangeWatchedFiles",
  sessionUpdate: "session/update",
  sessionRequestPermission: "session/request_permission",
  didChangeStatus: "sidecar/didChangeStatus",
} as const;
export const OWN_PREFIX = "sidecar/";

/** Every error code a client can be answered with, by the protocol's name. */
export const ErrorCodes = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  internalError: -32603,
  serverNotInitialized: -32002,
  invalidParams: -32602,
  requestCancelled: -32800,
  sessionNotFound: -33001,
  providerNotConfigured: -33002,
  contextWindowExceeded: -33003,
  providerError: -33004,
  compactionFailed: -33005,
  sessionBusy: -33006,
} as const;

export type ContentBlock = TextBlock | ResourceLinkBlock | ResourceBlock | ImageBlock;
export type Level = "ok" | "warning" | "error" | "blocking";
export type Stage = "normal" | "warning" | "error" | "blocking";
export type StopReason = "end_turn" | "max_tokens" | "max_turn_requests" | "refusal" | "cancelled";
export type CompactionTier = "session_memory" | "full";
export type CompactionBackend = "local" | "server";
export type RewindAction = "restore" | "delete" | "unchanged" | "conflict";
export type RestoreKind = "both" | "conversation" | "code";
export type McpServerState = "waiting" | "rejected" | "untrusted" | "starting" | "connected" | "failed" | "stopped";
export type McpServerAction = "approve" | "reject" | "retry";
export type ToolCallStatus = "pending" | "in_progress" | "completed" | "failed";
export type CompactionStatus = "in_progress" | "completed" | "failed" | "cancelled";
export type CompactionTrigger = "auto" | "manual";
export type HookEventName = "PreCompact" | "PostCompact" | "SessionStart";
export type PlanEntryStatus = "pending" | "in_progress" | "completed";
export type SessionUpdate = UserMessageChunk | AgentMessageChunk | AgentThoughtChunk | ToolCall | ToolCallUpdate | UsageUpdate | CompactionUpdate | SessionInfoUpdate | AvailableCommandsUpdate | RetryUpdate | CurrentModeUpdate | HookResultUpdate | McpStatusUpdate | PlanUpdate;
export type StatusKind = "normal" | "warning" | "error" | "inactive";
export type PermissionKind = "allow_once" | "allow_always" | "reject_once" | "reject_always";

export interface TextBlock {
  type: "text";
  text: string;
}

/** A file the sidecar reads with its file tool, recording read state. */
export interface ResourceLinkBlock {
  type: "resource_link";
  uri: string;
  name?: string;
}

export interface EmbeddedText {
  uri: string;
  text: string;
}

/** Embedded text, a selection say. */
export interface ResourceBlock {
  type: "resource";
  resource: EmbeddedText;
}

export interface ImageBlock {
  type: "image";
  mimeType: string;
  data: string;
}

export interface Anchor {
  apiTokens: number;
  estimatedSince: number;
  messagesSince: number;
}

export interface Breakdown {
  system: number;
  tools: number;
  memoryFiles: number;
  messages: number;
  toolResults: number;
  summary: number;
  free: number;
  reservedOutput: number;
}

export interface LastTurn {
  inputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  outputTokens: number;
}

export interface Cost {
  amount: number;
  currency: string;
}

/** docs/protocol.md, Tool search: the tools whose definitions wait for a search. */
export interface DeferredTools {
  count: number;
  savedTokens: number;
  search: "server" | "client";
}

export interface AutoCompact {
  enabled: boolean;
  circuitBreaker: "closed" | "open";
  consecutiveFailures: number;
}

/** docs/protocol.md, Gauge: the one view of the context's size every other view shows. */
export interface Gauge {
  sessionId: string;
  seq: number;
  model: string;
  provider: string;
  used: number;
  size: number;
  effectiveWindow: number;
  autoCompactAt: number | null;
  warningAt: number;
  errorAt: number;
  blockingAt: number;
  percentUsed: number;
  percentLeftUntilAutoCompact: number | null;
  level: Level;
  stage: Stage;
  next: string;
  source: "provider" | "estimate";
  windowSource: string | null;
  estimator: string;
  anchor: Anchor;
  breakdown: Breakdown;
  lastTurn: LastTurn;
  cost: Cost | null;
  compactions: Record<string, number>;
  autoCompact: AutoCompact;
  deferredTools: DeferredTools | null;
}

export interface SessionMode {
  id: string;
  name: string;
  description: string;
}

/** ACP's session mode state: the permission modes and the one in force. */
export interface SessionModes {
  currentModeId: string;
  availableModes: SessionMode[];
}

/** `session/new` and `session/load`. */
export interface SessionOpened {
  sessionId: string;
  model: string;
  provider: string;
  gauge: Gauge;
  modes: SessionModes;
}

export interface SessionSummary {
  sessionId: string;
  title: string | null;
  cwd: string;
  model: string;
  provider: string;
  createdAt: string;
  updatedAt: string;
  used: number;
  size: number;
}

export interface SessionList {
  sessions: SessionSummary[];
}

/** `session/close`, `session/delete`, `session/set_mode` and `session/set_title`. */
export type Empty = Record<string, never>;

export interface PromptResult {
  stopReason: StopReason;
  gauge: Gauge;
  checkpointId?: string;
}

export interface CheckpointFile {
  path: string;
  created: boolean;
}

/** The state just before one prompt: what a rewind goes back to. */
export interface Checkpoint {
  checkpointId: string;
  prompt: string;
  at: string;
  used: number;
  files: CheckpointFile[];
  commands: string[];
}

export interface CheckpointList {
  checkpoints: Checkpoint[];
}

export interface RewoundFile {
  path: string;
  action: RewindAction;
  oldText?: string | null;
  newText?: string | null;
}

export interface Rewound {
  restore: RestoreKind;
  conversation: boolean;
  files: RewoundFile[];
  commands: string[];
  prompt: string;
  gauge: Gauge;
}

export interface ModelSet {
  gauge: Gauge;
}

/** One model a session can switch to. */
export interface ModelChoice {
  id: string;
  displayName: string | null;
  lifecycle: "active" | "deprecated" | "retired";
  contextWindow: number | null;
}

/**
 * `sidecar/models`: what the session's provider serves, the session's model included.
 *
 * `source` says where the list came from: the provider's models endpoint, or the
 * catalog's picks when the endpoint said nothing (unreachable, no such endpoint).
 */
export interface ModelList {
  current: string;
  models: ModelChoice[];
  source: "provider" | "catalog";
}

export interface Compacted {
  compactionId: string;
  status: "completed";
  tier: CompactionTier;
  tokensBefore: number;
  tokensAfter: number;
  backend: CompactionBackend;
}

export interface ExactCount {
  tokens: number;
  source: string;
}

export interface MemoryFile {
  path: string;
  kind: string;
  tokens: number;
  chars: number;
}

export interface Prefix {
  parts: Record<string, number>;
  memoryFiles: MemoryFile[];
}

export interface FileRead {
  path: string;
  tokens: number;
  readAt: string;
  stale: boolean;
  offset: number | null;
  limit: number | null;
  origin: string;
}

export interface StorageState {
  skippedTranscriptLines: number;
  skippedTranscriptValues: number;
  skippedHistoryLines: number;
  skippedHistoryValues: number;
  pendingWrites: number;
  lastWriteError: string | null;
}

export interface LastCompaction {
  tier: CompactionTier;
  backend: CompactionBackend;
  trigger: string | null;
  tokensBefore: number | null;
}

/** What is known of the session's model: retired, deprecated or active, and what to use. */
export interface ModelStatus {
  model: string;
  lifecycle: "active" | "deprecated" | "retired";
  replacement: string | null;
  retiresAt: string | null;
  source: string | null;
  message: string | null;
}

export interface EditorContextItem {
  source: "file" | "selection";
  uri: string;
  path: string;
  lines: string | null;
  tokens: number;
}

/** A skill the model can load (`sidecar/context`'s `skills`). */
export interface SkillInfo {
  name: string;
  description: string;
  source: "workspace" | "user";
  invoked: boolean;
}

/**
 * One configured MCP server: its state and the model-facing names of its tools.
 * `status` is the connection's; `state` tells apart a server held back (`waiting`
 * for the user's approval, `rejected`, `untrusted`: the folder is not trusted) from one
 * that failed, `label` says it in words, `actions` are what `sidecar/mcpAction` can
 * do about it now, `offered` how many of its tools the next request offers the model.
 */
export interface McpServer {
  name: string;
  status: "starting" | "connected" | "failed" | "stopped";
  transport: "stdio" | "http";
  tools: string[];
  error?: string;
  state?: McpServerState;
  label?: string;
  actions?: McpServerAction[];
  offered?: number;
  workspace?: boolean;
}

/**
 * `sidecar/mcpAction`: whether it was done, what was done or why not (in words), and
 * every server of the session's workspace as they are now.
 */
export interface McpActionDone {
  done: boolean;
  message: string;
  servers: McpServer[];
}

/** `sidecar/trustWorkspace`: the folder is trusted from now on. */
export interface WorkspaceTrusted {
  trusted: boolean;
  cwd: string;
}

/**
 * Whether the session's folder is trusted, who says so, and what of the workspace's
 * own is not applied (in words).
 */
export interface WorkspaceTrust {
  trusted: boolean;
  source: "editor" | "sidecar" | "claude-code" | "none";
  withheld: string[];
}

export interface MemoryToolFile {
  path: string;
  bytes: number;
}

/** The memory tool's folder: what the model keeps across conversations. */
export interface MemoryFolder {
  folder: string;
  files: MemoryToolFile[];
}

/**
 * One of the provider's own tools (web search, web fetch): whether the model gets it,
 * and why or why not.
 */
export interface ServerToolState {
  tool: "web_search" | "web_fetch";
  offered: boolean;
  reason: string;
}

/** `sidecar/context`: the `/context` view. */
export interface ContextView {
  gauge: Gauge;
  exact: ExactCount | null;
  watcher: "watchfiles" | "client" | "off";
  prefix: Prefix;
  fileReadState: FileRead[];
  messages: Record<string, unknown>[];
  storage: StorageState;
  lastCompaction: LastCompaction | null;
  modelStatus: ModelStatus;
  editorContext: EditorContextItem[];
  skills: SkillInfo[];
  mcpServers: McpServer[];
  skippedHookFiles: string[];
  workspaceTrust: WorkspaceTrust;
  memory: MemoryFolder | null;
  serverTools: ServerToolState[];
}

export interface HistoryEntry {
  display: string;
  pastedContents: Record<string, Record<string, unknown>>;
  timestamp: number;
  project: string | null;
  sessionId: string | null;
}

export interface HistoryList {
  entries: HistoryEntry[];
}

export interface HistoryUndone {
  removed: HistoryEntry | null;
}

export interface UserMessageChunk {
  sessionUpdate: "user_message_chunk";
  content: TextBlock;
  replay?: boolean;
  _meta?: Record<string, unknown>;
}

export interface AgentMessageChunk {
  sessionUpdate: "agent_message_chunk";
  content: TextBlock;
  messageId: string;
  replay?: boolean;
}

export interface AgentThoughtChunk {
  sessionUpdate: "agent_thought_chunk";
  content: TextBlock;
  messageId: string;
  replay?: boolean;
}

export interface Location {
  path?: string;
  line?: number;
}

export interface ToolCall {
  sessionUpdate: "tool_call";
  toolCallId: string;
  title: string;
  kind: string;
  status: ToolCallStatus;
  rawInput: Record<string, unknown>;
  locations?: Location[];
  replay?: boolean;
}

/**
 * The option the user picked when the tool call asked (its `optionId` and `name`),
 * and the reason they gave with a rejection.
 */
export interface PermissionAnswer {
  optionId: string;
  name: string;
  reason?: string;
}

export interface ToolCallUpdate {
  sessionUpdate: "tool_call_update";
  toolCallId: string;
  status: ToolCallStatus;
  content?: Record<string, unknown>[];
  rawOutput?: Record<string, unknown>;
  permission?: PermissionAnswer;
  replay?: boolean;
}

export interface SidecarGauge {
  sidecar: Gauge;
}

export interface UsageUpdate {
  sessionUpdate: "usage_update";
  used: number;
  size: number;
  _meta: SidecarGauge;
  cost?: Cost;
}

export interface CompactionUpdate {
  sessionUpdate: "compaction_update";
  compactionId: string;
  trigger: CompactionTrigger;
  status: CompactionStatus;
  tier: CompactionTier;
  tokensBefore?: number;
  tokensAfter?: number;
  summary?: string;
  backend?: CompactionBackend;
  error?: string;
  replay?: boolean;
}

export interface SessionInfoUpdate {
  sessionUpdate: "session_info_update";
  title?: string;
  updatedAt?: string;
}

export interface RetryUpdate {
  sessionUpdate: "retry_update";
  attempt: number;
  maxRetries: number;
  delayMs: number;
  reason: string;
  status: number | null;
  done?: boolean;
}

export interface Command {
  name: string;
  description: string;
}

export interface AvailableCommandsUpdate {
  sessionUpdate: "available_commands_update";
  availableCommands: Command[];
}

export interface CurrentModeUpdate {
  sessionUpdate: "current_mode_update";
  currentModeId: string;
}

export interface HookResultUpdate {
  sessionUpdate: "hook_result";
  event: HookEventName;
  command: string;
  output: string;
  exitCode: number | null;
  replay?: boolean;
}

export interface McpStatusUpdate {
  sessionUpdate: "mcp_status_update";
  servers: McpServer[];
}

/**
 * One task of the model's list (ACP's PlanEntry); `_meta.sidecar.activeForm` is what
 * the task reads as while it is being done ("Running the tests").
 */
export interface PlanEntry {
  content: string;
  priority: "high" | "medium" | "low";
  status: PlanEntryStatus;
  _meta?: Record<string, unknown>;
}

export interface PlanUpdate {
  sessionUpdate: "plan";
  entries: PlanEntry[];
  replay?: boolean;
}

/** `session/update`. */
export interface SessionUpdateParams {
  sessionId: string;
  update: SessionUpdate;
}

/** `sidecar/didChangeStatus`: global state for a status bar. */
export interface StatusParams {
  kind: StatusKind;
  busy: boolean;
  message: string;
}

export interface PermissionOption {
  optionId: string;
  name: string;
  kind: PermissionKind;
}

/** `session/request_permission`, server to client. */
export interface PermissionParams {
  sessionId: string;
  toolCall: Record<string, unknown>;
  options: PermissionOption[];
}

export interface AnswerMeta {
  reason?: string;
}

export interface SelectedMeta {
  sidecar?: AnswerMeta;
}

export interface Selected {
  outcome: "selected";
  optionId: string;
  _meta?: SelectedMeta;
}

export interface Cancelled {
  outcome: "cancelled";
}

export interface PermissionResult {
  outcome: Selected | Cancelled;
}

export interface NewSessionParams {
  cwd: string;
  model?: string;
  provider?: string;
  title?: string;
}

export interface TrustWorkspaceParams {
  cwd: string;
}

export interface McpActionParams {
  sessionId: string;
  server: string;
  action: McpServerAction;
}

export interface LoadSessionParams {
  sessionId: string;
  cwd?: string;
}

export interface ListSessionsParams {
  cwd?: string;
}

/** Params that name a session and nothing else (close, delete, gauge, context, cancel). */
export interface SessionParams {
  sessionId: string;
}

export interface PromptParams {
  sessionId: string;
  prompt: ContentBlock[];
}

export interface SetModelParams {
  sessionId: string;
  model: string;
  provider?: string;
}

export interface SetModeParams {
  sessionId: string;
  modeId: string;
}

export interface SetTitleParams {
  sessionId: string;
  title: string;
}

export interface CompactParams {
  sessionId: string;
  instructions?: string;
  workDoneToken?: string | number;
  fromCheckpointId?: string;
}

export interface RewindParams {
  sessionId: string;
  checkpointId: string;
  restore: string;
  preview?: boolean;
  force?: boolean;
}

export interface ForkParams {
  sessionId: string;
  checkpointId?: string;
  title?: string;
}

export interface HistoryListParams {
  limit?: number;
  project?: string;
}

/** A request without params (an object, when sent, is ignored). */
export type NoParams = Record<string, never>;

export interface DocumentOpenParams {
  uri: string;
  text: string;
}

export interface DocumentChangeParams {
  uri: string;
  contentChanges: unknown[];
}

export interface DocumentCloseParams {
  uri: string;
}

export interface FilesChangedParams {
  changes: Record<string, unknown>[];
}

/** Every `session/update` kind; the compiler holds the list to SessionUpdate's. */
export const SessionUpdateKinds = {
  user_message_chunk: true,
  agent_message_chunk: true,
  agent_thought_chunk: true,
  tool_call: true,
  tool_call_update: true,
  usage_update: true,
  compaction_update: true,
  session_info_update: true,
  available_commands_update: true,
  retry_update: true,
  current_mode_update: true,
  hook_result: true,
  mcp_status_update: true,
  plan: true,
} as const satisfies Record<SessionUpdate["sessionUpdate"], true>;

/** The permission modes every session offers, as the sidecar names them. */
export const PERMISSION_MODES: readonly SessionMode[] = [
  {"id": "default", "name": "Ask before edits", "description": "Ask before edits and shell commands"},
  {"id": "acceptEdits", "name": "Accept edits", "description": "Edits go through; shell commands still ask"},
  {"id": "plan", "name": "Plan", "description": "Read-only: explore and write a plan, then ask to leave plan mode"},
  {"id": "bypassPermissions", "name": "Bypass permissions", "description": "Nothing asks"},
];
