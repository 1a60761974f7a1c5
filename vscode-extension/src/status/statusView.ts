// What the status bar item shows, as a pure function of the extension's state, so every
// combination (no sidecar, no key, no session, compacting, each gauge level) is unit-tested.

import type { ConnectionState } from "../shared/messages";
import type { Gauge, McpServerStatus, StatusParams } from "../shared/protocol";
import { mcpLabel, mcpState, mcpSummary as summarize } from "../shared/mcpWords";
import { gaugeColor, gaugeStage, gaugeText, gaugeTooltipMarkdown, type GaugeColor } from "./gaugeFormat";

/** A provider call waiting to be retried (from retry_update), with when the wait ends. */
export interface RetryState {
  attempt: number;
  maxRetries: number;
  reason: string;
  /** Epoch ms when the next attempt starts. */
  until: number;
}

export interface StatusInputs {
  connection: ConnectionState;
  connectionError?: string;
  serverStatus?: StatusParams;
  sessionId?: string | null;
  gauge?: Gauge;
  compacting: boolean;
  clickAction: "showContext" | "compact";
  /** A prompt failed for want of a key: stays until a key is set or a prompt goes through. */
  keyMissing?: { message: string; fix?: string };
  retry?: RetryState;
  /** Epoch ms, for the retry countdown. */
  now?: number;
  mcpServers?: McpServerStatus[];
}

export interface StatusView {
  text: string;
  tooltip: string;
  background: GaugeColor;
  command: string;
}

export const Commands = {
  showContext: "contextSidecar.showContext",
  compact: "contextSidecar.compact",
  cancel: "contextSidecar.cancel",
  setApiKey: "contextSidecar.setApiKey",
  showLog: "contextSidecar.showLog",
  restart: "contextSidecar.restart",
  newSession: "contextSidecar.newSession",
  openChat: "contextSidecar.openChat",
  setPermissionMode: "contextSidecar.setPermissionMode",
  switchModel: "contextSidecar.switchModel",
  togglePlanMode: "contextSidecar.togglePlanMode",
  showMcpServers: "contextSidecar.showMcpServers",
  addSelection: "contextSidecar.addSelectionToChat",
  addFile: "contextSidecar.addFileToChat",
  acceptEdit: "contextSidecar.acceptEdit",
  acceptAllEdits: "contextSidecar.acceptAllEdits",
  rejectEdit: "contextSidecar.rejectEdit",
  resendPrompt: "contextSidecar.resendPrompt",
  rewind: "contextSidecar.rewind",
  fork: "contextSidecar.fork",
} as const;

/** One line on the MCP servers for a tooltip, or "" when there are none. */
export function mcpSummary(servers: McpServerStatus[] | undefined): string {
  if (!servers?.length) return "";
  const line = summarize(servers).text.replace(/^MCP: /, "MCP servers: ");
  const notes = servers.filter((s) => mcpState(s) !== "connected").map((s) => `${s.name}: ${shorten(mcpLabel(s), 60)}`);
  return `${line}${notes.length ? `; ${notes.join(", ")}` : ""}`;
}

function retryView(retry: RetryState, now: number): { text: string; tooltip: string } {
  const seconds = Math.max(0, Math.ceil((retry.until - now) / 1000));
  return {
    text: `$(sync~spin) retry ${retry.attempt}/${retry.maxRetries} in ${seconds}s`,
    tooltip: `**Context Sidecar: retrying**\n\n${retry.reason}\n\nAttempt ${retry.attempt} of ${retry.maxRetries}, in ${seconds} s.`,
  };
}

function shorten(text: string, max: number): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length <= max ? oneLine : `${oneLine.slice(0, max - 1)}…`;
}

export function statusView(s: StatusInputs): StatusView {
  if (s.connection === "failed" || s.connection === "stopped") {
    const why = s.connectionError ?? "The sidecar is not running.";
    return {
      text: "$(error) sidecar stopped",
      tooltip: `**Context Sidecar stopped**\n\n${why}\n\nClick to open the log.`,
      background: "error",
      command: Commands.showLog,
    };
  }
  if (s.connection === "starting") {
    return { text: "$(sync~spin) sidecar", tooltip: "Context Sidecar is starting…", background: undefined, command: Commands.showLog };
  }
  if (s.serverStatus?.kind === "error") {
    const message = s.serverStatus.message ?? "The sidecar reports an error.";
    const aboutKey = /key|credential|auth|not configured/i.test(message);
    return {
      text: aboutKey ? "$(key) no API key" : `$(error) ${shorten(message, 40)}`,
      tooltip: `**Context Sidecar**\n\n${message}\n\n${aboutKey ? "Click to set the API key." : "Click to open the log."}`,
      background: "error",
      command: aboutKey ? Commands.setApiKey : Commands.showLog,
    };
  }
  if (s.keyMissing) {
    const fix = s.keyMissing.fix ?? "Run “Context Sidecar: Set API Key”.";
    return {
      text: "$(key) no API key",
      tooltip: `**Context Sidecar**\n\n${s.keyMissing.message}\n\n${fix}\n\nClick to set the API key.`,
      background: "error",
      command: Commands.setApiKey,
    };
  }
  const mcp = mcpSummary(s.mcpServers);
  const mcpNote = mcp ? `\n\n${mcp}` : "";
  if (s.retry) {
    const r = retryView(s.retry, s.now ?? Date.now());
    return { text: r.text, tooltip: `${r.tooltip}${mcpNote}`, background: "warning", command: Commands.openChat };
  }
  const spin = s.compacting ? "$(sync~spin) " : "";
  if (!s.sessionId) {
    return {
      text: `${spin}$(comment-discussion) no session`,
      tooltip: `**Context Sidecar**: no session yet. Click to open the chat.${mcpNote}`,
      background: undefined,
      command: Commands.openChat,
    };
  }
  // While a compaction runs, a click stops it (the same as Escape or Stop in the panel).
  const clicked = s.compacting ? Commands.cancel : s.clickAction === "compact" ? Commands.compact : Commands.showContext;
  if (!s.gauge) {
    return {
      text: `${spin}$(comment-discussion) …`,
      tooltip: `**Context Sidecar**: ${s.compacting ? "Compacting… click to cancel." : "waiting for the first token count."}`,
      background: undefined,
      command: clicked,
    };
  }
  const action = s.compacting
    ? "$(sync~spin) Compacting… click to cancel."
    : s.clickAction === "compact" ? "Click to compact the conversation." : "Click to open the context view.";
  const warningNote =
    s.serverStatus?.kind === "warning" && s.serverStatus.message ? `\n\n$(warning) ${s.serverStatus.message}` : "";
  return {
    text: `${spin}${s.compacting ? "" : "$(pulse) "}${gaugeText(s.gauge)}`,
    tooltip: `${gaugeTooltipMarkdown(s.gauge)}${warningNote}${mcpNote}\n\n${action}`,
    background: gaugeColor(gaugeStage(s.gauge)),
    command: clicked,
  };
}
