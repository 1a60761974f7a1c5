// Tool rows and permission cards. A row reads like a line of a terminal log
// (`Read calc.py · 19 lines`, `Edit src/a.py +3 −1`, `Bash pytest -q · exit 0`); its input
// and output open on demand. A permission question is built from the tool and its input, and
// once answered it folds into the row as a small badge.

import type { PermissionOption, PermissionToolCall, SessionUpdate } from "../src/shared/protocol";
import { compactDiff, diffCounts, diffLines, type DiffLine } from "./diff";
import { baseName, button, el, isRecord, num, send, str } from "./dom";
import { renderMarkdown } from "./markdown";
import { append, breakBlock, contentText } from "./transcript";

type ToolCall = Extract<SessionUpdate, { sessionUpdate: "tool_call" }>;
type ToolCallUpdate = Extract<SessionUpdate, { sessionUpdate: "tool_call_update" }>;

interface ToolState {
  row: HTMLDetailsElement;
  title: string;
  kind: string | undefined;
  rawInput: unknown;
  rawOutput: unknown;
  content: unknown[];
  locations: { path: string; line?: number }[];
  status: string;
  permission?: string;
  /** What the user told the model when they answered (a rejection's reason). */
  permissionReason?: string;
}

const tools = new Map<string, ToolState>();

const statusIcons: Record<string, string> = { pending: "○", in_progress: "◐", completed: "✓", failed: "✗" };

// ---- what a call is -----------------------------------------------------------------------

export interface ToolSummary {
  verb: string;
  target: string;
  /** Absolute (or workspace) path the target names, when it is a file. */
  path?: string;
  line?: number;
  detail: string;
  diff?: DiffLine[];
}

function input(raw: unknown): Record<string, unknown> {
  return isRecord(raw) ? raw : {};
}

function firstLine(text: string, max = 80): string {
  const line = text.split("\n")[0]!.trim();
  const more = text.includes("\n") ? " …" : "";
  return line.length > max ? `${line.slice(0, max - 1)}…${more}` : line + more;
}

/** The path as the title shows it (workspace-relative), else the input's path. */
function shownPath(title: string, verb: string, fallback: string | undefined): string {
  if (title.startsWith(`${verb} `)) return title.slice(verb.length + 1).replace(/ \(lines [\d-]+\)$/, "");
  return fallback ?? title;
}

function diffOf(content: unknown[]): { path?: string; oldText: string | null; newText: string } | undefined {
  for (const item of content) {
    if (isRecord(item) && item.type === "diff" && typeof item.newText === "string") {
      return { path: str(item.path), oldText: typeof item.oldText === "string" ? item.oldText : null, newText: item.newText };
    }
  }
  return undefined;
}

/** The pages a call read (the provider's web search or fetch): its `resource_link` items. */
export function sourcesOf(content: unknown[]): { name: string; uri: string }[] {
  const out: { name: string; uri: string }[] = [];
  for (const item of content) {
    const inner = isRecord(item) && item.type === "content" && isRecord(item.content) ? item.content : undefined;
    if (inner?.type === "resource_link" && typeof inner.uri === "string") {
      out.push({ name: typeof inner.name === "string" && inner.name ? inner.name : inner.uri, uri: inner.uri });
    }
  }
  return out;
}

function outputText(content: unknown[]): string {
  return content
    .map((item) => {
      if (!isRecord(item)) return "";
      // Links are listed apart, as links (sourcesView).
      if (item.type === "content" && isRecord(item.content) && item.content.type === "resource_link") return "";
      if (item.type === "content") return contentText(item.content);
      if (item.type === "diff") return "";
      if (item.type === "terminal") return `[terminal ${String(item.terminalId)}]`;
      return contentText(item);
    })
    .filter(Boolean)
    .join("\n");
}

