// The typed envelope between the chat webview and the extension host. Both sides import
// this one module. Every message carries `seq`, rising by one per sender; a receiver drops
// a message whose seq is not above the last one it accepted from that sender, so a late
// or duplicated post can never roll the view back.

import type {
  Gauge,
  PermissionOption,
  PermissionToolCall,
  SessionSummary,
  SessionUpdate,
} from "./protocol";

export type ConnectionState = "starting" | "running" | "stopped" | "failed";

export type WebviewToHostBody =
  | { type: "ready" }
  | { type: "newSession" }
  | { type: "listSessions" }
  | { type: "loadSession"; sessionId: string }
  | { type: "prompt"; text: string }
  | { type: "cancel" }
  | { type: "compact"; instructions?: string }
  | { type: "showContext" }
  | { type: "permissionAnswer"; requestId: number; optionId: string | null };

export type HostToWebviewBody =
  | {
      type: "state";
      connection: ConnectionState;
      sessionId: string | null;
      title: string | null;
      model: string | null;
      busy: boolean;
      compacting: boolean;
    }
  | { type: "reset" }
  | { type: "update"; update: SessionUpdate }
  | { type: "userPrompt"; text: string }
  | { type: "sessions"; sessions: SessionSummary[] }
  | { type: "permission"; requestId: number; toolCall: PermissionToolCall; options: PermissionOption[] }
  | { type: "permissionDone"; requestId: number; optionId: string | null }
  | { type: "turnEnded"; stopReason: string }
  | { type: "gauge"; gauge: Gauge }
  | { type: "error"; message: string; code?: number; fix?: string }
  | { type: "notice"; text: string };

export type WebviewToHost = WebviewToHostBody & { seq: number };
export type HostToWebview = HostToWebviewBody & { seq: number };

/** Stamps outgoing messages with a rising sequence number. */
export class SeqStamper {
  private next = 1;
  stamp<T extends object>(body: T): T & { seq: number } {
    return { ...body, seq: this.next++ };
  }
}

/** Accepts a message only when its seq is above the last accepted one. */
export class SeqGate {
  private last = 0;
  accept(message: { seq?: unknown }): boolean {
    if (typeof message.seq !== "number" || !Number.isFinite(message.seq)) return false;
    if (message.seq <= this.last) return false;
    this.last = message.seq;
    return true;
  }
  /** The other side restarted its numbering (a reloaded webview says `ready` again). */
  reset(): void {
    this.last = 0;
  }
}

const webviewTypes = new Set<WebviewToHostBody["type"]>([
  "ready", "newSession", "listSessions", "loadSession", "prompt", "cancel", "compact",
  "showContext", "permissionAnswer",
]);

/** Narrows an untrusted posted value to a WebviewToHost message, or undefined. */
export function parseWebviewMessage(value: unknown): WebviewToHost | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const m = value as Record<string, unknown>;
  if (typeof m.type !== "string" || !webviewTypes.has(m.type as WebviewToHostBody["type"])) return undefined;
  if (typeof m.seq !== "number") return undefined;
  switch (m.type) {
    case "loadSession":
      return typeof m.sessionId === "string" ? (m as unknown as WebviewToHost) : undefined;
    case "prompt":
      return typeof m.text === "string" ? (m as unknown as WebviewToHost) : undefined;
    case "compact":
      return m.instructions === undefined || typeof m.instructions === "string"
        ? (m as unknown as WebviewToHost)
        : undefined;
    case "permissionAnswer":
      return typeof m.requestId === "number" && (m.optionId === null || typeof m.optionId === "string")
        ? (m as unknown as WebviewToHost)
        : undefined;
    default:
      return m as unknown as WebviewToHost;
  }
}

// ---- editor integration: modes, attachments, completion, resend (host side) ---------------
// Kept apart from the unions above so additions from both sides merge without touching them.

/** Context the user attached to the next prompt: a whole file, or a selection's text. */
export interface Attachment {
  id: number;
  kind: "file" | "selection";
  /** file:// URI of the file. */
  uri: string;
  /** What a chip shows: "src/app.ts" or "src/app.ts:12-20". */
  label: string;
  /** The selected text (kind "selection"). */
  text?: string;
  /** 1-based first and last line of the selection. */
  lines?: [number, number];
}

