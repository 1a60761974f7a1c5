// The prompt box: Enter sends (or queues while a turn runs), Escape cancels a running turn or
// compaction, Up/Down walk the prompts sent before, long pastes fold into a chip, `@`
// completes workspace files and `/` completes slash commands.

import type { FileMatch } from "../src/shared/messages";
import { $, button, el, send } from "./dom";
import { withdrawResend } from "./offers";

const input = $("input") as HTMLTextAreaElement;
const sendButton = $("send") as HTMLButtonElement;
const cancelButton = $("cancel") as HTMLButtonElement;
const statusText = $("status");
const queuedBox = $("queued");
const popup = $("completions");

export interface ComposerHooks {
  /** A prompt is about to go to the host. */
  beforeSend(text: string): void;
  /** Escape with nothing else to close. */
  escape(): boolean;
}

let hooks: ComposerHooks = { beforeSend: () => undefined, escape: () => false };
let busy = false;
/** A compaction runs (manual, or automatic inside a turn): Stop and Escape cancel it too. */
let compacting = false;
let connected = false;
let queued: string | undefined;
const history: string[] = [];
let historyIndex = -1;
let draft = "";

// ---- pasted text --------------------------------------------------------------------------

/** Pastes at least this long fold into a chip; the whole text is sent. */
export const PASTE_FOLD_CHARS = 2000;
export const PASTE_FOLD_LINES = 40;
const pastes = new Map<string, string>();
let pasteCount = 0;

function pasteLabel(text: string): string {
  pasteCount++;
  const lines = text.split("\n").length;
  return pasteCount === 1 ? `[Pasted text +${lines} lines]` : `[Pasted text #${pasteCount} +${lines} lines]`;
}

function expandPastes(text: string): string {
  let out = text;
  for (const [label, whole] of pastes) out = out.split(label).join(whole);
  return out;
}

input.addEventListener("paste", (event) => {
  const text = event.clipboardData?.getData("text/plain") ?? "";
  if (text.length < PASTE_FOLD_CHARS && text.split("\n").length < PASTE_FOLD_LINES) return;
  event.preventDefault();
  const label = pasteLabel(text);
  pastes.set(label, text);
  input.setRangeText(label, input.selectionStart, input.selectionEnd, "end");
  input.dispatchEvent(new Event("input"));
});

// ---- sending ------------------------------------------------------------------------------

function say(text: string): void {
  statusText.textContent = text;
  statusText.dataset.note = "true";
}

function showQueued(): void {
  if (queued === undefined) {
    queuedBox.hidden = true;
    queuedBox.replaceChildren();
    return;
  }
  const drop = button("×", "queued-drop", "Take it back into the box");
  drop.addEventListener("click", () => {
    input.value = queued ?? "";
    queued = undefined;
    showQueued();
    input.focus();
  });
  const preview = queued.length > 80 ? `${queued.slice(0, 79)}…` : queued;
  const when = !connected ? "Queued, sends once the sidecar is running:"
    : compacting && !busy ? "Queued, sends when the compaction ends:" : "Queued, sends when this turn ends:";
  queuedBox.replaceChildren(el("span", "queued-label", when), el("span", "queued-text", preview), drop);
  queuedBox.hidden = false;
}

function deliver(text: string): void {
  withdrawResend();
  hooks.beforeSend(text);
  send({ type: "prompt", text });
}

export function submit(): void {
  const typed = input.value.trim();
  if (!typed) return;
  const text = expandPastes(typed);
  input.value = "";
  pastes.clear();
  pasteCount = 0;
  history.push(typed);
  historyIndex = -1;
  closePopup();
  // While a turn or a compaction runs, or before the sidecar is up (a panel opened as the
  // editor starts), the prompt waits in the queue, shown above the box, and goes when it can.
  if (busy || compacting || !connected) {
    queued = queued === undefined ? text : `${queued}\n\n${text}`;
    showQueued();
    return;
  }
  deliver(text);
}

