// The chat panel's behaviour, one test per thing users asked for (codeBlocks); the harness
// drives the real bundle in Chromium.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser } from "playwright-core";
import { bg, color, host, launchChromium, noErrors, openView, posted, running, skip, text, transparent, update } from "./harness";

let browser: Browser;
before(async () => {
  if (!skip) browser = await launchChromium();
});
after(async () => {
  await browser?.close();
});


// ---- 1. code blocks -----------------------------------------------------------------------

test("code blocks: one framed block with Copy / Insert / Apply posting the code to the host", { skip }, async () => {
  const page = await openView(browser, "dark");
  await host(page, running);
  await update(page, text("Try:\n\n```python\ndef add(a, b):\n    return a + b  # sum\n```\n"));
  await page.waitForSelector(".code-block pre code.hljs");
  assert.equal(await page.locator(".code-block").count(), 1);
  assert.equal(await page.locator(".code-block .code-lang").innerText(), "python");
  await page.click(".code-block .code-action[data-code-action=copy]");
  await page.click(".code-block .code-action[data-code-action=insert]");
  await page.click(".code-block .code-action[data-code-action=apply]");
  const code = "def add(a, b):\n    return a + b  # sum\n";
  const sent = (await posted(page)).filter((m) => ["copyCode", "insertCode", "applyCode"].includes(m.type)).map(({ seq, ...m }) => m);
  assert.deepEqual(sent, [
    { type: "copyCode", text: code },
    { type: "insertCode", text: code, language: "python" },
    { type: "applyCode", text: code, language: "python" },
  ]);
  assert.equal(await page.locator(".code-action[data-code-action=copy]").innerText(), "Copied");
  // One background for the whole block: lines and the code element carry none of their own.
  assert.ok(!transparent(await bg(page, ".code-block")), "the frame has a background");
  assert.ok(transparent(await bg(page, ".code-block pre")), "pre adds no band");
  assert.ok(transparent(await bg(page, ".code-block pre code")), "code adds no band");
  noErrors(page);
  await page.close();
});

test("code blocks: keyword colours follow the theme, and the light theme has a block background", { skip }, async () => {
  const colours: Record<string, { keyword: string; string: string; block: string; panel: string }> = {};
  for (const theme of ["dark", "light"] as const) {
    const page = await openView(browser, theme);
    await host(page, running);
    await update(page, text("```python\nimport os\nx = 'hi'\n```\n"));
    await page.waitForSelector(".code-block .hljs-keyword");
    colours[theme] = {
      keyword: await color(page, ".hljs-keyword"),
      string: await color(page, ".hljs-string"),
      block: await bg(page, ".code-block"),
      panel: await page.evaluate(() => getComputedStyle(document.body).backgroundColor),
    };
    await page.close();
  }
  assert.equal(colours.dark!.keyword, "rgb(78, 148, 206)", "dark: the theme's token colour");
  assert.equal(colours.light!.keyword, "rgb(0, 0, 255)", "light: the theme's token colour");
  assert.equal(colours.light!.string, "rgb(163, 21, 21)");
  assert.notEqual(colours.light!.block, colours.light!.panel, "light: the block stands out from the panel");
  assert.notEqual(colours.dark!.block, colours.dark!.panel, "dark: the block stands out from the panel");
});

