// The model's task list (a `plan` update) pinned above the prompt box; the harness drives the
// real bundle in Chromium.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser } from "playwright-core";
import { host, launchChromium, openView, running, skip, update } from "./harness";

let browser: Browser;
before(async () => {
  if (!skip) browser = await launchChromium();
});
after(async () => {
  await browser?.close();
});

const entry = (content: string, status: string, activeForm?: string) => ({
  content, status, priority: "medium", ...(activeForm ? { _meta: { sidecar: { activeForm } } } : {}),
});

test("the task list shows above the box, replaced whole by each plan update, and a new session clears it", { skip }, async () => {
  const page = await openView(browser);
  await host(page, running);
  const box = page.locator("#tasks");
  assert.equal(await box.isVisible(), false, "no list before the model keeps one");
  await update(page, { sessionUpdate: "plan", entries: [
    entry("Find the failing test", "completed"),
    entry("Fix the off-by-one", "in_progress", "Fixing the off-by-one"),
    entry("Run the tests", "pending", "Running the tests"),
  ] });
  assert.equal(await box.isVisible(), true);
  assert.equal(await box.locator(".tasks-label").innerText(), "Tasks 1/3");
  assert.equal(await box.locator(".tasks-current").innerText(), "Fixing the off-by-one");
  assert.deepEqual(await box.locator(".task").evaluateAll((items) => items.map((i) => [(i as HTMLElement).dataset.status, i.textContent])), [
    ["completed", "✔Find the failing test"], ["in_progress", "▸Fixing the off-by-one"], ["pending", "☐Run the tests"]]);
  // The box sits in the composer, above the prompt box.
  const [boxTop, inputTop] = await Promise.all([box.boundingBox(), page.locator("#input").boundingBox()]);
  assert.ok(boxTop && inputTop && boxTop.y < inputTop.y);

  await update(page, { sessionUpdate: "plan", entries: [entry("Find the failing test", "completed"), entry("Fix the off-by-one", "completed"), entry("Run the tests", "completed")] });
  assert.equal(await box.locator(".tasks-label").innerText(), "Tasks 3/3");
  assert.equal(await box.locator(".tasks-current").innerText(), "all done");
  assert.equal(await box.locator(".task").count(), 3, "replaced, not appended");

  await host(page, { type: "reset" });
  assert.equal(await box.isVisible(), false, "a new session starts without the old list");
  await page.close();
});