export function summarize(t: {
  title: string;
  kind?: string;
  rawInput?: unknown;
  rawOutput?: unknown;
  content?: unknown[];
  locations?: { path: string; line?: number }[];
}): ToolSummary {
  const i = input(t.rawInput);
  const out = input(t.rawOutput);
  const content = t.content ?? [];
  const location = t.locations?.[0];
  const filePath = str(i.file_path) ?? str(i.path) ?? location?.path;
  const command = str(i.command);
  if (t.kind === "switch_mode") return { verb: "Plan", target: t.title || "Leave plan mode", detail: "" };
  if (t.kind === "execute" || command !== undefined) {
    const exit = num(out.exitCode);
    const detail = out.timedOut === true ? "timed out" : out.cancelled === true ? "cancelled" : exit !== undefined ? `exit ${exit}` : "";
    return { verb: "Bash", target: firstLine(command ?? t.title), detail };
  }
  if (t.kind === "edit") {
    // Edit and MultiEdit change part of a file; Write gives it whole.
    const verb = i.old_string !== undefined || Array.isArray(i.edits) ? "Edit" : "Write";
    const d = diffOf(content);
    const diff = d
      ? diffLines(d.oldText, d.newText)
      : typeof i.old_string === "string" || typeof i.content === "string"
        ? diffLines(str(i.old_string) ?? null, str(i.new_string) ?? str(i.content) ?? "")
        : undefined;
    const counts = diff ? diffCounts(diff) : undefined;
    const created = d ? d.oldText === null : out.created === true;
    const detail = counts ? `${created ? "new file " : ""}+${counts.added} −${counts.removed}` : "";
    return { verb, target: shownPath(t.title, verb, filePath), path: location?.path ?? filePath, line: location?.line, detail, diff };
  }
  if (t.kind === "read" && str(i.file_path)) {
    const lines = num(out.numLines);
    const detail = out.unchanged === true ? "unchanged" : lines !== undefined ? `${lines.toLocaleString("en-US")} line${lines === 1 ? "" : "s"}` : "";
    return { verb: "Read", target: shownPath(t.title, "Read", filePath), path: location?.path ?? filePath, line: location?.line, detail };
  }
  // The provider's own web search and fetch: "Web search python news · 3 sources".
  const web = t.kind === "search" || t.kind === "fetch" ? /^Web (search|fetch)(?::\s*(.*))?$/.exec(t.title) : null;
  if (web) {
    const n = sourcesOf(content).length;
    return { verb: `Web ${web[1]}`, target: web[2] ?? "", detail: n ? `${n} source${n === 1 ? "" : "s"}` : "" };
  }
  if (t.kind === "read" || t.kind === "search") {
    // Glob, Grep and List titles are already short: "Grep 'todo' in src", "List src".
    const [verb = "Search", ...rest] = t.title.split(" ");
    const files = num(out.numFiles);
    const entries = num(out.entries);
    const detail = files !== undefined ? `${files.toLocaleString("en-US")} file${files === 1 ? "" : "s"}`
      : entries !== undefined ? `${entries.toLocaleString("en-US")} entr${entries === 1 ? "y" : "ies"}` : "";
    return { verb, target: rest.join(" ") || str(i.pattern) || "", detail };
  }
  const [verb, ...rest] = t.title.split(" ");
  return { verb: verb ?? "Tool", target: rest.join(" "), path: location?.path, detail: "" };
}

// ---- rows ---------------------------------------------------------------------------------

function openFile(path: string, line?: number): void {
  send(line ? { type: "openFile", path, line } : { type: "openFile", path });
}

function pathLink(label: string, path: string, line?: number): HTMLElement {
  const link = el("a", "tool-path", label);
  link.href = "#";
  link.title = line ? `Open ${path}:${line}` : `Open ${path}`;
  link.dataset.path = path;
  link.addEventListener("click", (event) => {
    event.preventDefault();
    event.stopPropagation();
    openFile(path, line);
  });
  return link;
}

