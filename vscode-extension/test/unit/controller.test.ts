import assert from "node:assert/strict";
import { test } from "node:test";
import { ChatController, type SidecarPort } from "../../src/chat/controller";
import type { HostToWebviewBody, WebviewToHostBody } from "../../src/shared/messages";
import type { Gauge } from "../../src/shared/protocol";
import { gauge } from "./fixtures";

type Handler = (params: any) => unknown;

class FakePort implements SidecarPort {
  requests: { method: string; params: any }[] = [];
  notifications: { method: string; params: any }[] = [];
  constructor(private readonly handlers: Record<string, Handler>) {}
  async request<R>(method: string, params: unknown): Promise<R> {
    this.requests.push({ method, params });
    const handler = this.handlers[method];
    if (!handler) throw Object.assign(new Error(`unhandled ${method}`), { code: -32601 });
    return (await handler(params)) as R;
  }
  notify(method: string, params: unknown): void {
    this.notifications.push({ method, params });
  }
}

function setup(handlers: Record<string, Handler>) {
  const posts: HostToWebviewBody[] = [];
  const gauges: (Gauge | undefined)[] = [];
  const compacting: boolean[] = [];
  const contexts: string[] = [];
  const controller = new ChatController(
    {
      post: (b) => posts.push(b),
      gaugeChanged: (g) => gauges.push(g),
      compactingChanged: (c) => compacting.push(c),
      showContext: (id) => contexts.push(id),
      log: () => undefined,
    },
    () => "/work/proj",
  );
  const port = new FakePort(handlers);
  let seq = 0;
  const send = (body: WebviewToHostBody) => controller.handleWebviewMessage({ ...body, seq: ++seq } as never);
  return { controller, port, posts, gauges, compacting, contexts, send, resetSeq: () => (seq = 0) };
}

const started = (id = "s-1") => ({ sessionId: id, model: "claude-sonnet-5-5", provider: "anthropic", gauge: gauge({ sessionId: id, seq: 1, used: 3_000, percentUsed: 1.5 }) });

test("a first prompt creates a session, streams updates and ends the turn", async () => {
  let release!: () => void;
  const t = setup({
    "session/new": () => started(),
    "session/prompt": () => new Promise((resolve) => (release = () => resolve({ stopReason: "end_turn", gauge: gauge({ seq: 4, used: 9_000 }) }))),
  });
  await t.controller.setConnection("running", t.port);
  await t.send({ type: "ready" });
  const turn = t.send({ type: "prompt", text: "  hello  " });
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(t.port.requests.map((r) => r.method), ["session/new", "session/prompt"]);
  assert.deepEqual(t.port.requests[0].params, { cwd: "/work/proj" });
  assert.deepEqual(t.port.requests[1].params, { sessionId: "s-1", prompt: [{ type: "text", text: "hello" }] });
  assert.equal(t.controller.isBusy, true);

  t.controller.onSessionUpdate({ sessionId: "s-1", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Hi" }, messageId: "m1" } });
  t.controller.onSessionUpdate({ sessionId: "other", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "not ours" } } });
  t.controller.onSessionUpdate({ sessionId: "s-1", update: { sessionUpdate: "usage_update", used: 8_000, size: 200_000, _meta: { sidecar: gauge({ seq: 3, used: 8_000 }) } } });
  t.controller.onSessionUpdate({ sessionId: "s-1", update: { sessionUpdate: "usage_update", used: 5_000, size: 200_000, _meta: { sidecar: gauge({ seq: 2, used: 5_000 }) } } });
  release();
  await turn;

  const types = t.posts.map((p) => p.type);
  assert.ok(types.includes("reset"));
  assert.deepEqual(t.posts.filter((p) => p.type === "userPrompt"), [{ type: "userPrompt", text: "hello" }]);
  const updates = t.posts.filter((p) => p.type === "update").map((p) => (p as any).update);
  assert.equal(updates.filter((u) => u.sessionUpdate === "agent_message_chunk").length, 1, "other sessions' chunks are dropped");
  assert.deepEqual(
    t.posts.filter((p) => p.type === "gauge").map((p) => (p as any).gauge.used),
    [3_000, 8_000, 9_000],
    "the stale seq-2 gauge never reaches the view",
  );
  assert.deepEqual(t.gauges.filter(Boolean).map((g) => g!.used), [3_000, 8_000, 9_000]);
  assert.deepEqual(t.posts.filter((p) => p.type === "turnEnded"), [{ type: "turnEnded", stopReason: "end_turn" }]);
  const last = t.posts.filter((p) => p.type === "state").at(-1) as any;
  assert.equal(last.busy, false);
  assert.equal(last.sessionId, "s-1");
});

