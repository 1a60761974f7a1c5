// The chat webview in headless Chromium: the real bundle (dist/webview.js) inside the real
// HTML shell with its CSP, with acquireVsCodeApi stubbed to record what the view posts.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser } from "playwright-core";
import { gauge } from "../unit/fixtures";
import { host as hostSeq, launchChromium, openView as open, posted, running, skip } from "./harness";

let browser: Browser;

before(async () => {
  if (!skip) browser = await launchChromium();
});
after(async () => {
  await browser?.close();
});

const openView = () => open(browser);
const host = hostSeq;

test("the view says ready, then posts the prompt typed in the box", { skip }, async () => {
  const page = await openView();
  await page.waitForFunction(() => (window as any).__posted.length > 0);
  assert.deepEqual((await posted(page))[0], { type: "ready", seq: 1 });
  await host(page, running);
  await page.fill("#input", "Explain the gauge");
  await page.press("#input", "Enter");
  await page.click("#new");
  const sent = await posted(page);
  assert.deepEqual(sent.slice(1), [
    { type: "prompt", text: "Explain the gauge", seq: 2 },
    { type: "newSession", seq: 3 },
  ]);
  assert.equal(await page.inputValue("#input"), "");
  assert.deepEqual((page as any).__errors, []);
  await page.close();
});

test("a prompt typed before the sidecar is up waits in the queue and goes once it runs", { skip }, async () => {
  const page = await openView();
  await page.waitForFunction(() => (window as any).__posted.length > 0);
  // No state from the host yet: the panel opened as the editor started.
  await page.fill("#input", "Summarize the README");
  await page.press("#input", "Enter");
  assert.equal(await page.inputValue("#input"), "", "the box is free again");
  assert.match(await page.locator("#queued").innerText(), /once the sidecar is running.*Summarize the README/s);
  assert.deepEqual((await posted(page)).filter((m) => m.type === "prompt"), [], "nothing is sent to a sidecar that is not there");
  await host(page, { ...running, connection: "starting" });
  assert.deepEqual((await posted(page)).filter((m) => m.type === "prompt"), []);
  await host(page, running);
  const prompts = (await posted(page)).filter((m) => m.type === "prompt");
  assert.deepEqual(prompts.map((m) => m.text), ["Summarize the README"]);
  assert.equal(await page.locator("#queued").isHidden(), true);
  await page.close();
});

test("a sent message keeps the chips of the files and selection that went with it", { skip }, async () => {
  const page = await openView();
  await host(page, running);
  await host(page, { type: "userPrompt", text: "Compare @notes.txt with this", attachments: [
    { kind: "file", label: "notes.txt" }, { kind: "selection", label: "src/app.ts:3-4" }] });
  await host(page, { type: "userPrompt", text: "no attachments" });
  const first = page.locator(".message.user").first();
  assert.deepEqual(await first.locator(".sent-chips .chip-label").allInnerTexts(), ["notes.txt", "src/app.ts:3-4"]);
  assert.deepEqual(await first.locator(".sent-chips .chip").evaluateAll((c) => c.map((e) => e.className)), ["chip file", "chip selection"]);
  assert.equal(await first.locator(".chip-drop").count(), 0, "a sent chip cannot be removed");
  assert.equal(await page.locator(".message.user").nth(1).locator(".sent-chips").count(), 0);
  await page.close();
});

test("streamed markdown renders incrementally with highlighted code", { skip }, async () => {
  const page = await openView();
  await host(page, running);
  await host(page, { type: "userPrompt", text: "Show **code**" });
  const chunks = ["Here is ", "**bold** text and code:\n\n```py", "thon\ndef f(x):\n    return x + 1\n", "```\n"];
  await host(page, { type: "update", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: chunks[0] }, messageId: "m1" } });
  await page.waitForSelector(".message.agent .markdown >> text=Here is");
  for (const text of chunks.slice(1)) {
    await host(page, { type: "update", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text }, messageId: "m1" } });
  }
  await page.waitForSelector(".message.agent pre code.hljs");
  assert.equal(await page.locator(".message.agent").count(), 1, "chunks of one message build one block");
  assert.equal(await page.locator(".message.agent strong").innerText(), "bold");
  assert.match(await page.locator(".message.agent pre code").innerText(), /def f\(x\):\n\s+return x \+ 1/);
  assert.ok((await page.locator(".message.agent pre code .hljs-keyword").count()) >= 1, "python keywords highlighted");
  // The user's own text is shown as typed, not as markdown.
  assert.equal(await page.locator(".message.user .plain").innerText(), "Show **code**");
  await page.close();
});