function inputLines(t: ToolState): string {
  const i = input(t.rawInput);
  if (typeof i.command === "string") return `$ ${i.command}`;
  return Object.entries(i)
    .filter(([k]) => !["old_string", "new_string", "content"].includes(k))
    .map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join("\n");
}

export function diffView(diff: DiffLine[]): HTMLElement {
  const box = el("div", "diff");
  for (const line of compactDiff(diff)) {
    const cls = line.op === "+" ? "add" : line.op === "-" ? "del" : line.op === "…" ? "gap" : "ctx";
    const row = el("div", `diff-line ${cls}`);
    row.append(el("span", "diff-op", line.op === "…" ? "⋯" : line.op), el("span", "diff-text", line.text));
    box.appendChild(row);
  }
  return box;
}

function render(t: ToolState): void {
  const s = summarize({ ...t });
  const summary = t.row.querySelector("summary")!;
  const icon = el("span", "tool-status", t.status === "in_progress" ? "" : statusIcons[t.status] ?? "•");
  if (t.status === "in_progress") icon.appendChild(el("span", "spinner"));
  icon.title = t.status.replace(/_/g, " ");
  const parts: HTMLElement[] = [icon, el("span", "tool-verb", s.verb)];
  if (s.target) parts.push(s.path ? pathLink(s.target, s.path, s.line) : el("span", "tool-target", s.target));
  if (s.detail) {
    const detail = el("span", "tool-detail");
    const m = /^(new file )?\+(\d+) −(\d+)$/.exec(s.detail);
    if (m) {
      if (m[1]) detail.append(m[1]);
      detail.append(el("span", "added", `+${m[2]}`), " ", el("span", "removed", `−${m[3]}`));
    } else detail.textContent = `· ${s.detail}`;
    parts.push(detail);
  }
  if (t.permission) {
    const badge = el("span", "tool-permission", t.permission);
    badge.title = `Permission: ${t.permission.replace(/^[✓✗] /, "")}`;
    parts.push(badge);
    if (t.permissionReason) parts.push(reasonNote(t.permissionReason));
  }
  summary.replaceChildren(...parts);
  t.row.dataset.status = t.status;
  t.row.title = "";

  const body = t.row.querySelector<HTMLElement>(".tool-body")!;
  const kept = body.querySelector(".permission");
  const nested = body.querySelector(":scope > .subagent-calls");
  body.replaceChildren();
  if (kept) body.appendChild(kept);
  if (t.permissionReason) body.appendChild(el("div", "tool-said", `You told the model: ${t.permissionReason}`));
  const inputText = inputLines(t);
  // A read or an edit says all in its line and diff; other tools show their input.
  if (inputText && !["Read", "Edit", "Write"].includes(s.verb)) body.appendChild(el("pre", "tool-input", inputText));
  if (s.diff) body.appendChild(diffView(s.diff));
  const out = outputText(t.content) || (s.verb === "Bash" || t.status === "failed" ? str(input(t.rawOutput).output) ?? "" : "");
  // A Task row: its subagent's calls, then the report.
  if (nested) body.appendChild(nested);
  const sources = sourcesOf(t.content);
  if (sources.length) body.appendChild(sourcesView(sources));
  if (out) body.appendChild(el("pre", "tool-output", out));
}

/** The pages a web search or fetch read, each its title linking to its address. */
function sourcesView(sources: { name: string; uri: string }[]): HTMLElement {
  const list = el("ul", "tool-sources");
  for (const source of sources) {
    const link = el("a", "tool-source", source.name);
    link.href = source.uri;
    link.title = source.uri;
    const item = el("li");
    item.appendChild(link);
    list.appendChild(item);
  }
  return list;
}