test("cancel notifies session/cancel and answers pending permissions with cancelled", async () => {
  const t = setup({ "session/new": () => started(), "session/prompt": () => new Promise(() => undefined) });
  await t.controller.setConnection("running", t.port);
  void t.send({ type: "prompt", text: "run ls" });
  await new Promise((r) => setImmediate(r));
  const answer = t.controller.requestPermission({
    sessionId: "s-1",
    toolCall: { toolCallId: "t1", title: "ls -la", kind: "execute" },
    options: [
      { optionId: "allow", name: "Allow", kind: "allow_once" },
      { optionId: "deny", name: "Deny", kind: "reject_once" },
    ],
  });
  const prompt = t.posts.find((p) => p.type === "permission") as any;
  assert.equal(prompt.toolCall.title, "ls -la");
  assert.equal(prompt.options.length, 2);
  await t.send({ type: "cancel" });
  assert.deepEqual(await answer, { outcome: { outcome: "cancelled" } });
  assert.deepEqual(t.port.notifications, [{ method: "session/cancel", params: { sessionId: "s-1" } }]);
  assert.ok(t.posts.some((p) => p.type === "permissionDone" && p.optionId === null));
});

test("a permission button's answer resolves the sidecar's request once", async () => {
  const t = setup({});
  await t.controller.setConnection("running", t.port);
  const answer = t.controller.requestPermission({ sessionId: "s-1", toolCall: { title: "write a.txt" }, options: [{ optionId: "yes", name: "Allow", kind: "allow_once" }] });
  const requestId = (t.posts.find((p) => p.type === "permission") as any).requestId;
  await t.send({ type: "permissionAnswer", requestId, optionId: "yes" });
  await t.send({ type: "permissionAnswer", requestId, optionId: "no" });
  assert.deepEqual(await answer, { outcome: { outcome: "selected", optionId: "yes" } });
  assert.equal(t.posts.filter((p) => p.type === "permissionDone").length, 1);
});

test("a rejection's reason goes to the sidecar in the answer's _meta; blank is no reason", async () => {
  const t = setup({});
  await t.controller.setConnection("running", t.port);
  const options = [
    { optionId: "allow_once", name: "Accept", kind: "allow_once" as const },
    { optionId: "reject_once", name: "Reject", kind: "reject_once" as const },
  ];
  const first = t.controller.requestPermission({ sessionId: "s-1", toolCall: { title: "Edit a.py" }, options });
  const id1 = (t.posts.filter((p) => p.type === "permission").at(-1) as any).requestId;
  await t.send({ type: "permissionAnswer", requestId: id1, optionId: "reject_once", reason: "  Keep the old name.  " });
  assert.deepEqual(await first, { outcome: { outcome: "selected", optionId: "reject_once", _meta: { sidecar: { reason: "Keep the old name." } } } });
  assert.deepEqual(t.posts.filter((p) => p.type === "permissionDone").at(-1), { type: "permissionDone", requestId: id1, optionId: "reject_once", reason: "Keep the old name." });

  const second = t.controller.requestPermission({ sessionId: "s-1", toolCall: { title: "Edit a.py" }, options });
  const id2 = (t.posts.filter((p) => p.type === "permission").at(-1) as any).requestId;
  assert.equal(t.controller.answer(id2, "reject_once", "   "), true);
  assert.deepEqual(await second, { outcome: { outcome: "selected", optionId: "reject_once" } });
});

test("stale or replayed webview messages are dropped", async () => {
  const t = setup({ "session/new": () => started() });
  await t.controller.setConnection("running", t.port);
  await t.controller.handleWebviewMessage({ type: "ready", seq: 1 });
  await t.controller.handleWebviewMessage({ type: "newSession", seq: 3 });
  await t.controller.handleWebviewMessage({ type: "newSession", seq: 2 });
  await t.controller.handleWebviewMessage({ type: "newSession", seq: 3 });
  assert.equal(t.port.requests.length, 1);
  // A reloaded webview starts again at 1.
  await t.controller.handleWebviewMessage({ type: "ready", seq: 1 });
  await t.controller.handleWebviewMessage({ type: "newSession", seq: 2 });
  assert.equal(t.port.requests.length, 2);
});

