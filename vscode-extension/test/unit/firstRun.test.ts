import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";
import { GaugeStatusBar } from "../../src/status/gaugeStatusBar";
import { mcpSummary, statusView } from "../../src/status/statusView";
import * as vscode from "../mocks/vscode";
import { gauge } from "./fixtures";
import { harness, started } from "./harness";

beforeEach(() => vscode.__recorded.reset());

const FIX = "Set ANTHROPIC_API_KEY or run 'Context Sidecar: Set API Key'";
const noKey = () => {
  throw Object.assign(new Error("No API key for anthropic"), { code: -33002, data: { fix: FIX, retryable: false } });
};

test("a prompt refused for want of a key shows the fix, is kept, and is offered again once the sidecar is back", async () => {
  let keySet = false;
  const t = harness({
    "session/new": () => started(),
    "session/load": () => started(),
    "session/prompt": (p) => (keySet ? { stopReason: "end_turn", echo: p } : noKey()),
  });
  await t.controller.setConnection("running", t.port);
  await t.send({ type: "ready" });
  assert.equal(await t.controller.prompt("refactor app.py"), undefined);
  assert.deepEqual(t.posted("error").at(-1), { type: "error", message: "No API key for anthropic", code: -33002, fix: FIX });
  assert.deepEqual(t.hooks("promptFailed").at(-1), [{ message: "No API key for anthropic", code: -33002, fix: FIX }, "refactor app.py"]);
  assert.equal(t.controller.failedPromptText, "refactor app.py");

  // Set API Key restarts the sidecar: it goes away and comes back.
  keySet = true;
  await t.controller.setConnection("stopped");
  await t.controller.setConnection("running", t.port);
  assert.deepEqual(t.posted("resendOffer").at(-1), { type: "resendOffer", text: "refactor app.py" });
  assert.deepEqual(t.hooks("offerResend").at(-1), ["refactor app.py"]);

  await t.send({ type: "resend" });
  const prompts = t.port.requests.filter((r) => r.method === "session/prompt");
  assert.equal(prompts.length, 2);
  assert.deepEqual(prompts[1].params.prompt, [{ type: "text", text: "refactor app.py" }]);
  assert.equal(t.controller.failedPromptText, null);
  assert.equal(t.hooks("promptSucceeded").length, 1);
});

test("a dismissed offer is forgotten", async () => {
  const t = harness({ "session/new": () => started(), "session/prompt": noKey });
  await t.controller.setConnection("running", t.port);
  await t.send({ type: "ready" });
  await t.controller.prompt("hello");
  await t.send({ type: "dismissResend" });
  assert.equal(t.controller.failedPromptText, null);
  assert.equal(await t.controller.resend(), undefined);
});

test("'no API key' stays in the status bar until a key is set", () => {
  const bar = new GaugeStatusBar();
  const item = vscode.__recorded.statusBarItems.find((i) => i.id === "contextSidecar.gauge")!;
  bar.setConnection("running");
  bar.setSession("s-1", gauge());
  bar.setKeyMissing({ message: "No API key for anthropic", fix: FIX });
  assert.equal(item.text, "$(key) no API key");
  assert.equal(item.command, "contextSidecar.setApiKey");
  assert.ok((item.tooltip as vscode.MarkdownString).value.includes(FIX));
  bar.setServerStatus({ kind: "normal" });
  bar.setSession("s-1", gauge({ used: 1000 }));
  assert.equal(item.text, "$(key) no API key", "other news does not hide it");
  bar.setKeyMissing(undefined);
  assert.match(item.text, /^\$\(pulse\) /);
  bar.dispose();
});

test("a restarted sidecar clears the old one's 'no API key' status", () => {
  const bar = new GaugeStatusBar();
  const item = vscode.__recorded.statusBarItems.find((i) => i.id === "contextSidecar.gauge")!;
  bar.setConnection("running");
  bar.setServerStatus({ kind: "error", message: "no API key for provider anthropic: the environment variable X is not set" });
  assert.equal(item.text, "$(key) no API key");
  bar.setConnection("starting");
  bar.setConnection("running");
  assert.equal(item.text, "$(comment-discussion) no session");
  bar.dispose();
});

test("retry_update reaches the panel and shows attempt and countdown in the status bar", async () => {
  const t = harness({ "session/new": () => started() });
  await t.controller.setConnection("running", t.port);
  await t.controller.newSession();
  const retry = { sessionUpdate: "retry_update" as const, attempt: 2, maxRetries: 4, delayMs: 3000, reason: "The provider is overloaded (529)", status: 529 };
  t.controller.onSessionUpdate({ sessionId: "s-1", update: retry });
  assert.deepEqual(t.hooks("retryChanged").at(-1), [retry]);
  assert.deepEqual(t.posted("update").at(-1)!.update, retry);
  t.controller.onSessionUpdate({ sessionId: "s-1", update: { ...retry, delayMs: 0, done: true, status: null } });
  assert.deepEqual(t.hooks("retryChanged").at(-1), [undefined], "done ends the countdown");

  const base = { connection: "running" as const, sessionId: "s-1", gauge: gauge(), compacting: false, clickAction: "showContext" as const };
  const waiting = statusView({ ...base, retry: { attempt: 2, maxRetries: 4, reason: retry.reason, until: 10_000 }, now: 7_100 });
  assert.equal(waiting.text, "$(sync~spin) retry 2/4 in 3s");
  assert.match(waiting.tooltip, /overloaded \(529\)/);
  assert.equal(waiting.background, "warning");
  assert.equal(statusView({ ...base, retry: { attempt: 2, maxRetries: 4, reason: "x", until: 10_000 }, now: 12_000 }).text, "$(sync~spin) retry 2/4 in 0s");

  const bar = new GaugeStatusBar();
  const item = vscode.__recorded.statusBarItems.find((i) => i.id === "contextSidecar.gauge")!;
  bar.setConnection("running");
  bar.setSession("s-1", gauge());
  bar.setRetry(retry);
  assert.match(item.text, /^\$\(sync~spin\) retry 2\/4 in [23]s$/);
  bar.setRetry(undefined);
  assert.match(item.text, /^\$\(pulse\) /);
  bar.dispose();
});

test("mcp_status_update: servers in the status tooltip, failures named", async () => {
  const servers = [
    { name: "github", status: "connected" as const, transport: "stdio" as const, tools: ["search"] },
    { name: "db", status: "failed" as const, transport: "http" as const, tools: [], error: "connection refused" },
  ];
  const t = harness({ "session/new": () => started() });
  await t.controller.setConnection("running", t.port);
  await t.controller.newSession();
  t.controller.onSessionUpdate({ sessionId: "s-1", update: { sessionUpdate: "mcp_status_update", servers } });
  assert.deepEqual(t.hooks("mcpChanged").at(-1), [servers]);
  assert.deepEqual(t.controller.servers, servers);
  assert.equal(mcpSummary(servers), "MCP servers: 1 tool · 1 failed; db: failed: connection refused");
  assert.equal(mcpSummary([]), "");
  const view = statusView({ connection: "running", sessionId: "s-1", gauge: gauge(), compacting: false, clickAction: "showContext", mcpServers: servers });
  assert.match(view.tooltip, /MCP servers: 1 tool · 1 failed/);
});
