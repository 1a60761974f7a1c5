// The typed envelope between the chat webview and the extension host. Both sides import
// this one module. Every message carries `seq`, rising by one per sender; a receiver drops
// a message whose seq is not above the last one it accepted from that sender, so a late
// or duplicated post can never roll the view back.

import type {
  ContextView,
  Gauge,
  PermissionOption,
  PermissionToolCall,
  SessionMode,
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
  /** The whole /context view as a markdown document. */
  | { type: "showContext" }
  /** The option picked (null: cancelled); with a rejection, what the user said about why. */
  | { type: "permissionAnswer"; requestId: number; optionId: string | null; reason?: string }
  /** `session/set_mode {sessionId, modeId}`. */
  | { type: "setMode"; modeId: string }
  /** Open the host's mode quick pick. */
  | { type: "pickMode" }
  /** Open the host's model quick pick ("Context Sidecar: Switch Model"). */
  | { type: "pickModel" }
  /** Drop a chip (a file or selection attached to the next prompt). */
  | { type: "removeAttachment"; id: number }
  /** Workspace files matching `query`, for the `@` completion; answered with `fileResults`. */
  | { type: "fileQuery"; requestId: number; query: string }
  /** Send the prompt that failed again (answers `resendOffer`), or forget it. */
  | { type: "resend" }
  | { type: "dismissResend" }
  /** Run "Context Sidecar: Set API Key". */
  | { type: "setApiKey" }
  /** Copy a code block's text to the clipboard. */
  | { type: "copyCode"; text: string }
  /** Insert a code block's text at the cursor of the active editor. */
  | { type: "insertCode"; text: string; language?: string }
  /** Apply a code block to the active editor (replace the selection, or show a diff to accept). */
  | { type: "applyCode"; text: string; language?: string }
  /** Open a file the transcript names (tool rows, context view), at a 1-based line. */
  | { type: "openFile"; path: string; line?: number }
  /** `sidecar/context` for the panel's Context view; answered with `context`. */
  | { type: "requestContext" }
  /** `session/delete {sessionId}`, then a fresh `sessions` list. */
  | { type: "deleteSession"; sessionId: string }
  /** `session/set_title {sessionId, title}`, then a fresh `sessions` list. */
  | { type: "renameSession"; sessionId: string; title: string }
  /** Open VS Code's Workspace Trust editor (the Restricted Mode banner's button). */
  | { type: "manageTrust" }
  /** `sidecar/mcpAction {sessionId, server, action}`: a button of the MCP list. */
  | { type: "mcpAction"; server: string; action: "approve" | "reject" | "retry" }
  /** A sent message's rewind control: what to do from its checkpoint (the host asks). */
  | { type: "rewindAt"; checkpointId: string }
  /** `sidecar/fork` of the whole conversation, opened in the panel. */
  | { type: "fork" };

/** A file or selection attached to the next prompt, shown as a chip. */
/** What a sent message shows of an attachment: its kind and its chip's label. */
export type SentAttachment = Pick<Attachment, "kind" | "label">;

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

/** An `@` completion: the workspace-relative path it inserts, and the file's URI. */
export interface FileMatch {
  path: string;
  uri: string;
}

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
  /** The prompt as sent, with what went with it (files, selections, mentioned files). */
  | { type: "userPrompt"; text: string; attachments?: SentAttachment[] }
  | { type: "sessions"; sessions: SessionSummary[] }
  | { type: "permission"; requestId: number; toolCall: PermissionToolCall; options: PermissionOption[] }
  | { type: "permissionDone"; requestId: number; optionId: string | null; reason?: string }
  | { type: "turnEnded"; stopReason: string }
  | { type: "gauge"; gauge: Gauge }
  | { type: "error"; message: string; code?: number; fix?: string }
  | { type: "notice"; text: string }
  /** The `sidecar/context` answer, for the panel's Context view. */
  | { type: "context"; view: ContextView }
  | { type: "fileResults"; requestId: number; files: FileMatch[] }
  /** The session's modes, from the `session/new` / `session/load` result. */
  | { type: "modes"; currentModeId: string; availableModes: SessionMode[] }
  | { type: "attachments"; items: Attachment[] }
  /** A prompt failed and can be sent again (the sidecar is back, or the key was set). */
  | { type: "resendOffer"; text: string }
  /** The gauge's stage calls for /compact (stage "normal" withdraws the offer). */
  | { type: "compactOffer"; stage: string; next?: string }
  /** Permission request `requestId` (an edit) is also open as a diff in the editor. */
  | { type: "reviewInEditor"; requestId: number; path: string }
  /** The workspace's trust: false shows the Restricted Mode banner; `withheld` names what is not applied. */
  | { type: "trust"; trusted: boolean; withheld?: string[] }
  /** The checkpoint taken before the prompt just sent: its message gets a rewind control. */
  | { type: "checkpoint"; checkpointId: string }
  /** Put text in the prompt box (a rewound prompt, to edit and send again). */
  | { type: "setInput"; text: string };

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
  "showContext", "permissionAnswer", "setMode", "pickMode", "pickModel", "removeAttachment", "fileQuery",
  "resend", "dismissResend", "setApiKey", "copyCode", "insertCode", "applyCode", "openFile",
  "requestContext", "deleteSession", "renameSession", "manageTrust", "mcpAction", "rewindAt", "fork",
]);

const optionalString = (v: unknown) => v === undefined || typeof v === "string";

/** Whether the fields of a message of a known type have their shapes. */
function wellFormed(m: Record<string, unknown>, type: WebviewToHostBody["type"]): boolean {
  switch (type) {
    case "ready":
    case "newSession":
    case "listSessions":
    case "cancel":
    case "showContext":
    case "pickMode":
    case "pickModel":
    case "resend":
    case "dismissResend":
    case "setApiKey":
    case "requestContext":
    case "manageTrust":
    case "fork":
      return true;
    case "rewindAt":
      return typeof m.checkpointId === "string" && m.checkpointId !== "";
    case "loadSession":
    case "deleteSession":
      return typeof m.sessionId === "string";
    case "prompt":
    case "copyCode":
      return typeof m.text === "string";
    case "compact":
      return optionalString(m.instructions);
    case "permissionAnswer":
      return typeof m.requestId === "number" && (m.optionId === null || typeof m.optionId === "string") && optionalString(m.reason);
    case "setMode":
      return typeof m.modeId === "string";
    case "removeAttachment":
      return typeof m.id === "number";
    case "fileQuery":
      return typeof m.requestId === "number" && typeof m.query === "string";
    case "insertCode":
    case "applyCode":
      return typeof m.text === "string" && optionalString(m.language);
    case "openFile":
      return typeof m.path === "string" && (m.line === undefined || typeof m.line === "number");
    case "renameSession":
      return typeof m.sessionId === "string" && typeof m.title === "string";
    case "mcpAction":
      return typeof m.server === "string" && (m.action === "approve" || m.action === "reject" || m.action === "retry");
  }
}

/** Narrows an untrusted posted value to a WebviewToHost message, or undefined. */
export function parseWebviewMessage(value: unknown): WebviewToHost | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const m = value as Record<string, unknown>;
  if (typeof m.type !== "string" || !webviewTypes.has(m.type as WebviewToHostBody["type"])) return undefined;
  if (typeof m.seq !== "number") return undefined;
  return wellFormed(m, m.type as WebviewToHostBody["type"]) ? (m as unknown as WebviewToHost) : undefined;
}
