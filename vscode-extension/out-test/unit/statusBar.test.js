"use strict";
var __create = Object.create;
var __defProp = Object.defineProperty;
var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __getProtoOf = Object.getPrototypeOf;
var __hasOwnProp = Object.prototype.hasOwnProperty;
var __copyProps = (to, from, except, desc) => {
  if (from && typeof from === "object" || typeof from === "function") {
    for (let key of __getOwnPropNames(from))
      if (!__hasOwnProp.call(to, key) && key !== except)
        __defProp(to, key, { get: () => from[key], enumerable: !(desc = __getOwnPropDesc(from, key)) || desc.enumerable });
  }
  return to;
};
var __toESM = (mod, isNodeMode, target) => (target = mod != null ? __create(__getProtoOf(mod)) : {}, __copyProps(
  // If the importer is in node compatibility mode or this is not an ESM
  // file that has been converted to a CommonJS file using a Babel-
  // compatible transform (i.e. "__esModule" has not been set), then set
  // "default" to the CommonJS "module.exports" for node compatibility.
  isNodeMode || !mod || !mod.__esModule ? __defProp(target, "default", { value: mod, enumerable: true }) : target,
  mod
));

// test/unit/statusBar.test.ts
var import_strict = __toESM(require("node:assert/strict"));
var import_node_test = require("node:test");

// test/mocks/vscode.ts
var import_node_fs = require("node:fs");
var path = __toESM(require("node:path"));
var pkg = JSON.parse((0, import_node_fs.readFileSync)(path.join(__dirname, "..", "..", "package.json"), "utf8"));
var defaults = Object.fromEntries(
  Object.entries(pkg.contributes.configuration.properties).map(([k, v]) => [k, v.default])
);
var ThemeColor = class {
  constructor(id) {
    this.id = id;
  }
  id;
};
var MarkdownString = class {
  constructor(value = "", supportThemeIcons = false) {
    this.value = value;
    this.supportThemeIcons = supportThemeIcons;
  }
  value;
  supportThemeIcons;
};
var __recorded = {
  statusBarItems: [],
  messages: [],
  commands: [],
  reset() {
    this.statusBarItems = [];
    this.messages = [];
    this.commands = [];
  }
};
var window = {
  createStatusBarItem(id, alignment, priority) {
    const item2 = {
      id,
      alignment,
      priority,
      text: "",
      visible: false,
      disposed: false,
      show() {
        item2.visible = true;
      },
      hide() {
        item2.visible = false;
      },
      dispose() {
        item2.disposed = true;
      }
    };
    __recorded.statusBarItems.push(item2);
    return item2;
  },
  async showErrorMessage(text) {
    __recorded.messages.push({ level: "error", text });
    return void 0;
  },
  async showWarningMessage(text) {
    __recorded.messages.push({ level: "warning", text });
    return void 0;
  },
  async showInformationMessage(text) {
    __recorded.messages.push({ level: "info", text });
    return void 0;
  }
};