/** The Task call a subagent's tool call belongs to (`_meta.sidecar.parentToolCallId`). */
function parentOf(u: unknown): string | undefined {
  const meta = isRecord(u) && isRecord(u._meta) ? u._meta : undefined;
  const sidecar = meta && isRecord(meta.sidecar) ? meta.sidecar : undefined;
  return typeof sidecar?.parentToolCallId === "string" ? sidecar.parentToolCallId : undefined;
}

/** The box inside a Task row that holds its subagent's tool calls. */
function nestedCalls(t: ToolState): HTMLElement {
  const body = t.row.querySelector<HTMLElement>(".tool-body")!;
  let box = body.querySelector<HTMLElement>(":scope > .subagent-calls");
  if (!box) {
    box = el("div", "subagent-calls");
    body.appendChild(box);
  }
  return box;
}

function ensureRow(id: string, title: string, parent?: string): ToolState {
  let t = tools.get(id);
  if (!t) {
    const row = el("details", "tool");
    row.dataset.toolCallId = id;
    row.append(el("summary"), el("div", "tool-body"));
    t = { row, title, kind: undefined, rawInput: undefined, rawOutput: undefined, content: [], locations: [], status: "pending" };
    tools.set(id, t);
    const host = parent !== undefined ? tools.get(parent) : undefined;
    if (host) {
      // A subagent's call folds into its Task row, not the conversation.
      row.dataset.parentToolCallId = parent;
      nestedCalls(host).appendChild(row);
    } else {
      append(row);
      breakBlock();
    }
  }
  return t;
}

export function toolCall(u: ToolCall): void {
  const t = ensureRow(u.toolCallId, u.title, parentOf(u));
  t.title = u.title;
  t.kind = u.kind;
  t.rawInput = u.rawInput;
  t.locations = u.locations ?? [];
  t.status = u.status ?? "pending";
  if (Array.isArray(u.content)) t.content = u.content;
  render(t);
}

export function toolCallUpdate(u: ToolCallUpdate): void {
  const t = ensureRow(u.toolCallId, u.title ?? u.toolCallId, parentOf(u));
  if (u.title) t.title = u.title;
  if (u.status) t.status = u.status;
  // A replayed or late-created row learns what the call was from its final update.
  if (u.rawInput !== undefined) t.rawInput = u.rawInput;
  if (u.kind) t.kind = u.kind;
  if (Array.isArray(u.locations)) t.locations = u.locations;
  if (Array.isArray(u.content)) {
    // An update's text output does not drop the diff the call announced.
    const keptDiff = diffOf(u.content) ? [] : t.content.filter((c) => isRecord(c) && c.type === "diff");
    t.content = [...keptDiff, ...u.content];
  }
  if (u.rawOutput !== undefined) t.rawOutput = u.rawOutput;
  if (u.permission) {
    t.permission = answeredLabel(u.permission.name, u.permission.optionId);
    t.permissionReason = u.permission.reason || undefined;
  }
  render(t);
}

// ---- permission cards ---------------------------------------------------------------------

interface Card {
  card: HTMLElement;
  toolCallId?: string;
  options: PermissionOption[];
}

const cards = new Map<number, Card>();

function answeredLabel(name: string, optionId: string | null): string {
  if (optionId === null) return "Cancelled";
  if (/reject|deny|no\b/i.test(optionId) || /^no\b|reject|deny/i.test(name)) return `✗ ${name}`;
  return `✓ ${name}`;
}

/** The reason next to an answered badge: one line, all of it on hover. */
function reasonNote(reason: string): HTMLElement {
  const note = el("span", "tool-permission-reason", `“${reason}”`);
  note.title = `You told the model: ${reason}`;
  return note;
}

/** The option a typed reason goes with: the request's "reject once", else any rejection. */
function rejectOption(options: PermissionOption[]): PermissionOption | undefined {
  return options.find((o) => o.kind === "reject_once") ?? options.find((o) => o.kind.startsWith("reject"));
}

