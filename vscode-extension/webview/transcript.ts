// The transcript: streamed text blocks, compaction, retry, hook, error and notice rows.
// Every row is built the same way for live updates and for a replayed session.

import type { SentAttachment } from "../src/shared/messages";
import type { ContentBlock, SessionUpdate } from "../src/shared/protocol";
import { formatTokens } from "../src/status/gaugeFormat";
import { awaitCheckpoint, forgetAwaited, markRewindable } from "./checkpoints";
import { $, button, el, isRecord, plural, send, str } from "./dom";
import { renderMarkdown } from "./markdown";

export const transcript = $("transcript");

interface TextBlock {
  kind: "agent" | "thought" | "user";
  messageId: string | undefined;
  text: string;
  body: HTMLElement;
  root: HTMLElement;
}

let lastBlock: TextBlock | undefined;
const compactionRows = new Map<string, HTMLElement>();
const dirty = new Set<TextBlock>();
let renderScheduled = false;
/** Set while a slash command's turn runs: its answer is the command's output, not the model's. */
let commandTurn = false;
let jumpToNextUser = false;

export function nearBottom(): boolean {
  return transcript.scrollHeight - transcript.scrollTop - transcript.clientHeight < 80;
}

export function scrollToBottom(): void {
  transcript.scrollTop = transcript.scrollHeight;
}

/** Adds a row at the end, following the bottom only when the reader is there. */
export function append(node: HTMLElement): void {
  const stick = nearBottom();
  transcript.appendChild(node);
  if (stick) scrollToBottom();
}

/** The next text chunk starts a new block (a row came between). */
export function breakBlock(): void {
  lastBlock = undefined;
}

function flushRender(): void {
  renderScheduled = false;
  const stick = nearBottom();
  for (const block of dirty) {
    if (block.kind === "user") renderUserText(block.body, block.text);
    else renderMarkdown(block.body, block.text);
  }
  dirty.clear();
  if (stick) scrollToBottom();
}

/** Long pasted prompts stay readable: the first lines, and the rest behind a toggle. */
function renderUserText(into: HTMLElement, text: string): void {
  const all = text.split("\n");
  if (all.length <= 12) {
    into.textContent = text;
    return;
  }
  into.replaceChildren();
  const head = el("span", undefined, all.slice(0, 8).join("\n"));
  const rest = el("span", "user-rest", "\n" + all.slice(8).join("\n"));
  rest.hidden = true;
  const more = button(`Show ${plural(all.length - 8, "more line")}`, "link show-more");
  more.addEventListener("click", () => {
    rest.hidden = !rest.hidden;
    more.textContent = rest.hidden ? `Show ${plural(all.length - 8, "more line")}` : "Show less";
  });
  into.append(head, rest, el("br"), more);
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
  } else if (kind === "user") {
    root = el("div", commandTurn ? "message user command" : "message user");
    body = el("div", "plain");
    root.appendChild(body);
  } else {
    root = el("div", commandTurn ? "message agent command-output" : "message agent");
    body = el("div", "markdown");
    root.appendChild(body);
  }
  const block: TextBlock = { kind, messageId, text: "", body, root };
  append(root);
  lastBlock = block;
  return block;
}

function appendText(kind: TextBlock["kind"], messageId: string | undefined, text: string, checkpointId?: string): void {
  let block = lastBlock;
  // A prompt with a checkpoint is a message of its own, even right after another one.
  const continues = block && block.kind === kind && (messageId === undefined || block.messageId === messageId) && !checkpointId;
  if (!block || !continues) {
    if (kind === "user") startUserTurn(text);
    block = newTextBlock(kind, messageId);
  }
  if (checkpointId) markRewindable(block.root, checkpointId);
  block.text += text;
  scheduleRender(block);
}

function startUserTurn(text: string): void {
  commandTurn = text.trimStart().startsWith("/");
}

/** The prompt the host echoes when the user sends one, with the chips of what went with it. */
export function userPrompt(text: string, attachments: SentAttachment[] = []): void {
  startUserTurn(text);
  const block = newTextBlock("user", undefined);
  block.text = text;
  renderUserText(block.body, text);
  if (attachments.length) {
    const chips = el("div", "chips sent-chips");
    for (const a of attachments) {
      const chip = el("span", `chip ${a.kind}`);
      chip.title = a.label;
      chip.append(el("span", "chip-icon", a.kind === "file" ? "📄" : "✂"), el("span", "chip-label", a.label));
      chips.append(chip);
    }
    block.root.append(chips);
  }
  lastBlock = undefined;
  awaitCheckpoint(block.root);
  if (jumpToNextUser) {
    jumpToNextUser = false;
    block.root.scrollIntoView({ block: "start" });
    scrollToBottom();
  }
}

