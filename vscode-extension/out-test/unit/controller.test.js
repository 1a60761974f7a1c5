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

// test/unit/controller.test.ts
var import_strict = __toESM(require("node:assert/strict"));
var import_node_test = require("node:test");

// src/shared/protocol.ts
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
  async setConnection(state, port) {
    this.connection = state;
    this.port = state === "running" ? port : void 0;
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
      const gauge2 = this.tracker.gauge;
      if (gauge2) this.hooks.post({ type: "gauge", gauge: gauge2 });
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
    return new Promise((resolve) => {
      this.pendingPermissions.set(requestId, resolve);
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
    const port = this.requirePort();
    if (!port) return false;
    if (this.busy) this.cancel();
    try {
      const started2 = await port.request(Methods.sessionNew, { cwd: this.cwd() });
      this.focus(started2.sessionId, null, started2.model);
      this.hooks.post({ type: "reset" });
      this.offerGauge(started2.gauge);
      this.postState();
      return true;
    } catch (error) {
      this.postError(describeError(error));
      return false;
    }
  }
  async listSessions() {
    const port = this.requirePort();
    if (!port) return [];
    try {
      const result = await port.request(Methods.sessionList, { cwd: this.cwd() });
      const sessions = Array.isArray(result?.sessions) ? result.sessions : [];
      this.hooks.post({ type: "sessions", sessions });
      return sessions;
    } catch (error) {
      this.postError(describeError(error));
      return [];
    }
  }
  async loadSession(sessionId) {
    const port = this.requirePort();
    if (!port) return false;
    if (this.busy && sessionId !== this.sessionId) this.cancel();
    const previous = { id: this.sessionId, title: this.title, model: this.model };
    this.focus(sessionId, null, null);
    this.hooks.post({ type: "reset" });
    this.postState();
    try {
      const loaded = await port.request(Methods.sessionLoad, { sessionId });
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
    const port = this.requirePort();
    if (!port) return void 0;
    if (!this.sessionId && !await this.newSession()) return void 0;
    const sessionId = this.sessionId;
    this.hooks.post({ type: "userPrompt", text: trimmed });
    this.busy = true;
    this.postState();
    try {
      const result = await port.request(Methods.sessionPrompt, {
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
    const port = this.requirePort();
    if (!port) return void 0;
    if (!this.sessionId) {
      this.postError({ message: "No session to compact.", fix: "Start a session first." });
      return void 0;
    }
    const sessionId = this.sessionId;
    this.setCompacting(true);
    try {
      const params = { sessionId };
      if (instructions) params.instructions = instructions;
      const result = await port.request(Methods.compact, params);
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
    const port = this.port;
    if (!port || !this.sessionId) return;
    try {
      this.offerGauge(await port.request(Methods.gauge, { sessionId: this.sessionId }));
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
  offerGauge(gauge2) {
    if (this.tracker.offer(gauge2)) {
      const g = this.tracker.gauge;
      if (g.model) this.model = g.model;
      this.hooks.gaugeChanged(g);
      this.hooks.post({ type: "gauge", gauge: g });
    }
  }
  setCompacting(on, reset = false) {
    const before = this.compacting > 0;
    if (reset) this.compacting = 0;
    else if (on) this.compacting += 1;
    else this.compacting = Math.max(0, this.compacting - 1);
    const after = this.compacting > 0;
    if (before !== after) {
      this.hooks.compactingChanged(after);
      this.postState();
    }
  }
  answerPermission(requestId, optionId) {
    const resolve = this.pendingPermissions.get(requestId);
    if (!resolve) return;
    this.pendingPermissions.delete(requestId);
    resolve(optionId ? { outcome: { outcome: "selected", optionId } } : { outcome: { outcome: "cancelled" } });
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

// test/unit/controller.test.ts
var FakePort = class {
  constructor(handlers) {
    this.handlers = handlers;
  }
  handlers;
  requests = [];
  notifications = [];
  async request(method, params) {
    this.requests.push({ method, params });
    const handler = this.handlers[method];
    if (!handler) throw Object.assign(new Error(`unhandled ${method}`), { code: -32601 });
    return await handler(params);
  }
  notify(method, params) {
    this.notifications.push({ method, params });
  }
};
function setup(handlers) {
  const posts = [];
  const gauges = [];
  const compacting = [];
  const contexts = [];
  const controller = new ChatController(
    {
      post: (b) => posts.push(b),
      gaugeChanged: (g) => gauges.push(g),
      compactingChanged: (c) => compacting.push(c),
      showContext: (id) => contexts.push(id),
      log: () => void 0
    },
    () => "/work/proj"
  );
  const port = new FakePort(handlers);
  let seq = 0;
  const send = (body) => controller.handleWebviewMessage({ ...body, seq: ++seq });
  return { controller, port, posts, gauges, compacting, contexts, send, resetSeq: () => seq = 0 };
}
var started = (id = "s-1") => ({ sessionId: id, model: "claude-sonnet-4-5", provider: "anthropic", gauge: gauge({ sessionId: id, seq: 1, used: 3e3, percentUsed: 1.5 }) });
(0, import_node_test.test)("a first prompt creates a session, streams updates and ends the turn", async () => {
  let release;
  const t = setup({
    "session/new": () => started(),
    "session/prompt": () => new Promise((resolve) => release = () => resolve({ stopReason: "end_turn", gauge: gauge({ seq: 4, used: 9e3 }) }))
  });
  await t.controller.setConnection("running", t.port);
  await t.send({ type: "ready" });
  const turn = t.send({ type: "prompt", text: "  hello  " });
  await new Promise((r) => setImmediate(r));
  import_strict.default.deepEqual(t.port.requests.map((r) => r.method), ["session/new", "session/prompt"]);
  import_strict.default.deepEqual(t.port.requests[0].params, { cwd: "/work/proj" });
  import_strict.default.deepEqual(t.port.requests[1].params, { sessionId: "s-1", prompt: [{ type: "text", text: "hello" }] });
  import_strict.default.equal(t.controller.isBusy, true);
  t.controller.onSessionUpdate({ sessionId: "s-1", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Hi" }, messageId: "m1" } });
  t.controller.onSessionUpdate({ sessionId: "other", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "not ours" } } });
  t.controller.onSessionUpdate({ sessionId: "s-1", update: { sessionUpdate: "usage_update", used: 8e3, size: 2e5, _meta: { sidecar: gauge({ seq: 3, used: 8e3 }) } } });
  t.controller.onSessionUpdate({ sessionId: "s-1", update: { sessionUpdate: "usage_update", used: 5e3, size: 2e5, _meta: { sidecar: gauge({ seq: 2, used: 5e3 }) } } });
  release();
  await turn;
  const types = t.posts.map((p) => p.type);
  import_strict.default.ok(types.includes("reset"));
  import_strict.default.deepEqual(t.posts.filter((p) => p.type === "userPrompt"), [{ type: "userPrompt", text: "hello" }]);
  const updates = t.posts.filter((p) => p.type === "update").map((p) => p.update);
  import_strict.default.equal(updates.filter((u) => u.sessionUpdate === "agent_message_chunk").length, 1, "other sessions' chunks are dropped");
  import_strict.default.deepEqual(
    t.posts.filter((p) => p.type === "gauge").map((p) => p.gauge.used),
    [3e3, 8e3, 9e3],
    "the stale seq-2 gauge never reaches the view"
  );
  import_strict.default.deepEqual(t.gauges.filter(Boolean).map((g) => g.used), [3e3, 8e3, 9e3]);
  import_strict.default.deepEqual(t.posts.filter((p) => p.type === "turnEnded"), [{ type: "turnEnded", stopReason: "end_turn" }]);
  const last = t.posts.filter((p) => p.type === "state").at(-1);
  import_strict.default.equal(last.busy, false);
  import_strict.default.equal(last.sessionId, "s-1");
});
(0, import_node_test.test)("cancel notifies session/cancel and answers pending permissions with cancelled", async () => {
  const t = setup({ "session/new": () => started(), "session/prompt": () => new Promise(() => void 0) });
  await t.controller.setConnection("running", t.port);
  void t.send({ type: "prompt", text: "run ls" });
  await new Promise((r) => setImmediate(r));
  const answer = t.controller.requestPermission({
    sessionId: "s-1",
    toolCall: { toolCallId: "t1", title: "ls -la", kind: "execute" },
    options: [
      { optionId: "allow", name: "Allow", kind: "allow_once" },
      { optionId: "deny", name: "Deny", kind: "reject_once" }
    ]
  });
  const prompt = t.posts.find((p) => p.type === "permission");
  import_strict.default.equal(prompt.toolCall.title, "ls -la");
  import_strict.default.equal(prompt.options.length, 2);
  await t.send({ type: "cancel" });
  import_strict.default.deepEqual(await answer, { outcome: { outcome: "cancelled" } });
  import_strict.default.deepEqual(t.port.notifications, [{ method: "session/cancel", params: { sessionId: "s-1" } }]);
  import_strict.default.ok(t.posts.some((p) => p.type === "permissionDone" && p.optionId === null));
});
(0, import_node_test.test)("a permission button's answer resolves the sidecar's request once", async () => {
  const t = setup({});
  await t.controller.setConnection("running", t.port);
  const answer = t.controller.requestPermission({ sessionId: "s-1", toolCall: { title: "write a.txt" }, options: [{ optionId: "yes", name: "Allow", kind: "allow_once" }] });
  const requestId = t.posts.find((p) => p.type === "permission").requestId;
  await t.send({ type: "permissionAnswer", requestId, optionId: "yes" });
  await t.send({ type: "permissionAnswer", requestId, optionId: "no" });
  import_strict.default.deepEqual(await answer, { outcome: { outcome: "selected", optionId: "yes" } });
  import_strict.default.equal(t.posts.filter((p) => p.type === "permissionDone").length, 1);
});
(0, import_node_test.test)("stale or replayed webview messages are dropped", async () => {
  const t = setup({ "session/new": () => started() });
  await t.controller.setConnection("running", t.port);
  await t.controller.handleWebviewMessage({ type: "ready", seq: 1 });
  await t.controller.handleWebviewMessage({ type: "newSession", seq: 3 });
  await t.controller.handleWebviewMessage({ type: "newSession", seq: 2 });
  await t.controller.handleWebviewMessage({ type: "newSession", seq: 3 });
  import_strict.default.equal(t.port.requests.length, 1);
  await t.controller.handleWebviewMessage({ type: "ready", seq: 1 });
  await t.controller.handleWebviewMessage({ type: "newSession", seq: 2 });
  import_strict.default.equal(t.port.requests.length, 2);
});
(0, import_node_test.test)("/compact with instructions goes to sidecar/compact with a spinner, and shows tokens saved", async () => {
  const t = setup({
    "session/new": () => started(),
    "sidecar/compact": () => ({ compactionId: "c1", status: "completed", tier: "full", tokensBefore: 15e4, tokensAfter: 2e4 }),
    "sidecar/gauge": () => gauge({ seq: 9, used: 2e4 })
  });
  await t.controller.setConnection("running", t.port);
  await t.send({ type: "newSession" });
  await t.send({ type: "prompt", text: "/compact keep the API design" });
  import_strict.default.deepEqual(t.port.requests.slice(1).map((r) => [r.method, r.params]), [
    ["sidecar/compact", { sessionId: "s-1", instructions: "keep the API design" }],
    ["sidecar/gauge", { sessionId: "s-1" }]
  ]);
  import_strict.default.deepEqual(t.compacting, [true, false]);
  const row = t.posts.find((p) => p.type === "update" && p.update.sessionUpdate === "compaction_update");
  import_strict.default.deepEqual(
    { status: row.update.status, before: row.update.tokensBefore, after: row.update.tokensAfter },
    { status: "completed", before: 15e4, after: 2e4 }
  );
  import_strict.default.equal(t.gauges.at(-1)?.used, 2e4);
});
(0, import_node_test.test)("compaction_update rows from the sidecar drive the spinner and are not duplicated", async () => {
  let finish;
  const t = setup({
    "session/new": () => started(),
    "sidecar/compact": () => new Promise((resolve) => finish = () => resolve({ compactionId: "c7", status: "completed", tokensBefore: 10, tokensAfter: 5 })),
    "sidecar/gauge": () => gauge({ seq: 2 })
  });
  await t.controller.setConnection("running", t.port);
  await t.send({ type: "newSession" });
  const run = t.send({ type: "compact" });
  await new Promise((r) => setImmediate(r));
  t.controller.onSessionUpdate({ sessionId: "s-1", update: { sessionUpdate: "compaction_update", compactionId: "c7", status: "in_progress", tier: "full", trigger: "manual" } });
  t.controller.onSessionUpdate({ sessionId: "s-1", update: { sessionUpdate: "compaction_update", compactionId: "c7", status: "completed", tier: "full", trigger: "manual", tokensBefore: 10, tokensAfter: 5 } });
  finish();
  await run;
  const rows = t.posts.filter((p) => p.type === "update" && p.update.sessionUpdate === "compaction_update");
  import_strict.default.equal(rows.length, 2, "only the sidecar's two rows");
  import_strict.default.deepEqual(t.port.requests[1].params, { sessionId: "s-1" }, "no instructions key when none were given");
  import_strict.default.equal(t.compacting.at(-1), false);
});
(0, import_node_test.test)("errors carry the JSON-RPC message and the fix from data", async () => {
  const t = setup({
    "session/new": () => {
      throw Object.assign(new Error("No API key for anthropic"), { code: -32002, data: { fix: "Set ANTHROPIC_API_KEY or run Set API Key" } });
    }
  });
  await t.controller.setConnection("running", t.port);
  await t.send({ type: "prompt", text: "hi" });
  import_strict.default.deepEqual(t.posts.filter((p) => p.type === "error"), [
    { type: "error", message: "No API key for anthropic", code: -32002, fix: "Set ANTHROPIC_API_KEY or run Set API Key" }
  ]);
  import_strict.default.equal(t.port.requests.length, 1, "no prompt without a session");
});
(0, import_node_test.test)("session/list and session/load focus the session before the replay arrives", async () => {
  const t = setup({
    "session/list": () => ({ sessions: [{ sessionId: "old", title: "Earlier", cwd: "/work/proj", used: 1, size: 2 }] }),
    "session/load": ({ sessionId }) => {
      t.controller.onSessionUpdate({ sessionId, update: { sessionUpdate: "user_message_chunk", content: { type: "text", text: "earlier question" } } });
      return { sessionId, model: "m", provider: "anthropic", gauge: gauge({ sessionId, seq: 7 }) };
    }
  });
  await t.controller.setConnection("running", t.port);
  await t.send({ type: "listSessions" });
  import_strict.default.equal(t.posts.find((p) => p.type === "sessions").sessions[0].title, "Earlier");
  await t.send({ type: "loadSession", sessionId: "old" });
  const after = t.posts.slice(t.posts.findIndex((p) => p.type === "reset"));
  import_strict.default.ok(after.some((p) => p.type === "update" && p.update.sessionUpdate === "user_message_chunk"));
  import_strict.default.equal(t.controller.currentSessionId, "old");
  import_strict.default.equal(t.gauges.at(-1)?.seq, 7);
});
(0, import_node_test.test)("without a running sidecar the panel says how to recover", async () => {
  const t = setup({});
  await t.send({ type: "newSession" });
  import_strict.default.match(t.posts.find((p) => p.type === "error").message, /still starting/);
  await t.controller.setConnection("failed");
  await t.send({ type: "prompt", text: "x" });
  const err = t.posts.filter((p) => p.type === "error").at(-1);
  import_strict.default.match(err.message, /not running/);
  import_strict.default.match(err.fix, /output channel/);
});
(0, import_node_test.test)("a reconnect re-attaches the focused session with session/load", async () => {
  const t = setup({ "session/new": () => started(), "session/load": ({ sessionId }) => ({ sessionId, model: "m", provider: "p" }) });
  await t.controller.setConnection("running", t.port);
  await t.send({ type: "newSession" });
  await t.controller.setConnection("stopped");
  await t.controller.setConnection("running", t.port);
  import_strict.default.deepEqual(t.port.requests.map((r) => r.method), ["session/new", "session/load"]);
});
(0, import_node_test.test)("showContext goes to the host with the session id", async () => {
  const t = setup({ "session/new": () => started() });
  await t.controller.setConnection("running", t.port);
  await t.send({ type: "showContext" });
  import_strict.default.equal(t.contexts.length, 0);
  await t.send({ type: "newSession" });
  await t.send({ type: "showContext" });
  import_strict.default.deepEqual(t.contexts, ["s-1"]);
});
//# sourceMappingURL=controller.test.js.map
