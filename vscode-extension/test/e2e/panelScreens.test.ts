// End to end: the chat panel in code-server, in the Dark and then the Light theme, through
// a turn that reads a file, asks to run a command and answers with code. Checks what users
// reported in the real editor (the code block has its own background in both themes, its
// keywords take the theme's colours, tool rows are one line) and saves the panel as
// docs/screenshots/panel-dark.png and panel-light.png for the README.
// Needs CODE_SERVER (the launcher path) and VSIX; scripts/test.sh provides both.

import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { after, before } from "node:test";
import type { FrameLocator } from "playwright-core";
import { CodeServerSession, scenarios, skipReason } from "../support/codeServer";
import { REPO_ROOT, startFakeLlm, type FakeLlm } from "../support/processes";

const skip = skipReason();
const SHOTS = path.join(REPO_ROOT, "docs", "screenshots");
const cs = new CodeServerSession();
const scenario = scenarios(cs);
let fake: FakeLlm;

const CALC = 'def add(a, b):\n    """The sum of a and b."""\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n';
const ANSWER =
  "`add` is right. To multiply too, add this beside it:\n\n" +
  "```python\ndef mul(a, b):\n    \"\"\"The product of a and b.\"\"\"\n    return a * b  # no overflow in Python\n```\n\n" +
  "The check printed **5**, so `add(2, 3)` works.";

before(async () => {
  if (skip) return;
  fake = await startFakeLlm();
  await fake.queue([
    {
      content: [
        { type: "text", text: "I'll read the module first." },
        { type: "tool_use", id: "toolu_read1", name: "Read", input: { file_path: path.join(cs.dirs.workspace, "calc.py") } },
      ],
      stop_reason: "tool_use",
    },
    {
      content: [
        { type: "tool_use", id: "toolu_bash1", name: "Bash", input: { command: "python3 -c 'import calc; print(calc.add(2, 3))'", description: "Check add" } },
      ],
      stop_reason: "tool_use",
    },
    { content: [{ type: "text", text: ANSWER }], chunk_size: 16, chunk_delay_ms: 5, usage: { input_tokens: 61_000, output_tokens: 120 } },
  ]);
  writeFileSync(path.join(cs.dirs.workspace, "calc.py"), CALC);
  await cs.start(
    { "contextSidecar.baseUrl": fake.url, "contextSidecar.model": "claude-haiku-4-5", "contextSidecar.apiKeyEnv": "FAKE_LLM_KEY" },
    { FAKE_LLM_KEY: "test" },
    { viewport: { width: 1280, height: 860 } },
  );
});

after(async () => {
  await cs.stop();
  await fake?.stop();
});

async function shoot(name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  // No hover tooltip over the picture.
  await cs.page.mouse.move(900, 500);
  await cs.page.waitForTimeout(600);
  await cs.page.locator("#workbench\\.parts\\.sidebar").screenshot({ path: path.join(SHOTS, name) });
}

const style = (frame: FrameLocator, selector: string, prop: "color" | "backgroundColor") =>
  frame.locator(selector).first().evaluate((e, p) => getComputedStyle(e)[p as "color"], prop);

scenario("the panel in the Dark and Light themes: tool rows, a permission, a framed code block", { skip, timeout: 180_000 }, async () => {
  const page = cs.page;
  await page.locator('.activitybar .action-item a[aria-label^="Context Sidecar"]').click();
  const frame = cs.chat();
  await frame.locator("#input").waitFor({ timeout: 30_000 });
  // A roomier side bar, as people give a chat panel (drag its edge).
  const side = (await page.locator("#workbench\\.parts\\.sidebar").boundingBox())!;
  await page.mouse.move(side.x + side.width + 1, side.y + 300);
  await page.mouse.down();
  await page.mouse.move(side.x + side.width + 120, side.y + 300, { steps: 8 });
  await page.mouse.up();
  await frame.locator("#send:not([disabled])").waitFor({ timeout: 30_000 });
  await frame.locator("#input").fill("Check that add works, then show me how to multiply");
  await frame.locator("#input").press("Enter");

  // The command asks first; the question names the command, not its description.
  const card = frame.locator(".permission");
  await card.waitFor({ timeout: 60_000 }).catch((e) => {
    throw new Error(`${e.message}\n${cs.serverLog.slice(-3000)}`);
  });
  assert.equal(await card.locator(".permission-title").innerText(), "Run this command?");
  assert.equal(await card.locator("pre").innerText(), "$ python3 -c 'import calc; print(calc.add(2, 3))'");
  await shoot("panel-permission-dark.png");
  await card.locator("button.allow_once").click();

  await frame.locator(".code-block .hljs-keyword").first().waitFor({ timeout: 60_000 });
  await frame.locator(".message.agent >> text=works.").waitFor();
  const rows = (await frame.locator("details.tool > summary").allInnerTexts()).map((t) => t.replace(/\s+/g, " ").trim());
  assert.equal(rows.length, 2, rows.join(" | "));
  assert.equal(rows[0], "✓ Read calc.py · 7 lines");
  assert.match(rows[1]!, /^✓ Bash python3 -c 'import calc; print\(calc\.add\(2, 3\)\)' · exit 0 ✓ Allow once$/);
  assert.equal(await frame.locator(".permission").count(), 0, "the answered card folded into its row");

  const dark = {
    keyword: await style(frame, ".code-block .hljs-keyword", "color"),
    block: await style(frame, ".code-block", "backgroundColor"),
    panel: await frame.locator("body").evaluate((b) => getComputedStyle(b).backgroundColor),
  };
  assert.notEqual(dark.block, dark.panel, "the code block stands out in the dark theme");
  await shoot("panel-dark.png");

  // Switch the theme the way a user does: Preferences: Color Theme.
  await cs.setTheme("light");
  await frame.locator("body.vscode-light").waitFor({ state: "attached", timeout: 30_000 });
  const light = {
    keyword: await style(frame, ".code-block .hljs-keyword", "color"),
    block: await style(frame, ".code-block", "backgroundColor"),
    panel: await frame.locator("body").evaluate((b) => getComputedStyle(b).backgroundColor),
  };
  assert.notEqual(light.block, light.panel, "the code block stands out in the light theme");
  assert.notEqual(light.keyword, dark.keyword, "keywords take the theme's colour");
  await shoot("panel-light.png");
  assert.deepEqual(await fake.violations(), [], "every request is one the real API accepts");
});
