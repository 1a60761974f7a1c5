// The chat panel's behaviour, one test per thing users asked for (composer); the harness
// drives the real bundle in Chromium.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser } from "playwright-core";
import { host, launchChromium, openView, posted, postedOf, running, skip, text, update } from "./harness";

let browser: Browser;
before(async () => {
  if (!skip) browser = await launchChromium();
});
after(async () => {
  await browser?.close();
});


// ---- 4. keyboard and composer -------------------------------------------------------------

test("keyboard: Escape cancels a running turn, Up recalls the last prompt, Enter while busy queues", { skip }, async () => {
  const page = await openView(browser);
  await host(page, running);
  await page.fill("#input", "first question");
  await page.press("#input", "Enter");
  await host(page, { type: "userPrompt", text: "first question" });
  await host(page, { ...running, busy: true });
  await page.press("#input", "Escape");
  assert.equal((await posted(page)).at(-1).type, "cancel");
  await page.press("#input", "ArrowUp");
  assert.equal(await page.inputValue("#input"), "first question");
  await page.fill("#input", "second question");
  await page.press("#input", "Enter");
  // Not sent yet, not lost: shown as queued.
  assert.equal((await postedOf(page, "prompt")).length, 1);
  assert.match(await page.locator("#queued").innerText(), /Queued.*second question/s);
  assert.equal(await page.inputValue("#input"), "");
  await host(page, { ...running, busy: false });
  assert.deepEqual((await postedOf(page, "prompt")).map((m) => m.text), ["first question", "second question"]);
  assert.equal(await page.locator("#queued").isHidden(), true);
  // Without a running sidecar, Enter queues the prompt and says what it waits for.
  await host(page, { ...running, connection: "stopped" });
  await page.fill("#input", "third");
  await page.press("#input", "Enter");
  assert.match(await page.locator("#queued").innerText(), /once the sidecar is running.*third/s);
  assert.equal((await postedOf(page, "prompt")).length, 2);
  await host(page, running);
  assert.deepEqual((await postedOf(page, "prompt")).map((m) => m.text), ["first question", "second question", "third"]);
  await page.close();
});

test("a running compaction can be stopped: Stop shows, Escape and Stop cancel it, Compact now waits", { skip }, async () => {
  const page = await openView(browser);
  await host(page, running);
  await host(page, { type: "compactOffer", stage: "warning", next: "Auto-compact at 167K (in 17K tokens)" });
  assert.equal(await page.locator("#cancel").isHidden(), true);
  assert.equal(await page.locator("#offer button", { hasText: "Compact now" }).count(), 1);
  // /compact runs (no turn: busy stays false).
  await host(page, { ...running, compacting: true });
  await update(page, { sessionUpdate: "compaction_update", compactionId: "c1", status: "in_progress", tier: "full", trigger: "manual" });
  assert.equal(await page.locator("#cancel").isVisible(), true, "Stop is offered while compacting");
  assert.match(await page.locator("#cancel").getAttribute("title") ?? "", /compaction/);
  assert.match(await page.locator("#status").innerText(), /Compacting… \(Escape stops\)/);
  assert.equal(await page.locator("#offer").isHidden(), true, "no Compact now while compacting");
  assert.equal(await page.locator("#compact").isDisabled(), true, "nor the Compact button");
  await page.press("#input", "Escape");
  assert.equal((await postedOf(page, "cancel")).length, 1, "Escape cancels the compaction");
  assert.match(await page.locator("#status").innerText(), /Cancelling the compaction/);
  await page.click("#cancel");
  assert.equal((await postedOf(page, "cancel")).length, 2, "so does Stop");
  await update(page, { sessionUpdate: "compaction_update", compactionId: "c1", status: "cancelled", tier: "full", trigger: "manual" });
  await host(page, { ...running, compacting: false });
  assert.equal(await page.locator(".compaction .compaction-line").innerText(), "Compaction (full) cancelled");
  assert.equal(await page.locator("#cancel").isHidden(), true);
  assert.equal(await page.locator("#compact").isDisabled(), false);
  assert.match(await page.locator("#offer").innerText(), /Compact now/, "the offer is back: the stage still warrants it");
  assert.equal(await page.locator("#status").innerText(), "");
  // Escape with nothing running sends nothing.
  await page.press("#input", "Escape");
  assert.equal((await postedOf(page, "cancel")).length, 2);
  // An auto-compaction inside a turn: Escape cancels (the turn and its compaction).
  await host(page, { ...running, busy: true, compacting: true });
  assert.match(await page.locator("#status").innerText(), /Compacting/);
  await page.press("#input", "Escape");
  assert.equal((await postedOf(page, "cancel")).length, 3);
  await page.close();
});

