// The context-sidecar protocol (docs/protocol.md) as this extension reads it.
//
// The wire's types, method names, error codes, update kinds and version are generated from
// the sidecar's contract into contract.generated.ts (`python -m sidecar.contract.mirrors`;
// the Python suite fails when it is stale). This module is the client's side of them: the
// generated names under the names the extension uses, the shorter method names, ACP's tool
// call and diff shapes the contract passes on as plain objects, and the answers as the
// extension reads them. Those take every field name and type from the contract but let a
// field the extension can do without be absent (an older sidecar's answer, a test's partial
// one), so a field renamed or retyped in the contract breaks the build where it is read.

import * as Contract from "./contract.generated";

export type {
  CompactionTier,
  ContentBlock,
  Level as GaugeLevel,
  McpServer as McpServerStatus,
  PermissionKind as PermissionOptionKind,
  PermissionOption,
  PermissionResult as PermissionOutcome,
  Stage as GaugeStage,
  ToolCallStatus,
  WorkspaceTrust,
  WorkspaceTrusted as TrustWorkspaceResult,
} from "./contract.generated";

export const PROTOCOL_MAJOR = Contract.PROTOCOL_VERSION;

export const Methods = {
  ...Contract.Methods,
  setTitle: Contract.Methods.sessionSetTitle,
  setMode: Contract.Methods.sessionSetMode,
  requestPermission: Contract.Methods.sessionRequestPermission,
} as const;

export const ErrorCodes = Contract.ErrorCodes;

/** The permission modes every session offers: shown until a session names its own. */
export const PERMISSION_MODES = Contract.PERMISSION_MODES;

/** Every update kind; the compiler holds the list to the contract's union. */
export const SessionUpdateKinds = Contract.SessionUpdateKinds;

/** T as the extension reads it: the fields K as the contract has them, the others optional. */
type Reads<T, K extends keyof T = never> = Pick<T, K> & Partial<Omit<T, K>>;

/** The gauge: what every view needs of it, and the rest when the sidecar sends it. */
export type Gauge = Reads<
  Contract.Gauge,
  "sessionId" | "seq" | "model" | "provider" | "used" | "size" | "percentUsed" | "level"
>;

/** ACP's location of a tool call: a path, and a line. */
export type ToolCallLocation = Pick<Required<Contract.Location>, "path"> & Contract.Location;

/** The fields of ACP's tool call that a `tool_call_update` may repeat. */
interface ToolCallFields {
  title?: string;
  kind?: string;
  rawInput?: unknown;
  locations?: ToolCallLocation[];
  content?: unknown[];
}

/** Every kind of `session/update`, one union. */
export type SessionUpdateKind =
  | (Reads<Contract.UserMessageChunk, "sessionUpdate" | "content"> & { messageId?: never })
  | Reads<Contract.AgentMessageChunk, "sessionUpdate" | "content">
  | Reads<Contract.AgentThoughtChunk, "sessionUpdate" | "content">
  | (Reads<Omit<Contract.ToolCall, "locations">, "sessionUpdate" | "toolCallId" | "title"> & ToolCallFields)
  | (Reads<Contract.ToolCallUpdate, "sessionUpdate" | "toolCallId"> & ToolCallFields)
  | (Reads<Omit<Contract.UsageUpdate, "_meta">, "sessionUpdate" | "used" | "size"> & { _meta?: { sidecar?: Gauge } })
  | Reads<Contract.CompactionUpdate, "sessionUpdate" | "compactionId" | "status">
  | Reads<Contract.SessionInfoUpdate, "sessionUpdate">
  | { sessionUpdate: "available_commands_update"; availableCommands: Reads<Contract.Command, "name">[] }
  | Reads<Contract.CurrentModeUpdate, "sessionUpdate" | "currentModeId">
  | Reads<Contract.RetryUpdate, "sessionUpdate" | "attempt" | "maxRetries" | "delayMs" | "reason" | "status">
  | Reads<Contract.McpStatusUpdate, "sessionUpdate" | "servers">
  | Reads<Contract.HookResultUpdate, "sessionUpdate" | "event" | "command" | "output" | "exitCode">
  | { sessionUpdate: "plan"; entries: Reads<Contract.PlanEntry, "content" | "status">[] };

/** An update as it arrives: any kind, marked `replay` when `session/load` replays it. */
export type SessionUpdate = SessionUpdateKind & { replay?: boolean };

export type SessionUpdateParams = Omit<Contract.SessionUpdateParams, "update"> & { update: SessionUpdate };

export type SessionMode = Reads<Contract.SessionMode, "id" | "name">;

export type SessionModes = Omit<Contract.SessionModes, "availableModes"> & { availableModes: SessionMode[] };

/** `session/new` and `session/load`. */
export type SessionStarted = Reads<Omit<Contract.SessionOpened, "gauge" | "modes">, "sessionId" | "model" | "provider"> & {
  gauge?: Gauge;
  modes?: SessionModes;
};

export type SessionSummary = Reads<Contract.SessionSummary, "sessionId">;

export type SessionList = Omit<Contract.SessionList, "sessions"> & { sessions: SessionSummary[] };

export type PromptResult = Reads<Omit<Contract.PromptResult, "gauge">, "stopReason"> & { gauge?: Gauge };