test("model output cannot run script: sanitizer strips it and the CSP blocks inline code", { skip }, async () => {
  const page = await openView();
  await host(page, running);
  const payload = [
    "Look: <img src=x onerror=\"window.__xss='img'\">",
    "<script>window.__xss='script'</script>",
    "<svg><animate onbegin=\"window.__xss='svg'\" attributeName=x dur=1s></svg>",
    "[click](javascript:window.__xss='link')",
    "<iframe src=\"javascript:parent.__xss='iframe'\"></iframe>",
    "<a href=x onmouseover=\"window.__xss='hover'\">hover</a> end",
  ].join("\n\n");
  await host(page, { type: "update", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: payload }, messageId: "x" } });
  await page.waitForSelector(".message.agent >> text=end");
  await page.hover(".message.agent a >> text=hover");
  const link = page.locator(".message.agent a", { hasText: "click" });
  if (await link.count()) await link.click({ noWaitAfter: true }).catch(() => undefined);
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(() => (window as any).__xss), undefined);
  const html = await page.locator("#transcript").innerHTML();
  assert.doesNotMatch(html, /onerror|onbegin|onmouseover|<script|<iframe|javascript:/i);
  assert.equal(await page.locator(".message.agent img").count(), 1, "the image itself survives, harmless");

  // Second layer: even markup that skipped the sanitizer cannot run, because of the CSP.
  await page.evaluate(() => {
    document.getElementById("transcript")!.insertAdjacentHTML("beforeend", "<img src=x onerror=\"window.__xss='csp'\">");
  });
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(() => (window as any).__xss), undefined, "CSP blocks inline handlers");
  await page.close();
});

test("permission prompts post the chosen option and settle", { skip }, async () => {
  const page = await openView();
  await host(page, running);
  await host(page, {
    type: "permission",
    requestId: 7,
    toolCall: { toolCallId: "t1", title: "Bash: rm -rf build", kind: "execute", rawInput: { command: "rm -rf build" } },
    options: [
      { optionId: "allow-once", name: "Allow once", kind: "allow_once" },
      { optionId: "allow-always", name: "Always allow", kind: "allow_always" },
      { optionId: "reject", name: "Reject", kind: "reject_once" },
    ],
  });
  await page.waitForSelector(".permission >> text=Run this command?");
  assert.equal(await page.locator(".permission pre").innerText(), "$ rm -rf build");
  await page.click(".permission button >> text=Always allow");
  const answer = (await posted(page)).find((m) => m.type === "permissionAnswer");
  assert.deepEqual({ ...answer, seq: undefined }, { type: "permissionAnswer", requestId: 7, optionId: "allow-always", seq: undefined });
  // Answered, the card folds into one line saying what was chosen.
  assert.equal(await page.locator(".permission button").count(), 0);
  assert.equal(await page.locator(".permission.answered .tool-permission").innerText(), "✓ Always allow");
  // A cancelled prompt (turn cancelled elsewhere) settles without an answer from the view.
  await host(page, { type: "permission", requestId: 8, toolCall: { title: "Write a.txt" }, options: [{ optionId: "ok", name: "Allow", kind: "allow_once" }] });
  await host(page, { type: "permissionDone", requestId: 8, optionId: null });
  await page.waitForSelector('.permission[data-request-id="8"] >> text=Cancelled');
  assert.equal((await posted(page)).filter((m) => m.type === "permissionAnswer").length, 1);
  await page.close();
});

