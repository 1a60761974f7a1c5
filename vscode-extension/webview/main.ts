// The chat webview. Renders what the host posts and posts the user's actions back; it
// never talks to the sidecar itself.

import type { HostToWebview, HostToWebviewBody } from "../src/shared/messages";
import { SeqGate } from "../src/shared/messages";
import type { Gauge, SessionUpdate } from "../src/shared/protocol";
import { formatTokens, gaugeText } from "../src/status/gaugeFormat";
import { checkpointTaken } from "./checkpoints";
import * as composer from "./composer";
import * as offers from "./offers";
import { $, send } from "./dom";
import { setCurrentMode, setModes, showMcp, showTrust } from "./header";
import { clearTasks, showTasks } from "./tasks";
import { clearTools, permission, reviewInEditor, settlePermission, toolCall, toolCallUpdate } from "./tools";
import {
  clearTranscript, compaction, endRetries, errorRow, hookResult, jumpOnNextPrompt, notice, promptSettled, rememberPrompt, retry, setRetryHook,
  textUpdate, transcript, turnEnded, userPrompt,
} from "./transcript";
import { closeOpenView, contextViewOpen, requestContext, setCurrentSession, showContext, showSessions, sessionsViewOpen } from "./views";

const gate = new SeqGate();
const titleText = $("title");
const modelButton = $("model") as HTMLButtonElement;
const gaugeBox = $("gauge");
const compactButton = $("compact") as HTMLButtonElement;
const forkButton = $("fork") as HTMLButtonElement;

function sessionUpdate(u: SessionUpdate): void {
  switch (u.sessionUpdate) {
    case "agent_message_chunk":
    case "agent_thought_chunk":
    case "user_message_chunk":
      textUpdate(u);
      break;
    case "tool_call":
      toolCall(u);
      break;
    case "tool_call_update":
      toolCallUpdate(u);
      break;
    case "compaction_update":
      compaction(u);
      // Sizes in an open Context view are stale once a compaction is done.
      if (u.status !== "in_progress" && contextViewOpen() && !u.replay) requestContext();
      break;
    case "session_info_update":
      if (u.title) titleText.textContent = u.title;
      break;
    case "usage_update":
      // The host sends the seq-checked gauge separately.
      break;
    case "available_commands_update":
      composer.setCommands(u.availableCommands);
      break;
    case "current_mode_update":
      setCurrentMode(u.currentModeId);
      break;
    case "retry_update":
      retry(u);
      break;
    case "mcp_status_update":
      showMcp(u.servers);
      break;
    case "hook_result":
      hookResult(u);
      break;
    case "plan":
      showTasks(u);
      break;
    default: {
      // A kind added to the unions without a case here does not build.
      const unhandled: never = u;
      void unhandled;
    }
  }
}

function showGauge(g: Gauge & { stage?: string; next?: string }): void {
  gaugeBox.hidden = false;
  gaugeBox.dataset.level = g.stage ?? g.level;
  gaugeBox.querySelector(".gauge-text")!.textContent = gaugeText(g);
  const fill = gaugeBox.querySelector<HTMLElement>(".gauge-fill")!;
  fill.style.width = `${Math.min(100, Math.max(0, g.percentUsed))}%`;
  const mark = gaugeBox.querySelector<HTMLElement>(".gauge-mark")!;
  if (g.autoCompactAt && g.size > 0) {
    mark.hidden = false;
    mark.style.left = `${(g.autoCompactAt / g.size) * 100}%`;
    mark.title = `auto-compact at ${formatTokens(g.autoCompactAt)}`;
  } else {
    mark.hidden = true;
  }
  const lines = [`${g.used.toLocaleString("en-US")} of ${g.size.toLocaleString("en-US")} tokens (${g.source ?? "estimate"})`];
  if (g.next) lines.push(g.next);
  gaugeBox.title = lines.join("\n");
}

function reset(): void {
  clearTranscript();
  clearTasks();
  clearTools();
  gaugeBox.hidden = true;
  titleText.textContent = "";
  modelButton.hidden = true;
}

