// The Context and Sessions views: panels over the transcript, closed with Escape or ×.

import type { ContextView, SessionSummary } from "../src/shared/protocol";
import { formatTokens, gaugeText } from "../src/status/gaugeFormat";
import { $, baseName, button, el, isRecord, plural, send } from "./dom";

const contextView = $("context-view");
const sessionsView = $("sessions-view");
let currentSessionId: string | null = null;

export function setCurrentSession(id: string | null): void {
  if (id === currentSessionId) return;
  currentSessionId = id;
  if (!sessionsView.hidden) renderSessions();
}

function header(view: HTMLElement, title: string, extra: HTMLElement[] = []): void {
  const bar = el("div", "view-header");
  const close = button("×", "view-close", "Close (Escape)");
  close.setAttribute("aria-label", "Close");
  close.addEventListener("click", () => closeView(view));
  bar.append(el("h2", undefined, title), ...extra, close);
  view.replaceChildren(bar);
}

function closeView(view: HTMLElement): void {
  view.hidden = true;
  document.body.dataset.view = "";
}

function openView(view: HTMLElement): void {
  for (const v of [contextView, sessionsView]) if (v !== view) v.hidden = true;
  view.hidden = false;
  document.body.dataset.view = view.id;
}

/** Closes the open view; false when none was open. */
export function closeOpenView(): boolean {
  for (const v of [contextView, sessionsView]) {
    if (!v.hidden) {
      closeView(v);
      return true;
    }
  }
  return false;
}

export function contextViewOpen(): boolean {
  return !contextView.hidden;
}

export function sessionsViewOpen(): boolean {
  return !sessionsView.hidden;
}

// ---- Context ------------------------------------------------------------------------------

function table(caption: string, columns: string[], rows: (string | HTMLElement)[][], numeric: number[] = []): HTMLElement {
  const section = el("section", "view-section");
  section.appendChild(el("h3", undefined, caption));
  if (rows.length === 0) {
    section.appendChild(el("div", "empty", "None"));
    return section;
  }
  const t = el("table", "view-table");
  const head = el("tr");
  columns.forEach((c, i) => head.appendChild(el("th", numeric.includes(i) ? "num" : undefined, c)));
  t.appendChild(el("thead")).appendChild(head);
  const body = t.appendChild(el("tbody"));
  for (const r of rows) {
    const tr = el("tr");
    r.forEach((cell, i) => {
      const td = el("td", numeric.includes(i) ? "num" : undefined);
      td.append(cell);
      tr.appendChild(td);
    });
    body.appendChild(tr);
  }
  section.appendChild(t);
  return section;
}

const partNames: Record<string, string> = {
  system: "System prompt",
  tools: "Tool definitions",
  memoryFiles: "Memory files (CLAUDE.md)",
  messages: "Messages",
  toolResults: "Tool results",
  summary: "Compaction summary",
  free: "Free",
  reservedOutput: "Reserved for output",
};

function fileLink(path: string): HTMLElement {
  const a = el("a", "file-link", baseName(path));
  a.href = "#";
  a.title = path;
  a.addEventListener("click", (e) => {
    e.preventDefault();
    send({ type: "openFile", path });
  });
  return a;
}

/** The characters a block holds: its text, a tool call's input, a tool result's content. */
function blockChars(block: Record<string, unknown>): number {
  if (typeof block.text === "string") return block.text.length;
  if (block.type === "tool_use") return JSON.stringify(block.input ?? {}).length;
  const content = block.content;
  if (typeof content === "string") return content.length;
  if (Array.isArray(content)) return content.reduce<number>((n, c) => n + (isRecord(c) ? blockChars(c) : 0), 0);
  return JSON.stringify(block).length;
}

