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

// test/unit/gaugeFormat.test.ts
var import_strict = __toESM(require("node:assert/strict"));
var import_node_test = require("node:test");

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
var GaugeTracker = class {
  current;
  session;
  get gauge() {
    return this.current;
  }
  get sessionId() {
    return this.session;
  }
  /** Focus a session (or none); its gauge starts empty until one is offered. */
  setSession(sessionId) {
    if (sessionId !== this.session) this.current = void 0;
    this.session = sessionId;
  }
  /** Returns true when the gauge was accepted. */
  offer(g) {
    if (!g || typeof g.used !== "number" || typeof g.size !== "number") return false;
    if (this.session === void 0 || g.sessionId !== this.session) return false;
    const cur = this.current;
    if (cur && typeof g.seq === "number" && g.seq < cur.seq) return false;
    this.current = g;
    return true;
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

// test/unit/gaugeFormat.test.ts
(0, import_node_test.test)("formatTokens abbreviates to one decimal and drops a zero decimal", () => {
  import_strict.default.equal(formatTokens(0), "0");
  import_strict.default.equal(formatTokens(999), "999");
  import_strict.default.equal(formatTokens(1e3), "1K");
  import_strict.default.equal(formatTokens(1050), "1.1K");
  import_strict.default.equal(formatTokens(142300), "142.3K");
  import_strict.default.equal(formatTokens(2e5), "200K");
  import_strict.default.equal(formatTokens(999949), "999.9K");
  import_strict.default.equal(formatTokens(999960), "1M");
  import_strict.default.equal(formatTokens(1e6), "1M");
  import_strict.default.equal(formatTokens(125e4), "1.3M");
  import_strict.default.equal(formatTokens(-2500), "-2.5K");
  import_strict.default.equal(formatTokens(Number.NaN), "?");
});
(0, import_node_test.test)("formatPercent floors, so 71.9% never reads as 72% before it is", () => {
  import_strict.default.equal(formatPercent(71.15), "71%");
  import_strict.default.equal(formatPercent(71.99), "71%");
  import_strict.default.equal(formatPercent(0), "0%");
  import_strict.default.equal(formatPercent(0.2), "<1%");
  import_strict.default.equal(formatPercent(100), "100%");
});
(0, import_node_test.test)("gaugeText is used / size \xB7 percentUsed", () => {
  import_strict.default.equal(gaugeText(gauge()), "142.3K / 200K \xB7 71%");
  import_strict.default.equal(gaugeText(gauge({ used: 12e3, size: 1e6, percentUsed: 1.2 })), "12K / 1M \xB7 1%");
  import_strict.default.equal(gaugeText({ used: 5e4, size: 2e5, percentUsed: Number.NaN }), "50K / 200K \xB7 25%");
});
(0, import_node_test.test)("gaugeColor maps levels onto the status bar's two alert colours", () => {
  import_strict.default.equal(gaugeColor("ok"), void 0);
  import_strict.default.equal(gaugeColor("warning"), "warning");
  import_strict.default.equal(gaugeColor("error"), "error");
  import_strict.default.equal(gaugeColor("blocking"), "error");
  import_strict.default.equal(gaugeColor("something-new"), void 0);
});
(0, import_node_test.test)("the tooltip names the threshold, breakdown, source, compactions and breaker", () => {
  const md = gaugeTooltipMarkdown(gauge());
  import_strict.default.match(md, /\*\*Context: 142\.3K \/ 200K · 71%\*\* \(ok\)/);
  import_strict.default.match(md, /\| Auto-compact at \| 167,000 \(14% left\) \|/);
  import_strict.default.match(md, /\| Tool results \| 36,100 \|/);
  import_strict.default.match(md, /\| Reserved for output \| 20,000 \|/);
  import_strict.default.match(md, /Source: Counted by the provider/);
  import_strict.default.match(md, /Compactions: 3 \(session_memory 1, full 2\)/);
  import_strict.default.match(md, /circuit breaker closed/);
  import_strict.default.match(md, /Cost so far: 0\.4213 USD/);
  const off = gaugeTooltipMarkdown(gauge({ autoCompactAt: null, source: "estimate", autoCompact: { enabled: false, circuitBreaker: "open", consecutiveFailures: 3 } }));
  import_strict.default.match(off, /\| Auto-compact \| off \|/);
  import_strict.default.match(off, /Source: Estimated/);
  import_strict.default.match(off, /circuit breaker \*\*open\*\* after 3 failures/);
});
(0, import_node_test.test)("GaugeTracker drops stale seqs and other sessions' gauges", () => {
  const t = new GaugeTracker();
  import_strict.default.equal(t.offer(gauge()), false, "nothing is accepted before a session is focused");
  t.setSession("s-1");
  import_strict.default.equal(t.offer(gauge({ seq: 5, used: 1e3 })), true);
  import_strict.default.equal(t.offer(gauge({ seq: 4, used: 9e3 })), false);
  import_strict.default.equal(t.gauge?.used, 1e3);
  import_strict.default.equal(t.offer(gauge({ seq: 5, used: 1200 })), true, "an equal seq is the same state, re-sent");
  import_strict.default.equal(t.offer(gauge({ sessionId: "other", seq: 99 })), false);
  import_strict.default.equal(t.offer(gauge({ seq: 6, used: 2e3 })), true);
  t.setSession("s-2");
  import_strict.default.equal(t.gauge, void 0);
  import_strict.default.equal(t.offer(gauge({ sessionId: "s-2", seq: 1 })), true, "seq numbering is per session");
});
//# sourceMappingURL=gaugeFormat.test.js.map
