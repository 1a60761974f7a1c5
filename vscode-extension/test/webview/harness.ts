// Loads the real webview bundle inside the real HTML shell (with its CSP) in headless
// Chromium, with acquireVsCodeApi stubbed to record what the view posts.

import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import type { Browser, Page } from "playwright-core";
import { chatHtml } from "../../src/chat/html";
import type { HostToWebviewBody } from "../../src/shared/messages";
import { chromiumAvailable, launchChromium, CHROMIUM } from "../support/browser";
import { EXTENSION_ROOT } from "../support/processes";

export const skip = chromiumAvailable() ? false : `no Chromium at ${CHROMIUM}`;
const ORIGIN = "http://webview.test";
const NONCE = "testnonce123";

export { launchChromium };

/** A few of the variables VS Code sets on a webview, per theme (values of Light/Dark Modern). */
export const THEMES = {
  dark: {
    bodyClass: "vscode-dark",
    vars: {
      "--vscode-foreground": "#cccccc", "--vscode-sideBar-background": "#181818", "--vscode-editor-background": "#1f1f1f",
      "--vscode-descriptionForeground": "#9d9d9d", "--vscode-widget-border": "#313131", "--vscode-focusBorder": "#0078d4",
      "--vscode-input-background": "#313131", "--vscode-button-background": "#0078d4", "--vscode-button-foreground": "#ffffff",
      "--vscode-button-secondaryBackground": "#313131", "--vscode-button-secondaryForeground": "#cccccc",
      "--vscode-textLink-foreground": "#4daafc", "--vscode-errorForeground": "#f85149", "--vscode-textCodeBlock-background": "#2b2b2b",
      "--vscode-font-family": "sans-serif", "--vscode-font-size": "13px", "--vscode-editor-font-family": "monospace", "--vscode-editor-font-size": "12px",
      "--vscode-debugTokenExpression-boolean": "#4e94ce", "--vscode-debugTokenExpression-string": "#ce9178",
    },
  },
  light: {
    bodyClass: "vscode-light",
    vars: {
      "--vscode-foreground": "#3b3b3b", "--vscode-sideBar-background": "#f8f8f8", "--vscode-editor-background": "#ffffff",
      "--vscode-descriptionForeground": "#3b3b3b", "--vscode-widget-border": "#e5e5e5", "--vscode-focusBorder": "#005fb8",
      "--vscode-input-background": "#ffffff", "--vscode-button-background": "#005fb8", "--vscode-button-foreground": "#ffffff",
      "--vscode-button-secondaryBackground": "#e5e5e5", "--vscode-button-secondaryForeground": "#3b3b3b",
      "--vscode-textLink-foreground": "#005fb8", "--vscode-errorForeground": "#f85149",
      "--vscode-font-family": "sans-serif", "--vscode-font-size": "13px", "--vscode-editor-font-family": "monospace", "--vscode-editor-font-size": "12px",
      "--vscode-debugTokenExpression-boolean": "#0000ff", "--vscode-debugTokenExpression-string": "#a31515",
    },
  },
} as const;

export type ThemeName = keyof typeof THEMES;

export async function openView(browser: Browser, theme?: ThemeName): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 420, height: 720 } });
  page.setDefaultTimeout(10_000);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  (page as any).__errors = errors;
  // Any request outside the test origin would be a remote resource; fail loudly.
  await page.route("**/*", async (route) => {
    const url = new URL(route.request().url());
    if (url.origin !== ORIGIN) return route.abort();
    if (url.pathname === "/") {
      return route.fulfill({
        contentType: "text/html",
        body: chatHtml({ cspSource: ORIGIN, nonce: NONCE, scriptUri: `${ORIGIN}/dist/webview.js`, styleUri: `${ORIGIN}/dist/webview.css` }),
      });
    }
    const file = path.join(EXTENSION_ROOT, url.pathname);
    if (!url.pathname.startsWith("/dist/") || !existsSync(file)) return route.fulfill({ status: 404, body: "" });
    const type = file.endsWith(".js") ? "text/javascript" : "text/css";
    return route.fulfill({ contentType: type, body: readFileSync(file) });
  });
  await page.addInitScript((t) => {
    (window as any).__posted = [];
    (window as any).acquireVsCodeApi = () => ({ postMessage: (m: unknown) => (window as any).__posted.push(m) });
    if (t) {
      // As VS Code does: a theme class on body and the theme's colours as variables on html.
      document.addEventListener("DOMContentLoaded", () => {
        document.body.classList.add(t.bodyClass);
        for (const [k, v] of Object.entries(t.vars)) document.documentElement.style.setProperty(k, v as string);
      });
    }
  }, theme ? THEMES[theme] : null);
  await page.goto(`${ORIGIN}/`);
  return page;
}

const seqs = new WeakMap<Page, number>();
/** Posts a host message with the next seq (or the one given). */
export async function host(page: Page, body: HostToWebviewBody, seq?: number): Promise<void> {
  const next = seq ?? (seqs.get(page) ?? 0) + 1;
  seqs.set(page, Math.max(next, seqs.get(page) ?? 0));
  // Resolves once the view's own listener (registered first) has handled the message, so
  // what the test checks next never races the posted message.
  await page.evaluate(
    (m) =>
      new Promise<void>((resolve) => {
        const done = (e: MessageEvent) => {
          if (e.data?.seq !== m.seq || e.data?.type !== m.type) return;
          window.removeEventListener("message", done);
          resolve();
        };
        window.addEventListener("message", done);
        window.postMessage(m, "*");
      }),
    { ...body, seq: next } as any,
  );
}

export async function update(page: Page, u: Record<string, unknown>): Promise<void> {
  await host(page, { type: "update", update: u as any });
}

export const posted = (page: Page) => page.evaluate(() => (window as any).__posted as any[]);
export const postedOf = async (page: Page, type: string) => (await posted(page)).filter((m) => m.type === type);

export const running = { type: "state", connection: "running", sessionId: "s-1", title: null, model: "claude-sonnet-5-5", busy: false, compacting: false } as const;

export const CWD = "/home/me/calc";
export const text = (t: string, messageId = "m1") => ({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: t }, messageId });
export const noErrors = (page: Page) => assert.deepEqual((page as any).__errors, []);
export const bg = (page: Page, selector: string) => page.locator(selector).first().evaluate((e) => getComputedStyle(e).backgroundColor);
export const color = (page: Page, selector: string) => page.locator(selector).first().evaluate((e) => getComputedStyle(e).color);
export const transparent = (c: string) => c === "rgba(0, 0, 0, 0)" || c === "transparent";
