// Wire types of the context-sidecar protocol, version 4 (docs/protocol.md), as far as this
// extension reads them. Fields the extension never looks at are typed loosely so a newer
// sidecar adding fields does not break the build or the UI. The unit tests hold the names,
// codes, update kinds and result fields below to the golden fixtures in docs/contract/.

export const PROTOCOL_MAJOR = 4;

export const Methods = {
  sessionNew: "session/new",
  sessionLoad: "session/load",
  sessionList: "session/list",
  sessionClose: "session/close",
  sessionDelete: "session/delete",
  setTitle: "session/set_title",
  sessionPrompt: "session/prompt",
  sessionCancel: "session/cancel",
  sessionUpdate: "session/update",
  requestPermission: "session/request_permission",
  gauge: "sidecar/gauge",
  compact: "sidecar/compact",
  context: "sidecar/context",
  didChangeStatus: "sidecar/didChangeStatus",
  setMode: "session/set_mode",
  /** The user has just trusted the workspace folder (the editor's own trust). */
  trustWorkspace: "sidecar/trustWorkspace",
} as const;

export const ErrorCodes = {
  invalidParams: -32602,
  requestCancelled: -32800,
  // Outside JSON-RPC's reserved -32768..-32000 since protocol version 2.
  sessionNotFound: -33001,
  providerNotConfigured: -33002,
  contextWindowExceeded: -33003,
  providerError: -33004,
  compactionFailed: -33005,
  sessionBusy: -33006,
} as const;

export type GaugeLevel = "ok" | "warning" | "error" | "blocking";
/** The presentation ramp clients colour by (fall back to `level` when absent). */
export type GaugeStage = "normal" | "warning" | "error" | "blocking";

export interface Gauge {
  sessionId: string;
  seq: number;
  model: string;
  provider: string;
  used: number;
  size: number;
  effectiveWindow?: number;
  autoCompactAt?: number | null;
  warningAt?: number;
  errorAt?: number;
  blockingAt?: number;
  percentUsed: number;
  percentLeftUntilAutoCompact?: number | null;
  level: GaugeLevel;
  stage?: GaugeStage;
  /** What happens next as the context grows, in plain words (tooltip, panel). */
  next?: string;
  source?: "provider" | "estimate";
  anchor?: { apiTokens?: number; estimatedSince?: number; messagesSince?: number };
  breakdown?: Partial<Record<
    "system" | "tools" | "memoryFiles" | "messages" | "toolResults" | "summary" | "free" | "reservedOutput",
    number
  >>;
  lastTurn?: { inputTokens?: number; cacheReadTokens?: number; cacheWriteTokens?: number; outputTokens?: number };
  cost?: { amount: number; currency: string } | null;
  compactions?: Record<string, number> | number;
  autoCompact?: { enabled: boolean; circuitBreaker: "closed" | "open"; consecutiveFailures?: number };
}

export type ContentBlock =
  | { type: "text"; text: string }
  | { type: "resource_link"; uri: string; name?: string }
  | { type: "resource"; resource: { uri: string; text: string } }
  | { type: "image"; mimeType: string; data: string };

export type ToolCallStatus = "pending" | "in_progress" | "completed" | "failed";