export interface FileMatch {
  /** Workspace-relative path, what an `@` mention inserts. */
  path: string;
  uri: string;
}

export type WebviewToHostAdditionBody =
  | { type: "setMode"; modeId: string }
  /** Open the host's mode quick pick. */
  | { type: "pickMode" }
  | { type: "removeAttachment"; id: number }
  /** `@` completion: workspace files matching `query`; answered by `fileResults`. */
  | { type: "fileQuery"; requestId: number; query: string }
  /** Send the prompt that failed again, or forget it. */
  | { type: "resend" }
  | { type: "dismissResend" }
  | { type: "setApiKey" };

export type HostToWebviewAdditionBody =
  | { type: "modes"; currentModeId: string; availableModes: { id: string; name: string; description?: string }[] }
  | { type: "attachments"; items: Attachment[] }
  | { type: "fileResults"; requestId: number; files: FileMatch[] }
  /** A prompt failed and can be sent again (the sidecar is back, or the key was set). */
  | { type: "resendOffer"; text: string }
  /** The gauge reached warning/error: offer /compact (stage "normal" withdraws the offer). */
  | { type: "compactOffer"; stage: string; next?: string }
  | { type: "reviewInEditor"; requestId: number; path: string };

export type WebviewToHostAddition = WebviewToHostAdditionBody & { seq: number };

const additionTypes = new Set<WebviewToHostAdditionBody["type"]>([
  "setMode", "pickMode", "removeAttachment", "fileQuery", "resend", "dismissResend", "setApiKey",
]);

/** Narrows an untrusted posted value to one of the additions above, or undefined. */
export function parseWebviewAddition(value: unknown): WebviewToHostAddition | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const m = value as Record<string, unknown>;
  if (typeof m.type !== "string" || !additionTypes.has(m.type as WebviewToHostAdditionBody["type"])) return undefined;
  if (typeof m.seq !== "number") return undefined;
  switch (m.type) {
    case "setMode":
      return typeof m.modeId === "string" ? (m as unknown as WebviewToHostAddition) : undefined;
    case "removeAttachment":
      return typeof m.id === "number" ? (m as unknown as WebviewToHostAddition) : undefined;
    case "fileQuery":
      return typeof m.requestId === "number" && typeof m.query === "string" ? (m as unknown as WebviewToHostAddition) : undefined;
    default:
      return m as unknown as WebviewToHostAddition;
  }
}

/** Everything the host may post to the webview. */
export type HostToWebviewAnyBody = HostToWebviewBody | HostToWebviewAdditionBody;
/** Everything the webview may post to the host. */
export type WebviewToHostAny = WebviewToHost | WebviewToHostAddition;

// ---- chat panel: actions, views and the newer session updates ------------------------------
// Posted with the same seq stamping as above. The host accepts a panel message through
// parsePanelMessage when parseWebviewMessage does not know its type.

/** An ACP session mode (`session/new` and `session/load` results carry `modes`). */
export interface PanelMode {
  id: string;
  name: string;
  description?: string;
}

export interface PanelMcpServer {
  name: string;
  status: "starting" | "connected" | "failed" | "stopped";
  transport?: "stdio" | "http";
  tools?: string[];
  error?: string;
}

/** The `sidecar/context` answer as the panel's Context view reads it. */
export interface PanelContextView {
  gauge: Gauge;
  prefix?: { parts?: Record<string, number>; memoryFiles?: { path: string; kind?: string; tokens?: number; chars?: number }[] };
  fileReadState?: { path: string; tokens?: number; readAt?: string; stale?: boolean; origin?: string }[];
  messages?: { role?: string; content?: unknown }[];
  mcpServers?: PanelMcpServer[];
  skills?: { name: string; description?: string; source?: string; invoked?: boolean }[];
  lastCompaction?: { tier?: string; trigger?: string | null; tokensBefore?: number | null } | null;
}