test("a 10 KB paste folds into a chip and is sent whole", { skip }, async () => {
  const page = await openView(browser);
  await host(page, running);
  const big = Array.from({ length: 250 }, (_, i) => `log line ${i} ${"x".repeat(30)}`).join("\n");
  assert.ok(big.length >= 10_000);
  await page.focus("#input");
  await page.keyboard.type("Why does this fail? ");
  await page.evaluate((t) => {
    const data = new DataTransfer();
    data.setData("text/plain", t);
    document.getElementById("input")!.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, big);
  assert.equal(await page.inputValue("#input"), "Why does this fail? [Pasted text +250 lines]");
  await page.press("#input", "Enter");
  assert.equal((await postedOf(page, "prompt"))[0].text, `Why does this fail? ${big}`);
  // The echoed prompt is readable: the first lines, the rest behind a toggle.
  await host(page, { type: "userPrompt", text: `Why does this fail? ${big}` });
  assert.match(await page.locator(".message.user .show-more").innerText(), /Show 242 more lines/);
  await page.close();
});

test("sending while scrolled up jumps to the new message; /clear empties the view; command output is styled as such", { skip }, async () => {
  const page = await openView(browser);
  await host(page, running);
  for (let i = 0; i < 40; i++) await update(page, text(`Paragraph ${i}\n\n`.repeat(3), `m${i}`));
  await page.evaluate(() => document.getElementById("transcript")!.scrollTo(0, 0));
  await page.fill("#input", "/context");
  await page.press("#input", "Enter");
  await host(page, { type: "userPrompt", text: "/context" });
  const atBottom = await page.evaluate(() => {
    const t = document.getElementById("transcript")!;
    return t.scrollHeight - t.scrollTop - t.clientHeight < 5;
  });
  assert.equal(atBottom, true);
  await update(page, text("Context: 12K of 200K", "cmd"));
  await page.waitForSelector(".message.agent.command-output >> text=Context: 12K");
  await host(page, { type: "turnEnded", stopReason: "end_turn" });
  await update(page, text("A normal answer", "after"));
  await page.waitForSelector(".message.agent >> text=A normal answer");
  assert.equal(await page.locator(".message.agent.command-output").count(), 1);
  await page.fill("#input", "/clear");
  await page.press("#input", "Enter");
  assert.equal(await page.locator("#transcript > *").count(), 0);
  assert.equal((await postedOf(page, "prompt")).at(-1).text, "/clear");
  await page.close();
});

test("`/` completes commands from available_commands_update; `@` asks the host for files", { skip }, async () => {
  const page = await openView(browser);
  await host(page, running);
  await update(page, { sessionUpdate: "available_commands_update", availableCommands: [
    { name: "compact", description: "Compact now" }, { name: "context", description: "Show the context" }, { name: "mcp", description: "MCP servers" },
  ] });
  await page.focus("#input");
  await page.keyboard.type("/co");
  assert.deepEqual(await page.locator(".completion .completion-label").allInnerTexts(), ["/compact", "/context"]);
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  assert.equal(await page.inputValue("#input"), "/context ");
  assert.equal((await postedOf(page, "prompt")).length, 0, "Enter picked the completion, it did not send");
  await page.fill("#input", "");
  await page.keyboard.type("look at @cal");
  const query = (await postedOf(page, "fileQuery")).at(-1);
  assert.equal(query.query, "cal");
  await host(page, { type: "fileResults", requestId: query.requestId, files: [
    { path: "calc.py", uri: "file:///w/calc.py" }, { path: "src/calculator.ts", uri: "file:///w/src/calculator.ts" },
  ] });
  assert.deepEqual(await page.locator(".completion .completion-label").allInnerTexts(), ["calc.py", "src/calculator.ts"]);
  await page.keyboard.press("Tab");
  assert.equal(await page.inputValue("#input"), "look at @calc.py ");
  await page.keyboard.press("Escape");
  assert.equal((await postedOf(page, "cancel")).length, 0);
  await page.close();
});

test("attached files and selections are chips the user can drop", { skip }, async () => {
  const page = await openView(browser);
  await host(page, running);
  await host(page, { type: "attachments", items: [
    { id: 1, kind: "file", uri: "file:///w/calc.py", label: "calc.py" },
    { id: 2, kind: "selection", uri: "file:///w/src/a.py", label: "src/a.py:12-20", text: "def f():\n    pass", lines: [12, 20] },
  ] });
  assert.deepEqual(await page.locator("#chips .chip-label").allInnerTexts(), ["calc.py", "src/a.py:12-20"]);
  await page.click('#chips .chip[data-id="2"] .chip-drop');
  assert.deepEqual({ ...(await posted(page)).at(-1), seq: 0 }, { type: "removeAttachment", id: 2, seq: 0 });
  await host(page, { type: "attachments", items: [] });
  assert.equal(await page.locator("#chips").isHidden(), true);
  await page.close();
});

