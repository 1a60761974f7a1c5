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

// test/protocol/sidecar.test.ts
var import_strict = __toESM(require("node:assert/strict"));
var import_node_child_process2 = require("node:child_process");
var import_node_test = require("node:test");
var import_node = require("vscode-jsonrpc/node");

// src/shared/protocol.ts
var PROTOCOL_MAJOR = 1;
var Methods = {
  sessionNew: "session/new",
  sessionLoad: "session/load",
  sessionList: "session/list",
  sessionClose: "session/close",
  sessionPrompt: "session/prompt",
  sessionCancel: "session/cancel",
  sessionUpdate: "session/update",
  requestPermission: "session/request_permission",
  gauge: "sidecar/gauge",
  compact: "sidecar/compact",
  context: "sidecar/context",
  didChangeStatus: "sidecar/didChangeStatus"
};
var ErrorCodes = {
  invalidParams: -32602,
  requestCancelled: -32800,
  sessionNotFound: -32001,
  providerNotConfigured: -32002,
  contextWindowExceeded: -32003,
  providerError: -32004,
  compactionFailed: -32005,
  sessionBusy: -32006
};

// src/client/handshake.ts
var clientSidecarCapabilities = {
  protocolVersion: PROTOCOL_MAJOR,
  permissionRequests: true,
  compactionUpdates: true
};
function initializationOptions(settings2, editorInfo) {
  return { settings: settings2, editorInfo };
}
function withSidecarCapabilities(capabilities) {
  const experimental = typeof capabilities.experimental === "object" && capabilities.experimental !== null ? capabilities.experimental : {};
  capabilities.experimental = { ...experimental, contextSidecar: { ...clientSidecarCapabilities } };
  return capabilities;
}
function majorOf(version) {
  if (typeof version === "number" && Number.isFinite(version)) return Math.trunc(version);
  if (typeof version === "string" && /^\d+(\.\d+)*$/.test(version.trim())) {
    return Number.parseInt(version.trim().split(".")[0], 10);
  }
  return void 0;
}
function checkServerProtocol(initializeResult2) {
  const result = initializeResult2 ?? {};
  const block = result.capabilities?.experimental?.contextSidecar;
  const server = result.serverInfo?.name ? `${result.serverInfo.name}${result.serverInfo.version ? ` ${result.serverInfo.version}` : ""}` : "The server";
  if (!block) {
    return {
      ok: false,
      message: `${server} does not speak the context-sidecar protocol (no capabilities.experimental.contextSidecar in its initialize result). Check contextSidecar.serverCommand / pythonPath.`
    };
  }
  const major = majorOf(block.protocolVersion);
  if (major !== PROTOCOL_MAJOR) {
    return {
      ok: false,
      message: `${server} speaks context-sidecar protocol version ${String(block.protocolVersion)}, but this extension speaks version ${PROTOCOL_MAJOR}. Install matching versions of the extension and the sidecar (pip install -U context-sidecar, or update the extension).`
    };
  }
  const providers = Array.isArray(block.providers) ? block.providers.filter((p) => typeof p === "string") : [];
  return { ok: true, version: block.protocolVersion, providers };
}
function fixFromErrorData(data) {
  if (data === void 0 || data === null) return void 0;
  if (typeof data === "string") return data;
  if (typeof data === "object") {
    const d = data;
    for (const key of ["fix", "hint", "howToFix", "message", "reason"]) {
      if (typeof d[key] === "string" && d[key]) return d[key];
    }
    const parts = [];
    if (d.status !== void 0) parts.push(`status ${String(d.status)}`);
    if (typeof d.type === "string") parts.push(d.type);
    if (d.retryAfter !== void 0 && d.retryAfter !== null) parts.push(`retry after ${String(d.retryAfter)} s`);
    if (typeof d.tier === "string") parts.push(`tier ${d.tier}`);
    if (parts.length) return parts.join(", ");
    try {
      return JSON.stringify(data);
    } catch {
      return void 0;
    }
  }
  return String(data);
}