/** The host's view of the session: sends the queued prompt once no turn or compaction runs
 * and the sidecar is up. */
export function setState(isBusy: boolean, isConnected: boolean, isCompacting = false): void {
  busy = isBusy;
  compacting = isCompacting && isConnected;
  connected = isConnected;
  cancelButton.hidden = !(busy || compacting);
  cancelButton.title = compacting && !busy ? "Stop the compaction: nothing changes (Escape)" : "Stop the running turn (Escape)";
  const waits = busy || compacting || !connected;
  sendButton.textContent = waits ? "Queue" : "Send";
  sendButton.title = busy ? "Queue this message: it is sent when the running turn ends"
    : compacting ? "Queue this message: it is sent when the compaction ends"
    : connected ? "Send (Enter)" : "Queue this message: it is sent once the sidecar is running";
  if (statusText.dataset.note && connected) {
    statusText.dataset.note = "";
  }
  showQueued();
  if (!waits && queued !== undefined) {
    const text = queued;
    queued = undefined;
    showQueued();
    deliver(text);
  }
}

export function setStatus(text: string, spinning: boolean): void {
  if (statusText.dataset.note === "true") return;
  statusText.replaceChildren();
  if (spinning) statusText.appendChild(el("span", "spinner"));
  if (text) statusText.append(text);
}

export function init(h: ComposerHooks): void {
  hooks = h;
}

// ---- history ------------------------------------------------------------------------------

function recall(step: -1 | 1): boolean {
  if (history.length === 0) return false;
  if (historyIndex === -1) {
    if (step === 1) return false;
    draft = input.value;
    historyIndex = history.length - 1;
  } else {
    historyIndex += step;
    if (historyIndex >= history.length) {
      historyIndex = -1;
      input.value = draft;
      return true;
    }
    historyIndex = Math.max(0, historyIndex);
  }
  input.value = history[historyIndex]!;
  input.setSelectionRange(input.value.length, input.value.length);
  return true;
}

// ---- completions --------------------------------------------------------------------------

interface Item {
  label: string;
  detail?: string;
  insert: string;
}

let items: Item[] = [];
let active = 0;
let replaceFrom = 0;
let fileRequest = 0;
let commands: { name: string; description?: string }[] = [
  { name: "compact", description: "Compact the conversation now [instructions]" },
  { name: "context", description: "Show what is in the context window" },
  { name: "clear", description: "Start over with an empty conversation" },
  { name: "model", description: "Switch the model: /model NAME (/model alone lists them)" },
  { name: "plan", description: "Enter plan mode (/plan off leaves it)" },
  { name: "mode", description: "Set the permission mode: /mode NAME" },
  { name: "rewind", description: "Rewind code and conversation to before a prompt" },
  { name: "fork", description: "Fork the conversation into a new session" },
];