/** Messages grouped by role and content kind: how many, and how many characters. */
export function messagesByKind(messages: unknown[]): { kind: string; count: number; chars: number }[] {
  const groups = new Map<string, { count: number; chars: number }>();
  const add = (kind: string, chars: number) => {
    const g = groups.get(kind) ?? { count: 0, chars: 0 };
    g.count++;
    g.chars += chars;
    groups.set(kind, g);
  };
  for (const m of messages) {
    if (!isRecord(m)) continue;
    const role = typeof m.role === "string" ? m.role : "message";
    if (typeof m.content === "string") {
      add(`${role} text`, m.content.length);
      continue;
    }
    if (!Array.isArray(m.content)) continue;
    for (const block of m.content) {
      if (!isRecord(block)) continue;
      const type = typeof block.type === "string" ? block.type.replace(/_/g, " ") : "block";
      add(`${role} ${type}`, blockChars(block));
    }
  }
  return [...groups.entries()].map(([kind, g]) => ({ kind, ...g })).sort((a, b) => b.chars - a.chars);
}

export function showContext(view: ContextView): void {
  if (contextFallback) clearTimeout(contextFallback);
  contextFallback = undefined;
  const refresh = button("Refresh", "view-refresh", "Ask the sidecar again");
  refresh.addEventListener("click", () => send({ type: "requestContext" }));
  const asDoc = button("Open as document", "view-doc", "The whole /context view as a markdown document");
  asDoc.addEventListener("click", () => send({ type: "showContext" }));
  header(contextView, "Context", [refresh, asDoc]);
  const g = view.gauge;
  const summary = el("div", "view-summary");
  summary.append(el("strong", undefined, g.model), ` · ${gaugeText(g)}`);
  if (g.autoCompactAt) summary.append(` · auto-compact at ${formatTokens(g.autoCompactAt)}`);
  contextView.appendChild(summary);

  const parts = Object.entries(view.prefix?.parts ?? {}).map(([k, v]) => [partNames[k] ?? k, formatTokens(v)]);
  contextView.appendChild(table("Prefix", ["Part", "Tokens"], parts, [1]));
  const breakdown = Object.entries(g.breakdown ?? {})
    .filter(([, v]) => typeof v === "number")
    .map(([k, v]) => [partNames[k] ?? k, formatTokens(v as number), g.size ? `${((100 * (v as number)) / g.size).toFixed(1)}%` : ""]);
  contextView.appendChild(table("Window", ["Part", "Tokens", "Share"], breakdown, [1, 2]));
  const memory = (view.prefix?.memoryFiles ?? []).map((f) => [fileLink(f.path), f.kind ?? "", formatTokens(f.tokens ?? 0)]);
  if (memory.length) contextView.appendChild(table("Memory files", ["File", "Kind", "Tokens"], memory, [2]));
  const files = (view.fileReadState ?? []).map((f) => [fileLink(f.path), formatTokens(f.tokens ?? 0), f.stale ? "changed since read" : f.origin ?? ""]);
  contextView.appendChild(table(`Files (${files.length})`, ["File", "Tokens", "State"], files, [1]));
  const kinds = messagesByKind(view.messages ?? []).map((k) => [k.kind, k.count.toLocaleString("en-US"), k.chars.toLocaleString("en-US")]);
  contextView.appendChild(table(`Messages (${(view.messages ?? []).length})`, ["Kind", "Count", "Characters"], kinds, [1, 2]));
  if (view.mcpServers?.length) {
    const rows = view.mcpServers.map((s) => [s.name, s.status + (s.error ? `: ${s.error}` : ""), plural(s.tools?.length ?? 0, "tool")]);
    contextView.appendChild(table("MCP servers", ["Server", "Status", "Tools"], rows));
  }
  if (view.skills?.length) {
    const rows = view.skills.map((s) => [s.name, s.source ?? "", s.invoked ? "invoked" : ""]);
    contextView.appendChild(table("Skills", ["Skill", "Source", ""], rows));
  }
  if (view.lastCompaction) {
    const c = view.lastCompaction;
    contextView.appendChild(
      el("div", "view-footnote", `Last compaction: ${c.tier ?? "?"}${c.trigger ? `, ${c.trigger}` : ""}${typeof c.tokensBefore === "number" ? `, from ${formatTokens(c.tokensBefore)}` : ""}`),
    );
  }
  openView(contextView);
}

let contextFallback: ReturnType<typeof setTimeout> | undefined;

/** Asks for the Context view (the host answers with `context`). A host that does not know
 *  the request yet still shows the context: as a document, after a short wait. */
