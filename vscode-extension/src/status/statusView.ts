// What the status bar item shows, as a pure function of the extension's state, so every
// combination (no sidecar, no key, no session, compacting, each gauge level) is unit-tested.

import type { ConnectionState } from "../shared/messages";
import type { Gauge, StatusParams } from "../shared/protocol";
import { gaugeColor, gaugeText, gaugeTooltipMarkdown, type GaugeColor } from "./gaugeFormat";

export interface StatusInputs {
  connection: ConnectionState;
  connectionError?: string;
  serverStatus?: StatusParams;
  sessionId?: string | null;
  gauge?: Gauge;
  compacting: boolean;
  clickAction: "showContext" | "compact";
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
  setApiKey: "contextSidecar.setApiKey",
  showLog: "contextSidecar.showLog",
  restart: "contextSidecar.restart",
  newSession: "contextSidecar.newSession",
  openChat: "contextSidecar.openChat",
} as const;

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
  const spin = s.compacting ? "$(sync~spin) " : "";
  if (!s.sessionId) {
    return {
      text: `${spin}$(comment-discussion) no session`,
      tooltip: "**Context Sidecar**: no session yet. Click to open the chat.",
      background: undefined,
      command: Commands.openChat,
    };
  }
  if (!s.gauge) {
    return {
      text: `${spin}$(comment-discussion) …`,
      tooltip: "**Context Sidecar**: waiting for the first token count.",
      background: undefined,
      command: s.clickAction === "compact" ? Commands.compact : Commands.showContext,
    };
  }
  const action = s.clickAction === "compact" ? "Click to compact the conversation." : "Click to open the context view.";
  const compactingNote = s.compacting ? "\n\n$(sync~spin) Compacting…" : "";
  const warningNote =
    s.serverStatus?.kind === "warning" && s.serverStatus.message ? `\n\n$(warning) ${s.serverStatus.message}` : "";
  return {
    text: `${spin}${s.compacting ? "" : "$(pulse) "}${gaugeText(s.gauge)}`,
    tooltip: `${gaugeTooltipMarkdown(s.gauge)}${warningNote}${compactingNote}\n\n${action}`,
    background: gaugeColor(s.gauge.level),
    command: s.clickAction === "compact" ? Commands.compact : Commands.showContext,
  };
}