export function setCommands(list: { name: string; description?: string }[]): void {
  if (list.length) commands = list.map((c) => ({ name: c.name.replace(/^\//, ""), description: c.description }));
}

function closePopup(): void {
  popup.hidden = true;
  items = [];
}

function showItems(list: Item[], from: number): void {
  items = list;
  replaceFrom = from;
  active = 0;
  if (list.length === 0) {
    closePopup();
    return;
  }
  popup.replaceChildren(
    ...list.map((item, i) => {
      const row = el("div", i === active ? "completion active" : "completion");
      row.setAttribute("role", "option");
      row.append(el("span", "completion-label", item.label));
      if (item.detail) row.append(el("span", "completion-detail", item.detail));
      row.addEventListener("mousedown", (e) => {
        e.preventDefault();
        accept(i);
      });
      return row;
    }),
  );
  popup.hidden = false;
}

function highlight(): void {
  Array.from(popup.children).forEach((c, i) => c.classList.toggle("active", i === active));
  popup.children[active]?.scrollIntoView({ block: "nearest" });
}

function accept(index: number): void {
  const item = items[index];
  if (!item) return;
  const caret = input.selectionStart;
  input.setRangeText(item.insert, replaceFrom, caret, "end");
  closePopup();
  input.focus();
}

function onInput(): void {
  const caret = input.selectionStart;
  const before = input.value.slice(0, caret);
  const slash = /^\/([\w:-]*)$/.exec(before);
  if (slash) {
    const q = slash[1]!.toLowerCase();
    showItems(
      commands
        .filter((c) => c.name.toLowerCase().startsWith(q))
        .slice(0, 12)
        .map((c) => ({ label: `/${c.name}`, detail: c.description, insert: `/${c.name} ` })),
      0,
    );
    return;
  }
  const at = /(^|\s)@([^\s@]*)$/.exec(before);
  if (at) {
    replaceFrom = caret - at[2]!.length - 1;
    fileRequest++;
    send({ type: "fileQuery", requestId: fileRequest, query: at[2]! });
    return;
  }
  closePopup();
}

/** The host's answer to a `queryFiles`; a late answer to an older query is ignored. */
export function fileResults(requestId: number, matches: (FileMatch | string)[]): void {
  const files = matches.map((f) => (typeof f === "string" ? f : f.path));
  if (requestId !== fileRequest) return;
  const before = input.value.slice(0, input.selectionStart);
  if (!/(^|\s)@([^\s@]*)$/.test(before)) return;
  const from = replaceFrom;
  showItems(
    files.slice(0, 20).map((f) => ({ label: f, insert: `@${f} ` })),
    from,
  );
}

input.addEventListener("input", onInput);
input.addEventListener("blur", () => setTimeout(closePopup, 150));

input.addEventListener("keydown", (event) => {
  if (event.isComposing) return;
  if (!popup.hidden && items.length) {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      active = (active + (event.key === "ArrowDown" ? 1 : items.length - 1)) % items.length;
      highlight();
      return;
    }
    const typedWhole = items[active]!.insert.trim() === input.value.slice(0, input.selectionStart).trim();
    if (event.key === "Tab" || (event.key === "Enter" && !typedWhole)) {
      event.preventDefault();
      accept(active);
      return;
    }
    // Enter on a command typed out in full sends it.
    closePopup();
    if (event.key === "Escape") {
      event.preventDefault();
      closePopup();
      return;
    }
  }
  if (event.key === "Enter" && !event.shiftKey) {
    event.preventDefault();
    submit();
    return;
  }
  if (event.key === "ArrowUp" && !event.shiftKey && input.value.slice(0, input.selectionStart).indexOf("\n") === -1) {
    if (recall(-1)) event.preventDefault();
    return;
  }
  if (event.key === "ArrowDown" && historyIndex !== -1 && input.value.slice(input.selectionEnd).indexOf("\n") === -1) {
    if (recall(1)) event.preventDefault();
  }
});

document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape" || event.defaultPrevented) return;
  if (!popup.hidden) {
    closePopup();
    return;
  }
  if (hooks.escape()) {
    event.preventDefault();
    return;
  }
  if (busy || compacting) {
    event.preventDefault();
    cancel();
  }
});

function cancel(): void {
  send({ type: "cancel" });
  say(compacting && !busy ? "Cancelling the compaction…" : "Cancelling…");
}

sendButton.addEventListener("click", submit);
cancelButton.addEventListener("click", cancel);

/** Puts text in the box to edit and send (a rewound prompt), the caret at its end. */
export function setInput(text: string): void {
  input.value = text;
  pastes.clear();
  pasteCount = 0;
  historyIndex = -1;
  closePopup();
  input.focus();
  input.setSelectionRange(text.length, text.length);
}

/** Text in the box (the Compact button uses it as focus instructions). */
export function takeInput(): string {
  const text = expandPastes(input.value.trim());
  input.value = "";
  pastes.clear();
  return text;
}
