// End to end, as a user works: the first prompt without a key, adding a selection to the
// chat, a file mentioned with @, the gauge's stages, edits applied and saved (and reviewed in the diff editor), an
// edit rejected with a reason the model reads, the last session coming back after a window reload, and a model
// picked from the provider's list that a new session keeps. One code-server, the packaged extension,
// the real sidecar and the fake LLM; screenshots in both themes go to docs/screenshots/.

import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { after, before } from "node:test";
import { CodeServerSession, scenarioHooks, scenarios, skipReason } from "../support/codeServer";
import { startFakeLlm, type FakeLlm } from "../support/processes";

const skip = skipReason();

const KEY_ENV = "CONTEXT_SIDECAR_E2E_KEY";
const APP = "def add(a, b):\n    return a + b\n";
const cs = new CodeServerSession();
const scenario = scenarios(cs);
let fake: FakeLlm;
const shots: string[] = [];

const text = (t: string, extra: Record<string, unknown> = {}) => ({ content: [{ type: "text", text: t }], chunk_size: 16, ...extra });
const tool = (id: string, name: string, input: Record<string, unknown>) => ({ content: [{ type: "tool_use", id, name, input }] });
const appPath = () => path.join(cs.dirs.workspace, "app.py");

before(async () => {
  if (skip) return;
  fake = await startFakeLlm();
  writeFileSync(path.join(cs.dirs.workspace, "README.md"), "# demo workspace\n\nA tiny calculator.\n");
  writeFileSync(appPath(), APP);
  await cs.start(
    {
      "contextSidecar.baseUrl": fake.url,
      "contextSidecar.model": "claude-haiku-4-5",
      // A variable nobody set: the first prompt finds no key.
      "contextSidecar.apiKeyEnv": KEY_ENV,
    },
    {},
  );
});

scenarioHooks(cs, skip);

after(async () => {
  if (shots.length) console.log(`screenshots:\n${shots.join("\n")}`);
  await cs.stop();
  await fake?.stop();
});

const panelAndEditor = async (file: string) => {
  // No hover (a tab's tooltip) over what the picture is about.
  await cs.page.mouse.move(900, 650);
  await cs.page.waitForTimeout(300);
  await cs.page.screenshot({ path: file });
};

scenario("first run without a key: the error says how to fix it, Set API Key restarts the sidecar and the prompt is sent again", { skip, timeout: 180_000 }, async () => {
  await cs.statusBar().getByText(/no session/).waitFor({ timeout: 60_000 });
  await cs.sendPrompt("Summarize the README");
  const frame = cs.chat();
  const error = frame.locator(".error", { hasText: KEY_ENV }).first();
  await error.waitFor({ timeout: 30_000 });
  assert.match(await error.locator(".error-fix").innerText(), /API key|Set API Key|environment variable/i);
  await cs.statusBar().getByText("no API key").waitFor();
  await cs.page.locator(".notification-toast", { hasText: KEY_ENV }).first().waitFor();
  shots.push(...(await cs.shootBoth("missing-key", panelAndEditor)));

  await fake.queue([text("The README describes **a tiny calculator**.")]);
  await cs.notificationButton(new RegExp(KEY_ENV), "Set API Key");
  const input = cs.page.locator(".quick-input-widget input");
  await input.waitFor();
  await input.fill("test-key");
  await input.press("Enter");
  // The sidecar restarts with the key; the failed prompt is offered again.
  await cs.notificationButton(/Send your last prompt again/, "Resend");
  await cs.waitForAnswer("a tiny calculator");
  await cs.statusBar().locator(".statusbar-item", { hasText: /K \/ 200K/ }).waitFor({ timeout: 30_000 });
  assert.equal(await cs.statusBar().getByText("no API key").count(), 0, "the key status is gone");
  const requests = await fake.requests();
  assert.equal(requests.length, 1, "only the resent prompt reached the model");
  assert.match(JSON.stringify(requests[0].body.messages), /Summarize the README/);
});

