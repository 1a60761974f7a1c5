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
