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

// test/unit/contextMarkdown.test.ts
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

// src/chat/contextMarkdown.ts
function fence(value) {
  const text = typeof value === "string" ? value : JSON.stringify(value, null, 2);
  const ticks = text.includes("```") ? "````" : "```";
  return `${ticks}${typeof value === "string" ? "text" : "json"}
${text}
${ticks}`;
}
function bar(used, size, width = 40) {
  const filled = size > 0 ? Math.min(width, Math.round(used / size * width)) : 0;
  return `\`${"\u2588".repeat(filled)}${"\u2591".repeat(width - filled)}\``;
}
function contextMarkdown(view) {
  const g = view.gauge;
  const out = [];
  out.push(`# Context: ${g.model}`);
  out.push("");
  out.push(`${bar(g.used, g.size)} ${formatTokens(g.used)} / ${formatTokens(g.size)} (${formatPercent(g.percentUsed)})`);
  out.push("");
  out.push(gaugeTooltipMarkdown(g));
  const sections = [
    ["Prefix (system and user context)", view.prefix],
    ["Files read", view.fileReadState],
    ["Messages", view.messages]
  ];
  for (const [heading, value] of sections) {
    if (value === void 0 || value === null) continue;
    out.push("", `## ${heading}`, "");
    if (Array.isArray(value) && value.every((v) => typeof v === "object" && v !== null)) {
      out.push(`${value.length} entr${value.length === 1 ? "y" : "ies"}`, "");
    }
    out.push(fence(value));
  }
  return out.join("\n") + "\n";
}

// src/chat/html.ts
function attr(value) {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}
function contentSecurityPolicy(cspSource, nonce) {
  return [
    "default-src 'none'",
    `img-src ${cspSource} data:`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`
  ].join("; ");
}
function chatHtml(p) {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(contentSecurityPolicy(p.cspSource, p.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${attr(p.styleUri)}">
<title>Context Sidecar</title>
</head>
<body>
<header id="toolbar">
  <button id="new" type="button" title="Start a new session">New</button>
  <button id="sessions" type="button" title="Resume an earlier session">Sessions</button>
  <button id="compact" type="button" title="Compact the conversation now (/compact [instructions])">Compact</button>
  <button id="context" type="button" title="Open the context view (/context)">Context</button>
  <span id="title" class="title"></span>
</header>
<div id="gauge" class="gauge" hidden>
  <div class="gauge-bar"><div class="gauge-fill"></div><div class="gauge-mark" hidden></div></div>
  <span class="gauge-text"></span>
</div>
<div id="session-list" class="session-list" hidden></div>
<main id="transcript" aria-live="polite"></main>
<footer id="composer">
  <textarea id="input" rows="3" placeholder="Ask the model\u2026 (/compact [instructions], /context, /clear, /model NAME)"></textarea>
  <div class="composer-actions">
    <span id="status" class="status"></span>
    <button id="cancel" type="button" title="Stop the running turn" hidden>Cancel</button>
    <button id="send" type="button" class="primary">Send</button>
  </div>
</footer>
<script nonce="${attr(p.nonce)}" src="${attr(p.scriptUri)}"></script>
</body>
</html>`;
}

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

// test/unit/contextMarkdown.test.ts
(0, import_node_test.test)("the /context document shows the gauge, breakdown and the sidecar's sections", () => {
  const md = contextMarkdown({ gauge: gauge(), prefix: { claudeMd: ["CLAUDE.md"] }, fileReadState: [{ path: "a.py" }], messages: "```weird```" });
  import_strict.default.match(md, /^# Context: claude-sonnet-4-5/);
  import_strict.default.match(md, /142\.3K \/ 200K \(71%\)/);
  import_strict.default.match(md, /\| Messages \| 90,000 \|/);
  import_strict.default.match(md, /## Files read\n\n1 entry\n\n```json/);
  import_strict.default.match(md, /````text\n```weird```\n````/, "a fence inside content cannot close ours");
});
(0, import_node_test.test)("the webview HTML has a strict CSP with one nonce and no inline code", () => {
  const html = chatHtml({ cspSource: "vscode-resource:", nonce: "abc123", scriptUri: "x/webview.js", styleUri: "x/webview.css" });
  import_strict.default.equal(
    contentSecurityPolicy("vscode-resource:", "abc123"),
    "default-src 'none'; img-src vscode-resource: data:; style-src vscode-resource:; font-src vscode-resource:; script-src 'nonce-abc123'"
  );
  import_strict.default.ok(html.includes(`content="default-src 'none';`));
  const scripts = html.match(/<script[^>]*>/g) ?? [];
  import_strict.default.deepEqual(scripts, ['<script nonce="abc123" src="x/webview.js">']);
  import_strict.default.doesNotMatch(html, /\son[a-z]+=/i, "no inline event handlers");
  import_strict.default.doesNotMatch(html, /https?:\/\//, "no remote resources");
});
//# sourceMappingURL=contextMarkdown.test.js.map