/** The next prompt the host echoes is scrolled into view, wherever the reader was. */
export function jumpOnNextPrompt(): void {
  jumpToNextUser = true;
}

export function turnEnded(): void {
  lastBlock = undefined;
  commandTurn = false;
}

export function contentText(content: unknown): string {
  if (!isRecord(content)) return "";
  const c = content as ContentBlock & Record<string, unknown>;
  if (c.type === "text" && typeof c.text === "string") return c.text;
  if (c.type === "resource_link") return `[${String(c.name ?? c.uri)}](${String(c.uri)})`;
  if (c.type === "resource" && isRecord(c.resource)) return `\n\`${String(c.resource.uri)}\`\n`;
  if (c.type === "image") return "[image]";
  return "";
}

export function textUpdate(u: Extract<SessionUpdate, { sessionUpdate: "agent_message_chunk" | "agent_thought_chunk" | "user_message_chunk" }>): void {
  const kind = u.sessionUpdate === "agent_message_chunk" ? "agent" : u.sessionUpdate === "agent_thought_chunk" ? "thought" : "user";
  appendText(kind, u.messageId, contentText(u.content), u.sessionUpdate === "user_message_chunk" ? checkpointOf(u._meta) : undefined);
}

/** The checkpoint a replayed prompt names (`_meta.sidecar.checkpointId`). */
function checkpointOf(meta: unknown): string | undefined {
  const sidecar = isRecord(meta) && isRecord(meta.sidecar) ? meta.sidecar : undefined;
  const id = sidecar?.checkpointId;
  return typeof id === "string" && id ? id : undefined;
}

// ---- compaction ---------------------------------------------------------------------------

export function compaction(u: Extract<SessionUpdate, { sessionUpdate: "compaction_update" }>): void {
  let row = compactionRows.get(u.compactionId);
  const appeared = !row;
  if (!row) {
    row = el("div", "compaction");
    compactionRows.set(u.compactionId, row);
    append(row);
    lastBlock = undefined;
  }
  row.dataset.status = u.status;
  const how = [u.trigger === "auto" ? "Auto-compaction" : "Compaction", u.tier ? `(${u.tier.replace(/_/g, " ")})` : ""].join(" ").trim();
  const line = el("div", "compaction-line");
  switch (u.status) {
    case "in_progress":
      line.append(el("span", "spinner"), el("span", undefined, `${how}: summarizing older turns…`));
      break;
    case "completed": {
      const before = u.tokensBefore ?? undefined;
      const after = u.tokensAfter ?? undefined;
      line.textContent =
        before !== undefined && after !== undefined
          ? `${how}: ${formatTokens(before)} → ${formatTokens(after)} tokens, saved ${formatTokens(before - after)}`
          : `${how} completed`;
      break;
    }
    case "cancelled":
      line.textContent = `${how} cancelled`;
      break;
    default:
      line.textContent = `${how} failed${u.error ? `: ${errorText(u.error)}` : ""}`;
  }
  row.replaceChildren(line);
  const summary = summaryText(u.summary);
  if (summary) {
    const details = el("details", "compaction-summary");
    details.appendChild(el("summary", undefined, "Summary of the earlier conversation"));
    const body = el("div", "markdown");
    renderMarkdown(body, summary);
    details.appendChild(body);
    row.appendChild(details);
  }
  // A compaction starting now is shown wherever the reader was: it is what the spinner below
  // the prompt box is about, and where it can be stopped or read. Replayed rows stay put.
  if (appeared && !u.replay) row.scrollIntoView({ block: "nearest" });
}

function errorText(error: unknown): string {
  if (typeof error === "string") return error;
  if (isRecord(error) && typeof error.message === "string") return error.message;
  return JSON.stringify(error);
}

function summaryText(summary: unknown): string | undefined {
  const text = typeof summary === "string" ? summary : isRecord(summary) ? str(summary.text) ?? str(summary.summary) : undefined;
  return text === undefined ? undefined : summaryMarkdown(text) || undefined;
}

/**
 * The summary's markdown without the summarizer's tags. A summary may come as the model
 * wrote it: an <analysis> scratchpad, then the sections inside <summary> tags (a provider's
 * own compaction keeps them). Left in, markdown takes the tags for an HTML block that runs
 * to the next blank line, and the numbered sections inside show as one run-on paragraph.
 */
function summaryMarkdown(text: string): string {
  const body = text.replace(/<analysis>[\s\S]*?<\/analysis>/i, "");
  const inner = /<summary>([\s\S]*?)(?:<\/summary>|$)/i.exec(body);
  return (inner ? inner[1] : body).replace(/\n{3,}/g, "\n\n").trim();
}

// ---- retries ------------------------------------------------------------------------------

let retryRow: HTMLElement | undefined;
let retryTimer: ReturnType<typeof setInterval> | undefined;

