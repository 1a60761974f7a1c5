// End to end: a workspace's own MCP server (its .mcp.json, the project's probe server) in
// code-server. It waits for the user's approval and the panel says so in words, not as a
// failure, with Approve / Reject on the MCP list; clicking Approve there starts it, and the
// fake LLM's recorded request then offers its tools; Reject takes them away again. Saves the
// panel's MCP list as docs/screenshots/mcp-servers-dark.png and -light.png.

import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { after, before } from "node:test";
import { CodeServerSession, scenarios, skipReason } from "../support/codeServer";
import { PYTHON, REPO_ROOT, startFakeLlm, type FakeLlm } from "../support/processes";

const skip = skipReason();
const cs = new CodeServerSession();
const scenario = scenarios(cs);
let fake: FakeLlm;
const shots: string[] = [];

const reply = (t: string) => ({ content: [{ type: "text", text: t }], chunk_size: 16 });

before(async () => {
  if (skip) return;
  fake = await startFakeLlm();
  writeFileSync(path.join(cs.dirs.workspace, ".mcp.json"), JSON.stringify({
    mcpServers: { probe: { command: PYTHON, args: ["-m", "tests.mcp_servers.probe_server"], env: { PYTHONPATH: REPO_ROOT } } },
  }, null, 2));
  await cs.start(
    { "contextSidecar.baseUrl": fake.url, "contextSidecar.model": "claude-haiku-4-5", "contextSidecar.apiKeyEnv": "FAKE_LLM_KEY" },
    { FAKE_LLM_KEY: "test" },
    { viewport: { width: 1280, height: 860 } },
  );
});

after(async () => {
  if (shots.length) console.log(`screenshots:\n${shots.join("\n")}`);
  await cs.stop();
  await fake?.stop();
});

/** The MCP tools of the model's request for `prompt`, as the fake recorded it. */
async function toolsOffered(prompt: string, answer: string): Promise<string[]> {
  await fake.reset();
  await fake.queue([reply(answer)]);
  const frame = await cs.openChat();
  await frame.locator("#send:not([disabled])").waitFor({ timeout: 60_000 });
  await frame.locator("#input").fill(prompt);
  await frame.locator("#input").press("Enter");
  await frame.locator(".message.agent .markdown", { hasText: answer }).first().waitFor({ timeout: 60_000 });
  const requests: { path?: string; body?: { messages?: unknown; tools?: { name: string }[] } }[] = await fake.requests();
  const calls = requests.filter((r) => r.body?.messages && !/count_tokens/.test(r.path ?? ""));
  assert.ok(calls.length >= 1, "the prompt reached the model");
  return (calls.at(-1)?.body?.tools ?? []).map((t) => t.name).filter((n) => n.startsWith("mcp__"));
}

const sidebar = (file: string) => cs.page.locator("#workbench\\.parts\\.sidebar").screenshot({ path: file });

scenario("a workspace MCP server waiting for approval: Approve on the panel's MCP list offers its tools to the model", { skip, timeout: 300_000 }, async () => {
  await cs.statusBar().getByText(/no session/).waitFor({ timeout: 90_000 });
  const frame = await cs.openChat();
  await frame.locator("#new").click();
  // The line says what the user must do, and is no red "failed".
  const line = frame.locator("#mcp");
  await line.filter({ hasText: "1 waiting for your approval" }).waitFor({ timeout: 60_000 });
  assert.equal(await line.getAttribute("data-state"), "attention");
  const row = frame.locator('#mcp-list .mcp-server[data-server="probe"]');
  await row.waitFor({ state: "visible", timeout: 15_000 });
  assert.equal(await row.locator(".mcp-label").innerText(), "waiting for your approval");
  assert.deepEqual(await row.locator("button").allInnerTexts(), ["Approve", "Reject"]);
  // The sidecar's own question is in the panel too; either answers it.
  await frame.locator(".permission", { hasText: "Start the MCP server 'probe' from .mcp.json?" }).first().waitFor({ timeout: 30_000 });
  await cs.page.mouse.move(900, 650);
  await cs.page.waitForTimeout(300);
  shots.push(...(await cs.shootBoth("mcp-servers", sidebar)));

  await row.locator("button.mcp-approve").click();
  await row.locator(".mcp-label", { hasText: /^connected · 8 tools$/ }).waitFor({ timeout: 60_000 });
  await line.filter({ hasText: /^MCP: 8 tools$/ }).waitFor({ timeout: 15_000 });
  assert.deepEqual(await row.locator("button").allInnerTexts(), []);
  await frame.locator(".notice", { hasText: "Approved the MCP server 'probe'" }).first().waitFor({ timeout: 15_000 });
  // The question went with the answer.
  await frame.locator(".permission:has(button:not([disabled]))", { hasText: "Start the MCP server 'probe'" }).waitFor({ state: "detached", timeout: 15_000 })
    .catch(async () => assert.equal(await frame.locator(".permission button:not([disabled])", { hasText: "Yes, and remember" }).count(), 0));

  const offered = await toolsOffered("Which tools do you have?", "Probe tools seen.");
  assert.equal(offered.length, 8, `the model is offered the probe's 8 tools: ${offered.join(", ")}`);
  assert.ok(offered.includes("mcp__probe__echo"));
});

scenario("Reject on the MCP list: the model is no longer offered the server's tools, and Approve brings them back", { skip, timeout: 240_000 }, async () => {
  const frame = await cs.openChat();
  const row = frame.locator('#mcp-list .mcp-server[data-server="probe"]');
  if (!(await row.isVisible())) await frame.locator("#mcp").click();
  // A connected server has no buttons; /mcp reject is the way to turn it off.
  await frame.locator("#send:not([disabled])").waitFor({ timeout: 60_000 });
  await frame.locator("#input").fill("/mcp reject probe");
  await frame.locator("#input").press("Enter");
  await row.locator(".mcp-label", { hasText: "rejected for this workspace" }).waitFor({ timeout: 60_000 });
  assert.deepEqual(await row.locator("button").allInnerTexts(), ["Approve"]);
  assert.deepEqual(await toolsOffered("And now?", "No probe now."), []);
  await row.locator("button.mcp-approve").click();
  await row.locator(".mcp-label", { hasText: /^connected · 8 tools$/ }).waitFor({ timeout: 60_000 });
  assert.equal((await toolsOffered("And again?", "Probe is back.")).length, 8);
  assert.deepEqual(await fake.violations(), []);
});
