// A whole conversation in a narrow side panel, in the Light and Dark themes: nothing may
// overflow sideways. With PANEL_SCREENSHOTS=<dir> it also saves what it rendered.

import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import * as path from "node:path";
import { after, before, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { gauge } from "../unit/fixtures";
import { host, launchChromium, openView, running, skip, update, type ThemeName } from "./harness";

let browser: Browser;
before(async () => {
  if (!skip) browser = await launchChromium();
});
after(async () => {
  await browser?.close();
});

const CWD = "/home/me/calc";
const OUT = process.env.PANEL_SCREENSHOTS;

async function conversation(page: Page): Promise<void> {
  await host(page, { ...running, title: "Fix the calculator" });
  await host(page, { type: "gauge", gauge: gauge({ used: 61_200, percentUsed: 30.6 }) });
  await update(page, { sessionUpdate: "mcp_status_update", servers: [{ name: "github", status: "connected", transport: "http", tools: ["search"] }] });
  await host(page, { type: "userPrompt", text: "The add test fails. Fix calc.py and run the tests." });
  await update(page, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Let me read the module first." }, messageId: "a1" });
  await update(page, { sessionUpdate: "tool_call", toolCallId: "t1", title: "Read calc.py", kind: "read", status: "pending", rawInput: { file_path: `${CWD}/calc.py` }, locations: [{ path: `${CWD}/calc.py` }] });
  await update(page, { sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed", rawOutput: { numLines: 19 }, content: [{ type: "content", content: { type: "text", text: "def add(a, b):\n    return a - b" } }] });
  const oldText = "def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b\n";
  const newText = "def add(a, b):\n    \"\"\"The sum of a and b.\"\"\"\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n";
  const edit = { toolCallId: "t2", title: "Edit calc.py", kind: "edit", status: "pending", rawInput: { file_path: `${CWD}/calc.py`, old_string: "    return a - b", new_string: "    return a + b" }, locations: [{ path: `${CWD}/calc.py` }], content: [{ type: "diff", path: `${CWD}/calc.py`, oldText, newText }] };
  await update(page, { sessionUpdate: "tool_call", ...edit });
  await host(page, { type: "permission", requestId: 1, toolCall: edit, options: [
    { optionId: "allow_once", name: "Accept", kind: "allow_once" },
    { optionId: "allow_turn", name: "Accept all edits this turn", kind: "allow_always" },
    { optionId: "reject_once", name: "Reject", kind: "reject_once" },
  ] });
  await page.click(".permission button >> text=Accept");
  await update(page, { sessionUpdate: "tool_call_update", toolCallId: "t2", status: "completed", content: [{ type: "content", content: { type: "text", text: "The file has been updated." } }] });
  await update(page, { sessionUpdate: "tool_call", toolCallId: "t3", title: "Run the tests", kind: "execute", status: "pending", rawInput: { command: "python -m pytest -q tests/test_calc.py", description: "Run the tests" } });
  await update(page, { sessionUpdate: "tool_call_update", toolCallId: "t3", status: "completed", rawOutput: { exitCode: 0 }, content: [{ type: "content", content: { type: "text", text: "4 passed in 0.02s" } }] });
  await update(page, { sessionUpdate: "agent_message_chunk", content: { type: "text", text:
    "Fixed: `add` subtracted. The corrected function:\n\n```python\ndef add(a, b):\n    \"\"\"The sum of a and b.\"\"\"\n    return a + b  # was a - b\n```\n\nAll **4 tests** pass now." }, messageId: "a2" });
  await host(page, { type: "turnEnded", stopReason: "end_turn" });
  await update(page, { sessionUpdate: "tool_call", toolCallId: "t4", title: "Edit README.md", kind: "edit", status: "pending", rawInput: { file_path: `${CWD}/README.md`, old_string: "Calculator", new_string: "A small calculator" }, locations: [{ path: `${CWD}/README.md` }], content: [{ type: "diff", path: `${CWD}/README.md`, oldText: "# Calculator\n", newText: "# A small calculator\n" }] });
  await host(page, { type: "permission", requestId: 2, toolCall: { toolCallId: "t4", title: "Edit README.md", kind: "edit", rawInput: { file_path: `${CWD}/README.md`, old_string: "Calculator", new_string: "A small calculator" }, locations: [{ path: `${CWD}/README.md` }], content: [{ type: "diff", path: `${CWD}/README.md`, oldText: "# Calculator\n", newText: "# A small calculator\n" }] }, options: [
    { optionId: "allow_once", name: "Accept", kind: "allow_once" },
    { optionId: "allow_turn", name: "Accept all edits this turn", kind: "allow_always" },
    { optionId: "reject_once", name: "Reject", kind: "reject_once" },
  ] });
  await page.waitForSelector(".code-block .hljs-keyword");
}

for (const theme of ["dark", "light"] as ThemeName[]) {
  test(`a whole conversation fits a narrow panel without sideways scrolling (${theme})`, { skip }, async () => {
    const page = await openView(browser, theme);
    await page.setViewportSize({ width: 360, height: 900 });
    await conversation(page);
    const overflow = await page.evaluate(() => {
      const t = document.getElementById("transcript")!;
      return { transcript: t.scrollWidth - t.clientWidth, page: document.documentElement.scrollWidth - document.documentElement.clientWidth };
    });
    assert.deepEqual(overflow, { transcript: 0, page: 0 });
    if (OUT) {
      mkdirSync(OUT, { recursive: true });
      await page.screenshot({ path: path.join(OUT, `panel-${theme}.png`) });
    }
    // The two views over the transcript fit as well.
    await host(page, { type: "context", view: {
      gauge: gauge({ used: 61_200, percentUsed: 30.6 }),
      prefix: { parts: { system: 3000, memoryFiles: 1200, tools: 12000 }, memoryFiles: [{ path: `${CWD}/CLAUDE.md`, kind: "project", tokens: 1200 }] },
      fileReadState: [{ path: `${CWD}/a/rather/deeply/nested/folder/with/a/long/name/calc_with_a_long_module_name.py`, tokens: 2100, stale: false, origin: "read" }],
      messages: [{ role: "user", content: [{ type: "text", text: "Fix the failing test" }] }],
      mcpServers: [{ name: "github", status: "connected", transport: "http", tools: ["search"] }],
    } });
    await page.locator("#context-view table").first().waitFor();
    const viewOverflow = await page.evaluate(() => {
      const v = document.getElementById("context-view")!;
      return v.scrollWidth - v.clientWidth;
    });
    assert.equal(viewOverflow, 0, "the Context view does not scroll sideways");
    if (OUT) await page.screenshot({ path: path.join(OUT, `context-${theme}.png`) });
    await host(page, { type: "sessions", sessions: [
      { sessionId: "s-1", title: "Fix the calculator", updatedAt: new Date(Date.now() - 5 * 60_000).toISOString(), used: 61_200, size: 200_000, model: "claude-haiku-4-5" },
      { sessionId: "s-0", title: "A session with a title far too long to fit in one line of a narrow side panel", updatedAt: "2026-11-20T10:00:00Z", used: 12_000, size: 200_000 },
    ] });
    await page.locator("#sessions-view .session-row").first().waitFor();
    const listOverflow = await page.evaluate(() => {
      const v = document.getElementById("sessions-view")!;
      return v.scrollWidth - v.clientWidth;
    });
    assert.equal(listOverflow, 0, "the Sessions view does not scroll sideways");
    if (OUT) await page.screenshot({ path: path.join(OUT, `sessions-${theme}.png`) });
    assert.deepEqual((page as any).__errors, []);
    await page.close();
  });
}