scenario("Add Selection to Chat sends the selected lines with the next prompt", { skip, timeout: 120_000 }, async () => {
  await cs.page.keyboard.press("Control+P");
  const quick = cs.page.locator(".quick-input-widget input");
  await quick.fill("app.py");
  await cs.page.locator(".quick-input-list .monaco-list-row", { hasText: "app.py" }).first().waitFor();
  await quick.press("Enter");
  const editor = cs.page.locator(".editor-instance .monaco-editor .view-lines").first();
  await editor.waitFor();
  await editor.click();
  await cs.page.keyboard.press("Control+A");
  await cs.runCommand("Context Sidecar: Add Selection to Chat");
  await fake.queue([text("It adds two numbers.")]);
  await cs.sendPrompt("What does this do?");
  await cs.waitForAnswer("adds two numbers");
  const last = (await fake.requests()).at(-1);
  const sent = JSON.stringify(last.body.messages.at(-1));
  assert.match(sent, /What does this do\?/);
  // The sidecar hands the model an attached selection as a note beside the typed prompt.
  assert.match(sent, /The user selected lines 1-2 of [^"]*app\.py/, sent);
  assert.match(sent, /def add\(a, b\)/);
  // The sent message keeps the selection's chip.
  await cs.chat().locator(".message.user .sent-chips .chip.selection", { hasText: "app.py:1-2" }).last().waitFor({ timeout: 10_000 });
  shots.push(...(await cs.shootBoth("add-selection", panelAndEditor)));
});

scenario("@ completes a workspace file and the prompt sends it: the file reaches the model, not only its name", { skip, timeout: 120_000 }, async () => {
  writeFileSync(path.join(cs.dirs.workspace, "notes.txt"), "Meeting notes: ship the mention fix on Friday.\n");
  const frame = await cs.openChat();
  await frame.locator("#send:not([disabled])").waitFor({ timeout: 60_000 });
  const input = frame.locator("#input");
  await input.fill("");
  await input.pressSequentially("Summarize @notes");
  await frame.locator("#completions", { hasText: "notes.txt" }).waitFor({ timeout: 30_000 });
  await input.press("Tab");
  assert.equal(await input.inputValue(), "Summarize @notes.txt ");
  await fake.queue([text("The notes say to ship on Friday.")]);
  await input.press("Enter");
  await cs.waitForAnswer("ship on Friday");
  const sent = JSON.stringify((await fake.requests()).map((r) => r.body.messages));
  assert.match(sent, /Summarize @notes\.txt/);
  assert.match(sent, /ship the mention fix on Friday/, "the mentioned file's text reached the model");
  // The mention's chip stays in the sent message.
  await frame.locator(".message.user .sent-chips .chip.file", { hasText: "notes.txt" }).last().waitFor({ timeout: 10_000 });
});

scenario("the gauge takes its stage's colour, offers Compact and its tooltip says what comes next", { skip, timeout: 120_000 }, async () => {
  // 150,000 input tokens of a 200K window: past the warning point (auto-compact at 167K).
  await fake.queue([text("Noted.", { usage: { input_tokens: 150_000, output_tokens: 10 } })]);
  await cs.sendPrompt("Remember this.");
  await cs.waitForAnswer("Noted.");
  const gaugeItem = cs.statusBar().locator(".statusbar-item", { hasText: /15\d(\.\d)?K \/ 200K/ });
  await gaugeItem.waitFor({ timeout: 30_000 });
  const classes = (await gaugeItem.getAttribute("class")) ?? "";
  assert.match(classes, /\b(warning|error)-kind\b/, classes);
  const compact = cs.statusBar().locator(".statusbar-item", { hasText: "Compact" });
  await compact.waitFor();
  await gaugeItem.hover();
  const tooltip = cs.page.locator(".monaco-hover, .workbench-hover").filter({ hasText: "Auto-compact at" }).first();
  await tooltip.waitFor({ timeout: 15_000 });
  const tip = await tooltip.innerText();
  assert.match(tip, /Next: /, "the sidecar's `next` is in the tooltip");
  shots.push(
    ...(await cs.shootBoth("gauge-stage", async (file) => {
      await cs.page.mouse.move(0, 0);
      await gaugeItem.hover();
      await tooltip.waitFor({ timeout: 15_000 });
      const bar = (await cs.statusBar().boundingBox())!;
      const box = (await tooltip.boundingBox())!;
      const left = Math.max(0, Math.min(box.x, bar.width - 560) - 8);
      await cs.page.screenshot({ path: file, clip: { x: left, y: box.y - 8, width: bar.width - left, height: bar.y + bar.height - box.y + 8 } });
    })),
  );
  await cs.page.mouse.move(0, 0);
});

scenario("an edit the sidecar applies is saved, so the shell sees it", { skip, timeout: 120_000 }, async () => {
  // Edits go through without review in this mode; the review has its own scenario.
  await cs.runCommand("Context Sidecar: Set Permission Mode");
  await cs.page.locator(".quick-input-list .monaco-list-row", { hasText: /accept edits/i }).first().click();
  await cs.statusBar().getByText(/accept edits/i).waitFor();
  await fake.queue([
    tool("toolu_read1", "Read", { file_path: appPath() }),
    tool("toolu_edit1", "Edit", { file_path: appPath(), old_string: "return a + b", new_string: "return a + b  # sum" }),
    text("Commented the sum."),
  ]);
  await cs.sendPrompt("Comment the sum in app.py");
  await cs.waitForAnswer("Commented the sum");
  assert.equal(readFileSync(appPath(), "utf8"), "def add(a, b):\n    return a + b  # sum\n", "the edit is on disk");
  const tab = cs.page.locator(".tabs-container .tab", { hasText: "app.py" }).first();
  assert.doesNotMatch((await tab.getAttribute("class")) ?? "", /\bdirty\b/, "the editor holds no unsaved change");
  await cs.runCommand("Context Sidecar: Set Permission Mode");
  await cs.page.locator(".quick-input-list .monaco-list-row", { hasText: /ask before edits|default/i }).first().click();
});

scenario("edit review: the diff editor shows the proposed edit; Accept applies and saves it, Reject leaves the file", { skip, timeout: 150_000 }, async () => {
  const before = readFileSync(appPath(), "utf8");
  await fake.queue([
    tool("toolu_read2", "Read", { file_path: appPath() }),
    tool("toolu_edit2", "Edit", { file_path: appPath(), old_string: "def add(a, b):", new_string: "def add(a: int, b: int) -> int:" }),
    text("Typed the function."),
  ]);
  await cs.sendPrompt("Add type hints to add()");
  const diffTab = cs.page.locator(".tabs-container .tab", { hasText: /app\.py.*review the edit/ }).first();
  await diffTab.waitFor({ timeout: 60_000 });
  await cs.page.locator(".editor-instance .monaco-diff-editor").first().waitFor();
  shots.push(...(await cs.shootBoth("edit-review", panelAndEditor)));
  await cs.page.locator('.editor-actions a[aria-label^="Accept Edit"]').first().click();
  await cs.waitForAnswer("Typed the function");
  assert.equal(readFileSync(appPath(), "utf8"), before.replace("def add(a, b):", "def add(a: int, b: int) -> int:"));
  assert.equal(await diffTab.count(), 0, "the diff editor closed");

  const accepted = readFileSync(appPath(), "utf8");
  await fake.queue([
    tool("toolu_edit3", "Edit", { file_path: appPath(), old_string: "return a + b", new_string: "return b + a" }),
    text("Left it as it was."),
  ]);
  await cs.sendPrompt("Swap the operands");
  await cs.page.locator(".tabs-container .tab", { hasText: /review the edit/ }).first().waitFor({ timeout: 60_000 });
  await cs.page.locator('.editor-actions a[aria-label^="Reject Edit"]').first().click();
  // Reject asks why; Escape rejects without a reason.
  const box = cs.page.locator(".quick-input-widget", { hasText: /Tell the model why/ });
  await box.waitFor();
  await box.locator("input").press("Escape");
  await cs.waitForAnswer("Left it as it was");
  assert.equal(readFileSync(appPath(), "utf8"), accepted, "a rejected edit changes nothing");
  const rejected = JSON.stringify((await fake.requests()).at(-1).body.messages);
  assert.match(rejected, /The user rejected this edit/);
  assert.doesNotMatch(rejected, /The user said/);
});

scenario("rejecting with a reason: the model reads what was typed in the panel's card and in the diff editor's Reject box", { skip, timeout: 180_000 }, async () => {
  const before = readFileSync(appPath(), "utf8");
  const inPanel = "Keep the plain a + b, it reads better";
  await fake.queue([
    tool("toolu_edit4", "Edit", { file_path: appPath(), old_string: "return a + b", new_string: "return sum([a, b])" }),
    text("Kept the plain sum."),
  ]);
  await cs.sendPrompt("Use sum() in add");
  const frame = cs.chat();
  const card = frame.locator(".permission", { hasText: "Edit app.py?" }).first();
  await card.waitFor({ timeout: 60_000 });
  const why = card.locator("input.permission-reason");
  // At the panel's default height the line and the buttons are in view, not below the fold.
  for (const part of [why, card.locator("button.reject_once"), card.locator("button.allow_once")]) {
    const shown = await part.evaluate((e) => {
      const box = e.getBoundingClientRect();
      const pane = document.getElementById("transcript")!.getBoundingClientRect();
      return box.top >= pane.top - 1 && box.bottom <= pane.bottom + 1;
    });
    assert.ok(shown, `${await part.evaluate((e) => e.outerHTML.slice(0, 80))} is in view`);
  }
  await why.fill(inPanel);
  shots.push(...(await cs.shootBoth("reject-with-reason", panelAndEditor)));
  await why.press("Enter");
  await cs.waitForAnswer("Kept the plain sum");
  assert.equal(readFileSync(appPath(), "utf8"), before, "a rejected edit changes nothing");
  let sent = JSON.stringify((await fake.requests()).at(-1).body.messages);
  assert.ok(sent.includes(`The user rejected this edit. The user said: ${inPanel}`), sent.slice(-600));
  await frame.locator('details.tool[data-tool-call-id="toolu_edit4"] .tool-permission-reason', { hasText: inPanel }).waitFor();
  assert.equal(await cs.page.locator(".tabs-container .tab", { hasText: /review the edit/ }).count(), 0, "the panel's answer closed the diff");

  const inEditor = "Operand order is part of the API";
  await fake.queue([
    tool("toolu_edit5", "Edit", { file_path: appPath(), old_string: "return a + b", new_string: "return b + a" }),
    text("Left the order alone."),
  ]);
  await cs.sendPrompt("Swap the operands once more");
  await cs.page.locator(".tabs-container .tab", { hasText: /review the edit/ }).first().waitFor({ timeout: 60_000 });
  await cs.page.locator('.editor-actions a[aria-label^="Reject Edit"]').first().click();
  const box = cs.page.locator(".quick-input-widget", { hasText: /Tell the model why/ });
  await box.locator("input").fill(inEditor);
  await box.locator("input").press("Enter");
  await cs.waitForAnswer("Left the order alone");
  assert.equal(readFileSync(appPath(), "utf8"), before);
  sent = JSON.stringify((await fake.requests()).at(-1).body.messages);
  assert.ok(sent.includes(`The user rejected this edit. The user said: ${inEditor}`), sent.slice(-600));
  await frame.locator('details.tool[data-tool-call-id="toolu_edit5"] .tool-permission-reason', { hasText: inEditor }).waitFor();
});

scenario("the model's task list shows above the prompt box as it changes, and the model reads Claude Code's answer", { skip, timeout: 120_000 }, async () => {
  const todos = (fixing: string) => ({ todos: [
    { content: "Read app.py", status: "completed", activeForm: "Reading app.py" },
    { content: "Add a docstring", status: fixing, activeForm: "Adding a docstring" },
    { content: "Run the tests", status: "pending", activeForm: "Running the tests" },
  ] });
  await fake.queue([tool("toolu_todo1", "TodoWrite", todos("in_progress")), text("Adding the docstring next.")]);
  const frame = await cs.sendPrompt("Document add() and test it");
  await cs.waitForAnswer("docstring next");
  const box = frame.locator("#tasks");
  await box.locator(".tasks-label", { hasText: "Tasks 1/3" }).waitFor({ timeout: 10_000 });
  assert.equal(await box.locator(".tasks-current").innerText(), "Adding a docstring");
  shots.push(...(await cs.shootBoth("task-list", panelAndEditor)));
  await fake.queue([tool("toolu_todo2", "TodoWrite", todos("completed")), text("Docstring added.")]);
  await cs.sendPrompt("Done with the docstring?");
  await cs.waitForAnswer("Docstring added");
  await box.locator(".tasks-label", { hasText: "Tasks 2/3" }).waitFor({ timeout: 10_000 });
  const sent = JSON.stringify((await fake.requests()).map((r) => r.body.messages));
  assert.match(sent, /Todos have been modified successfully/, "the model read the tool's answer");
});

scenario("plan mode: \"No, keep planning\" with what to change, and the model reads it with the answer", { skip, timeout: 180_000 }, async () => {
  const frame = await cs.openChat();
  await frame.locator("#plan").click();
  await frame.locator('#plan[aria-pressed="true"]').waitFor({ timeout: 30_000 });
  await fake.queue([text("Reading first.")]);
  await cs.sendPrompt("Plan a docstring for add");
  await cs.waitForAnswer("Reading first");
  const asked = JSON.stringify((await fake.requests()).at(-1).body);
  const planFile = /Your plan file is (\S+?)[;:]? /.exec(asked)?.[1];
  assert.ok(planFile, "plan mode names the plan file");
  await fake.queue([
    tool("toolu_plan", "Write", { file_path: planFile, content: "# Plan\n\n1. Add a docstring to add()\n" }),
    tool("toolu_exit", "ExitPlanMode", {}),
    text("I will split it in two steps."),
  ]);
  await cs.sendPrompt("Write the plan down");
  // The plan itself asks (the plan file's Write, should the mode ask about it, is accepted).
  const card = frame.locator(".permission", { hasText: "Leave plan mode?" }).first();
  const write = frame.locator(".permission:not(.answered)", { has: frame.locator(".permission-title", { hasText: "plan.md" }) }).first();
  for (const deadline = Date.now() + 60_000; !(await card.isVisible()); ) {
    assert.ok(Date.now() < deadline, "the plan asks to leave plan mode");
    if (await write.isVisible()) await write.locator("button.allow_once").click();
    await cs.page.waitForTimeout(200);
  }
  const change = "Split it in two steps: docstring, then a doctest";
  const why = card.locator("input.permission-reason");
  await why.fill(change);
  assert.equal(await why.inputValue(), change);
  // Enter in the line rejects with what was typed, as "No, keep planning" does.
  await why.press("Enter");
  await cs.waitForAnswer("split it in two steps");
  const sent = JSON.stringify((await fake.requests()).at(-1).body.messages);
  assert.ok(sent.includes("keep planning") && sent.includes(`The user said: ${change}`), sent.slice(-800));
  // Out of plan mode again for what follows.
  await frame.locator("#plan").click();
  await frame.locator('#plan[aria-pressed="false"]').waitFor({ timeout: 30_000 });
});

scenario("after a window reload the workspace's last session is back: conversation and gauge", { skip, timeout: 150_000 }, async () => {
  await cs.reload();
  await cs.statusBar().locator(".statusbar-item", { hasText: /K \/ 200K/ }).waitFor({ timeout: 60_000 });
  const frame = await cs.openChat();
  await frame.locator(".message.user", { hasText: "What does this do?" }).first().waitFor({ timeout: 30_000 });
  await frame.locator(".message.agent", { hasText: "adds two numbers" }).first().waitFor();
  shots.push(...(await cs.shootBoth("resumed-session", panelAndEditor)));
  const log = cs.channelLogs();
  assert.match(log, /Reopening the last session of this workspace/);
  assert.doesNotMatch(log, /Traceback/, "expected errors (the missing key) write no traceback");
  assert.deepEqual(await fake.violations(), [], "every request is one the real API accepts");
});

scenario("Switch Model: the quick pick lists the provider's models, the one picked answers, and a New session keeps it", { skip, timeout: 180_000 }, async () => {
  const frame = await cs.openChat();
  // The panel header's model chip opens the quick pick.
  const chip = frame.locator("#model");
  await chip.waitFor({ timeout: 60_000 });
  assert.equal((await chip.innerText()).trim(), "claude-haiku-4-5");
  await chip.click();
  const rows = cs.page.locator(".quick-input-list .monaco-list-row");
  await rows.filter({ hasText: "claude-opus-5-5" }).first().waitFor({ timeout: 60_000 });
  const current = rows.filter({ hasText: /claude-haiku-4-5.*\(current\)/ }).first();
  await current.waitFor();
  // The provider's list (the fake's /v1/models), with its names, windows and lifecycles; no retired model.
  await rows.filter({ hasText: /claude-opus-5-5.*1M context/ }).first().waitFor();
  assert.equal(await rows.filter({ hasText: "claude-sonnet-4-5-20250929" }).count(), 0, "a retired model is not offered");
  await cs.page.keyboard.press("Escape");
  shots.push(
    ...(await cs.shootBoth("model-picker", async (file) => {
      await cs.runCommand("Context Sidecar: Switch Model");
      await rows.filter({ hasText: "claude-opus-5-5" }).first().waitFor({ timeout: 60_000 });
      await panelAndEditor(file);
      await cs.page.keyboard.press("Escape");
    })),
  );
  await cs.runCommand("Context Sidecar: Switch Model");
  await cs.pickRow("claude-opus-5-5");
  await frame.locator("#model", { hasText: "claude-opus-5-5" }).waitFor({ timeout: 30_000 });
  await fake.queue([text("Opus answers.")]);
  await cs.sendPrompt("Which model answers?");
  await cs.waitForAnswer("Opus answers.");
  assert.equal((await fake.requests()).at(-1).body.model, "claude-opus-5-5", "the picked model got the request");

  // New keeps the model the user chose.
  await frame.locator("#new").click();
  await frame.locator(".message.user", { hasText: "Which model answers?" }).waitFor({ state: "detached", timeout: 30_000 });
  await frame.locator("#model", { hasText: "claude-opus-5-5" }).waitFor({ timeout: 30_000 });
  await fake.queue([text("Still Opus.")]);
  await cs.sendPrompt("And in a new session?");
  await cs.waitForAnswer("Still Opus.");
  const last = (await fake.requests()).at(-1);
  assert.equal(last.body.model, "claude-opus-5-5", "a new session keeps the picked model");
  assert.doesNotMatch(JSON.stringify(last.body.messages), /Which model answers\?/, "a new session's request");
  assert.deepEqual(await fake.violations(), [], "every request is one the real API accepts");
});