test("/compact with instructions goes to sidecar/compact with a spinner, and shows tokens saved", async () => {
  const t = setup({
    "session/new": () => started(),
    "sidecar/compact": () => ({ compactionId: "c1", status: "completed", tier: "full", tokensBefore: 150_000, tokensAfter: 20_000 }),
    "sidecar/gauge": () => gauge({ seq: 9, used: 20_000 }),
  });
  await t.controller.setConnection("running", t.port);
  await t.send({ type: "newSession" });
  await t.send({ type: "prompt", text: "/compact keep the API design" });
  assert.deepEqual(t.port.requests.slice(1).map((r) => [r.method, r.params]), [
    ["sidecar/compact", { sessionId: "s-1", instructions: "keep the API design" }],
    ["sidecar/gauge", { sessionId: "s-1" }],
  ]);
  assert.deepEqual(t.compacting, [true, false]);
  const row = t.posts.find((p) => p.type === "update" && (p as any).update.sessionUpdate === "compaction_update") as any;
  assert.deepEqual(
    { status: row.update.status, before: row.update.tokensBefore, after: row.update.tokensAfter },
    { status: "completed", before: 150_000, after: 20_000 },
  );
  assert.equal(t.gauges.at(-1)?.used, 20_000);
});

test("compaction_update rows from the sidecar drive the spinner and are not duplicated", async () => {
  let finish!: () => void;
  const t = setup({
    "session/new": () => started(),
    "sidecar/compact": () => new Promise((resolve) => (finish = () => resolve({ compactionId: "c7", status: "completed", tokensBefore: 10, tokensAfter: 5 }))),
    "sidecar/gauge": () => gauge({ seq: 2 }),
  });
  await t.controller.setConnection("running", t.port);
  await t.send({ type: "newSession" });
  const run = t.send({ type: "compact" });
  await new Promise((r) => setImmediate(r));
  t.controller.onSessionUpdate({ sessionId: "s-1", update: { sessionUpdate: "compaction_update", compactionId: "c7", status: "in_progress", tier: "full", trigger: "manual" } });
  t.controller.onSessionUpdate({ sessionId: "s-1", update: { sessionUpdate: "compaction_update", compactionId: "c7", status: "completed", tier: "full", trigger: "manual", tokensBefore: 10, tokensAfter: 5 } });
  finish();
  await run;
  const rows = t.posts.filter((p) => p.type === "update" && (p as any).update.sessionUpdate === "compaction_update");
  assert.equal(rows.length, 2, "only the sidecar's two rows");
  assert.deepEqual(t.port.requests[1].params, { sessionId: "s-1" }, "no instructions key when none were given");
  assert.equal(t.compacting.at(-1), false);
});

test("Stop during a /compact notifies session/cancel; the cancelled compaction is a calm row, not an error", async () => {
  let fail!: () => void;
  const t = setup({
    "session/new": () => started(),
    "sidecar/compact": () =>
      new Promise((_resolve, reject) =>
        (fail = () => reject(Object.assign(new Error("The compaction was cancelled"), { code: -33005, data: { tier: "full", reason: "cancelled" } })))),
  });
  await t.controller.setConnection("running", t.port);
  await t.send({ type: "newSession" });
  const run = t.send({ type: "prompt", text: "/compact" });
  await new Promise((r) => setImmediate(r));
  t.controller.onSessionUpdate({ sessionId: "s-1", update: { sessionUpdate: "compaction_update", compactionId: "c8", status: "in_progress", tier: "full", trigger: "manual" } });
  const states = () => t.posts.filter((p) => p.type === "state") as Extract<HostToWebviewBody, { type: "state" }>[];
  assert.equal(states().at(-1)?.compacting, true, "the panel knows a compaction runs");
  await t.send({ type: "cancel" });
  assert.deepEqual(t.port.notifications, [{ method: "session/cancel", params: { sessionId: "s-1" } }]);
  // The sidecar answers with its "cancelled" row, then fails the request.
  t.controller.onSessionUpdate({ sessionId: "s-1", update: { sessionUpdate: "compaction_update", compactionId: "c8", status: "cancelled", tier: "full", trigger: "manual" } });
  fail();
  await run;
  assert.equal(t.posts.filter((p) => p.type === "error").length, 0, "no error card");
  const rows = t.posts.filter((p) => p.type === "update" && (p as any).update.sessionUpdate === "compaction_update") as any[];
  assert.deepEqual(rows.map((r) => r.update.status), ["in_progress", "cancelled"], "only the sidecar's rows");
  assert.deepEqual(t.compacting, [true, false]);
  assert.equal(states().at(-1)?.compacting, false);
});