test("thinking is collapsed; tool calls show status; compaction shows tokens saved; errors show the fix", { skip }, async () => {
  const page = await openView();
  await host(page, running);
  await host(page, { type: "update", update: { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "Let me *think*." }, messageId: "m2" } });
  await host(page, { type: "update", update: { sessionUpdate: "tool_call", toolCallId: "tc1", title: "Read src/app.py", kind: "read", status: "pending", rawInput: { file_path: "src/app.py" } } });
  await host(page, { type: "update", update: { sessionUpdate: "tool_call_update", toolCallId: "tc1", status: "completed", content: [{ type: "content", content: { type: "text", text: "1→print('hi')" } }] } });
  await host(page, { type: "update", update: { sessionUpdate: "compaction_update", compactionId: "c1", status: "in_progress", tier: "full", trigger: "auto" } });
  await host(page, { type: "update", update: { sessionUpdate: "compaction_update", compactionId: "c1", status: "completed", tier: "full", trigger: "auto", tokensBefore: 168_000, tokensAfter: 21_500 } });
  await host(page, { type: "error", message: "No API key for anthropic", code: -33002, fix: "Run “Context Sidecar: Set API Key”." });
  await host(page, { type: "gauge", gauge: gauge({ level: "warning", used: 150_000, percentUsed: 75 }) });

  const thought = page.locator("details.thought");
  await thought.locator("em").waitFor({ state: "attached" });
  assert.equal(await thought.evaluate((d) => (d as HTMLDetailsElement).open), false);
  const tool = page.locator("details.tool");
  assert.equal(await tool.getAttribute("data-status"), "completed");
  assert.equal(await tool.locator(".tool-status").innerText(), "✓");
  assert.equal(await tool.locator("summary").innerText(), "✓\nRead\nsrc/app.py");
  assert.equal(await tool.evaluate((d) => (d as HTMLDetailsElement).open), false);
  assert.match(await tool.locator(".tool-output").textContent() ?? "", /print\('hi'\)/);
  assert.equal(await page.locator(".compaction").count(), 1, "one row per compaction, updated in place");
  assert.equal(await page.locator(".compaction").innerText(), "Auto-compaction (full): 168K → 21.5K tokens, saved 146.5K");
  assert.equal(await page.locator(".error .error-message").innerText(), "No API key for anthropic");
  assert.equal(await page.locator(".error .error-fix").innerText(), "Run “Context Sidecar: Set API Key”.");
  assert.equal(await page.locator("#gauge .gauge-text").innerText(), "150K / 200K · 75%");
  assert.equal(await page.locator("#gauge").getAttribute("data-level"), "warning");
  await page.close();
});

test("a web search row names the query and lists its sources as links", { skip }, async () => {
  const page = await openView();
  await host(page, running);
  await host(page, { type: "update", update: { sessionUpdate: "tool_call", toolCallId: "srvtoolu_1", title: "Web search: python news", kind: "search", status: "pending", rawInput: { query: "python news" } } });
  await host(page, { type: "update", update: { sessionUpdate: "tool_call_update", toolCallId: "srvtoolu_1", status: "completed", rawOutput: { sources: [], server: true }, content: [
    { type: "content", content: { type: "resource_link", uri: "https://docs.python.org/3.14/", name: "Python 3.14" } },
    { type: "content", content: { type: "resource_link", uri: "https://peps.python.org/pep-0779/", name: "PEP 779" } }] } });
  const tool = page.locator("details.tool");
  await tool.waitFor({ state: "attached" });
  assert.equal(await tool.locator("summary").innerText(), "✓\nWeb search\npython news\n· 2 sources");
  const links = tool.locator("ul.tool-sources a");
  assert.deepEqual(await links.allTextContents(), ["Python 3.14", "PEP 779"]);
  assert.deepEqual(await links.evaluateAll((as) => as.map((a) => a.getAttribute("href"))),
    ["https://docs.python.org/3.14/", "https://peps.python.org/pep-0779/"]);
  assert.equal(await tool.locator(".tool-output").count(), 0, "the links are not repeated as text");
  await page.close();
});

test("busy state shows Cancel; stale host messages are ignored; reset clears", { skip }, async () => {
  const page = await openView();
  await host(page, { ...running, busy: true }, 100);
  assert.equal(await page.locator("#cancel").isVisible(), true);
  // Send stays usable while busy: it queues (see the keyboard tests).
  assert.equal(await page.locator("#send").innerText(), "Queue");
  await page.click("#cancel");
  assert.equal((await posted(page)).at(-1).type, "cancel");
  await host(page, { type: "notice", text: "stale" }, 50);
  await host(page, { ...running, busy: false }, 101);
  assert.equal(await page.locator("#cancel").isVisible(), false);
  assert.equal(await page.locator(".notice").count(), 0, "a message with an older seq is dropped");
  await host(page, { type: "notice", text: "fresh" }, 102);
  assert.equal(await page.locator(".notice").count(), 1);
  await host(page, { type: "reset" }, 103);
  assert.equal(await page.locator("#transcript > *").count(), 0);
  // Session list: picking one posts loadSession.
  await host(page, { type: "sessions", sessions: [{ sessionId: "abc12345-x", title: "Fix the parser", updatedAt: "2026-11-29T10:00:00Z", used: 42_000, size: 200_000 }] }, 104);
  await page.click(".session-open >> text=Fix the parser");
  assert.deepEqual({ ...(await posted(page)).at(-1), seq: 0 }, { type: "loadSession", sessionId: "abc12345-x", seq: 0 });
  assert.equal(await page.locator("#sessions-view").isHidden(), true);
  await page.close();
});
