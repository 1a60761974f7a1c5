// The chat panel's behaviour, one test per thing users asked for (toolRows); the harness
// drives the real bundle in Chromium.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import type { PermissionOption } from "../../src/shared/protocol";
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


const EDIT_OPTIONS: PermissionOption[] = [
  { optionId: "allow_once", name: "Accept", kind: "allow_once" },
  { optionId: "allow_turn", name: "Accept all edits this turn", kind: "allow_always" },
  { optionId: "reject_once", name: "Reject", kind: "reject_once" },
];

test("a MultiEdit reads as an edit, in its question and in its row", { skip }, async () => {
  const page = await openView(browser);
  await host(page, running);
  const oldText = "def add(a, b):\n    return a + b\n";
  const newText = "def plus(x, y):\n    return x + y\n";
  const toolCall = {
    toolCallId: "me1", title: "Edit src/calc.py", kind: "edit", status: "pending",
    rawInput: { file_path: `${CWD}/src/calc.py`, edits: [
      { old_string: "def add", new_string: "def plus" },
      { old_string: "a", new_string: "x", replace_all: true },
      { old_string: "b", new_string: "y", replace_all: true },
    ] },
    locations: [{ path: `${CWD}/src/calc.py` }],
    content: [{ type: "diff", path: `${CWD}/src/calc.py`, oldText, newText }],
  };
  await update(page, { sessionUpdate: "tool_call", ...toolCall });
  await host(page, { type: "permission", requestId: 6, toolCall, options: EDIT_OPTIONS });
  const card = page.locator(".permission");
  assert.equal(await card.locator(".permission-title").innerText(), "Edit calc.py?");
  assert.equal(await card.locator(".diff-line.del").count(), 2);
  assert.equal(await card.locator(".diff-line.add").count(), 2);
  await card.locator("button >> text=Accept").first().click();
  await update(page, { sessionUpdate: "tool_call_update", toolCallId: "me1", status: "completed",
    rawOutput: { path: `${CWD}/src/calc.py`, created: false, edits: 3, replacements: 5 } });
  const line = await page.locator('details.tool[data-tool-call-id="me1"] > summary').innerText();
  assert.equal(line.replace(/\s+/g, " ").replace(/ ✓ Accept$/, ""), "✓ Edit src/calc.py +2 −2");
  noErrors(page);
  await page.close();
});

