// The chat webview. Renders what the host posts and posts the user's actions back; it
// never talks to the sidecar itself.

import type { HostToWebview, HostToWebviewBody, WebviewToHostBody } from "../src/shared/messages";
import { SeqGate, SeqStamper } from "../src/shared/messages";
import type { Gauge, PermissionOption, PermissionToolCall, SessionSummary, SessionUpdate } from "../src/shared/protocol";
import { formatTokens, gaugeText } from "../src/status/gaugeFormat";
import { renderMarkdown } from "./markdown";

interface VsCodeApi {
  postMessage(message: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const stamper = new SeqStamper();
const gate = new SeqGate();

function send(body: WebviewToHostBody): void {
  vscode.postMessage(stamper.stamp(body));
}

function $(id: string): HTMLElement {
  const el = document.getElementById(id);
  if (!el) throw new Error(`missing #${id}`);
  return el;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

const transcript = $("transcript");
const input = $("input") as HTMLTextAreaElement;
const sendButton = $("send") as HTMLButtonElement;
const cancelButton = $("cancel") as HTMLButtonElement;
const statusText = $("status");
const titleText = $("title");
const gaugeBox = $("gauge");
const sessionList = $("session-list");

// ---- transcript blocks ------------------------------------------------------------------

interface TextBlock {
  kind: "agent" | "thought" | "user";
  messageId: string | undefined;
  text: string;
  body: HTMLElement;
  root: HTMLElement;
}

let lastBlock: TextBlock | undefined;
const toolRows = new Map<string, HTMLDetailsElement>();
const compactionRows = new Map<string, HTMLElement>();
const dirty = new Set<TextBlock>();
let renderScheduled = false;

function nearBottom(): boolean {
  return transcript.scrollHeight - transcript.scrollTop - transcript.clientHeight < 80;
}

function append(node: HTMLElement): void {
  const stick = nearBottom();
  transcript.appendChild(node);
  if (stick) transcript.scrollTop = transcript.scrollHeight;
}

function flushRender(): void {
  renderScheduled = false;
  const stick = nearBottom();
  for (const block of dirty) {
    if (block.kind === "user") block.body.textContent = block.text;
    else renderMarkdown(block.body, block.text);
  }
  dirty.clear();
  if (stick) transcript.scrollTop = transcript.scrollHeight;
}

function scheduleRender(block: TextBlock): void {
  dirty.add(block);
  if (renderScheduled) return;
  renderScheduled = true;
  // Chunks arrive tens of milliseconds apart; one re-render per frame is plenty.
  requestAnimationFrame(flushRender);
}

function newTextBlock(kind: TextBlock["kind"], messageId: string | undefined): TextBlock {
  let root: HTMLElement;
  let body: HTMLElement;
  if (kind === "thought") {
    const details = el("details", "thought");
    details.appendChild(el("summary", undefined, "Thinking"));
    body = el("div", "markdown");
    details.appendChild(body);
    root = details;
  } else {
    root = el("div", `message ${kind}`);
    root.appendChild(el("div", "role", kind === "user" ? "You" : "Assistant"));
    body = el("div", kind === "user" ? "plain" : "markdown");
    root.appendChild(body);
  }
  const block: TextBlock = { kind, messageId, text: "", body, root };
  append(root);
  lastBlock = block;
  return block;
}

function appendText(kind: TextBlock["kind"], messageId: string | undefined, text: string): void {
  let block = lastBlock;
  const continues = block && block.kind === kind && (messageId === undefined || block.messageId === messageId);
  if (!block || !continues) block = newTextBlock(kind, messageId);
  block.text += text;
  scheduleRender(block);
}

function contentText(content: unknown): string {
  if (!content || typeof content !== "object") return "";
  const c = content as Record<string, unknown>;
  if (c.type === "text" && typeof c.text === "string") return c.text;
  if (c.type === "resource_link") return `[${String(c.name ?? c.uri)}](${String(c.uri)})`;
  if (c.type === "resource" && c.resource && typeof c.resource === "object") {
    const r = c.resource as Record<string, unknown>;
    return `\n\`${String(r.uri)}\`\n`;
  }
  if (c.type === "image") return "[image]";
  return "";
}

const statusIcons: Record<string, string> = { pending: "○", in_progress: "◐", completed: "✓", failed: "✗" };

function setToolStatus(row: HTMLDetailsElement, status: string | undefined): void {
  if (!status) return;
  row.dataset.status = status;
  const icon = row.querySelector(".tool-status");
  if (icon) icon.textContent = statusIcons[status] ?? "•";
}

function toolContentText(items: unknown[] | undefined): string {
  if (!Array.isArray(items)) return "";
  return items
    .map((item) => {
      if (!item || typeof item !== "object") return "";
      const i = item as Record<string, unknown>;
      if (i.type === "content") return contentText(i.content);
      if (i.type === "diff") return `--- ${String(i.path)}\n${String(i.oldText ?? "")}\n+++\n${String(i.newText ?? "")}`;
      if (i.type === "terminal") return `[terminal ${String(i.terminalId)}]`;
      return contentText(i);
    })
    .filter(Boolean)
    .join("\n");
}

function pretty(value: unknown): string {
  if (value === undefined) return "";
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}

function toolCall(u: Extract<SessionUpdate, { sessionUpdate: "tool_call" }>): void {
  let row = toolRows.get(u.toolCallId);
  if (!row) {
    row = el("details", "tool");
    const summary = el("summary");
    summary.appendChild(el("span", "tool-status", "○"));
    summary.appendChild(el("span", "tool-title"));
    summary.appendChild(el("span", "tool-kind"));
    row.appendChild(summary);
    row.appendChild(el("pre", "tool-input"));
    row.appendChild(el("pre", "tool-output"));
    toolRows.set(u.toolCallId, row);
    append(row);
    lastBlock = undefined;
  }
  row.querySelector(".tool-title")!.textContent = u.title;
  row.querySelector(".tool-kind")!.textContent = u.kind ?? "";
  row.querySelector(".tool-input")!.textContent = pretty(u.rawInput);
  const locations = (u.locations ?? []).map((l) => `${l.path}${l.line ? `:${l.line}` : ""}`).join(", ");
  if (locations) row.title = locations;
  setToolStatus(row, u.status ?? "pending");
  const out = toolContentText(u.content);
  if (out) row.querySelector(".tool-output")!.textContent = out;
}

function toolCallUpdate(u: Extract<SessionUpdate, { sessionUpdate: "tool_call_update" }>): void {
  let row = toolRows.get(u.toolCallId);
  if (!row) {
    toolCall({ sessionUpdate: "tool_call", toolCallId: u.toolCallId, title: u.title ?? u.toolCallId });
    row = toolRows.get(u.toolCallId)!;
  }
  if (u.title) row.querySelector(".tool-title")!.textContent = u.title;
  setToolStatus(row, u.status);
  const out = toolContentText(u.content) || (u.rawOutput !== undefined ? pretty(u.rawOutput) : "");
  if (out) row.querySelector(".tool-output")!.textContent = out;
}

function compaction(u: Extract<SessionUpdate, { sessionUpdate: "compaction_update" }>): void {
  let row = compactionRows.get(u.compactionId);
  if (!row) {
    row = el("div", "compaction");
    compactionRows.set(u.compactionId, row);
    append(row);
    lastBlock = undefined;
  }
  row.dataset.status = u.status;
  const how = [u.trigger === "auto" ? "Auto-compaction" : "Compaction", u.tier ? `(${u.tier})` : ""].join(" ").trim();
  let text: string;
  switch (u.status) {
    case "in_progress":
      text = `${how} running…`;
      break;
    case "completed": {
      const before = u.tokensBefore ?? undefined;
      const after = u.tokensAfter ?? undefined;
      text =
        before !== undefined && after !== undefined
          ? `${how}: ${formatTokens(before)} → ${formatTokens(after)} tokens, saved ${formatTokens(before - after)}`
          : `${how} completed`;
      break;
    }
    case "cancelled":
      text = `${how} cancelled`;
      break;
    default:
      text = `${how} failed${u.error ? `: ${typeof u.error === "string" ? u.error : pretty(u.error)}` : ""}`;
  }
  row.textContent = text;
}

function sessionUpdate(u: SessionUpdate): void {
  switch (u.sessionUpdate) {
    case "agent_message_chunk":
      appendText("agent", u.messageId, contentText(u.content));
      break;
    case "agent_thought_chunk":
      appendText("thought", u.messageId ? `${u.messageId}` : undefined, contentText(u.content));
      break;
    case "user_message_chunk":
      appendText("user", u.messageId, contentText(u.content));
      break;
    case "tool_call":
      toolCall(u);
      break;
    case "tool_call_update":
      toolCallUpdate(u);
      break;
    case "compaction_update":
      compaction(u);
      break;
    case "session_info_update":
      if (u.title) titleText.textContent = u.title;
      break;
    case "usage_update":
      // The host sends the seq-checked gauge separately.
      break;
    case "available_commands_update":
      // Slash commands are typed as text; the sidecar answers them.
      break;
    default: {
      // A kind added to SessionUpdate without a case here does not build.
      const unhandled: never = u;
      void unhandled;
    }
  }
}

// ---- other rows ---------------------------------------------------------------------------

function permission(requestId: number, toolCall: PermissionToolCall, options: PermissionOption[]): void {
  const card = el("div", "permission");
  card.dataset.requestId = String(requestId);
  card.appendChild(el("div", "permission-title", `Allow ${toolCall.title ?? toolCall.kind ?? "this tool call"}?`));
  if (toolCall.rawInput !== undefined) card.appendChild(el("pre", "tool-input", pretty(toolCall.rawInput)));
  const buttons = el("div", "permission-options");
  for (const option of options) {
    const button = el("button", `option ${option.kind}`, option.name);
    button.type = "button";
    button.dataset.optionId = option.optionId;
    button.addEventListener("click", () => {
      send({ type: "permissionAnswer", requestId, optionId: option.optionId });
      settlePermission(requestId, option.optionId);
    });
    buttons.appendChild(button);
  }
  card.appendChild(buttons);
  append(card);
  lastBlock = undefined;
}

function settlePermission(requestId: number, optionId: string | null): void {
  const card = transcript.querySelector<HTMLElement>(`.permission[data-request-id="${requestId}"]`);
  if (!card || card.dataset.settled) return;
  card.dataset.settled = "true";
  for (const button of Array.from(card.querySelectorAll<HTMLButtonElement>("button"))) {
    button.disabled = true;
    if (button.dataset.optionId === optionId) button.classList.add("chosen");
  }
  if (optionId === null) card.appendChild(el("div", "permission-note", "Cancelled"));
}

function errorRow(message: string, fix: string | undefined, code: number | undefined): void {
  const row = el("div", "error");
  row.appendChild(el("div", "error-message", code !== undefined ? `${message} (${code})` : message));
  if (fix) row.appendChild(el("div", "error-fix", fix));
  append(row);
  lastBlock = undefined;
}

function notice(text: string): void {
  append(el("div", "notice", text));
  lastBlock = undefined;
}

function showGauge(g: Gauge): void {
  gaugeBox.hidden = false;
  gaugeBox.dataset.level = g.level;
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
  gaugeBox.title = `${g.used.toLocaleString("en-US")} of ${g.size.toLocaleString("en-US")} tokens (${g.source ?? "estimate"})`;
}

function showSessions(sessions: SessionSummary[]): void {
  sessionList.replaceChildren();
  if (sessions.length === 0) sessionList.appendChild(el("div", "empty", "No earlier sessions in this workspace."));
  for (const s of sessions) {
    const item = el("button", "session-item");
    item.type = "button";
    item.dataset.sessionId = s.sessionId;
    item.appendChild(el("span", "session-title", s.title || s.sessionId.slice(0, 8)));
    const when = s.updatedAt ? new Date(s.updatedAt).toLocaleString() : "";
    const size = typeof s.used === "number" && typeof s.size === "number" ? ` · ${formatTokens(s.used)} / ${formatTokens(s.size)}` : "";
    item.appendChild(el("span", "session-meta", `${when}${size}`));
    item.addEventListener("click", () => {
      sessionList.hidden = true;
      send({ type: "loadSession", sessionId: s.sessionId });
    });
    sessionList.appendChild(item);
  }
  sessionList.hidden = false;
}

function reset(): void {
  transcript.replaceChildren();
  toolRows.clear();
  compactionRows.clear();
  dirty.clear();
  lastBlock = undefined;
  gaugeBox.hidden = true;
  titleText.textContent = "";
}

function state(s: Extract<HostToWebviewBody, { type: "state" }>): void {
  document.body.dataset.connection = s.connection;
  document.body.dataset.busy = String(s.busy);
  cancelButton.hidden = !s.busy;
  sendButton.disabled = s.busy || s.connection !== "running";
  titleText.textContent = s.title ?? (s.sessionId ? s.model ?? "" : "");
  statusText.textContent =
    s.connection === "starting" ? "Starting the sidecar…"
    : s.connection !== "running" ? "Sidecar not running"
    : s.compacting ? "Compacting…"
    : s.busy ? "Working…"
    : "";
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
      newTextBlock("user", undefined).text = m.text;
      scheduleRender(lastBlock!);
      lastBlock = undefined;
      break;
    case "sessions":
      showSessions(m.sessions);
      break;
    case "permission":
      permission(m.requestId, m.toolCall, m.options);
      break;
    case "permissionDone":
      settlePermission(m.requestId, m.optionId);
      break;
    case "turnEnded":
      lastBlock = undefined;
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
  }
}

window.addEventListener("message", (event: MessageEvent) => {
  const m = event.data as HostToWebview;
  if (!m || typeof m !== "object" || typeof m.type !== "string") return;
  if (!gate.accept(m)) return;
  handle(m);
});

// ---- user actions -------------------------------------------------------------------------

function submit(): void {
  const text = input.value.trim();
  if (!text || sendButton.disabled) return;
  input.value = "";
  send({ type: "prompt", text });
}

sendButton.addEventListener("click", submit);
input.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    submit();
  }
});
cancelButton.addEventListener("click", () => send({ type: "cancel" }));
$("new").addEventListener("click", () => send({ type: "newSession" }));
$("sessions").addEventListener("click", () => {
  if (!sessionList.hidden) sessionList.hidden = true;
  else send({ type: "listSessions" });
});
$("compact").addEventListener("click", () => {
  // Text in the box becomes the compaction's focus instructions.
  const instructions = input.value.trim();
  input.value = "";
  send(instructions ? { type: "compact", instructions } : { type: "compact" });
});
$("context").addEventListener("click", () => send({ type: "showContext" }));

send({ type: "ready" });