function state(s: Extract<HostToWebviewBody, { type: "state" }>): void {
  document.body.dataset.connection = s.connection;
  document.body.dataset.busy = String(s.busy);
  const compacting = s.compacting && s.connection === "running";
  composer.setState(s.busy, s.connection === "running", compacting);
  offers.setCompacting(compacting);
  compactButton.disabled = compacting;
  titleText.textContent = s.title ?? "";
  // The session's model, in its own chip: a click opens the host's model quick pick.
  modelButton.textContent = s.sessionId && s.model ? s.model : "";
  modelButton.hidden = !modelButton.textContent;
  // A fork copies a session's conversation: there is one to copy, and no turn is changing it.
  forkButton.hidden = !s.sessionId || s.connection !== "running";
  forkButton.disabled = s.busy || compacting;
  setCurrentSession(s.sessionId);
  const text =
    s.connection === "starting" ? "Starting the sidecar…"
    : s.connection !== "running" ? "Sidecar not running"
    : compacting ? "Compacting… (Escape stops)"
    : s.busy ? "Working… (Escape stops)"
    : "";
  composer.setStatus(text, s.connection === "starting" || compacting || s.busy);
}

function handle(m: HostToWebview): void {
  switch (m.type) {
    case "state":
      state(m);
      break;
    case "reset":
      reset();
      break;
    case "update":
      sessionUpdate(m.update);
      break;
    case "userPrompt":
      rememberPrompt(m.text);
      userPrompt(m.text, m.attachments);
      break;
    case "sessions":
      showSessions(m.sessions);
      break;
    case "permission":
      permission(m.requestId, m.toolCall, m.options);
      break;
    case "permissionDone":
      settlePermission(m.requestId, m.optionId, m.reason);
      break;
    case "turnEnded":
      promptSettled();
      turnEnded();
      endRetries();
      if (m.stopReason !== "end_turn") notice(`Turn ended: ${m.stopReason.replace(/_/g, " ")}`);
      break;
    case "gauge":
      showGauge(m.gauge);
      break;
    case "error":
      errorRow(m.message, m.fix, m.code);
      break;
    case "notice":
      notice(m.text);
      break;
    case "context":
      showContext(m.view);
      if (m.view.mcpServers) showMcp(m.view.mcpServers);
      break;
    case "fileResults":
      composer.fileResults(m.requestId, m.files);
      break;
    case "modes":
      setModes(m.availableModes, m.currentModeId);
      break;
    case "attachments":
      offers.showAttachments(m.items);
      break;
    case "resendOffer":
      offers.offerResend(m.text);
      break;
    case "compactOffer":
      offers.offerCompact(m.stage, m.next);
      break;
    case "reviewInEditor":
      reviewInEditor(m.requestId, m.path);
      break;
    case "trust":
      showTrust(m.trusted, m.withheld);
      break;
    case "checkpoint":
      checkpointTaken(m.checkpointId);
      break;
    case "setInput":
      composer.setInput(m.text);
      break;
  }
}

window.addEventListener("message", (event: MessageEvent) => {
  const m = event.data as HostToWebview;
  if (!m || typeof m !== "object" || typeof m.type !== "string") return;
  if (!gate.accept(m)) return;
  handle(m);
});

// ---- user actions -------------------------------------------------------------------------

setRetryHook({ pending: offers.resendPending, resend: offers.resendNow });
composer.init({
  beforeSend(text) {
    // `/clear` starts over: the view empties at once, as the sidecar's history does.
    if (/^\/clear\s*$/.test(text)) reset();
    jumpOnNextPrompt();
  },
  escape: closeOpenView,
});

// Code block buttons are added with each render; one listener serves them all.
transcript.addEventListener("click", (event) => {
  const target = event.target as HTMLElement;
  const action = target.closest<HTMLElement>(".code-action");
  if (!action) return;
  const block = action.closest(".code-block");
  const code = block?.querySelector("pre code, pre")?.textContent ?? "";
  const language = (block as HTMLElement | null)?.dataset.language;
  switch (action.dataset.codeAction) {
    case "copy":
      send({ type: "copyCode", text: code });
      action.textContent = "Copied";
      setTimeout(() => (action.textContent = "Copy"), 1500);
      break;
    case "insert":
      send(language ? { type: "insertCode", text: code, language } : { type: "insertCode", text: code });
      break;
    case "apply":
      send(language ? { type: "applyCode", text: code, language } : { type: "applyCode", text: code });
      break;
  }
});

$("new").addEventListener("click", () => send({ type: "newSession" }));
forkButton.addEventListener("click", () => send({ type: "fork" }));
modelButton.addEventListener("click", () => send({ type: "pickModel" }));
$("sessions").addEventListener("click", () => {
  if (sessionsViewOpen()) closeOpenView();
  else send({ type: "listSessions" });
});
compactButton.addEventListener("click", () => {
  // Text in the box becomes the compaction's focus instructions.
  const instructions = composer.takeInput();
  send(instructions ? { type: "compact", instructions } : { type: "compact" });
});
$("context").addEventListener("click", () => {
  if (contextViewOpen()) closeOpenView();
  else requestContext();
});

send({ type: "ready" });