// src/status/gaugeFormat.ts
function formatTokens(n) {
  if (!Number.isFinite(n)) return "?";
  const sign = n < 0 ? "-" : "";
  const abs = Math.abs(n);
  if (abs < 1e3) return `${sign}${Math.round(abs)}`;
  const [value, unit] = abs < 999950 ? [abs / 1e3, "K"] : [abs / 1e6, "M"];
  const rounded = Math.round(value * 10) / 10;
  const text = Number.isInteger(rounded) ? rounded.toFixed(0) : rounded.toFixed(1);
  return `${sign}${text}${unit}`;
}
function formatPercent(p) {
  if (!Number.isFinite(p)) return "?%";
  if (p > 0 && p < 1) return "<1%";
  return `${Math.floor(p)}%`;
}
function gaugeText(g) {
  const percent = Number.isFinite(g.percentUsed) ? g.percentUsed : g.size > 0 ? g.used / g.size * 100 : NaN;
  return `${formatTokens(g.used)} / ${formatTokens(g.size)} \xB7 ${formatPercent(percent)}`;
}
function gaugeColor(level) {
  if (level === "warning") return "warning";
  if (level === "error" || level === "blocking") return "error";
  return void 0;
}
var breakdownLabels = [
  ["system", "System prompt"],
  ["tools", "Tools"],
  ["memoryFiles", "Memory files"],
  ["messages", "Messages"],
  ["toolResults", "Tool results"],
  ["summary", "Summary"],
  ["reservedOutput", "Reserved for output"],
  ["free", "Free"]
];
function compactionCount(c) {
  if (typeof c === "number") return { total: c, byTier: "" };
  if (!c || typeof c !== "object") return { total: 0, byTier: "" };
  const entries = Object.entries(c).filter(([, n]) => typeof n === "number" && n > 0);
  const total = entries.reduce((sum, [, n]) => sum + n, 0);
  return { total, byTier: entries.map(([tier, n]) => `${tier} ${n}`).join(", ") };
}
function gaugeTooltipMarkdown(g) {
  const lines = [];
  lines.push(`**Context: ${gaugeText(g)}** (${g.level})`);
  lines.push("");
  lines.push(`${g.provider} \xB7 ${g.model}`);
  lines.push("");
  lines.push("| | tokens |");
  lines.push("|---|---:|");
  lines.push(`| Used | ${g.used.toLocaleString("en-US")} |`);
  lines.push(`| Window | ${g.size.toLocaleString("en-US")} |`);
  if (g.autoCompactAt != null) {
    const left = g.percentLeftUntilAutoCompact;
    const leftText = left == null ? "" : ` (${formatPercent(left)} left)`;
    lines.push(`| Auto-compact at | ${g.autoCompactAt.toLocaleString("en-US")}${leftText} |`);
  } else {
    lines.push("| Auto-compact | off |");
  }
  for (const [key, label] of breakdownLabels) {
    const n = g.breakdown?.[key];
    if (typeof n === "number") lines.push(`| ${label} | ${n.toLocaleString("en-US")} |`);
  }
  lines.push("");
  const source = g.source === "provider" ? "Counted by the provider (last API usage plus an estimate of what was added since)" : "Estimated (no provider count yet, or just compacted)";
  lines.push(`Source: ${source}`);
  const { total, byTier } = compactionCount(g.compactions);
  lines.push("");
  lines.push(`Compactions: ${total}${byTier ? ` (${byTier})` : ""}`);
  if (g.autoCompact) {
    const breaker = g.autoCompact.circuitBreaker === "open" ? `circuit breaker **open** after ${g.autoCompact.consecutiveFailures ?? "?"} failures: auto-compact paused, run /compact` : "circuit breaker closed";
    lines.push("");
    lines.push(`Auto-compact: ${g.autoCompact.enabled ? "on" : "off"}, ${breaker}`);
  }
  if (g.cost && typeof g.cost.amount === "number") {
    lines.push("");
    lines.push(`Cost so far: ${g.cost.amount.toFixed(4)} ${g.cost.currency}`);
  }
  return lines.join("\n");
}

