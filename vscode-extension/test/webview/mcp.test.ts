// The panel's MCP line and list in the real webview bundle, in headless Chromium: each server
// in words, a server waiting for approval is no failure, and its buttons ask the host.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser } from "playwright-core";
import { noErrors, openView, posted, running, host, skip, update, launchChromium } from "./harness";

let browser: Browser;

before(async () => {
  if (!skip) browser = await launchChromium();
});
after(async () => {
  await browser?.close();
});

const servers = [
  { name: "github", status: "connected", transport: "http", tools: ["a", "b", "c"], state: "connected", label: "connected · 3 tools", actions: [], offered: 3, workspace: false },
  { name: "probe", status: "failed", transport: "stdio", tools: [], error: "waiting for approval", state: "waiting", label: "waiting for your approval", actions: ["approve", "reject"], offered: 0, workspace: true },
  { name: "old", status: "failed", transport: "stdio", tools: [], error: "not started: rejected for this workspace (your answer, remembered)", state: "rejected", label: "rejected for this workspace", actions: ["approve"], offered: 0, workspace: true },
  { name: "db", status: "failed", transport: "stdio", tools: [], error: "exited with 1 (gave up after 4 attempts)", state: "failed", label: "failed: exited with 1 (gave up after 4 attempts)", actions: ["retry"], offered: 0, workspace: false },
];

test("the MCP list says each server's state in words, with Approve / Reject / Retry", { skip }, async () => {
  const page = await openView(browser, "dark");
  await host(page, running);
  await update(page, { sessionUpdate: "mcp_status_update", servers });
  const line = page.locator("#mcp");
  assert.equal(await line.innerText(), "MCP: 3 tools · 1 waiting for your approval · 1 failed · 1 rejected");
  // A server waiting opens the list by itself; the waiting one is not said as failed.
  const list = page.locator("#mcp-list");
  assert.equal(await list.isVisible(), true);
  const row = (name: string) => list.locator(`.mcp-server[data-server="${name}"]`);
  assert.equal(await row("probe").locator(".mcp-label").innerText(), "waiting for your approval");
  assert.equal(await row("probe").getAttribute("data-state"), "waiting");
  assert.deepEqual(await row("probe").locator("button").allInnerTexts(), ["Approve", "Reject"]);
  assert.deepEqual(await row("old").locator("button").allInnerTexts(), ["Approve"]);
  assert.deepEqual(await row("db").locator("button").allInnerTexts(), ["Retry"]);
  assert.equal(await row("github").locator("button").count(), 0);
  assert.equal(await row("github").locator(".mcp-label").innerText(), "connected · 3 tools");

  await row("probe").locator("button.mcp-approve").click();
  assert.deepEqual(
    (({ type, server, action }) => ({ type, server, action }))((await posted(page)).at(-1)),
    { type: "mcpAction", server: "probe", action: "approve" },
  );
  await row("db").locator("button.mcp-retry").click();
  assert.equal((await posted(page)).at(-1).action, "retry");
  // The line toggles the list.
  await line.click();
  assert.equal(await list.isVisible(), false);
  await line.click();
  assert.equal(await list.isVisible(), true);
  // A sidecar from before the words: read from status and error.
  await update(page, { sessionUpdate: "mcp_status_update", servers: [
    { name: "probe", status: "failed", transport: "stdio", tools: [], error: "waiting for approval" },
  ] });
  assert.equal(await line.innerText(), "MCP: 0 tools · 1 waiting for your approval");
  assert.deepEqual(await row("probe").locator("button").allInnerTexts(), ["Approve", "Reject"]);
  noErrors(page);
  await page.close();
});

test("the sidecar's question about starting a workspace server reads as asked, with its command line", { skip }, async () => {
  const page = await openView(browser, "dark");
  await host(page, running);
  await host(page, {
    type: "permission", requestId: 7,
    toolCall: {
      toolCallId: "mcp-approval-1a2b3c", title: "Start the MCP server 'probe' from .mcp.json?", kind: "other",
      content: [{ type: "content", content: { type: "text", text: "python -m tests.mcp_servers.probe_server" } }],
      rawInput: { server: "probe", source: "/w/.mcp.json" },
    },
    options: [{ optionId: "allow_always", name: "Yes, and remember for this workspace", kind: "allow_always" }],
  });
  const card = page.locator('.permission[data-request-id="7"]');
  assert.equal(await card.locator(".permission-title").innerText(), "Start the MCP server 'probe' from .mcp.json?");
  assert.equal(await card.locator("pre.permission-command").innerText(), "python -m tests.mcp_servers.probe_server");
  noErrors(page);
  await page.close();
});