export type CompactResult = Reads<Contract.Compacted, "compactionId" | "status">;

/** What a rewind gives back: the conversation, the files, or both. */
export type RestoreKind = Contract.RestoreKind;

/** One checkpoint of `sidecar/checkpoints`: the state just before one prompt. */
export type Checkpoint = Reads<Omit<Contract.Checkpoint, "files">, "checkpointId" | "prompt"> & { files?: Contract.CheckpointFile[] };

export type CheckpointList = { checkpoints: Checkpoint[] };

/** One file of a `sidecar/rewind` answer; a preview carries its text now and after. */
export type RewoundFile = Reads<Contract.RewoundFile, "path" | "action">;

/** `sidecar/rewind`. */
export type Rewound = Reads<Omit<Contract.Rewound, "files" | "gauge">, "conversation" | "prompt"> & {
  files: RewoundFile[];
  gauge?: Gauge;
};

/** One model of a `sidecar/models` answer. */
export type ModelChoice = Reads<Contract.ModelChoice, "id">;

/** `sidecar/models`: the models the session can switch to, its own among them. */
export type ModelList = Reads<Omit<Contract.ModelList, "models">, "current"> & { models: ModelChoice[] };

/** `session/set_model`. */
export type ModelSet = { gauge?: Gauge };

/** The tool call of a permission request: ACP's shape, which the contract passes on as is. */
export type PermissionToolCall = ToolCallFields & { toolCallId?: string };

export type RequestPermissionParams = Omit<Contract.PermissionParams, "toolCall"> & { toolCall: PermissionToolCall };

export type StatusParams = Reads<Contract.StatusParams, "kind">;

/** One ACP diff content item of a tool call (an edit proposed by the model). */
export interface DiffContent {
  type: "diff";
  path: string;
  oldText: string | null;
  newText: string;
}

/** The `sidecar/context` answer, as far as the extension reads it (the /context document
 *  prints the rest as it comes). */
export type ContextView = Reads<Omit<Contract.ContextView, "gauge" | "prefix" | "fileReadState" | "skills">> & {
  gauge: Gauge;
  prefix?: Reads<Omit<Contract.Prefix, "memoryFiles">> & { memoryFiles?: Reads<Contract.MemoryFile, "path">[] };
  fileReadState?: Reads<Contract.FileRead, "path">[];
  skills?: Reads<Contract.SkillInfo, "name">[];
};

/** Who decided the workspace's trust. */
export type TrustSource = Contract.WorkspaceTrust["source"];

/** The fields of T at run time, for the tests; the compiler holds the list to T's keys. */
const fieldsOf = <T>(fields: Record<keyof T, true>) => Object.keys(fields) as (keyof T & string)[];

const sessionStarted = fieldsOf<Omit<SessionStarted, "modes">>({ sessionId: true, model: true, provider: true, gauge: true });

/** What the extension reads of each answer it asks for. */
export const ResultFields: Record<string, string[]> = {
  [Methods.sessionNew]: sessionStarted,
  [Methods.sessionLoad]: sessionStarted,
  [Methods.sessionList]: fieldsOf<SessionList>({ sessions: true }),
  [Methods.sessionPrompt]: fieldsOf<PromptResult>({ stopReason: true, gauge: true, checkpointId: true }),
  [Methods.compact]: fieldsOf<Omit<CompactResult, "backend">>({
    compactionId: true, status: true, tier: true, tokensBefore: true, tokensAfter: true,
  }),
  [Methods.gauge]: fieldsOf<Omit<Gauge, "windowSource" | "estimator">>({
    sessionId: true, seq: true, model: true, provider: true, used: true, size: true,
    effectiveWindow: true, autoCompactAt: true, warningAt: true, errorAt: true, blockingAt: true,
    percentUsed: true, percentLeftUntilAutoCompact: true, level: true, stage: true, next: true,
    source: true, anchor: true, breakdown: true, lastTurn: true, cost: true, compactions: true, autoCompact: true,
    deferredTools: true,
  }),
  [Methods.context]: fieldsOf<Pick<ContextView, "gauge" | "prefix" | "fileReadState" | "messages" | "lastCompaction" | "workspaceTrust">>({
    gauge: true, prefix: true, fileReadState: true, messages: true, lastCompaction: true, workspaceTrust: true,
  }),
  [Methods.trustWorkspace]: fieldsOf<Contract.WorkspaceTrusted>({ trusted: true, cwd: true }),
  [Methods.mcpAction]: fieldsOf<Contract.McpActionDone>({ done: true, message: true, servers: true }),
  [Methods.models]: fieldsOf<ModelList>({ current: true, models: true, source: true }),
  [Methods.sessionSetModel]: fieldsOf<ModelSet>({ gauge: true }),
  [Methods.checkpoints]: fieldsOf<CheckpointList>({ checkpoints: true }),
  [Methods.rewind]: fieldsOf<Rewound>({ restore: true, conversation: true, files: true, commands: true, prompt: true, gauge: true }),
  [Methods.fork]: sessionStarted,
};

/** What it reads of each entry of a session/list answer. */
export const SessionSummaryFields = fieldsOf<SessionSummary>({
  sessionId: true, title: true, cwd: true, model: true, provider: true, createdAt: true,
  updatedAt: true, used: true, size: true,
});