// src/status/statusView.ts
var Commands = {
  showContext: "contextSidecar.showContext",
  compact: "contextSidecar.compact",
  setApiKey: "contextSidecar.setApiKey",
  showLog: "contextSidecar.showLog",
  restart: "contextSidecar.restart",
  newSession: "contextSidecar.newSession",
  openChat: "contextSidecar.openChat"
};
function shorten(text, max) {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length <= max ? oneLine : `${oneLine.slice(0, max - 1)}\u2026`;
}
function statusView(s) {
  if (s.connection === "failed" || s.connection === "stopped") {
    const why = s.connectionError ?? "The sidecar is not running.";
    return {
      text: "$(error) sidecar stopped",
      tooltip: `**Context Sidecar stopped**

${why}

Click to open the log.`,
      background: "error",
      command: Commands.showLog
    };
  }
  if (s.connection === "starting") {
    return { text: "$(sync~spin) sidecar", tooltip: "Context Sidecar is starting\u2026", background: void 0, command: Commands.showLog };
  }
  if (s.serverStatus?.kind === "error") {
    const message = s.serverStatus.message ?? "The sidecar reports an error.";
    const aboutKey = /key|credential|auth|not configured/i.test(message);
    return {
      text: aboutKey ? "$(key) no API key" : `$(error) ${shorten(message, 40)}`,
      tooltip: `**Context Sidecar**

${message}

${aboutKey ? "Click to set the API key." : "Click to open the log."}`,
      background: "error",
      command: aboutKey ? Commands.setApiKey : Commands.showLog
    };
  }
  const spin = s.compacting ? "$(sync~spin) " : "";
  if (!s.sessionId) {
    return {
      text: `${spin}$(comment-discussion) no session`,
      tooltip: "**Context Sidecar**: no session yet. Click to open the chat.",
      background: void 0,
      command: Commands.openChat
    };
  }
  if (!s.gauge) {
    return {
      text: `${spin}$(comment-discussion) \u2026`,
      tooltip: "**Context Sidecar**: waiting for the first token count.",
      background: void 0,
      command: s.clickAction === "compact" ? Commands.compact : Commands.showContext
    };
  }
  const action = s.clickAction === "compact" ? "Click to compact the conversation." : "Click to open the context view.";
  const compactingNote = s.compacting ? "\n\n$(sync~spin) Compacting\u2026" : "";
  const warningNote = s.serverStatus?.kind === "warning" && s.serverStatus.message ? `

$(warning) ${s.serverStatus.message}` : "";
  return {
    text: `${spin}${s.compacting ? "" : "$(pulse) "}${gaugeText(s.gauge)}`,
    tooltip: `${gaugeTooltipMarkdown(s.gauge)}${warningNote}${compactingNote}

${action}`,
    background: gaugeColor(s.gauge.level),
    command: s.clickAction === "compact" ? Commands.compact : Commands.showContext
  };
}

// src/status/gaugeStatusBar.ts
var backgrounds = {
  warning: "statusBarItem.warningBackground",
  error: "statusBarItem.errorBackground"
};
var GaugeStatusBar = class {
  item;
  state = { connection: "starting", compacting: false, clickAction: "showContext" };
  constructor() {
    this.item = window.createStatusBarItem("contextSidecar.gauge", 2 /* Right */, 100);
    this.item.name = "Context Sidecar Gauge";
    this.render();
    this.item.show();
  }
  /** The item, for tests running inside the extension host. */
  get view() {
    return this.item;
  }
  setConnection(connection, error) {
    this.update({ connection, connectionError: error });
  }
  setServerStatus(status) {
    this.update({ serverStatus: status });
  }
  setSession(sessionId, gauge2) {
    this.update({ sessionId, gauge: gauge2 });
  }
  setCompacting(compacting) {
    this.update({ compacting });
  }
  setClickAction(action) {
    this.update({ clickAction: action === "compact" ? "compact" : "showContext" });
  }
  update(patch) {
    this.state = { ...this.state, ...patch };
    this.render();
  }
  render() {
    const view = statusView(this.state);
    this.item.text = view.text;
    const tooltip = new MarkdownString(view.tooltip, true);
    this.item.tooltip = tooltip;
    this.item.backgroundColor = view.background ? new ThemeColor(backgrounds[view.background]) : void 0;
    this.item.command = view.command;
  }
  dispose() {
    this.item.dispose();
  }
};

// test/unit/fixtures.ts
function gauge(overrides = {}) {
  const used = overrides.used ?? 142300;
  const size = overrides.size ?? 2e5;
  return {
    sessionId: "s-1",
    seq: 1,
    model: "claude-sonnet-4-5",
    provider: "anthropic",
    used,
    size,
    effectiveWindow: 18e4,
    autoCompactAt: 167e3,
    warningAt: 147e3,
    errorAt: 147e3,
    blockingAt: 177e3,
    percentUsed: used / size * 100,
    percentLeftUntilAutoCompact: (167e3 - used) / 167e3 * 100,
    level: "ok",
    source: "provider",
    anchor: { apiTokens: 14e4, estimatedSince: 2300, messagesSince: 1 },
    breakdown: { system: 3e3, tools: 12e3, memoryFiles: 1200, messages: 9e4, toolResults: 36100, summary: 0, free: 37700, reservedOutput: 2e4 },
    lastTurn: { inputTokens: 12, cacheReadTokens: 139e3, cacheWriteTokens: 988, outputTokens: 400 },
    cost: { amount: 0.4213, currency: "USD" },
    compactions: { session_memory: 1, full: 2 },
    autoCompact: { enabled: true, circuitBreaker: "closed", consecutiveFailures: 0 },
    ...overrides
  };
}

