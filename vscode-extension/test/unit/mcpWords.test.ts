import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";
import { mcpActions, mcpLabel, mcpState, mcpSummary } from "../../src/shared/mcpWords";
import * as vscode from "../mocks/vscode";
import { harness, started } from "./harness";

beforeEach(() => vscode.__recorded.reset());

const waiting = { name: "probe", status: "failed" as const, transport: "stdio" as const, tools: [], error: "waiting for approval" };

test("a server held back is said as what it is, not as failed, even from a sidecar without the words", () => {
  assert.equal(mcpState(waiting), "waiting");
  assert.equal(mcpLabel(waiting), "waiting for your approval");
  assert.deepEqual(mcpActions(waiting), ["approve", "reject"]);
  const rejected = { ...waiting, error: "not started: rejected for this workspace (your answer, remembered)" };
  assert.equal(mcpLabel(rejected), "rejected for this workspace");
  assert.deepEqual(mcpActions(rejected), ["approve"]);
  const untrusted = { ...waiting, error: "not started: the folder is in the editor's Restricted Mode (trust the folder to start its own servers)" };
  assert.equal(mcpLabel(untrusted), "not used: the folder is not trusted");
  assert.deepEqual(mcpActions(untrusted), []);
  assert.equal(mcpLabel({ ...waiting, status: "starting", error: undefined }), "connecting…");
  assert.equal(mcpLabel({ ...waiting, status: "failed", error: "exited with 1" }), "failed: exited with 1");
  assert.equal(mcpLabel({ ...waiting, status: "connected", error: undefined, tools: ["a", "b"] }), "connected · 2 tools");
  // The sidecar's own words win.
  assert.equal(mcpLabel({ ...waiting, label: "connected · 9 tools, 4 offered to the model", state: "connected" }), "connected · 9 tools, 4 offered to the model");
});

test("the summary counts the tools the model is offered, from the sidecar's count", () => {
  const servers = [
    { name: "big", status: "connected" as const, transport: "stdio" as const, tools: ["a", "b", "c", "d"], state: "connected" as const, offered: 2 },
    { name: "small", status: "connected" as const, transport: "stdio" as const, tools: ["e"] },
    waiting,
  ];
  assert.deepEqual(mcpSummary(servers), { text: "MCP: 3 tools · 1 waiting for your approval", tone: "attention" });
  assert.deepEqual(mcpSummary([servers[1]]), { text: "MCP: 1 tool", tone: "ok" });
});

test("Approve from the panel asks sidecar/mcpAction and takes the servers it answers with", async () => {
  const after = [{ ...waiting, status: "starting" as const, error: undefined, state: "starting" as const, label: "connecting…", actions: [] }];
  let asked: unknown;
  const t = harness({
    "session/new": () => started(),
    "sidecar/mcpAction": (p) => {
      asked = p;
      return { done: true, message: "Approved the MCP server 'probe' for this workspace; it is starting.", servers: after };
    },
  });
  await t.controller.setConnection("running", t.port);
  await t.controller.newSession();
  t.controller.onSessionUpdate({ sessionId: "s-1", update: { sessionUpdate: "mcp_status_update", servers: [waiting] } });
  await t.send({ type: "mcpAction", server: "probe", action: "approve" });
  assert.deepEqual(asked, { sessionId: "s-1", server: "probe", action: "approve" });
  assert.deepEqual(t.controller.servers, after);
  assert.deepEqual(t.hooks("mcpChanged").at(-1), [after]);
  assert.match(JSON.stringify(t.posted("notice").at(-1)), /Approved the MCP server 'probe'/);
});
