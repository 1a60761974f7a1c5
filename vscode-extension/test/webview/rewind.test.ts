// A sent prompt's rewind control, the prompt a rewind puts back in the box, and Fork in the
// toolbar, in the real bundle in Chromium.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser } from "playwright-core";
import { host, launchChromium, noErrors, openView, postedOf, running, skip, text, update } from "./harness";

let browser: Browser;
before(async () => {
  if (!skip) browser = await launchChromium();
});
after(async () => {
  await browser?.close();
});

const replayedPrompt = (t: string, checkpointId?: string) => ({
  sessionUpdate: "user_message_chunk", content: { type: "text", text: t }, replay: true,
  ...(checkpointId ? { _meta: { sidecar: { checkpointId } } } : {}),
});

test("a sent prompt gets its rewind control once the turn names the checkpoint; a click asks the host", { skip }, async () => {
  const page = await openView(browser);
  await host(page, running);
  await host(page, { type: "userPrompt", text: "Add a docstring" });
  const message = page.locator(".message.user").first();
  assert.equal(await message.locator(".rewind-control").count(), 0, "no control while the turn runs");
  await update(page, text("Done."));
  await host(page, { type: "checkpoint", checkpointId: "cp-1" });
  await host(page, { type: "turnEnded", stopReason: "end_turn" });
  const control = message.locator(".rewind-control");
  assert.equal(await control.count(), 1);
  assert.equal(await message.getAttribute("data-checkpoint-id"), "cp-1");
  // Out of the way until the message is pointed at.
  assert.equal(await control.evaluate((e) => getComputedStyle(e).visibility), "hidden");
  await message.hover();
  assert.equal(await control.evaluate((e) => getComputedStyle(e).visibility), "visible");
  await control.click();
  assert.deepEqual((await postedOf(page, "rewindAt")).map(({ checkpointId }) => checkpointId), ["cp-1"]);

  // A slash command's turn takes no checkpoint: no control.
  await host(page, { type: "userPrompt", text: "/context" });
  await host(page, { type: "turnEnded", stopReason: "end_turn" });
  assert.equal(await page.locator(".message.user").nth(1).locator(".rewind-control").count(), 0);
  noErrors(page);
  await page.close();
});

test("a replayed conversation's prompts carry their checkpoints, each its own message", { skip }, async () => {
  const page = await openView(browser);
  await host(page, running);
  await update(page, replayedPrompt("First", "cp-1"));
  // A prompt whose turn was cancelled before any answer: the next prompt follows it directly.
  await update(page, replayedPrompt("Second", "cp-2"));
  await update(page, text("Answer", "m2"));
  await update(page, replayedPrompt("Resumed before checkpoints existed"));
  const users = page.locator(".message.user");
  assert.equal(await users.count(), 3);
  assert.deepEqual(await users.evaluateAll((ms) => ms.map((m) => (m as HTMLElement).dataset.checkpointId ?? null)), ["cp-1", "cp-2", null]);
  await users.nth(1).hover();
  await users.nth(1).locator(".rewind-control").click();
  assert.equal((await postedOf(page, "rewindAt")).at(-1).checkpointId, "cp-2");
  // The control does not become part of the message's text.
  assert.equal(await users.nth(1).locator(".plain").innerText(), "Second");
  noErrors(page);
  await page.close();
});

test("a rewound prompt comes back in the box to edit; Fork in the toolbar asks the host", { skip }, async () => {
  const page = await openView(browser);
  await host(page, running);
  await host(page, { type: "setInput", text: "Write tests\nfor add" });
  const input = page.locator("#input");
  assert.equal(await input.inputValue(), "Write tests\nfor add");
  assert.ok(await input.evaluate((e) => document.activeElement === e && (e as HTMLTextAreaElement).selectionStart === "Write tests\nfor add".length));
  await page.click("#fork");
  assert.equal((await postedOf(page, "fork")).length, 1);
  // Only a session can be forked, and not while a turn changes it.
  await host(page, { ...running, busy: true });
  assert.equal(await page.locator("#fork").isDisabled(), true);
  await host(page, { ...running, sessionId: null });
  assert.equal(await page.locator("#fork").isHidden(), true);
  // Both commands complete in the box before the sidecar lists its own.
  await input.fill("");
  await input.pressSequentially("/re");
  assert.match(await page.locator("#completions").innerText(), /\/rewind/);
  noErrors(page);
  await page.close();
});