/** The question, in the user's words: what the tool is about to do. */
export function permissionQuestion(tc: PermissionToolCall): string {
  const s = summarize({ title: tc.title ?? "", kind: tc.kind, rawInput: tc.rawInput, content: tc.content, locations: tc.locations });
  if (tc.kind === "switch_mode") return tc.title || "Leave plan mode?";
  switch (s.verb) {
    case "Bash":
      return "Run this command?";
    case "Edit":
      return `Edit ${baseName(s.target)}?`;
    case "Write": {
      const d = diffOf(tc.content ?? []);
      return d && d.oldText !== null ? `Overwrite ${baseName(s.target)}?` : `Create ${baseName(s.target)}?`;
    }
    case "Read":
      return `Read ${baseName(s.target)}?`;
    default:
      // A title that asks already ("Start the MCP server 'x' from .mcp.json?") is the question.
      if (tc.title?.trim().endsWith("?")) return tc.title.trim();
      return `Allow ${tc.title ?? tc.kind ?? "this tool call"}?`;
  }
}

function planText(tc: PermissionToolCall): string {
  for (const item of tc.content ?? []) {
    if (isRecord(item) && item.type === "content") {
      const text = contentText(item.content);
      if (text) return text;
    }
  }
  const i = input(tc.rawInput);
  return str(i.plan) ?? "";
}

export function permission(requestId: number, tc: PermissionToolCall, options: PermissionOption[]): void {
  const card = el("div", "permission");
  card.dataset.requestId = String(requestId);
  if (tc.kind) card.dataset.kind = tc.kind;
  card.setAttribute("role", "group");
  card.appendChild(el("div", "permission-title", permissionQuestion(tc)));
  const s = summarize({ title: tc.title ?? "", kind: tc.kind, rawInput: tc.rawInput, content: tc.content, locations: tc.locations });
  if (tc.kind === "switch_mode") {
    const plan = el("div", "markdown permission-plan");
    renderMarkdown(plan, planText(tc) || "(no plan text)");
    card.appendChild(plan);
  } else if (s.verb === "Bash") {
    const i = input(tc.rawInput);
    if (str(i.description) && str(i.description) !== str(i.command)) card.appendChild(el("div", "permission-why", str(i.description)!));
    card.appendChild(el("pre", "permission-command", `$ ${str(i.command) ?? tc.title ?? ""}`));
  } else if (s.diff) {
    const where = el("div", "permission-where");
    where.append(s.path ? pathLink(s.target, s.path, s.line) : el("span", undefined, s.target), " ");
    const c = diffCounts(s.diff);
    where.append(el("span", "added", `+${c.added}`), " ", el("span", "removed", `−${c.removed}`));
    card.append(where, diffView(s.diff));
  } else if (tc.title?.trim().endsWith("?") && planText(tc)) {
    // What the question is about, as the sidecar wrote it (an MCP server's command line).
    card.appendChild(el("pre", "permission-command", planText(tc)));
  } else if (s.target) {
    card.appendChild(s.path ? pathLink(s.target, s.path, s.line) : el("code", "permission-target", s.target));
  }
  // The answer: a line to tell the model why (with a rejection), then the choices. Both stay
  // in view together when the card appears.
  const answer = el("div", "permission-answer");
  const choose = (option: PermissionOption, reason?: string) => {
    const said = option.kind.startsWith("reject") ? reason?.trim() || undefined : undefined;
    send(said ? { type: "permissionAnswer", requestId, optionId: option.optionId, reason: said } : { type: "permissionAnswer", requestId, optionId: option.optionId });
    settlePermission(requestId, option.optionId, said);
  };
  const rejection = rejectOption(options);
  let why: HTMLInputElement | undefined;
  if (rejection) {
    why = el("input", "permission-reason");
    why.type = "text";
    why.placeholder = tc.kind === "switch_mode" ? "Tell the model what to change (optional)" : "Tell the model why (optional)";
    why.setAttribute("aria-label", `${why.placeholder}; Enter: ${rejection.name}`);
    why.title = `Enter: ${rejection.name}, and the model reads what you wrote`;
    const field = why;
    field.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.isComposing) {
        event.preventDefault();
        // An empty line is not a rejection: the buttons are there for that.
        if (field.value.trim()) choose(rejection, field.value);
      } else if (event.key === "Escape" && field.value) {
        // Clears the line; Escape in an empty one goes on to stop the turn, as elsewhere.
        event.preventDefault();
        field.value = "";
      }
    });
    answer.appendChild(field);
  }
  const buttons = el("div", "permission-options");
  for (const option of options) {
    const b = button(option.name, `option ${option.kind}`);
    b.dataset.optionId = option.optionId;
    b.addEventListener("click", () => choose(option, why?.value));
    buttons.appendChild(b);
  }
  answer.appendChild(buttons);
  card.appendChild(answer);
  cards.set(requestId, { card, toolCallId: tc.toolCallId, options });

  const t = tc.toolCallId ? tools.get(tc.toolCallId) : undefined;
  if (t) {
    // The question sits inside its row, open until answered.
    t.row.querySelector(".tool-body")!.prepend(card);
    t.row.open = true;
    t.row.classList.add("asking");
  } else {
    append(card);
    breakBlock();
  }
  reveal(cards.get(requestId)!);
  (buttons.querySelector("button.allow_once") as HTMLButtonElement | null)?.focus({ preventScroll: true });
}