/** Every kind of `session/update`, one union. */
export type SessionUpdateKind =
  | { sessionUpdate: "user_message_chunk"; content: ContentBlock; messageId?: string }
  | { sessionUpdate: "agent_message_chunk"; content: ContentBlock; messageId?: string }
  | { sessionUpdate: "agent_thought_chunk"; content: ContentBlock; messageId?: string }
  | {
      sessionUpdate: "tool_call";
      toolCallId: string;
      title: string;
      kind?: string;
      status?: ToolCallStatus;
      rawInput?: unknown;
      locations?: { path: string; line?: number }[];
      content?: unknown[];
    }
  | {
      sessionUpdate: "tool_call_update";
      toolCallId: string;
      status?: ToolCallStatus;
      title?: string;
      kind?: string;
      locations?: { path: string; line?: number }[];
      content?: unknown[];
      rawInput?: unknown;
      rawOutput?: unknown;
      /** The option the user picked when the call asked permission (final update). */
      permission?: { optionId: string; name: string };
    }
  | {
      sessionUpdate: "usage_update";
      used: number;
      size: number;
      cost?: { amount: number; currency: string } | null;
      _meta?: { sidecar?: Gauge };
    }
  | {
      sessionUpdate: "compaction_update";
      compactionId: string;
      status: "in_progress" | "completed" | "failed" | "cancelled";
      tier?: string;
      trigger?: "auto" | "manual";
      tokensBefore?: number | null;
      tokensAfter?: number | null;
      summary?: unknown;
      error?: unknown;
    }
  | { sessionUpdate: "session_info_update"; title?: string | null; updatedAt?: string | null }
  | { sessionUpdate: "available_commands_update"; availableCommands: { name: string; description?: string }[] }
  | { sessionUpdate: "current_mode_update"; currentModeId: string }
  | {
      sessionUpdate: "retry_update";
      attempt: number;
      maxRetries: number;
      delayMs: number;
      reason: string;
      status: number | null;
      done?: boolean;
    }
  | { sessionUpdate: "mcp_status_update"; servers: McpServerStatus[] }
  | { sessionUpdate: "hook_result"; event: string; command: string; output: string; exitCode: number | null };

/** An update as it arrives: any kind, marked `replay` when `session/load` replays it. */
export type SessionUpdate = SessionUpdateKind & { replay?: boolean };

export interface McpServerStatus {
  name: string;
  status: "starting" | "connected" | "failed" | "stopped";
  transport: "stdio" | "http";
  tools: string[];
  error?: string;
}

export interface SessionMode {
  id: string;
  name: string;
  description?: string;
}

export interface SessionModes {
  currentModeId: string;
  availableModes: SessionMode[];
}

/** One ACP diff content item of a tool call (an edit proposed by the model). */
export interface DiffContent {
  type: "diff";
  path: string;
  oldText: string | null;
  newText: string;
}

/** Every update kind; the compiler holds this list to the union above. */
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
  current_mode_update: true,
  retry_update: true,
  mcp_status_update: true,
  hook_result: true,
} as const satisfies Record<SessionUpdate["sessionUpdate"], true>;

export interface SessionUpdateParams {
  sessionId: string;
  update: SessionUpdate;
}

export interface SessionStarted {
  sessionId: string;
  model: string;
  provider: string;
  gauge?: Gauge;
  modes?: SessionModes;
}

export interface SessionSummary {
  sessionId: string;
  title?: string | null;
  cwd?: string;
  model?: string;
  provider?: string;
  createdAt?: string;
  updatedAt?: string;
  used?: number;
  size?: number;
}

export interface SessionList {
  sessions: SessionSummary[];
}

export interface PromptResult {
  stopReason: "end_turn" | "max_tokens" | "max_turn_requests" | "refusal" | "cancelled" | string;
  gauge?: Gauge;
}

export interface CompactResult {
  compactionId: string;
  status: string;
  tier?: string;
  tokensBefore?: number;
  tokensAfter?: number;
}

export type PermissionOptionKind = "allow_once" | "allow_always" | "reject_once" | "reject_always";

export interface PermissionOption {
  optionId: string;
  name: string;
  kind: PermissionOptionKind;
}

export interface PermissionToolCall {
  toolCallId?: string;
  title?: string;
  kind?: string;
  rawInput?: unknown;
  locations?: { path: string; line?: number }[];
  content?: unknown[];
}

export interface RequestPermissionParams {
  sessionId: string;
  toolCall: PermissionToolCall;
  options: PermissionOption[];
}

