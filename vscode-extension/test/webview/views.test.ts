// The chat panel's behaviour, one test per thing users asked for (views); the harness
// drives the real bundle in Chromium.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser } from "playwright-core";
import { gauge } from "../unit/fixtures";
import { CWD, host, launchChromium, openView, posted, postedOf, running, skip, update } from "./harness";

let browser: Browser;
before(async () => {
  if (!skip) browser = await launchChromium();
});
after(async () => {
  await browser?.close();
});


// ---- 3. Context and Sessions views --------------------------------------------------------

const contextView = (used: number) => ({
  gauge: gauge({ used, percentUsed: (used / 200_000) * 100 }),
  prefix: { parts: { system: 3000, memoryFiles: 1200, tools: 12000 }, memoryFiles: [{ path: `${CWD}/CLAUDE.md`, kind: "project", tokens: 1200, chars: 4800 }] },
  fileReadState: [
    { path: `${CWD}/calc.py`, tokens: 2100, readAt: "2026-01-01T00:00:00.000Z", stale: false, origin: "read" },
    { path: `${CWD}/src/a.py`, tokens: 300, readAt: "2026-01-01T00:00:00.000Z", stale: true, origin: "read" },
  ],
  messages: [
    { role: "user", content: [{ type: "text", text: "Fix the failing test" }] },
    { role: "assistant", content: [{ type: "text", text: "Reading." }, { type: "tool_use", id: "t", name: "Read", input: {} }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: "x".repeat(500) }] },
  ],
});

test("the Context view is tables: prefix parts, files with sizes, messages by kind; refreshed after a compaction", { skip }, async () => {
  const page = await openView(browser);
  await host(page, running);
  await page.click("#context");
  assert.equal((await posted(page)).at(-1).type, "requestContext");
  await host(page, { type: "context", view: contextView(142_300) });
  const view = page.locator("#context-view");
  await view.waitFor();
  const rowsOf = (caption: string) => view.locator(`section:has(h3:text-is("${caption}")) tbody tr`).allInnerTexts().then((r) => r.map((x) => x.replace(/\s+/g, " ").trim()));
  assert.deepEqual(await rowsOf("Prefix"), ["System prompt 3K", "Memory files (CLAUDE.md) 1.2K", "Tool definitions 12K"]);
  assert.deepEqual(await rowsOf("Files (2)"), ["calc.py 2.1K read", "a.py 300 changed since read"]);
  // Characters are what each block holds: text, a tool call's input, a result's content.
  assert.deepEqual(await rowsOf("Messages (3)"), ["user tool result 1 500", "user text 1 20", "assistant text 1 8", "assistant tool use 1 2"]);
  await view.locator("a.file-link >> text=calc.py").click();
  assert.equal((await posted(page)).at(-1).path, `${CWD}/calc.py`);
  // A compaction while the view is open asks for fresh sizes, and they replace the old ones.
  const before = (await postedOf(page, "requestContext")).length;
  await update(page, { sessionUpdate: "compaction_update", compactionId: "c1", status: "completed", tier: "full", trigger: "manual", tokensBefore: 142_300, tokensAfter: 18_400 });
  assert.equal((await postedOf(page, "requestContext")).length, before + 1);
  await host(page, { type: "context", view: contextView(18_400) });
  assert.match(await view.locator(".view-summary").innerText(), /18\.4K \/ 200K/);
  await page.keyboard.press("Escape");
  assert.equal(await view.isHidden(), true, "Escape closes the view");
  assert.equal((await postedOf(page, "cancel")).length, 0, "Escape with a view open does not cancel");
  await page.close();
});

test("a host that leaves requestContext unanswered still shows the context, as a document", { skip }, async () => {
  const page = await openView(browser);
  await host(page, running);
  await page.click("#context");
  assert.deepEqual((await posted(page)).slice(-1).map((m) => m.type), ["requestContext"]);
  await page.waitForFunction(() => (window as any).__posted.at(-1).type === "showContext", undefined, { timeout: 5000 });
  await page.close();
});

test("the Sessions view: current marker, filter, rename, delete (confirmed), Escape closes", { skip }, async () => {
  const page = await openView(browser);
  await host(page, { ...running, sessionId: "s-2" });
  await page.click("#sessions");
  assert.equal((await posted(page)).at(-1).type, "listSessions");
  await host(page, {
    type: "sessions",
    sessions: [
      { sessionId: "s-1", title: "Fix the parser", updatedAt: "2026-11-29T10:00:00Z", used: 42_000, size: 200_000 },
      { sessionId: "s-2", title: "Add a calculator", updatedAt: "2026-11-30T10:00:00Z", used: 9_000, size: 200_000 },
      { sessionId: "s-3", title: "Write the README", updatedAt: "2026-11-28T10:00:00Z" },
    ],
  });
  const view = page.locator("#sessions-view");
  assert.equal(await view.locator(".session-row.current").getAttribute("data-session-id"), "s-2");
  assert.match(await view.locator(".session-row.current").innerText(), /current/);
  await page.fill(".view-filter", "pars");
  assert.deepEqual(await view.locator(".session-row").evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.sessionId)), ["s-1"]);
  await page.fill(".view-filter", "");
  const row = view.locator('.session-row[data-session-id="s-3"]');
  await row.hover();
  await row.locator(".session-rename").click();
  await page.fill(".session-rename-input", "Write the docs");
  await page.press(".session-rename-input", "Enter");
  assert.deepEqual({ ...(await posted(page)).at(-1), seq: 0 }, { type: "renameSession", sessionId: "s-3", title: "Write the docs", seq: 0 });
  assert.match(await view.locator('.session-row[data-session-id="s-3"]').innerText(), /Write the docs/);
  const del = view.locator('.session-row[data-session-id="s-1"] .session-delete');
  await view.locator('.session-row[data-session-id="s-1"]').hover();
  await del.click();
  assert.equal((await postedOf(page, "deleteSession")).length, 0, "the first click only asks");
  await del.click();
  assert.deepEqual((await postedOf(page, "deleteSession")).map((m) => m.sessionId), ["s-1"]);
  assert.equal(await view.locator('.session-row[data-session-id="s-1"]').count(), 0);
  await page.keyboard.press("Escape");
  assert.equal(await view.isHidden(), true);
  await page.close();
});

