// One code-server 4.100.3 with the packaged extension, in scratch folders, driven by
// headless Chromium: what the end-to-end scenarios share.

import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import * as path from "node:path";
import { afterEach, beforeEach, test, type TestOptions } from "node:test";
import type { Browser, FrameLocator, Locator, Page } from "playwright-core";
import { chromiumAvailable, launchChromium } from "./browser";
import { EXTENSION_ROOT, PYTHON, REPO_ROOT, pythonAvailable, removeScratch, scratchDirs, stopGroup, withTimeout } from "./processes";

export const CODE_SERVER = process.env.CODE_SERVER ?? "";
export const VSIX = process.env.VSIX ?? path.join(EXTENSION_ROOT, "dist", "context-sidecar.vsix");

export function skipReason(): string | false {
  return !CODE_SERVER || !existsSync(CODE_SERVER) ? "CODE_SERVER is not set (scripts/test.sh installs code-server)"
    : !existsSync(VSIX) ? `no VSIX at ${VSIX}`
    : !chromiumAvailable() ? "no Chromium"
    : !pythonAvailable() ? `no Python at ${PYTHON}`
    : false;
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

export const THEMES = { dark: "Default Dark Modern", light: "Default Light Modern" } as const;
/** What the Color Theme picker calls them. */
const THEME_LABELS = { dark: "Dark Modern", light: "Light Modern" } as const;

export class CodeServerSession {
  readonly dirs = scratchDirs("sidecar-e2e-wf-");
  readonly userData = path.join(this.dirs.root, "user-data");
  private readonly extensionsDir = path.join(this.dirs.root, "extensions");
  private server: ChildProcess | undefined;
  private browser: Browser | undefined;
  page!: Page;
  private baseUrl = "";
  /** What code-server printed, for failure messages. */
  serverLog = "";
  private settings: Record<string, unknown> = {};

  private env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    const d = this.dirs;
    return {
      ...process.env,
      HOME: d.home,
      XDG_CONFIG_HOME: path.join(d.home, ".config"),
      XDG_DATA_HOME: path.join(d.home, ".local", "share"),
      XDG_CACHE_HOME: path.join(d.home, ".cache"),
      EXTENSIONS_GALLERY: JSON.stringify({ serviceUrl: "http://127.0.0.1:9/gallery", itemUrl: "http://127.0.0.1:9/item", resourceUrlTemplate: "http://127.0.0.1:9/r" }),
      ...extra,
    };
  }

  writeSettings(patch: Record<string, unknown>): void {
    this.settings = { ...this.settings, ...patch };
    writeFileSync(path.join(this.userData, "User", "settings.json"), JSON.stringify(this.settings, null, 2));
  }

  /**
   * `settings` go to the workspace's .vscode/settings.json: the user file is VS Code's to
   * rewrite (a theme change does), and a sidecar restarting meanwhile must still find its
   * own settings.
   *
   * With `workspaceTrust`, Workspace Trust is on and the folder starts untrusted (Restricted
   * Mode): `settings` then go to the machine's settings (Machine/settings.json), since
   * Restricted Mode ignores the workspace's values of the settings the extension restricts,
   * and `workspaceSettings` is what the folder's own .vscode/settings.json says.
   */
  async start(
    settings: Record<string, unknown>,
    env: Record<string, string>,
    options: {
      viewport?: { width: number; height: number };
      onPage?: (page: Page) => void;
      workspaceTrust?: boolean;
      workspaceSettings?: Record<string, unknown>;
    } = {},
  ): Promise<void> {
    mkdirSync(path.join(this.userData, "User"), { recursive: true });
    mkdirSync(path.join(this.dirs.workspace, ".vscode"), { recursive: true });
    const sidecarSettings = { "contextSidecar.pythonPath": PYTHON, "contextSidecar.storageDir": this.dirs.storage, ...settings };
    writeFileSync(
      path.join(this.dirs.workspace, ".vscode", "settings.json"),
      JSON.stringify(options.workspaceTrust ? options.workspaceSettings ?? {} : sidecarSettings, null, 2),
    );
    mkdirSync(this.extensionsDir, { recursive: true });
    if (options.workspaceTrust) {
      // The remote machine's settings: code-server 4.100.3 drops the browser-side user
      // settings' values of restricted settings from the extension host once trust is granted.
      mkdirSync(path.join(this.userData, "Machine"), { recursive: true });
      writeFileSync(path.join(this.userData, "Machine", "settings.json"), JSON.stringify(sidecarSettings, null, 2));
    }
    this.writeSettings({
      "workbench.startupEditor": "none",
      "workbench.colorTheme": THEMES.dark,
      "workbench.tips.enabled": false,
      "telemetry.telemetryLevel": "off",
      "update.mode": "none",
      "extensions.autoCheckUpdates": false,
      "extensions.autoUpdate": false,
      "security.workspace.trust.enabled": false,
      "chat.commandCenter.enabled": false,
      "workbench.editor.enablePreview": false,
      ...(options.workspaceTrust
        ? {
            "security.workspace.trust.enabled": true,
            // No modal at startup: the folder simply opens in Restricted Mode.
            "security.workspace.trust.startupPrompt": "never",
            "security.workspace.trust.untrustedFiles": "open",
          }
        : {}),
    });
    const install = spawnSync(
      CODE_SERVER,
      ["--user-data-dir", this.userData, "--extensions-dir", this.extensionsDir, "--install-extension", VSIX],
      { env: this.env(), timeout: 60_000, encoding: "utf8" },
    );
    assert.equal(install.status, 0, `install failed: ${install.stdout}\n${install.stderr}`);
    assert.ok(readdirSync(this.extensionsDir).some((d) => d.startsWith("context-sidecar.context-sidecar-")),
      readdirSync(this.extensionsDir).join(","));

    const port = await freePort();
    this.baseUrl = `http://127.0.0.1:${port}`;
    writeFileSync(path.join(this.dirs.root, "config.yaml"), `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
    this.server = spawn(
      CODE_SERVER,
      [
        "--bind-addr", `127.0.0.1:${port}`, "--auth", "none", "--disable-telemetry", "--disable-update-check",
        ...(options.workspaceTrust ? [] : ["--disable-workspace-trust"]), "--disable-getting-started-override",
        "--user-data-dir", this.userData, "--extensions-dir", this.extensionsDir, "--config", path.join(this.dirs.root, "config.yaml"),
        this.dirs.workspace,
      ],
      { detached: true, stdio: ["ignore", "pipe", "pipe"], env: this.env({ PYTHONPATH: REPO_ROOT, ...env }) },
    );
    this.server.stdout!.on("data", (d) => (this.serverLog += d));
    this.server.stderr!.on("data", (d) => (this.serverLog += d));
    await withTimeout(
      (async () => {
        for (;;) {
          try {
            if ((await fetch(`${this.baseUrl}/healthz`, { signal: AbortSignal.timeout(1_000) })).ok) return;
          } catch {
            /* not up yet */
          }
          await new Promise((r) => setTimeout(r, 250));
        }
      })(),
      45_000,
      "code-server /healthz",
    ).catch((e) => {
      throw new Error(`${e.message}\n${this.serverLog}`);
    });
    this.browser = await launchChromium();
    this.page = await this.browser.newPage({ viewport: options.viewport ?? { width: 1280, height: 760 } });
    options.onPage?.(this.page);
    this.page.setDefaultTimeout(30_000);
    await this.open();
  }

  async open(): Promise<void> {
    await this.page.goto(`${this.baseUrl}/?folder=${encodeURIComponent(this.dirs.workspace)}`, { timeout: 60_000 });
    await this.page.locator(".monaco-workbench").waitFor({ timeout: 60_000 });
  }

  /** Reload the window the way Developer: Reload Window does: a new extension host. */
  async reload(): Promise<void> {
    await this.page.reload({ timeout: 60_000 });
    await this.page.locator(".monaco-workbench").waitFor({ timeout: 60_000 });
  }

  async stop(): Promise<void> {
    await this.browser?.close().catch(() => undefined);
    await stopGroup(this.server);
    removeScratch(this.dirs.root);
  }

  statusBar() {
    return this.page.locator("#workbench\\.parts\\.statusbar");
  }

  chat(): FrameLocator {
    return this.page.frameLocator("iframe.webview").first().frameLocator("#active-frame");
  }

  async openChat(): Promise<FrameLocator> {
    const frame = this.chat();
    if (!(await frame.locator("#input").isVisible().catch(() => false))) {
      // The activity bar icon toggles the side bar; the command only ever shows the chat.
      await this.runCommand("Context Sidecar: Open Chat");
    }
    await frame.locator("#input").waitFor({ timeout: 30_000 });
    return frame;
  }

  /** Types ``prompt`` in the chat's box and presses Enter (the box queues it until the
   *  sidecar is up); the chat's frame. */
  async sendPrompt(prompt: string): Promise<FrameLocator> {
    const frame = await this.openChat();
    await frame.locator("#send:not([disabled])").waitFor({ timeout: 60_000 });
    await frame.locator("#input").fill(prompt);
    await frame.locator("#input").press("Enter");
    return frame;
  }

  /** Waits for an agent message holding ``fragment``. */
  async waitForAnswer(fragment: string): Promise<void> {
    await this.chat().locator(".message.agent .markdown", { hasText: fragment }).first().waitFor({ timeout: 60_000 });
  }

  /** Runs a command from the palette by its title. */
  async runCommand(title: string): Promise<void> {
    await this.page.keyboard.press("F1");
    const input = this.page.locator(".quick-input-widget input");
    await input.waitFor();
    await input.fill(`>${title}`);
    await this.pickRow(title);
  }

  /** Clicks the quick pick row labelled exactly `label` (Enter would take the focused one). */
  async pickRow(label: string | RegExp): Promise<void> {
    const exact = typeof label === "string" ? new RegExp(`^\\s*${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s*$`) : label;
    const row = this.page.locator(".quick-input-list .monaco-list-row").filter({
      has: this.page.locator(".label-name, .monaco-highlighted-label").getByText(exact),
    }).first();
    await row.waitFor();
    await row.click();
  }

  /** Clicks a button of a notification toast whose message matches. */
  async notificationButton(message: RegExp, button: string): Promise<void> {
    const toast = this.page.locator(".notification-toast", { hasText: message }).first();
    await toast.waitFor({ timeout: 60_000 });
    await toast.getByRole("button", { name: button }).click();
  }

  async setTheme(theme: keyof typeof THEMES): Promise<void> {
    const cls = theme === "dark" ? "vs-dark" : "vs";
    const isSet = await this.page.evaluate((c) => document.querySelector(".monaco-workbench")?.classList.contains(c) ?? false, cls);
    if (isSet) return;
    await this.runCommand("Preferences: Color Theme");
    const input = this.page.locator(".quick-input-widget input");
    await input.fill(THEME_LABELS[theme]);
    await this.pickRow(new RegExp(`^(Default )?${THEME_LABELS[theme]}$`));
    await this.page.waitForFunction(
      (c) => document.querySelector(".monaco-workbench")?.classList.contains(c) ?? false,
      cls,
      { timeout: 15_000 },
    );
    await this.page.waitForTimeout(500);
  }

  /** Screenshots in both themes: docs/screenshots/<name>-dark.png and -light.png. */
  async shootBoth(name: string, shoot: (file: string) => Promise<unknown>): Promise<string[]> {
    const dir = path.join(REPO_ROOT, "docs", "screenshots");
    mkdirSync(dir, { recursive: true });
    const files: string[] = [];
    for (const theme of ["dark", "light"] as const) {
      await this.setTheme(theme);
      const file = path.join(dir, `${name}-${theme}.png`);
      await shoot(file);
      files.push(file);
    }
    await this.setTheme("dark");
    return files;
  }

  /** Runs a scenario; when it fails, its error also says what the window showed and what the
   * sidecar logged last, so a failure on a machine nobody watches can be read from its log. */
  async diagnosed(scenario: () => Promise<void>): Promise<void> {
    try {
      await scenario();
    } catch (error) {
      const seen = await this.whatTheWindowShows().catch((e) => `(the window could not be read: ${e})`);
      if (error instanceof Error) error.message += `\n--- what the window showed ---\n${seen}`;
      throw error;
    }
  }

  private async whatTheWindowShows(): Promise<string> {
    const texts = async (locator: Locator) =>
      (await locator.allInnerTexts().catch(() => [] as string[])).map((t) => t.replace(/\s+/g, " ").trim().slice(0, 300));
    const status = await texts(this.statusBar().locator(".statusbar-item"));
    const toasts = await texts(this.page.locator(".notification-toast"));
    const messages = (await texts(this.chat().locator(".message, .error, .compaction, .permission"))).slice(-6);
    const box = await this.chat().locator("#input").inputValue({ timeout: 2_000 }).catch((e) => `? ${e}`);
    const note = (await texts(this.chat().locator("#status"))).join(" ");
    const log = this.channelLogs().trim().split("\n").slice(-30);
    return [
      `status bar: ${status.filter(Boolean).join(" | ")}`,
      `notifications: ${toasts.join(" | ") || "none"}`,
      `panel, last entries:\n  ${messages.join("\n  ") || "(none)"}`,
      `prompt box: ${JSON.stringify(box)}; below it: ${JSON.stringify(note)}`,
      `sidecar channel, last lines:\n  ${log.join("\n  ")}`,
      `code-server, last lines:\n  ${this.serverLog.trim().split("\n").slice(-10).join("\n  ")}`,
    ].join("\n");
  }

  /** The "Context Sidecar" output channels of every window session, oldest first. */
  channelLogs(): string {
    const logs = path.join(this.userData, "logs");
    const out: string[] = [];
    for (const session of existsSync(logs) ? readdirSync(logs).sort() : []) {
      for (const host of readdirSync(path.join(logs, session)).filter((d) => d.startsWith("exthost"))) {
        const file = path.join(logs, session, host, "context-sidecar.context-sidecar", "Context Sidecar.log");
        if (existsSync(file)) out.push(readFileSync(file, "utf8"));
      }
    }
    return out.join("\n");
  }
}

/** `test` for scenarios in `cs`: a failing one also says what the window showed and what the
 * sidecar logged last. */
export function scenarios(cs: CodeServerSession) {
  return (name: string, options: TestOptions, scenario: () => Promise<void>) =>
    test(name, options, () => cs.diagnosed(scenario));
}

/** Hooks every scenario file of one session shares: nothing a failed step left open (a quick
 * pick, a hover) leaks into the next scenario, and with E2E_DEBUG_SHOTS set each scenario
 * ends with a screenshot there. */
export function scenarioHooks(cs: CodeServerSession, skip: string | false): void {
  beforeEach(async () => {
    if (!skip) await cs.page.keyboard.press("Escape");
  });
  afterEach(async (t) => {
    const dir = process.env.E2E_DEBUG_SHOTS;
    if (!skip && dir) {
      await cs.page.screenshot({ path: path.join(dir, `${t.name.slice(0, 40).replace(/\W+/g, "-")}.png`) }).catch(() => undefined);
    }
  });
}