// test/unit/statusBar.test.ts
(0, import_node_test.beforeEach)(() => __recorded.reset());
function item() {
  const items = __recorded.statusBarItems;
  import_strict.default.equal(items.length, 1);
  return items[0];
}
(0, import_node_test.test)("the gauge item shows used / size \xB7 percent, coloured by level", () => {
  const bar = new GaugeStatusBar();
  import_strict.default.equal(item().text, "$(sync~spin) sidecar");
  import_strict.default.equal(item().visible, true);
  import_strict.default.equal(item().alignment, 2 /* Right */);
  bar.setConnection("running");
  import_strict.default.equal(item().text, "$(comment-discussion) no session");
  import_strict.default.equal(item().command, "contextSidecar.openChat");
  bar.setSession("s-1", gauge());
  import_strict.default.equal(item().text, "$(pulse) 142.3K / 200K \xB7 71%");
  import_strict.default.equal(item().backgroundColor, void 0);
  import_strict.default.equal(item().command, "contextSidecar.showContext");
  const tooltip = item().tooltip;
  import_strict.default.ok(tooltip instanceof MarkdownString);
  import_strict.default.equal(tooltip.supportThemeIcons, true);
  import_strict.default.match(tooltip.value, /Auto-compact at \| 167,000/);
  bar.setSession("s-1", gauge({ level: "warning", used: 15e4, percentUsed: 75 }));
  import_strict.default.equal(item().text, "$(pulse) 150K / 200K \xB7 75%");
  import_strict.default.equal(item().backgroundColor?.id, "statusBarItem.warningBackground");
  bar.setSession("s-1", gauge({ level: "error" }));
  import_strict.default.equal(item().backgroundColor?.id, "statusBarItem.errorBackground");
  bar.setSession("s-1", gauge({ level: "blocking" }));
  import_strict.default.equal(item().backgroundColor?.id, "statusBarItem.errorBackground");
  bar.setCompacting(true);
  import_strict.default.equal(item().text, "$(sync~spin) 142.3K / 200K \xB7 71%");
  bar.setCompacting(false);
  bar.setClickAction("compact");
  import_strict.default.equal(item().command, "contextSidecar.compact");
  bar.dispose();
  import_strict.default.equal(item().disposed, true);
});
(0, import_node_test.test)("a provider error about the key says so and offers to set it", () => {
  const bar = new GaugeStatusBar();
  bar.setConnection("running");
  bar.setSession("s-1", gauge());
  bar.setServerStatus({ kind: "error", message: "No API key: ANTHROPIC_API_KEY is not set" });
  import_strict.default.equal(item().text, "$(key) no API key");
  import_strict.default.equal(item().backgroundColor?.id, "statusBarItem.errorBackground");
  import_strict.default.equal(item().command, "contextSidecar.setApiKey");
  bar.setServerStatus({ kind: "error", message: "Provider unreachable: connection refused to 127.0.0.1:9" });
  import_strict.default.equal(item().text, "$(error) Provider unreachable: connection refuse\u2026");
  import_strict.default.equal(item().command, "contextSidecar.showLog");
  bar.setServerStatus({ kind: "normal" });
  import_strict.default.equal(item().text, "$(pulse) 142.3K / 200K \xB7 71%");
});
(0, import_node_test.test)("a stopped sidecar wins over everything and explains why", () => {
  const v = statusView({ connection: "failed", connectionError: "cannot find the sidecar", sessionId: "s-1", gauge: gauge(), compacting: true, clickAction: "showContext" });
  import_strict.default.equal(v.text, "$(error) sidecar stopped");
  import_strict.default.equal(v.background, "error");
  import_strict.default.match(v.tooltip, /cannot find the sidecar/);
  const waiting = statusView({ connection: "running", sessionId: "s-1", compacting: false, clickAction: "compact" });
  import_strict.default.equal(waiting.text, "$(comment-discussion) \u2026");
  import_strict.default.equal(waiting.command, "contextSidecar.compact");
});
//# sourceMappingURL=statusBar.test.js.map
