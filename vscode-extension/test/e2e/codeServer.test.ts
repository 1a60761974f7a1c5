// End to end: the packaged extension in code-server 4.100.3 (VS Code 1.100.3), driven by
// headless Chromium through one chat turn against the real sidecar and the fake LLM.
// Needs CODE_SERVER (the launcher path) and VSIX; scripts/test.sh provides both.

import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { after, before } from "node:test";
import { CodeServerSession, scenarios, skipReason } from "../support/codeServer";
import { EXTENSION_ROOT, startFakeLlm, type FakeLlm } from "../support/processes";

const skip = skipReason();
const ANSWER = "Hello from the fake model. The **context gauge** is in the status bar.";
const cs = new CodeServerSession();
const scenario = scenarios(cs);
let fake: FakeLlm;
// Requests the browser made beyond loopback, from the first page load on.
const outside: string[] = [];

before(async () => {
  if (skip) return;
  fake = await startFakeLlm();
  // 150,000 input tokens: past the warning/error threshold (167K auto-compact - 20K = 147K).
  await fake.queue([{ content: [{ type: "text", text: ANSWER }], chunk_size: 8, chunk_delay_ms: 5, usage: { input_tokens: 150_000, output_tokens: 20 } }]);
  writeFileSync(path.join(cs.dirs.workspace, "README.md"), "# demo workspace\n");
  await cs.start(
    // A 200K model, so the gauge below reaches its warning level. The sidecar finds its
    // key through FAKE_LLM_KEY.
    { "contextSidecar.baseUrl": fake.url, "contextSidecar.model": "claude-haiku-4-5", "contextSidecar.apiKeyEnv": "FAKE_LLM_KEY" },
    { FAKE_LLM_KEY: "test" },
    {
      onPage: (page) =>
        page.on("request", (r) => {
          const url = r.url();
          if (/^(data|blob):/.test(url)) return;
          const host = new URL(url).hostname;
          // Webview resource URIs: answered by the webview's service worker from the extension
          // folder on the code-server host; they never reach that domain.
          if (host.endsWith(".vscode-resource.vscode-cdn.net")) return;
          if (!["127.0.0.1", "localhost"].includes(host)) outside.push(url);
        }),
    },
  );
});

after(async () => {
  await cs.stop();
  await fake?.stop();
});

function extensionHostLog(): string {
  const logs = path.join(cs.userData, "logs");
  const out: string[] = [];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (/Context Sidecar|exthost/i.test(entry.name)) out.push(`== ${p}\n${readFileSync(p, "utf8").slice(-4000)}`);
    }
  };
  walk(logs);
  return out.join("\n");
}

scenario("the sidecar starts and the gauge says there is no session yet", { skip, timeout: 90_000 }, async () => {
  await cs.statusBar().getByText(/no session/).waitFor({ timeout: 60_000 }).catch((e) => {
    throw new Error(`${e.message}\n${extensionHostLog()}`);
  });
});

scenario("a chat turn streams into the panel and the status bar shows the gauge in its level's colour", { skip, timeout: 120_000 }, async () => {
  const page = cs.page;
  await page.locator('.activitybar .action-item a[aria-label^="Context Sidecar"]').click();
  const frame = cs.chat();
  const input = frame.locator("#input");
  await input.waitFor({ timeout: 30_000 });
  await frame.locator("#send:not([disabled])").waitFor({ timeout: 30_000 });
  await input.fill("Say hello and tell me where the gauge is");
  await input.press("Enter");

  const answer = frame.locator(".message.agent .markdown");
  await answer.getByText("The context gauge is in the status bar.", { exact: false }).waitFor({ timeout: 60_000 }).catch((e) => {
    throw new Error(`${e.message}\n${extensionHostLog()}`);
  });
  assert.equal(await answer.locator("strong").innerText(), "context gauge", "markdown rendered");
  assert.equal(await frame.locator(".message.user .plain").innerText(), "Say hello and tell me where the gauge is");

  // 150,000 input + cache write + output tokens of 200K: about 75%, warning level.
  const gaugeItem = cs.statusBar().locator(".statusbar-item", { hasText: /K \/ 200K · \d+%/ });
  await gaugeItem.waitFor({ timeout: 30_000 });
  const text = (await gaugeItem.innerText()).trim();
  assert.match(text, /^15\d(\.\d)?K \/ 200K · 7\d%$/, text);
  assert.equal(await frame.locator("#gauge .gauge-text").innerText(), text, "panel and status bar agree");
  // The sidecar's level decides the colour. With the default buffers warningAt equals
  // errorAt (both 20K below auto-compact), so 150K reads as "error".
  const level = await frame.locator("#gauge").getAttribute("data-level");
  assert.ok(level === "warning" || level === "error", `level ${level}`);
  const classes = (await gaugeItem.getAttribute("class")) ?? "";
  assert.match(classes, new RegExp(`\\b${level}-kind\\b`), `status bar item classes: ${classes}`);
  const background = await gaugeItem.evaluate((el) => getComputedStyle(el).backgroundColor);
  assert.notEqual(background, "rgba(0, 0, 0, 0)", "an alert background is painted");

  const recorded = await fake.requests();
  assert.match(JSON.stringify(recorded[0].body.messages), /Say hello and tell me where the gauge is/);
  assert.deepEqual(await fake.violations(), [], "every request is one the real API accepts");

  await frame.locator("#gauge").waitFor();
  await page.waitForTimeout(300);
  await page.locator("#workbench\\.parts\\.sidebar").screenshot({ path: path.join(EXTENSION_ROOT, "media", "screenshot-panel.png") });
  // The status bar's right end with the gauge, and its tooltip above it.
  await gaugeItem.hover();
  const tooltip = page.locator(".monaco-hover, .workbench-hover").filter({ hasText: "Auto-compact at" }).first();
  await tooltip.waitFor({ timeout: 15_000 });
  const bar = (await cs.statusBar().boundingBox())!;
  const tip = (await tooltip.boundingBox())!;
  const left = Math.max(0, Math.min(tip.x, bar.width - 520) - 8);
  await page.screenshot({
    path: path.join(EXTENSION_ROOT, "media", "screenshot-statusbar.png"),
    clip: { x: left, y: tip.y - 8, width: bar.width - left, height: bar.y + bar.height - tip.y + 8 },
  });
  const log = cs.channelLogs();
  assert.ok(log.includes("Connected to context-sidecar"), log);
  assert.doesNotMatch(log, /\[error\]/, `the Context Sidecar output channel logged errors:\n${log}`);
  assert.deepEqual(outside, [], `the browser made no request beyond loopback: ${outside.join(" ")}`);
});