// src/shared/messages.ts
var SeqGate = class {
  last = 0;
  accept(message) {
    if (typeof message.seq !== "number" || !Number.isFinite(message.seq)) return false;
    if (message.seq <= this.last) return false;
    this.last = message.seq;
    return true;
  }
  /** The other side restarted its numbering (a reloaded webview says `ready` again). */
  reset() {
    this.last = 0;
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

// src/chat/controller.ts
function describeError(error) {
  const e = error ?? {};
  const message = typeof e.message === "string" && e.message ? e.message : String(error);
  const code = typeof e.code === "number" ? e.code : void 0;
  let fix = fixFromErrorData(e.data);
  if (!fix && code === ErrorCodes.providerNotConfigured) {
    fix = "Run \u201CContext Sidecar: Set API Key\u201D, or check contextSidecar.provider, model and apiKeyEnv.";
  }
  if (!fix && code === ErrorCodes.contextWindowExceeded) fix = "Run /compact, or start a new session.";
  if (!fix && code === ErrorCodes.sessionBusy) fix = "Wait for the running turn to end, or press Cancel.";
  return { message, code, fix };
}
var ChatController = class {
  constructor(hooks, cwd) {
    this.hooks = hooks;
    this.cwd = cwd;
  }
  hooks;
  cwd;
  sessionId = null;
  title = null;
  model = null;
  busy = false;
  compacting = 0;
  connection = "starting";
  port;
  gate = new SeqGate();
  tracker = new GaugeTracker();
  nextPermissionId = 1;
  pendingPermissions = /* @__PURE__ */ new Map();
  compactionsSeen = /* @__PURE__ */ new Set();
  get currentSessionId() {
    return this.sessionId;
  }
  get isBusy() {
    return this.busy;
  }
  /** The sidecar (re)connected or went away. A reconnect re-attaches the focused session. */
  async setConnection(state, port2) {
    this.connection = state;
    this.port = state === "running" ? port2 : void 0;
    if (state !== "running") {
      this.busy = false;
      this.setCompacting(false, true);
      this.cancelPendingPermissions();
    }
    this.postState();
    if (state === "running" && this.sessionId) await this.loadSession(this.sessionId);
  }
  // ---- from the webview -------------------------------------------------------------
  async handleWebviewMessage(message) {
    if (message.type === "ready") {
      this.gate.reset();
      this.gate.accept(message);
      this.postState();
      const gauge = this.tracker.gauge;
      if (gauge) this.hooks.post({ type: "gauge", gauge });
      return;
    }
    if (!this.gate.accept(message)) {
      this.hooks.log(`Dropped a stale webview message (${message.type}, seq ${message.seq}).`);
      return;
    }
    switch (message.type) {
      case "newSession":
        await this.newSession();
        return;
      case "listSessions":
        await this.listSessions();
        return;
      case "loadSession":
        await this.loadSession(message.sessionId);
        return;
      case "prompt":
        await this.prompt(message.text);
        return;
      case "cancel":
        this.cancel();
        return;
      case "compact":
        await this.compact(message.instructions);
        return;
      case "showContext":
        if (this.sessionId) this.hooks.showContext(this.sessionId);
        else this.postError({ message: "No session yet.", fix: "Send a message or press New to start one." });
        return;
      case "permissionAnswer":
        this.answerPermission(message.requestId, message.optionId);
        return;
    }
  }
  // ---- from the sidecar -------------------------------------------------------------
  onSessionUpdate(params) {
    if (!params || params.sessionId !== this.sessionId || !params.update) return;
    const update = params.update;
    switch (update.sessionUpdate) {
      case "usage_update":
        this.offerGauge(update._meta?.sidecar);
        break;
      case "compaction_update":
        this.compactionsSeen.add(update.compactionId);
        if (update.status === "in_progress") this.setCompacting(true);
        else this.setCompacting(false);
        break;
      case "session_info_update":
        if (update.title !== void 0) {
          this.title = update.title ?? null;
          this.postState();
        }
        break;
    }
    this.hooks.post({ type: "update", update });
  }
  onStatus(status) {
    this.hooks.log(`sidecar status: ${status.kind}${status.busy ? " (busy)" : ""}${status.message ? `: ${status.message}` : ""}`);
  }
  /** Shows the permission prompt in the panel and waits for the user's choice. */
  requestPermission(params, onCancel) {
    const requestId = this.nextPermissionId++;
    return new Promise((resolve2) => {
      this.pendingPermissions.set(requestId, resolve2);
      onCancel?.(() => this.answerPermission(requestId, null));
      this.hooks.post({
        type: "permission",
        requestId,
        toolCall: params.toolCall ?? {},
        options: Array.isArray(params.options) ? params.options : []
      });
    });
  }
  // ---- actions, also used by commands ------------------------------------------------
  async newSession() {
    const port2 = this.requirePort();
    if (!port2) return false;
    if (this.busy) this.cancel();
    try {
      const started = await port2.request(Methods.sessionNew, { cwd: this.cwd() });
      this.focus(started.sessionId, null, started.model);
      this.hooks.post({ type: "reset" });
      this.offerGauge(started.gauge);
      this.postState();
      return true;
    } catch (error) {
      this.postError(describeError(error));
      return false;
    }
  }
  async listSessions() {
    const port2 = this.requirePort();
    if (!port2) return [];
    try {
      const result = await port2.request(Methods.sessionList, { cwd: this.cwd() });
      const sessions = Array.isArray(result?.sessions) ? result.sessions : [];
      this.hooks.post({ type: "sessions", sessions });
      return sessions;
    } catch (error) {
      this.postError(describeError(error));
      return [];
    }
  }
  async loadSession(sessionId) {
    const port2 = this.requirePort();
    if (!port2) return false;
    if (this.busy && sessionId !== this.sessionId) this.cancel();
    const previous = { id: this.sessionId, title: this.title, model: this.model };
    this.focus(sessionId, null, null);
    this.hooks.post({ type: "reset" });
    this.postState();
    try {
      const loaded = await port2.request(Methods.sessionLoad, { sessionId });
      this.model = loaded.model ?? null;
      this.offerGauge(loaded.gauge);
      this.postState();
      return true;
    } catch (error) {
      this.focus(previous.id, previous.title, previous.model);
      this.postState();
      this.postError(describeError(error));
      return false;
    }
  }
  async prompt(text) {
    const trimmed = text.trim();
    if (!trimmed) return void 0;
    const compact = /^\/compact(?:\s+([\s\S]*))?$/.exec(trimmed);
    if (compact) {
      await this.compact(compact[1]?.trim() || void 0);
      return void 0;
    }
    if (this.busy) {
      this.postError({ message: "A turn is already running.", fix: "Wait for it to end, or press Cancel." });
      return void 0;
    }
    const port2 = this.requirePort();
    if (!port2) return void 0;
    if (!this.sessionId && !await this.newSession()) return void 0;
    const sessionId = this.sessionId;
    this.hooks.post({ type: "userPrompt", text: trimmed });
    this.busy = true;
    this.postState();
    try {
      const result = await port2.request(Methods.sessionPrompt, {
        sessionId,
        prompt: [{ type: "text", text: trimmed }]
      });
      if (sessionId === this.sessionId) {
        this.offerGauge(result?.gauge);
        this.hooks.post({ type: "turnEnded", stopReason: String(result?.stopReason ?? "end_turn") });
      }
      return result;
    } catch (error) {
      if (sessionId === this.sessionId) this.postError(describeError(error));
      return void 0;
    } finally {
      if (sessionId === this.sessionId) {
        this.busy = false;
        this.postState();
      }
    }
  }
  cancel() {
    this.cancelPendingPermissions();
    if (!this.sessionId || !this.port) return;
    this.port.notify(Methods.sessionCancel, { sessionId: this.sessionId });
  }
  async compact(instructions) {
    const port2 = this.requirePort();
    if (!port2) return void 0;
    if (!this.sessionId) {
      this.postError({ message: "No session to compact.", fix: "Start a session first." });
      return void 0;
    }
    const sessionId = this.sessionId;
    this.setCompacting(true);
    try {
      const params = { sessionId };
      if (instructions) params.instructions = instructions;
      const result = await port2.request(Methods.compact, params);
      if (result && !this.compactionsSeen.has(result.compactionId) && sessionId === this.sessionId) {
        this.hooks.post({
          type: "update",
          update: {
            sessionUpdate: "compaction_update",
            compactionId: result.compactionId,
            status: result.status === "completed" ? "completed" : "failed",
            tier: result.tier,
            trigger: "manual",
            tokensBefore: result.tokensBefore,
            tokensAfter: result.tokensAfter
          }
        });
      }
      await this.refreshGauge();
      return result;
    } catch (error) {
      if (sessionId === this.sessionId) this.postError(describeError(error));
      return void 0;
    } finally {
      this.setCompacting(false);
    }
  }
  async refreshGauge() {
    const port2 = this.port;
    if (!port2 || !this.sessionId) return;
    try {
      this.offerGauge(await port2.request(Methods.gauge, { sessionId: this.sessionId }));
    } catch (error) {
      this.hooks.log(`sidecar/gauge failed: ${describeError(error).message}`);
    }
  }
  // ---- internals ----------------------------------------------------------------------
  focus(sessionId, title, model) {
    if (sessionId !== this.sessionId) {
      this.compactionsSeen.clear();
      this.busy = false;
    }
    this.sessionId = sessionId;
    this.title = title;
    this.model = model;
    this.tracker.setSession(sessionId ?? void 0);
    this.hooks.gaugeChanged(void 0);
  }
  offerGauge(gauge) {
    if (this.tracker.offer(gauge)) {
      const g = this.tracker.gauge;
      if (g.model) this.model = g.model;
      this.hooks.gaugeChanged(g);
      this.hooks.post({ type: "gauge", gauge: g });
    }
  }
  setCompacting(on, reset = false) {
    const before2 = this.compacting > 0;
    if (reset) this.compacting = 0;
    else if (on) this.compacting += 1;
    else this.compacting = Math.max(0, this.compacting - 1);
    const after2 = this.compacting > 0;
    if (before2 !== after2) {
      this.hooks.compactingChanged(after2);
      this.postState();
    }
  }
  answerPermission(requestId, optionId) {
    const resolve2 = this.pendingPermissions.get(requestId);
    if (!resolve2) return;
    this.pendingPermissions.delete(requestId);
    resolve2(optionId ? { outcome: { outcome: "selected", optionId } } : { outcome: { outcome: "cancelled" } });
    this.hooks.post({ type: "permissionDone", requestId, optionId });
  }
  cancelPendingPermissions() {
    for (const id of [...this.pendingPermissions.keys()]) this.answerPermission(id, null);
  }
  requirePort() {
    if (this.port) return this.port;
    const message = this.connection === "starting" ? "The sidecar is still starting." : "The sidecar is not running.";
    this.postError({ message, fix: "See the \u201CContext Sidecar\u201D output channel, or run \u201CContext Sidecar: Restart\u201D." });
    return void 0;
  }
  postError(e) {
    this.hooks.post({ type: "error", ...e });
  }
  postState() {
    this.hooks.post({
      type: "state",
      connection: this.connection,
      sessionId: this.sessionId,
      title: this.title,
      model: this.model,
      busy: this.busy,
      compacting: this.compacting > 0
    });
  }
};

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

// test/support/processes.ts
var import_node_child_process = require("node:child_process");
var import_node_fs = require("node:fs");
var import_node_os = require("node:os");
var path = __toESM(require("node:path"));
var import_node_readline = require("node:readline");
var EXTENSION_ROOT = path.resolve(__dirname, "..", "..");
var REPO_ROOT = path.resolve(EXTENSION_ROOT, "..");
var PYTHON = process.env.PYTHON || path.join(REPO_ROOT, ".venv", "bin", "python");
function pythonAvailable() {
  return (0, import_node_fs.existsSync)(PYTHON);
}
function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms);
    })
  ]);
}
function killGroup(child, signal = "SIGTERM") {
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
    }
  }
}
async function stopGroup(child, graceMs = 3e3) {
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve2) => child.once("exit", () => resolve2()));
  killGroup(child, "SIGTERM");
  try {
    await withTimeout(exited, graceMs, "process exit");
  } catch {
    killGroup(child, "SIGKILL");
    await withTimeout(exited, 2e3, "process exit after SIGKILL").catch(() => void 0);
  }
}
async function startFakeLlm() {
  const child = (0, import_node_child_process.spawn)(PYTHON, ["-m", "sidecar.providers.fake_llm", "--port", "0"], {
    cwd: REPO_ROOT,
    detached: true,
    // The fake stops at end of stdin, so it also goes away if this process dies.
    stdio: ["pipe", "pipe", "pipe"]
  });
  let stderr2 = "";
  child.stderr.on("data", (d) => stderr2 += d);
  const lines = (0, import_node_readline.createInterface)({ input: child.stdout });
  const url = await withTimeout(
    new Promise((resolve2, reject) => {
      lines.on("line", (line) => {
        const m = /^FAKE_LLM_URL=(\S+)/.exec(line.trim());
        if (m) resolve2(m[1]);
      });
      child.once("exit", (code) => reject(new Error(`fake LLM server exited (${code}): ${stderr2}`)));
    }),
    2e4,
    "FAKE_LLM_URL line from the fake LLM server"
  ).catch(async (error) => {
    await stopGroup(child);
    throw error;
  });
  const call = async (method, route, body) => {
    const response = await fetch(`${url}${route}`, {
      method,
      headers: body === void 0 ? void 0 : { "content-type": "application/json" },
      body: body === void 0 ? void 0 : JSON.stringify(body),
      signal: AbortSignal.timeout(5e3)
    });
    const json = await response.json();
    if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  return {
    url,
    process: child,
    queue: async (replies) => void await call("POST", "/_fake/replies", { replies }),
    requests: async () => (await call("GET", "/_fake/requests")).requests,
    reset: async () => void await call("POST", "/_fake/reset", {}),
    stop: () => stopGroup(child)
  };
}
function scratchDirs(prefix) {
  const root = (0, import_node_fs.mkdtempSync)(path.join((0, import_node_os.tmpdir)(), prefix));
  const dirs2 = {
    root,
    home: path.join(root, "home"),
    workspace: path.join(root, "workspace"),
    storage: path.join(root, "storage")
  };
  for (const dir of [dirs2.home, dirs2.workspace, dirs2.storage]) (0, import_node_fs.mkdirSync)(dir, { recursive: true });
  return dirs2;
}

// test/protocol/sidecar.test.ts
var skip = pythonAvailable() ? false : `no Python at ${PYTHON} (set PYTHON)`;
var T = 2e4;
var fake;
var sidecar;
var connection;
var initializeResult;
var stderr = "";
var updates = [];
var statuses = [];
var dirs = scratchDirs("sidecar-protocol-");
(0, import_node_test.before)(async () => {
  if (skip) return;
  fake = await startFakeLlm();
  sidecar = (0, import_node_child_process2.spawn)(PYTHON, ["-m", "sidecar", "serve", "--stdio"], {
    cwd: dirs.workspace,
    detached: true,
    stdio: ["pipe", "pipe", "pipe"],
    env: {
      ...process.env,
      HOME: dirs.home,
      XDG_CONFIG_HOME: `${dirs.home}/.config`,
      XDG_DATA_HOME: `${dirs.home}/.local/share`,
      PYTHONPATH: REPO_ROOT,
      FAKE_LLM_KEY: "test",
      ANTHROPIC_API_KEY: ""
    }
  });
  sidecar.stderr.on("data", (d) => stderr += d);
  connection = (0, import_node.createMessageConnection)(new import_node.StreamMessageReader(sidecar.stdout), new import_node.StreamMessageWriter(sidecar.stdin));
  connection.onNotification("session/update", (p) => updates.push(p));
  connection.onNotification("sidecar/didChangeStatus", (p) => statuses.push(p));
  connection.onRequest(
    "workspace/configuration",
    (p) => p.items.map((i) => i.section === "contextSidecar" ? settings() : null)
  );
  connection.onRequest("client/registerCapability", () => null);
  connection.onRequest("window/workDoneProgress/create", () => null);
  connection.onNotification(() => void 0);
  connection.listen();
  initializeResult = await withTimeout(
    connection.sendRequest("initialize", {
      processId: process.pid,
      rootUri: `file://${dirs.workspace}`,
      workspaceFolders: [{ uri: `file://${dirs.workspace}`, name: "workspace" }],
      capabilities: withSidecarCapabilities({ workspace: { configuration: true }, window: { workDoneProgress: true } }),
      initializationOptions: initializationOptions(settings(), { name: "protocol-test", version: "1" })
    }),
    T,
    "initialize"
  ).catch((e) => {
    throw new Error(`${e.message}
sidecar stderr:
${stderr}`);
  });
  await connection.sendNotification("initialized", {});
});
(0, import_node_test.after)(async () => {
  if (skip) return;
  try {
    await withTimeout(connection.sendRequest("shutdown"), 5e3, "shutdown");
    await connection.sendNotification("exit");
  } catch {
  }
  connection?.dispose();
  await stopGroup(sidecar);
  await fake?.stop();
});
function settings() {
  return { provider: "anthropic", model: "claude-sonnet-4-5", baseUrl: fake.url, apiKeyEnv: "FAKE_LLM_KEY", storageDir: dirs.storage };
}
function port() {
  return {
    request: (method, params) => withTimeout(connection.sendRequest(method, params), T, method),
    notify: (method, params) => void connection.sendNotification(method, params)
  };
}
function controllerHarness() {
  const posts = [];
  const gauges = [];
  const controller = new ChatController(
    {
      post: (b) => posts.push(b),
      gaugeChanged: (g) => g && gauges.push(g),
      compactingChanged: () => void 0,
      showContext: () => void 0,
      log: () => void 0
    },
    () => dirs.workspace
  );
  connection.onNotification("session/update", (p) => {
    updates.push(p);
    controller.onSessionUpdate(p);
  });
  return { controller, posts, gauges };
}
(0, import_node_test.test)("initialize: the sidecar answers protocol 1 and the extension accepts it", { skip }, () => {
  import_strict.default.equal(initializeResult.serverInfo?.name, "context-sidecar");
  const verdict = checkServerProtocol(initializeResult);
  import_strict.default.equal(verdict.ok, true, JSON.stringify(initializeResult.capabilities?.experimental));
  import_strict.default.ok(verdict.providers.includes("anthropic"));
});
(0, import_node_test.test)("a chat turn through the ChatController streams text and updates the gauge", { skip }, async () => {
  await fake.reset();
  await fake.queue([
    { content: [{ type: "text", text: "Hello from the fake model, streamed in pieces." }], chunk_size: 6, usage: { input_tokens: 142300, output_tokens: 12 } }
  ]);
  const { controller, posts, gauges } = controllerHarness();
  await controller.setConnection("running", port());
  const result = await withTimeout(controller.prompt("Say hello"), T, "session/prompt");
  import_strict.default.equal(result?.stopReason, "end_turn", `posts: ${JSON.stringify(posts.filter((p) => p.type === "error"))}
${stderr.slice(-2e3)}`);
  const sessionId = controller.currentSessionId;
  import_strict.default.ok(sessionId);
  const chunks = updates.filter((u) => u.sessionId === sessionId && u.update.sessionUpdate === "agent_message_chunk");
  import_strict.default.ok(chunks.length >= 1, "at least one agent_message_chunk");
  const streamed = chunks.map((u) => u.update.content.text).join("");
  import_strict.default.equal(streamed, "Hello from the fake model, streamed in pieces.");
  const forwarded = posts.filter((p) => p.type === "update" && p.update.sessionUpdate === "agent_message_chunk").map((p) => p.update.content.text).join("");
  import_strict.default.equal(forwarded, streamed, "the controller forwards every chunk to the webview");
  const usage = updates.filter((u) => u.sessionId === sessionId && u.update.sessionUpdate === "usage_update");
  import_strict.default.ok(usage.length >= 2, "usage_update after session/new and after the response");
  const lastUsage = usage.at(-1).update;
  const meta = lastUsage._meta.sidecar;
  import_strict.default.equal(meta.sessionId, sessionId);
  import_strict.default.equal(lastUsage.used, meta.used);
  import_strict.default.equal(lastUsage.size, meta.size);
  import_strict.default.ok(meta.used >= 142300, `used ${meta.used} is anchored on the provider's usage`);
  import_strict.default.equal(meta.size, 2e5);
  import_strict.default.equal(meta.source, "provider");
  import_strict.default.equal(meta.autoCompactAt, 167e3);
  const seqs = usage.map((u) => u.update._meta.sidecar.seq);
  import_strict.default.deepEqual([...seqs].sort((a, b) => a - b), seqs, "seq rises");
  const gauge = await withTimeout(connection.sendRequest("sidecar/gauge", { sessionId }), T, "sidecar/gauge");
  import_strict.default.equal(gauge.used, meta.used, "sidecar/gauge and usage_update agree");
  import_strict.default.ok(gauge.seq >= meta.seq);
  import_strict.default.equal(gauges.at(-1).used, gauge.used, "the status bar got the same number");
  const view = statusView({ connection: "running", sessionId, gauge, compacting: false, clickAction: "showContext" });
  import_strict.default.equal(view.text, `$(pulse) ${gaugeText(gauge)}`);
  import_strict.default.match(view.text, /^\$\(pulse\) 14\d\.\dK \/ 200K · 7\d%$/);
  const recorded = await fake.requests();
  import_strict.default.ok(recorded.length >= 1);
  import_strict.default.match(JSON.stringify(recorded[0].body.messages), /Say hello/);
});
(0, import_node_test.test)("session/list shows the session and session/load replays it", { skip }, async () => {
  const list = await withTimeout(connection.sendRequest("session/list", { cwd: dirs.workspace }), T, "session/list");
  import_strict.default.ok(list.sessions.length >= 1);
  const sessionId = list.sessions[0].sessionId;
  const { controller, posts } = controllerHarness();
  await controller.setConnection("running", port());
  import_strict.default.equal(await controller.loadSession(sessionId), true, JSON.stringify(posts.filter((p) => p.type === "error")));
  const replayed = posts.filter((p) => p.type === "update").map((p) => p.update.sessionUpdate);
  import_strict.default.ok(replayed.includes("user_message_chunk"), `replay: ${replayed.join(", ")}`);
  import_strict.default.ok(replayed.includes("agent_message_chunk"));
});
(0, import_node_test.test)("errors name the problem: unknown session -> -32001", { skip }, async () => {
  await import_strict.default.rejects(
    withTimeout(connection.sendRequest("sidecar/gauge", { sessionId: "no-such-session" }), T, "sidecar/gauge"),
    (e) => e.code === -32001
  );
});
(0, import_node_test.test)("/compact with instructions compacts and reports tokens before and after", { skip }, async () => {
  await fake.reset();
  await fake.queue([
    { content: [{ type: "text", text: "First answer." }], usage: { input_tokens: 6e4, output_tokens: 5 } },
    { content: [{ type: "text", text: "<summary>1. Primary Request: say hello</summary>" }] }
  ]);
  const { controller, posts } = controllerHarness();
  await controller.setConnection("running", port());
  await withTimeout(controller.prompt("Another question"), T, "session/prompt");
  const result = await withTimeout(controller.compact("focus on greetings"), T, "sidecar/compact");
  const errors = posts.filter((p) => p.type === "error");
  import_strict.default.ok(result, `compact failed: ${JSON.stringify(errors)}
${stderr.slice(-2e3)}`);
  import_strict.default.equal(result.status, "completed");
  import_strict.default.ok((result.tokensBefore ?? 0) > (result.tokensAfter ?? Infinity), JSON.stringify(result));
  const rows = posts.filter((p) => p.type === "update" && p.update.sessionUpdate === "compaction_update").map((p) => p.update);
  import_strict.default.ok(rows.some((r) => r.status === "completed"), JSON.stringify(rows));
  const requests = await fake.requests();
  import_strict.default.match(JSON.stringify(requests.at(-1)), /focus on greetings/, "the instructions reach the summarizer");
});
//# sourceMappingURL=sidecar.test.js.map