function editCall(id: string, lines = 3, changed = 1): Record<string, unknown> {
  const oldText = Array.from({ length: lines }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
  const newText = oldText.split("\n").map((l, i) => (i < changed ? l.replace("line", "row") : l)).join("\n");
  return {
    toolCallId: id, title: "Edit src/calc.py", kind: "edit", status: "pending",
    rawInput: { file_path: `${CWD}/src/calc.py`, old_string: "line 1", new_string: "line one" },
    locations: [{ path: `${CWD}/src/calc.py` }],
    content: [{ type: "diff", path: `${CWD}/src/calc.py`, oldText, newText }],
  };
}

/** Whether the element's box lies inside the transcript's visible part. */
const inView = (page: Page, selector: string) => page.locator(selector).first().evaluate((e) => {
  const box = e.getBoundingClientRect();
  const pane = document.getElementById("transcript")!.getBoundingClientRect();
  return box.top >= pane.top - 1 && box.bottom <= pane.bottom + 1;
});

test("a card's reason line: Enter rejects with what was typed, and the answered row shows it", { skip }, async () => {
  const page = await openView(browser);
  await host(page, running);
  const call = editCall("ed2");
  await update(page, { sessionUpdate: "tool_call", ...call });
  await host(page, { type: "permission", requestId: 11, toolCall: call, options: EDIT_OPTIONS });
  const field = page.locator(".permission input.permission-reason");
  assert.equal(await field.getAttribute("placeholder"), "Tell the model why (optional)");
  // An empty line is not an answer.
  await field.press("Enter");
  assert.equal((await postedOf(page, "permissionAnswer")).length, 0);
  await field.fill("Keep line 1; rename line 2 instead.");
  await field.press("Enter");
  assert.deepEqual((await postedOf(page, "permissionAnswer")).map(({ seq, ...m }) => m), [
    { type: "permissionAnswer", requestId: 11, optionId: "reject_once", reason: "Keep line 1; rename line 2 instead." },
  ]);
  const row = page.locator('details.tool[data-tool-call-id="ed2"]');
  assert.equal(await row.locator(".tool-permission").innerText(), "✗ Reject");
  assert.equal(await row.locator("summary .tool-permission-reason").innerText(), "“Keep line 1; rename line 2 instead.”");
  assert.equal(await page.locator(".permission").count(), 0);
  // The final update carries the answer as the sidecar recorded it; the reason stays.
  await update(page, { sessionUpdate: "tool_call_update", toolCallId: "ed2", status: "failed", permission: { optionId: "reject_once", name: "Reject", reason: "Keep line 1; rename line 2 instead." } });
  await row.locator("summary").click();
  assert.equal(await row.locator(".tool-said").innerText(), "You told the model: Keep line 1; rename line 2 instead.");
  noErrors(page);
  await page.close();
});

test("the Reject button sends the typed reason; Accept does not; a replayed row shows the reason", { skip }, async () => {
  const page = await openView(browser);
  await host(page, running);
  for (const [requestId, id, click] of [[12, "ed3", "Reject"], [13, "ed4", "Accept"]] as const) {
    const call = editCall(id);
    await update(page, { sessionUpdate: "tool_call", ...call });
    await host(page, { type: "permission", requestId, toolCall: call, options: EDIT_OPTIONS });
    await page.locator(".permission input.permission-reason").fill("  not this way  ");
    await page.locator(`.permission button >> text="${click}"`).click();
  }
  assert.deepEqual((await postedOf(page, "permissionAnswer")).map(({ seq, ...m }) => m), [
    { type: "permissionAnswer", requestId: 12, optionId: "reject_once", reason: "not this way" },
    { type: "permissionAnswer", requestId: 13, optionId: "allow_once" },
  ]);
  assert.equal(await page.locator('details.tool[data-tool-call-id="ed4"] .tool-permission-reason').count(), 0);
  // A resumed session: only the replayed final update tells what was answered.
  await update(page, { sessionUpdate: "tool_call_update", toolCallId: "bash9", title: "rm -rf build", kind: "execute", status: "failed", replay: true,
    rawInput: { command: "rm -rf build" }, permission: { optionId: "reject_once", name: "Reject", reason: "build/ holds the release" } });
  const replayed = page.locator('details.tool[data-tool-call-id="bash9"]');
  assert.equal(await replayed.locator(".tool-permission").innerText(), "✗ Reject");
  assert.equal(await replayed.locator(".tool-permission-reason").innerText(), "“build/ holds the release”");
  noErrors(page);
  await page.close();
});

test("a plan card's reason line asks what to change, and a card without a row keeps the reason", { skip }, async () => {
  const page = await openView(browser);
  await host(page, running);
  await host(page, {
    type: "permission", requestId: 14,
    toolCall: { title: "Leave plan mode?", kind: "switch_mode", content: [{ type: "content", content: { type: "text", text: "## Plan\n\n1. Fix `add`" } }] },
    options: [
      { optionId: "accept_edits", name: "Yes, and accept edits", kind: "allow_once" },
      { optionId: "default", name: "Yes, ask before edits", kind: "allow_once" },
      { optionId: "reject_once", name: "No, keep planning", kind: "reject_once" },
    ],
  });
  const field = page.locator(".permission input.permission-reason");
  assert.equal(await field.getAttribute("placeholder"), "Tell the model what to change (optional)");
  await field.fill("Write the test first.");
  await page.locator(".permission button >> text=No, keep planning").click();
  assert.deepEqual((await postedOf(page, "permissionAnswer")).map(({ seq, ...m }) => m), [
    { type: "permissionAnswer", requestId: 14, optionId: "reject_once", reason: "Write the test first." },
  ]);
  assert.equal(await page.locator(".permission.answered .tool-permission").innerText(), "✗ No, keep planning");
  assert.equal(await page.locator(".permission.answered .tool-permission-reason").innerText(), "“Write the test first.”");
  // A command with no rejection option offers no line.
  await host(page, { type: "permission", requestId: 15, toolCall: { title: "ls" }, options: [{ optionId: "ok", name: "Allow", kind: "allow_once" }] });
  assert.equal(await page.locator('.permission[data-request-id="15"] input').count(), 0);
  noErrors(page);
  await page.close();
});

test("a tall edit card scrolls its reason line and buttons into view", { skip }, async () => {
  const page = await openView(browser);
  await page.setViewportSize({ width: 420, height: 480 });
  await host(page, running);
  for (let i = 0; i < 30; i++) await update(page, text(`Paragraph ${i}: some words about the change.\n\n`, `m${i}`));
  const call = editCall("ed5", 60, 40); // taller than the panel
  await update(page, { sessionUpdate: "tool_call", ...call });
  // The reader scrolled up: the card must still come into view.
  await page.evaluate(() => { document.getElementById("transcript")!.scrollTop = 0; });
  await host(page, { type: "permission", requestId: 16, toolCall: call, options: EDIT_OPTIONS });
  // The host then says the diff is open in the editor too: the note must not push the buttons out.
  await host(page, { type: "reviewInEditor", requestId: 16, path: `${CWD}/src/calc.py` });
  await page.waitForSelector(".permission .permission-review");
  assert.equal(await inView(page, ".permission input.permission-reason"), true, "the reason line is in view");
  assert.equal(await inView(page, ".permission button.reject_once"), true, "Reject is in view");
  assert.equal(await inView(page, ".permission button.allow_once"), true, "Accept is in view");
  await page.close();
});

test("a subagent's tool calls fold into its Task row, and stay there when the report arrives", { skip }, async () => {
  const page = await openView(browser);
  await host(page, running);
  await update(page, { sessionUpdate: "tool_call", toolCallId: "task1", title: "Find the config loader", kind: "think", status: "pending", rawInput: { description: "Find the config loader", prompt: "Where is the config read?", subagent_type: "general-purpose" } });
  const nested = { _meta: { sidecar: { parentToolCallId: "task1" } } };
  await update(page, { sessionUpdate: "tool_call", toolCallId: "sub_r1", title: "Read src/config.py", kind: "read", status: "pending", rawInput: { file_path: "src/config.py" }, ...nested });
  await update(page, { sessionUpdate: "tool_call_update", toolCallId: "sub_r1", status: "completed", content: [{ type: "content", content: { type: "text", text: "def load(): ..." } }], ...nested });
  await update(page, { sessionUpdate: "tool_call_update", toolCallId: "task1", status: "completed", content: [{ type: "content", content: { type: "text", text: "The config is read in src/config.py, load()." } }] });
  // One row in the conversation; the subagent's read inside it, before the report.
  assert.deepEqual(await page.locator("#transcript > details.tool").evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.toolCallId)), ["task1"]);
  const task = page.locator('details.tool[data-tool-call-id="task1"]');
  await task.locator("summary").first().click();
  const inner = task.locator('.subagent-calls details.tool[data-tool-call-id="sub_r1"]');
  assert.equal(await inner.count(), 1);
  assert.equal(await inner.getAttribute("data-status"), "completed");
  assert.match(await task.locator(":scope > .tool-body > .tool-output").innerText(), /src\/config\.py, load\(\)/);
  await page.close();
});