test("a cancelled /compact without a row of its own still ends in a cancelled row; other failures stay errors", async () => {
  const answers = [
    Object.assign(new Error("The compaction was cancelled"), { code: -33005, data: { tier: "full", reason: "cancelled" } }),
    Object.assign(new Error("Compaction failed, nothing was changed: overloaded"), { code: -33005, data: { tier: "full", reason: "overloaded" } }),
  ];
  const t = setup({
    "session/new": () => started(),
    "sidecar/compact": () => {
      throw answers.shift();
    },
  });
  await t.controller.setConnection("running", t.port);
  await t.send({ type: "newSession" });
  await t.send({ type: "compact" });
  const rows = t.posts.filter((p) => p.type === "update" && (p as any).update.sessionUpdate === "compaction_update") as any[];
  assert.deepEqual(rows.map((r) => [r.update.status, r.update.trigger]), [["cancelled", "manual"]]);
  assert.equal(t.posts.filter((p) => p.type === "error").length, 0);
  await t.send({ type: "compact" });
  const errors = t.posts.filter((p) => p.type === "error") as any[];
  assert.equal(errors.length, 1);
  assert.match(errors[0].message, /overloaded/);
});

test("errors carry the JSON-RPC message and the fix from data", async () => {
  const t = setup({
    "session/new": () => {
      throw Object.assign(new Error("No API key for anthropic"), { code: -33002, data: { fix: "Set ANTHROPIC_API_KEY or run Set API Key" } });
    },
  });
  await t.controller.setConnection("running", t.port);
  await t.send({ type: "prompt", text: "hi" });
  assert.deepEqual(t.posts.filter((p) => p.type === "error"), [
    { type: "error", message: "No API key for anthropic", code: -33002, fix: "Set ANTHROPIC_API_KEY or run Set API Key" },
  ]);
  assert.equal(t.port.requests.length, 1, "no prompt without a session");
});

test("session/list and session/load focus the session before the replay arrives", async () => {
  const t = setup({
    "session/list": () => ({ sessions: [{ sessionId: "old", title: "Earlier", cwd: "/work/proj", used: 1, size: 2 }] }),
    "session/load": ({ sessionId }) => {
      // The replay is sent before the answer.
      t.controller.onSessionUpdate({ sessionId, update: { sessionUpdate: "user_message_chunk", content: { type: "text", text: "earlier question" } } });
      return { sessionId, model: "m", provider: "anthropic", gauge: gauge({ sessionId, seq: 7 }) };
    },
  });
  await t.controller.setConnection("running", t.port);
  await t.send({ type: "listSessions" });
  assert.equal((t.posts.find((p) => p.type === "sessions") as any).sessions[0].title, "Earlier");
  await t.send({ type: "loadSession", sessionId: "old" });
  const after = t.posts.slice(t.posts.findIndex((p) => p.type === "reset"));
  assert.ok(after.some((p) => p.type === "update" && (p as any).update.sessionUpdate === "user_message_chunk"));
  assert.equal(t.controller.currentSessionId, "old");
  assert.equal(t.gauges.at(-1)?.seq, 7);
});

test("without a running sidecar the panel says how to recover", async () => {
  const t = setup({});
  await t.send({ type: "newSession" });
  assert.match((t.posts.find((p) => p.type === "error") as any).message, /still starting/);
  await t.controller.setConnection("failed");
  await t.send({ type: "prompt", text: "x" });
  const err = t.posts.filter((p) => p.type === "error").at(-1) as any;
  assert.match(err.message, /not running/);
  assert.match(err.fix, /output channel/);
});

test("a reconnect re-attaches the focused session with session/load", async () => {
  const t = setup({ "session/new": () => started(), "session/load": ({ sessionId }) => ({ sessionId, model: "m", provider: "p" }) });
  await t.controller.setConnection("running", t.port);
  await t.send({ type: "newSession" });
  await t.controller.setConnection("stopped");
  await t.controller.setConnection("running", t.port);
  assert.deepEqual(t.port.requests.map((r) => r.method), ["session/new", "session/load"]);
});

test("showContext goes to the host with the session id", async () => {
  const t = setup({ "session/new": () => started() });
  await t.controller.setConnection("running", t.port);
  await t.send({ type: "showContext" });
  assert.equal(t.contexts.length, 0);
  await t.send({ type: "newSession" });
  await t.send({ type: "showContext" });
  assert.deepEqual(t.contexts, ["s-1"]);
});
