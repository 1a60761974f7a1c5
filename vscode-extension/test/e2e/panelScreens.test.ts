// End to end: the chat panel in code-server, in the Dark and then the Light theme, through
// a turn that reads a file, asks to run a command and answers with code. Checks what users
// reported in the real editor (the code block has its own background in both themes, its
// keywords take the theme's colours, tool rows are one line) and saves the panel as
// docs/screenshots/panel-dark.png and panel-light.png for the README.
// Needs CODE_SERVER (the launcher path) and VSIX; scripts/test.sh provides both.

import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import * as path from "node:path";
import { after, before, test } from "node:test";
import type { Browser, FrameLocator, Page } from "playwright-core";
import { chromiumAvailable, launchChromium } from "../support/browser";
import { EXTENSION_ROOT, PYTHON, REPO_ROOT, pythonAvailable, removeScratch, scratchDirs, startFakeLlm, stopGroup, withTimeout, type FakeLlm } from "../support/processes";

const CODE_SERVER = process.env.CODE_SERVER ?? "";
const VSIX = process.env.VSIX ?? path.join(EXTENSION_ROOT, "dist", "context-sidecar.vsix");
const skip =
  !CODE_SERVER || !existsSync(CODE_SERVER) ? "CODE_SERVER is not set (scripts/test.sh installs code-server)"
  : !existsSync(VSIX) ? `no VSIX at ${VSIX}`
  : !chromiumAvailable() ? "no Chromium"
  : !pythonAvailable() ? `no Python at ${PYTHON}`
  : false;

const SHOTS = path.join(REPO_ROOT, "docs", "screenshots");
const dirs = scratchDirs("sidecar-panel-");
const userData = path.join(dirs.root, "user-data");
const extensionsDir = path.join(dirs.root, "extensions");
const settingsFile = path.join(userData, "User", "settings.json");
let fake: FakeLlm;
let codeServer: ChildProcess;
let browser: Browser;
let page: Page;
let serverLog = "";

const CALC = 'def add(a, b):\n    """The sum of a and b."""\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n';
const ANSWER =
  "`add` is right. To multiply too, add this beside it:\n\n" +
  "```python\ndef mul(a, b):\n    \"\"\"The product of a and b.\"\"\"\n    return a * b  # no overflow in Python\n```\n\n" +
  "The check printed **5**, so `add(2, 3)` works.";

function settings(theme: string, fakeUrl: string): string {
  return JSON.stringify(
    {
      "workbench.startupEditor": "none",
      "workbench.colorTheme": theme,
      "workbench.tips.enabled": false,
      "telemetry.telemetryLevel": "off",
      "update.mode": "none",
      "extensions.autoCheckUpdates": false,
      "extensions.autoUpdate": false,
      "security.workspace.trust.enabled": false,
      "chat.commandCenter.enabled": false,
      "contextSidecar.pythonPath": PYTHON,
      "contextSidecar.baseUrl": fakeUrl,
      "contextSidecar.model": "claude-haiku-4-5",
      "contextSidecar.apiKeyEnv": "FAKE_LLM_KEY",
      "contextSidecar.storageDir": dirs.storage,
    },
    null,
    2,
  );
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

function isolatedEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    HOME: dirs.home,
    XDG_CONFIG_HOME: path.join(dirs.home, ".config"),
    XDG_DATA_HOME: path.join(dirs.home, ".local", "share"),
    XDG_CACHE_HOME: path.join(dirs.home, ".cache"),
    EXTENSIONS_GALLERY: JSON.stringify({ serviceUrl: "http://127.0.0.1:9/gallery", itemUrl: "http://127.0.0.1:9/item", resourceUrlTemplate: "http://127.0.0.1:9/r" }),
    ...extra,
  };
}

before(async () => {
  if (skip) return;
  fake = await startFakeLlm();
  await fake.queue([
    {
      content: [
        { type: "text", text: "I'll read the module first." },
        { type: "tool_use", id: "toolu_read1", name: "Read", input: { file_path: path.join(dirs.workspace, "calc.py") } },
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
  mkdirSync(path.join(userData, "User"), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  writeFileSync(settingsFile, settings("Default Dark Modern", fake.url));
  writeFileSync(path.join(dirs.workspace, "calc.py"), CALC);

  const install = spawnSync(CODE_SERVER, ["--user-data-dir", userData, "--extensions-dir", extensionsDir, "--install-extension", VSIX], {
    env: isolatedEnv(),
    timeout: 60_000,
    encoding: "utf8",
  });
  assert.equal(install.status, 0, `install failed: ${install.stdout}\n${install.stderr}`);
  assert.ok(readdirSync(extensionsDir).some((d) => d.startsWith("context-sidecar.context-sidecar-")));

  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  writeFileSync(path.join(dirs.root, "config.yaml"), `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  codeServer = spawn(
    CODE_SERVER,
    [
      "--bind-addr", `127.0.0.1:${port}`, "--auth", "none", "--disable-telemetry", "--disable-update-check",
      "--disable-workspace-trust", "--disable-getting-started-override",
      "--user-data-dir", userData, "--extensions-dir", extensionsDir, "--config", path.join(dirs.root, "config.yaml"),
      dirs.workspace,
    ],
    { detached: true, stdio: ["ignore", "pipe", "pipe"], env: isolatedEnv({ FAKE_LLM_KEY: "test", PYTHONPATH: REPO_ROOT }) },
  );
  codeServer.stdout!.on("data", (d) => (serverLog += d));
  codeServer.stderr!.on("data", (d) => (serverLog += d));
  await withTimeout(
    (async () => {
      for (;;) {
        try {
          if ((await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(1_000) })).ok) return;
        } catch {
          /* not up yet */
        }
        await new Promise((r) => setTimeout(r, 250));
      }
    })(),
    45_000,
    "code-server /healthz",
  ).catch((e) => {
    throw new Error(`${e.message}\n${serverLog}`);
  });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  page.setDefaultTimeout(30_000);
  await page.goto(`${baseUrl}/?folder=${encodeURIComponent(dirs.workspace)}`, { timeout: 60_000 });
  await page.locator(".monaco-workbench").waitFor({ timeout: 60_000 });
});

after(async () => {
  await browser?.close().catch(() => undefined);
  await stopGroup(codeServer);
  await fake?.stop();
  removeScratch(dirs.root);
});

function chatFrame(): FrameLocator {
  return page.frameLocator("iframe.webview").frameLocator("#active-frame");
}

async function shoot(name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  // No hover tooltip over the picture.
  await page.mouse.move(900, 500);
  await page.waitForTimeout(600);
  await page.locator("#workbench\\.parts\\.sidebar").screenshot({ path: path.join(SHOTS, name) });
}

const style = (frame: FrameLocator, selector: string, prop: "color" | "backgroundColor") =>
  frame.locator(selector).first().evaluate((e, p) => getComputedStyle(e)[p as "color"], prop);

test("the panel in the Dark and Light themes: tool rows, a permission, a framed code block", { skip, timeout: 180_000 }, async () => {
  await page.locator('.activitybar .action-item a[aria-label^="Context Sidecar"]').click();
  const frame = chatFrame();
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
    throw new Error(`${e.message}\n${serverLog.slice(-3000)}`);
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
  await page.keyboard.press("F1");
  await page.keyboard.type("Preferences: Color Theme");
  await page.locator(".quick-input-list .monaco-list-row", { hasText: "Preferences: Color Theme" }).first().click();
  await page.keyboard.type("Light Modern");
  await page.locator(".quick-input-list .monaco-list-row", { hasText: "Light Modern" }).first().waitFor();
  await page.keyboard.press("Enter");
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