export function requestContext(): void {
  send({ type: "requestContext" });
  if (contextFallback) clearTimeout(contextFallback);
  const asked = contextView.hidden;
  contextFallback = setTimeout(() => {
    contextFallback = undefined;
    if (asked && contextView.hidden) send({ type: "showContext" });
  }, CONTEXT_FALLBACK_MS);
}

const CONTEXT_FALLBACK_MS = 2000;

// ---- Sessions -----------------------------------------------------------------------------

let sessions: SessionSummary[] = [];
const filterBox = el("input", "view-filter");
filterBox.type = "search";
filterBox.placeholder = "Filter sessions";
filterBox.addEventListener("input", () => renderSessions());

/** "just now", "5 min ago", "3 h ago", "yesterday", "4 days ago", else the date. */
export function relativeTime(iso: string, now = Date.now()): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return "";
  const minutes = Math.round((now - then) / 60_000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  if (days === 1) return "yesterday";
  if (days < 7) return `${days} days ago`;
  return new Date(then).toLocaleDateString();
}

function sessionRow(s: SessionSummary): HTMLElement {
  const row = el("div", "session-row");
  row.dataset.sessionId = s.sessionId;
  if (s.sessionId === currentSessionId) row.classList.add("current");
  const open = button("", "session-open");
  const title = el("span", "session-title", s.title || s.sessionId.slice(0, 8));
  if (s.sessionId === currentSessionId) title.append(el("span", "session-current", " · current"));
  open.append(title);
  const when = s.updatedAt ? relativeTime(s.updatedAt) : "";
  const size = typeof s.used === "number" && typeof s.size === "number" ? ` · ${formatTokens(s.used)} / ${formatTokens(s.size)}` : "";
  open.append(el("span", "session-meta", `${when}${size}${s.model ? ` · ${s.model}` : ""}`));
  if (s.updatedAt) open.title = new Date(s.updatedAt).toLocaleString();
  open.addEventListener("click", () => {
    closeView(sessionsView);
    if (s.sessionId !== currentSessionId) send({ type: "loadSession", sessionId: s.sessionId });
  });
  const rename = button("Rename", "session-rename", "Rename this session");
  rename.addEventListener("click", () => startRename(row, s));
  const del = button("Delete", "session-delete", "Delete this session");
  del.addEventListener("click", () => {
    if (del.dataset.confirm !== "true") {
      del.dataset.confirm = "true";
      del.textContent = "Delete?";
      del.title = "Click again to delete for good";
      return;
    }
    send({ type: "deleteSession", sessionId: s.sessionId });
    sessions = sessions.filter((x) => x.sessionId !== s.sessionId);
    renderSessions();
  });
  row.append(open, rename, del);
  return row;
}

function startRename(row: HTMLElement, s: SessionSummary): void {
  const box = el("input", "session-rename-input");
  box.value = s.title ?? "";
  const finish = (save: boolean) => {
    const title = box.value.trim();
    if (save && title && title !== s.title) {
      s.title = title;
      send({ type: "renameSession", sessionId: s.sessionId, title });
    }
    renderSessions();
  };
  box.addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      finish(true);
    } else if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      finish(false);
    }
  });
  box.addEventListener("blur", () => finish(true));
  row.replaceChildren(box);
  box.focus();
  box.select();
}

function renderSessions(): void {
  const list = sessionsView.querySelector(".session-rows") ?? el("div", "session-rows");
  const query = filterBox.value.trim().toLowerCase();
  const shown = sessions.filter((s) => !query || `${s.title ?? ""} ${s.sessionId} ${s.model ?? ""}`.toLowerCase().includes(query));
  list.replaceChildren(...shown.map(sessionRow));
  if (sessions.length === 0) list.appendChild(el("div", "empty", "No earlier sessions in this workspace."));
  else if (shown.length === 0) list.appendChild(el("div", "empty", `No session matches “${filterBox.value.trim()}”.`));
  if (!list.isConnected) sessionsView.appendChild(list);
}

export function showSessions(list: SessionSummary[]): void {
  sessions = list;
  header(sessionsView, "Sessions");
  const keep = filterBox.value;
  sessionsView.appendChild(filterBox);
  filterBox.value = keep;
  renderSessions();
  openView(sessionsView);
  filterBox.focus();
}