export type PanelToHostBody =
  /** Copy a code block's text to the clipboard. */
  | { type: "copyCode"; text: string }
  /** Insert a code block's text at the cursor of the active editor. */
  | { type: "insertCode"; text: string; language?: string }
  /** Apply a code block to the active editor (replace the selection, or show a diff to accept). */
  | { type: "applyCode"; text: string; language?: string }
  /** Open a file the transcript names (tool rows, context view), at a 1-based line. */
  | { type: "openFile"; path: string; line?: number }
  /** `session/set_mode {sessionId, modeId}`. */
  | { type: "setMode"; modeId: string }
  /** Workspace files matching `query`, for the `@` completion; answered with `fileResults`. */
  | { type: "fileQuery"; requestId: number; query: string }
  /** Drop a chip (a file or selection attached to the next prompt). */
  | { type: "removeAttachment"; id: number }
  /** Send the prompt that failed again (answers `resendOffer`), or forget it. */
  | { type: "resend" }
  | { type: "dismissResend" }
  /** Run "Context Sidecar: Set API Key". */
  | { type: "setApiKey" }
  /** `sidecar/context` for the panel's Context view; answered with `context`. */
  | { type: "requestContext" }
  /** `session/delete {sessionId}`, then a fresh `sessions` list. */
  | { type: "deleteSession"; sessionId: string }
  /** Give a session a new title, then a fresh `sessions` list. */
  | { type: "renameSession"; sessionId: string; title: string };

/** A file or selection attached to the next prompt, shown as a chip. */
export interface PanelAttachment {
  id: number;
  kind: "file" | "selection";
  uri: string;
  label: string;
  text?: string;
  lines?: [number, number];
}

/** An `@` completion: the workspace-relative path it inserts, and the file's URI. */
export interface PanelFileMatch {
  path: string;
  uri: string;
}

export type HostToPanelBody =
  | { type: "context"; view: PanelContextView }
  | { type: "fileResults"; requestId: number; files: PanelFileMatch[] }
  /** The session's modes, from the `session/new` / `session/load` result. */
  | { type: "modes"; currentModeId: string; availableModes: PanelMode[] }
  | { type: "attachments"; items: PanelAttachment[] }
  /** A prompt failed and can be sent again. */
  | { type: "resendOffer"; text: string }
  /** The gauge's stage calls for /compact (stage "normal" withdraws the offer). */
  | { type: "compactOffer"; stage: string; next?: string }
  /** Permission request `requestId` (an edit) is also open as a diff in the editor. */
  | { type: "reviewInEditor"; requestId: number; path: string };

/** Session updates of the newer wire (modes, retries, MCP, hooks, replay), as the panel reads them. */
export type PanelUpdate =
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
  | { sessionUpdate: "mcp_status_update"; servers: PanelMcpServer[] }
  | {
      sessionUpdate: "hook_result";
      event: string;
      command: string;
      output: string;
      exitCode: number | null;
    };

/** Fields any update may carry: `replay` on a `session/load` replay, `permission` on the final
 *  `tool_call_update` of a call whose permission was answered. */
export interface PanelUpdateExtras {
  replay?: boolean;
  permission?: { optionId: string; name: string };
}

const panelTypes = new Set<PanelToHostBody["type"]>([
  "copyCode", "insertCode", "applyCode", "openFile", "setMode", "fileQuery", "requestContext",
  "deleteSession", "renameSession", "removeAttachment", "resend", "dismissResend", "setApiKey",
]);

const optionalString = (v: unknown) => v === undefined || typeof v === "string";

/** Narrows an untrusted posted value to a panel message, or undefined. */
export function parsePanelMessage(value: unknown): (PanelToHostBody & { seq: number }) | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const m = value as Record<string, unknown>;
  if (typeof m.type !== "string" || !panelTypes.has(m.type as PanelToHostBody["type"])) return undefined;
  if (typeof m.seq !== "number") return undefined;
  const ok = (() => {
    switch (m.type as PanelToHostBody["type"]) {
      case "copyCode":
        return typeof m.text === "string";
      case "insertCode":
      case "applyCode":
        return typeof m.text === "string" && optionalString(m.language);
      case "openFile":
        return typeof m.path === "string" && (m.line === undefined || typeof m.line === "number");
      case "setMode":
        return typeof m.modeId === "string";
      case "fileQuery":
        return typeof m.requestId === "number" && typeof m.query === "string";
      case "removeAttachment":
        return typeof m.id === "number";
      case "requestContext":
      case "resend":
      case "dismissResend":
      case "setApiKey":
        return true;
      case "deleteSession":
        return typeof m.sessionId === "string";
      case "renameSession":
        return typeof m.sessionId === "string" && typeof m.title === "string";
    }
  })();
  return ok ? (m as unknown as PanelToHostBody & { seq: number }) : undefined;
}
