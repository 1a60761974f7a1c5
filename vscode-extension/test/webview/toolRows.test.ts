// The chat panel's behaviour, one test per thing users asked for (toolRows); the harness
// drives the real bundle in Chromium.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { CWD, host, launchChromium, noErrors, openView, postedOf, running, skip, text, update } from "./harness";

let browser: Browser;
before(async () => {
  if (!skip) browser = await launchChromium();
});
after(async () => {
  await browser?.close();
});


// ---- 2. tool rows and permissions ---------------------------------------------------------

async function toolRun(page: Page, id: string, call: Record<string, unknown>, end: Record<string, unknown>): Promise<void> {
  await update(page, { sessionUpdate: "tool_call", toolCallId: id, status: "pending", ...call });
  await update(page, { sessionUpdate: "tool_call_update", toolCallId: id, status: "in_progress" });
  await update(page, { sessionUpdate: "tool_call_update", toolCallId: id, ...end });
}

test("tool rows are one concise line, with clickable paths and input on demand, not JSON", { skip }, async () => {
  const page = await openView(browser);
  await host(page, running);
  await update(page, text("Let me look.", "m1"));
  await toolRun(page, "r1",
    { title: "Read calc.py", kind: "read", rawInput: { file_path: `${CWD}/calc.py` }, locations: [{ path: `${CWD}/calc.py` }] },
    { status: "completed", rawOutput: { path: `${CWD}/calc.py`, startLine: 1, numLines: 19 }, content: [{ type: "content", content: { type: "text", text: "1→def add(a, b):" } }] });
  const oldText = "a\nb\nc\nd\n";
  const newText = "a\nB\nc\nd\ne\nf\n";
  await toolRun(page, "e1",
    { title: "Edit src/a.py", kind: "edit", rawInput: { file_path: `${CWD}/src/a.py`, old_string: "b\nd", new_string: "B\nd\ne\nf" }, locations: [{ path: `${CWD}/src/a.py`, line: 2 }],
      content: [{ type: "diff", path: `${CWD}/src/a.py`, oldText, newText }] },
    { status: "completed", rawOutput: { path: `${CWD}/src/a.py`, created: false, replacements: 1 }, content: [{ type: "content", content: { type: "text", text: "The file has been updated." } }] });
  await toolRun(page, "b1",
    { title: "Run the tests", kind: "execute", rawInput: { command: "pytest -q", description: "Run the tests" } },
    { status: "completed", rawOutput: { exitCode: 0, timedOut: false, cancelled: false }, content: [{ type: "content", content: { type: "text", text: "3 passed\nExit code: 0" } }] });
  await toolRun(page, "g1",
    { title: "Grep 'def add' in src", kind: "search", rawInput: { pattern: "def add", path: `${CWD}/src` }, locations: [{ path: `${CWD}/src` }] },
    { status: "completed", rawOutput: { mode: "files_with_matches", numFiles: 2 } });
  await update(page, text("All green.", "m2"));

  const line = (id: string) => page.locator(`details.tool[data-tool-call-id="${id}"] > summary`).innerText();
  assert.equal((await line("r1")).replace(/\s+/g, " "), "✓ Read calc.py · 19 lines");
  assert.equal((await line("e1")).replace(/\s+/g, " "), "✓ Edit src/a.py +3 −1");
  assert.equal((await line("b1")).replace(/\s+/g, " "), "✓ Bash pytest -q · exit 0");
  assert.equal((await line("g1")).replace(/\s+/g, " "), "✓ Grep 'def add' in src · 2 files");
  // No "Assistant" header anywhere; the agent's text blocks carry no role label.
  assert.equal(await page.locator("text=Assistant").count(), 0);
  assert.equal(await page.locator(".message.agent").count(), 2);
  // Collapsed until asked; then the input reads as a command, never as JSON.
  const bash = page.locator('details.tool[data-tool-call-id="b1"]');
  assert.equal(await bash.evaluate((d) => (d as HTMLDetailsElement).open), false);
  await bash.locator("summary").click();
  assert.equal(await bash.locator(".tool-input").innerText(), "$ pytest -q");
  assert.match(await bash.locator(".tool-output").innerText(), /3 passed/);
  assert.doesNotMatch(await page.locator("#transcript").innerText(), /[{]"|": /);
  // The edit's diff is there when opened.
  await page.locator('details.tool[data-tool-call-id="e1"] > summary .tool-verb').click();
  assert.equal(await page.locator('details.tool[data-tool-call-id="e1"] .diff-line.add').count(), 3);
  // Paths open in the editor without toggling the row.
  await page.click('details.tool[data-tool-call-id="r1"] .tool-path');
  assert.deepEqual((await postedOf(page, "openFile")).map(({ seq, ...m }) => m), [{ type: "openFile", path: `${CWD}/calc.py` }]);
  assert.equal(await page.locator('details.tool[data-tool-call-id="r1"]').evaluate((d) => (d as HTMLDetailsElement).open), false);
  noErrors(page);
  await page.close();
});

test("a Bash permission asks about the command (not its description) and folds into the row once answered", { skip }, async () => {
  const page = await openView(browser);
  await host(page, running);
  await update(page, { sessionUpdate: "tool_call", toolCallId: "t9", title: "List src and run python", kind: "execute", status: "pending", rawInput: { command: "ls src && python calc.py", description: "List src and run python" } });
  await update(page, { sessionUpdate: "tool_call_update", toolCallId: "t9", status: "in_progress" });
  await host(page, {
    type: "permission", requestId: 3,
    toolCall: { toolCallId: "t9", title: "List src and run python", kind: "execute", rawInput: { command: "ls src && python calc.py", description: "List src and run python" } },
    options: [
      { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
      { optionId: "allow_always", name: "Always allow Bash", kind: "allow_always" },
      { optionId: "reject_once", name: "Reject", kind: "reject_once" },
    ],
  });
  const card = page.locator('details.tool[data-tool-call-id="t9"] .permission');
  assert.equal(await card.locator(".permission-title").innerText(), "Run this command?");
  assert.equal(await card.locator(".permission-why").innerText(), "List src and run python");
  assert.equal(await card.locator("pre").innerText(), "$ ls src && python calc.py");
  assert.doesNotMatch(await page.locator("#transcript").innerText(), /Allow List src/);
  await card.locator("button >> text=Allow once").click();
  await update(page, { sessionUpdate: "tool_call_update", toolCallId: "t9", status: "completed", rawOutput: { exitCode: 0 }, content: [{ type: "content", content: { type: "text", text: "calc.py\n42" } }] });
  // Gone from the transcript, remembered on the row; the output is not under a focus-bordered card.
  assert.equal(await page.locator(".permission").count(), 0);
  const row = page.locator('details.tool[data-tool-call-id="t9"]');
  assert.equal(await row.locator(".tool-permission").innerText(), "✓ Allow once");
  assert.equal(await row.evaluate((d) => (d as HTMLDetailsElement).open), false);
  assert.deepEqual((await postedOf(page, "permissionAnswer")).map(({ seq, ...m }) => m), [{ type: "permissionAnswer", requestId: 3, optionId: "allow_once" }]);
  await page.close();
});

test("an edit permission shows a compact diff with Accept / Accept all edits this turn / Reject", { skip }, async () => {
  const page = await openView(browser);
  await host(page, running);
  const oldText = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
  const newText = oldText.replace("line 15\n", "line fifteen\nline 15b\n");
  const toolCall = {
    toolCallId: "ed1", title: "Edit src/calc.py", kind: "edit", status: "pending",
    rawInput: { file_path: `${CWD}/src/calc.py`, old_string: "line 15", new_string: "line fifteen\nline 15b" },
    locations: [{ path: `${CWD}/src/calc.py` }],
    content: [{ type: "diff", path: `${CWD}/src/calc.py`, oldText, newText }],
  };
  await update(page, { sessionUpdate: "tool_call", ...toolCall });
  await host(page, {
    type: "permission", requestId: 4, toolCall,
    options: [
      { optionId: "allow_once", name: "Accept", kind: "allow_once" },
      { optionId: "allow_turn", name: "Accept all edits this turn", kind: "allow_always" },
      { optionId: "reject_once", name: "Reject", kind: "reject_once" },
    ],
  });
  const card = page.locator(".permission");
  assert.equal(await card.locator(".permission-title").innerText(), "Edit calc.py?");
  assert.equal(await card.locator(".diff-line.del").count(), 1);
  assert.equal(await card.locator(".diff-line.add").count(), 2);
  // Compact: two lines of context each side, the rest folded.
  assert.equal(await card.locator(".diff-line.ctx").count(), 4);
  assert.deepEqual(await card.locator(".diff-line.gap").allInnerTexts().then((t) => t.map((s) => s.replace(/\s+/g, " ").trim())), ["⋯ 12 unchanged lines", "⋯ 13 unchanged lines"]);
  assert.deepEqual(await card.locator(".permission-options button").allInnerTexts(), ["Accept", "Accept all edits this turn", "Reject"]);
  await card.locator("button >> text=Reject").click();
  assert.equal(await page.locator('details.tool[data-tool-call-id="ed1"] .tool-permission').innerText(), "✗ Reject");
  await page.close();
});

test("leaving plan mode shows the plan as markdown with its three options", { skip }, async () => {
  const page = await openView(browser);
  await host(page, running);
  await host(page, {
    type: "permission", requestId: 5,
    toolCall: { toolCallId: "p1", title: "Leave plan mode?", kind: "switch_mode", content: [{ type: "content", content: { type: "text", text: "## Plan\n\n1. Fix `add`\n2. Run **pytest**" } }] },
    options: [
      { optionId: "accept_edits", name: "Yes, and accept edits", kind: "allow_once" },
      { optionId: "default", name: "Yes, ask before edits", kind: "allow_once" },
      { optionId: "reject_once", name: "No, keep planning", kind: "reject_once" },
    ],
  });
  const card = page.locator(".permission");
  assert.equal(await card.locator(".permission-title").innerText(), "Leave plan mode?");
  assert.equal(await card.locator(".permission-plan h2").innerText(), "Plan");
  assert.equal(await card.locator(".permission-plan li").count(), 2);
  assert.equal(await card.locator(".permission-plan strong").innerText(), "pytest");
  assert.deepEqual(await card.locator(".permission-options button").allInnerTexts(), ["Yes, and accept edits", "Yes, ask before edits", "No, keep planning"]);
  await card.locator("button >> text=Yes, and accept edits").click();
  assert.equal((await postedOf(page, "permissionAnswer"))[0].optionId, "accept_edits");
  await page.close();
});