/**
 * The choices must not sit below the fold: brings the card (with its row's line) into view
 * when it fits, else its answer (the reason line and the buttons) to the bottom edge.
 */
function reveal(entry: Card): void {
  const answer = entry.card.querySelector<HTMLElement>(".permission-answer");
  const row = entry.toolCallId ? tools.get(entry.toolCallId)?.row : undefined;
  const whole = row?.contains(entry.card) ? row : entry.card;
  const scroller = document.getElementById("transcript");
  const fits = !scroller || whole.getBoundingClientRect().height <= scroller.clientHeight;
  if (fits || !answer) whole.scrollIntoView({ block: "nearest" });
  else answer.scrollIntoView({ block: "end" });
}

export function settlePermission(requestId: number, optionId: string | null, reason?: string): void {
  const entry = cards.get(requestId);
  if (!entry || entry.card.dataset.settled) return;
  entry.card.dataset.settled = "true";
  const option = entry.options.find((o) => o.optionId === optionId);
  const label = answeredLabel(option?.name ?? "Cancelled", optionId);
  const t = entry.toolCallId ? tools.get(entry.toolCallId) : undefined;
  // The conversation goes on in the prompt box.
  if (entry.card.contains(document.activeElement)) document.getElementById("input")?.focus({ preventScroll: true });
  if (t && t.row.contains(entry.card)) {
    entry.card.remove();
    t.row.classList.remove("asking");
    t.row.open = false;
    t.permission = label;
    t.permissionReason = reason;
    render(t);
    return;
  }
  // No row to fold into: the card shrinks to one answered line.
  const question = entry.card.querySelector(".permission-title")?.textContent ?? "";
  entry.card.classList.add("answered");
  entry.card.replaceChildren(el("span", "permission-title", question), el("span", "tool-permission", label), ...(reason ? [reasonNote(reason)] : []));
}

/** The edit is also open as a diff in the editor: either place answers it. */
export function reviewInEditor(requestId: number, path: string): void {
  const entry = cards.get(requestId);
  if (!entry || entry.card.dataset.settled || entry.card.querySelector(".permission-review")) return;
  const note = el("div", "permission-review");
  note.append("Also open as a diff in the editor: ", pathLink(baseName(path), path), ". Accept or reject there or here.");
  entry.card.querySelector(".permission-answer")?.before(note);
  // The note pushed the buttons down: keep them in view.
  reveal(entry);
}

export function clearTools(): void {
  tools.clear();
  cards.clear();
}