export type PermissionOutcome =
  | { outcome: { outcome: "selected"; optionId: string } }
  | { outcome: { outcome: "cancelled" } };

export interface StatusParams {
  kind: "normal" | "warning" | "error" | "inactive";
  busy?: boolean;
  message?: string;
}

/** The `sidecar/context` answer, as far as the extension reads it (the /context document
 *  prints the rest as it comes). */
export interface ContextView {
  gauge: Gauge;
  prefix?: {
    parts?: Record<string, number>;
    memoryFiles?: { path: string; kind?: string; tokens?: number; chars?: number }[];
    [key: string]: unknown;
  };
  fileReadState?: { path: string; tokens?: number; readAt?: string; stale?: boolean; origin?: string }[];
  messages?: { role?: string; content?: unknown }[];
  mcpServers?: McpServerStatus[];
  skills?: { name: string; description?: string; source?: string; invoked?: boolean }[];
  lastCompaction?: { tier?: string; trigger?: string | null; tokensBefore?: number | null } | null;
  /** The workspace's hook files that did not run: the folder is not trusted. */
  skippedHookFiles?: string[];
  /** Whether the workspace is trusted, who said so, and what is withheld while it is not. */
  workspaceTrust?: WorkspaceTrust;
}

/** Who decided the workspace's trust: the editor's verdict in initialize, Claude Code's trust
 *  record, the sidecar's own remembered answer, the user's settings, or nobody (untrusted). */
export type TrustSource = "editor" | "claude-code" | "sidecar" | "user-settings" | "none";

export interface WorkspaceTrust {
  trusted: boolean;
  source: TrustSource;
  /** What the workspace ships that is not applied, in plain words. */
  withheld: string[];
}

/** `sidecar/trustWorkspace {cwd?}`: the folder that is trusted from now on. */
export interface TrustWorkspaceResult {
  trusted: true;
  cwd: string;
}

/** The fields of T at run time, for the tests; the compiler holds the list to T's keys. */
const fieldsOf = <T>(fields: Record<keyof T, true>) => Object.keys(fields) as (keyof T & string)[];

const sessionStarted = fieldsOf<Omit<SessionStarted, "modes">>({ sessionId: true, model: true, provider: true, gauge: true });

/** What the extension reads of each answer it asks for. */
export const ResultFields: Record<string, string[]> = {
  [Methods.sessionNew]: sessionStarted,
  [Methods.sessionLoad]: sessionStarted,
  [Methods.sessionList]: fieldsOf<SessionList>({ sessions: true }),
  [Methods.sessionPrompt]: fieldsOf<PromptResult>({ stopReason: true, gauge: true }),
  [Methods.compact]: fieldsOf<CompactResult>({
    compactionId: true, status: true, tier: true, tokensBefore: true, tokensAfter: true,
  }),
  [Methods.gauge]: fieldsOf<Gauge>({
    sessionId: true, seq: true, model: true, provider: true, used: true, size: true,
    effectiveWindow: true, autoCompactAt: true, warningAt: true, errorAt: true, blockingAt: true,
    percentUsed: true, percentLeftUntilAutoCompact: true, level: true, stage: true, next: true,
    source: true, anchor: true, breakdown: true, lastTurn: true, cost: true, compactions: true, autoCompact: true,
  }),
  [Methods.context]: fieldsOf<Omit<ContextView, "mcpServers" | "skills" | "skippedHookFiles">>({
    gauge: true, prefix: true, fileReadState: true, messages: true, lastCompaction: true, workspaceTrust: true,
  }),
  [Methods.trustWorkspace]: fieldsOf<TrustWorkspaceResult>({ trusted: true, cwd: true }),
};

/** What it reads of each entry of a session/list answer. */
export const SessionSummaryFields = fieldsOf<SessionSummary>({
  sessionId: true, title: true, cwd: true, model: true, provider: true, createdAt: true,
  updatedAt: true, used: true, size: true,
});