export function retry(u: Extract<SessionUpdate, { sessionUpdate: "retry_update" }>): void {
  if (!retryRow || !retryRow.isConnected) {
    retryRow = el("div", "retry");
    append(retryRow);
    lastBlock = undefined;
  }
  const row = retryRow;
  if (retryTimer) clearInterval(retryTimer);
  retryTimer = undefined;
  if (u.done) {
    row.dataset.done = "true";
    row.textContent = `Went through after ${plural(u.attempt, "retry", "retries")}.`;
    retryRow = undefined;
    return;
  }
  const status = u.status ? ` (${u.status})` : "";
  const reason = u.reason && !u.reason.includes(String(u.status ?? "\u0000")) ? `${u.reason}${status}` : u.reason || `Request failed${status}`;
  const label = el("span", "retry-reason", reason);
  const attempt = el("span", "retry-attempt", `attempt ${u.attempt} of ${u.maxRetries}`);
  const countdown = el("span", "retry-countdown");
  const line = el("span", "retry-line");
  line.append(label, " · ", attempt, " · ", countdown);
  row.replaceChildren(el("span", "spinner"), line);
  const due = Date.now() + Math.max(0, u.delayMs);
  const tick = () => {
    const left = Math.max(0, Math.ceil((due - Date.now()) / 1000));
    countdown.textContent = left > 0 ? `retrying in ${left}s` : "retrying now…";
    if (left <= 0 && retryTimer) {
      clearInterval(retryTimer);
      retryTimer = undefined;
    }
  };
  tick();
  retryTimer = setInterval(tick, 250);
}

/** A turn that ended closes its retry row (whatever the outcome, the countdown is over). */
export function endRetries(): void {
  if (retryTimer) clearInterval(retryTimer);
  retryTimer = undefined;
  if (retryRow && !retryRow.dataset.done) retryRow.querySelector(".retry-countdown")?.replaceChildren("stopped");
  retryRow = undefined;
}

// ---- hooks, errors, notices ---------------------------------------------------------------

export function hookResult(u: Extract<SessionUpdate, { sessionUpdate: "hook_result" }>): void {
  const row = el("details", "hook");
  const summary = el("summary");
  const failed = u.exitCode !== null && u.exitCode !== 0;
  row.dataset.status = failed ? "failed" : "completed";
  summary.append(
    el("span", "hook-label", `Hook ${u.event}`),
    el("code", "hook-command", u.command),
    el("span", "hook-exit", u.exitCode === null ? "no exit code" : `exit ${u.exitCode}`),
  );
  row.append(summary, el("pre", "hook-output", u.output || "(no output)"));
  append(row);
  lastBlock = undefined;
}

let lastPrompt: string | undefined;
let retryHook: { pending(): boolean; resend(): void } = { pending: () => false, resend: () => undefined };

/** How Retry defers to the host's own resend offer. */
export function setRetryHook(hook: typeof retryHook): void {
  retryHook = hook;
}
/** A prompt was sent and its turn has not ended: an error now is that prompt's failure. */
let promptOpen = false;

/** Remembers the last prompt sent, so an error that ends its turn can offer to send it again. */
export function rememberPrompt(text: string): void {
  lastPrompt = text;
  promptOpen = true;
}

export function promptSettled(): void {
  promptOpen = false;
}

export function errorRow(message: string, fix: string | undefined, code: number | undefined): void {
  const row = el("div", "error");
  row.setAttribute("role", "alert");
  const text = el("div", "error-message", message);
  if (code !== undefined) text.title = `error ${code}`;
  row.appendChild(text);
  if (fix) row.appendChild(el("div", "error-fix", fix));
  const actions = el("div", "error-actions");
  if (/api key/i.test(`${message} ${fix ?? ""}`)) {
    const key = button("Set API Key", "primary error-key", "Context Sidecar: Set API Key");
    key.addEventListener("click", () => send({ type: "setApiKey" }));
    actions.appendChild(key);
  }
  if (lastPrompt !== undefined && promptOpen) {
    promptOpen = false;
    const again = lastPrompt;
    const retryButton = button("Retry", "error-retry", "Send the last message again");
    retryButton.addEventListener("click", () => {
      retryButton.disabled = true;
      // A host that kept the failed prompt (with its attachments) resends it itself.
      if (retryHook.pending()) retryHook.resend();
      else send({ type: "prompt", text: again });
    });
    actions.appendChild(retryButton);
  }
  if (actions.childElementCount) row.appendChild(actions);
  append(row);
  lastBlock = undefined;
}

export function notice(text: string, className = "notice"): void {
  append(el("div", className, text));
  lastBlock = undefined;
}

export function clearTranscript(): void {
  transcript.replaceChildren();
  compactionRows.clear();
  dirty.clear();
  lastBlock = undefined;
  commandTurn = false;
  forgetAwaited();
  endRetries();
}
