// End to end: the packaged extension in code-server 4.100.3 (VS Code 1.100.3), driven by
// headless Chromium through one chat turn against the real sidecar and the fake LLM.
// Needs CODE_SERVER (the launcher path) and VSIX; scripts/test.sh provides both.

import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
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

const ANSWER = "Hello from the fake model. The **context gauge** is in the status bar.";
const dirs = scratchDirs("sidecar-e2e-");
const userData = path.join(dirs.root, "user-data");
const extensionsDir = path.join(dirs.root, "extensions");
let fake: FakeLlm;
let codeServer: ChildProcess;
let browser: Browser;
let page: Page;
let baseUrl = "";
let serverLog = "";

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
    // No gallery traffic may leave loopback.
    EXTENSIONS_GALLERY: JSON.stringify({ serviceUrl: "http://127.0.0.1:9/gallery", itemUrl: "http://127.0.0.1:9/item", resourceUrlTemplate: "http://127.0.0.1:9/r" }),
    ...extra,
  };
}

before(async () => {
  if (skip) return;
  fake = await startFakeLlm();
  // 150,000 input tokens: past the warning/error threshold (167K auto-compact - 20K = 147K).
  await fake.queue([{ content: [{ type: "text", text: ANSWER }], chunk_size: 8, chunk_delay_ms: 5, usage: { input_tokens: 150_000, output_tokens: 20 } }]);

  mkdirSync(path.join(userData, "User"), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  writeFileSync(
    path.join(userData, "User", "settings.json"),
    JSON.stringify(
      {
        "workbench.startupEditor": "none",
        "workbench.colorTheme": "Default Dark Modern",
        "workbench.tips.enabled": false,
        "telemetry.telemetryLevel": "off",
        "update.mode": "none",
        "extensions.autoCheckUpdates": false,
        "extensions.autoUpdate": false,
        "security.workspace.trust.enabled": false,
        "chat.commandCenter.enabled": false,
        "contextSidecar.pythonPath": PYTHON,
        "contextSidecar.baseUrl": fake.url,
        // A 200K model, so the gauge below reaches its warning level.
        "contextSidecar.model": "claude-haiku-4-5",
        "contextSidecar.apiKeyEnv": "FAKE_LLM_KEY",
        "contextSidecar.storageDir": dirs.storage,
      },
      null,
      2,
    ),
  );
  writeFileSync(path.join(dirs.workspace, "README.md"), "# demo workspace\n");

  const install = spawnSync(
    CODE_SERVER,
    ["--user-data-dir", userData, "--extensions-dir", extensionsDir, "--install-extension", VSIX],
    { env: isolatedEnv(), timeout: 60_000, encoding: "utf8" },
  );
  assert.equal(install.status, 0, `install failed: ${install.stdout}\n${install.stderr}`);
  assert.ok(readdirSync(extensionsDir).some((d) => d.startsWith("context-sidecar.context-sidecar-")), readdirSync(extensionsDir).join(","));

  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  writeFileSync(path.join(dirs.root, "config.yaml"), `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  codeServer = spawn(
    CODE_SERVER,
    [
      "--bind-addr", `127.0.0.1:${port}`, "--auth", "none", "--disable-telemetry", "--disable-update-check",
      "--disable-workspace-trust", "--disable-getting-started-override",
      "--user-data-dir", userData, "--extensions-dir", extensionsDir, "--config", path.join(dirs.root, "config.yaml"),
      dirs.workspace,
    ],
    // Its own process group, so the file watcher and extension host die with it.
    // The sidecar finds its package through PYTHONPATH and the key through FAKE_LLM_KEY.
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
  page = await browser.newPage({ viewport: { width: 1280, height: 760 } });
  page.setDefaultTimeout(30_000);
  const outside: string[] = [];
  page.on("request", (r) => {
    const url = r.url();
    if (/^(data|blob):/.test(url)) return;
    const host = new URL(url).hostname;
    // Webview resource URIs: answered by the webview's service worker from the extension
    // folder on the code-server host; they never reach that domain.
    if (host.endsWith(".vscode-resource.vscode-cdn.net")) return;
    if (!["127.0.0.1", "localhost"].includes(host)) outside.push(url);
  });
  (page as any).__outside = outside;
  await page.goto(`${baseUrl}/?folder=${encodeURIComponent(dirs.workspace)}`, { timeout: 60_000 });
  await page.locator(".monaco-workbench").waitFor({ timeout: 60_000 });
});

after(async () => {
  await browser?.close().catch(() => undefined);
  await stopGroup(codeServer);
  await fake?.stop();
  removeScratch(dirs.root);
});

function statusBar() {
  return page.locator("#workbench\\.parts\\.statusbar");
}

function chatFrame(): FrameLocator {
  return page.frameLocator("iframe.webview").frameLocator("#active-frame");
}

/** The "Context Sidecar" output channel, as code-server writes it to disk. */
function sidecarChannelLog(): string {
  const logs = path.join(userData, "logs");
  for (const session of existsSync(logs) ? readdirSync(logs).sort().reverse() : []) {
    for (const host of readdirSync(path.join(logs, session)).filter((d) => d.startsWith("exthost"))) {
      const file = path.join(logs, session, host, "context-sidecar.context-sidecar", "Context Sidecar.log");
      if (existsSync(file)) return readFileSync(file, "utf8");
    }
  }
  return "";
}

function extensionHostLog(): string {
  const logs = path.join(userData, "logs");
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

test("the sidecar starts and the gauge says there is no session yet", { skip, timeout: 90_000 }, async () => {
  await statusBar().getByText(/no session/).waitFor({ timeout: 60_000 }).catch((e) => {
    throw new Error(`${e.message}\n${extensionHostLog()}`);
  });
});

test("a chat turn streams into the panel and the status bar shows the gauge in its level's colour", { skip, timeout: 120_000 }, async () => {
  await page.locator('.activitybar .action-item a[aria-label^="Context Sidecar"]').click();
  const frame = chatFrame();
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
  const gaugeItem = statusBar().locator(".statusbar-item", { hasText: /K \/ 200K · \d+%/ });
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
  const bar = (await statusBar().boundingBox())!;
  const tip = (await tooltip.boundingBox())!;
  const left = Math.max(0, Math.min(tip.x, bar.width - 520) - 8);
  await page.screenshot({
    path: path.join(EXTENSION_ROOT, "media", "screenshot-statusbar.png"),
    clip: { x: left, y: tip.y - 8, width: bar.width - left, height: bar.y + bar.height - tip.y + 8 },
  });
  const log = sidecarChannelLog();
  assert.ok(log.includes("Connected to context-sidecar"), log);
  assert.doesNotMatch(log, /\[error\]/, `the Context Sidecar output channel logged errors:\n${log}`);
  assert.deepEqual((page as any).__outside, [], `the browser made no request beyond loopback: ${(page as any).__outside.join(" ")}`);
});
