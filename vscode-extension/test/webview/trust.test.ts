// The Restricted Mode banner in the real webview bundle, in headless Chromium.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser } from "playwright-core";
import { host, launchChromium, noErrors, openView, posted, running, skip } from "./harness";

let browser: Browser;

before(async () => {
  if (!skip) browser = await launchChromium();
});
after(async () => {
  await browser?.close();
});

test("an untrusted folder shows the Restricted Mode banner; its button asks the host to manage trust", { skip }, async () => {
  const page = await openView(browser, "dark");
  await host(page, running);
  assert.equal(await page.locator("#trust-banner").isVisible(), false, "no banner before the host says so");
  await host(page, { type: "trust", trusted: false, withheld: ["hooks in .claude/settings.json", "MCP servers in .mcp.json"] });
  const banner = page.locator("#trust-banner");
  assert.equal(await banner.isVisible(), true);
  assert.equal(
    await banner.locator(".trust-text").innerText(),
    "Restricted Mode: this folder's hooks, MCP servers and settings are not applied.",
  );
  assert.match((await banner.getAttribute("title")) ?? "", /hooks in \.claude\/settings\.json\n• MCP servers in \.mcp\.json/);
  // The banner sits above the transcript and keeps the composer usable.
  assert.equal(await page.locator("#input").isEditable(), true);
  await page.click("#trust-manage");
  assert.equal((await posted(page)).at(-1).type, "manageTrust");
  await host(page, { type: "trust", trusted: true });
  assert.equal(await banner.isVisible(), false, "trusting the folder drops the banner");
  noErrors(page);
  await page.close();
});
