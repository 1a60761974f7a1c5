import assert from "node:assert/strict";
import { test } from "node:test";
import { contextMarkdown } from "../../src/chat/contextMarkdown";
import { chatHtml, contentSecurityPolicy } from "../../src/chat/html";
import type { ContextView } from "../../src/shared/protocol";
import { gauge } from "./fixtures";

test("the /context document shows the gauge, breakdown and the sidecar's sections", () => {
  // A section of an unexpected shape (a string here) is still printed, fenced.
  const odd = { gauge: gauge(), prefix: { claudeMd: ["CLAUDE.md"] }, fileReadState: [{ path: "a.py" }], messages: "```weird```" };
  const md = contextMarkdown(odd as unknown as ContextView);
  assert.match(md, /^# Context: claude-sonnet-5-5/);
  assert.match(md, /142\.3K \/ 200K \(71%\)/);
  assert.match(md, /\| Messages \| 90,000 \|/);
  assert.match(md, /## Files read\n\n1 entry\n\n```json/);
  assert.match(md, /````text\n```weird```\n````/, "a fence inside content cannot close ours");
});

test("the /context document lists the workspace hook files that did not run", () => {
  const view: ContextView = { gauge: gauge(), skippedHookFiles: ["/ws/.claude/settings.json"] };
  const md = contextMarkdown(view);
  assert.match(md, /## Hooks not run\n\nThis folder is not trusted/);
  assert.match(md, /- `\/ws\/\.claude\/settings\.json`/);
  assert.doesNotMatch(contextMarkdown({ gauge: gauge(), skippedHookFiles: [] }), /Hooks not run/);
});

test("the /context document says which of the provider's tools the model has, and why not", () => {
  const view: ContextView = { gauge: gauge(), serverTools: [
    { tool: "web_search", offered: true, reason: "Anthropic's web_search_20260318 server tool" },
    { tool: "web_fetch", offered: false, reason: "turned off by tools.webFetch" }] };
  const md = contextMarkdown(view);
  assert.match(md, /## Provider tools\n\n- web search: offered — Anthropic's web_search_20260318 server tool\n- web fetch: not offered — turned off by tools.webFetch/);
  assert.doesNotMatch(contextMarkdown({ gauge: gauge(), serverTools: [] }), /Provider tools/);
});

test("the webview HTML has a strict CSP with one nonce and no inline code", () => {
  const html = chatHtml({ cspSource: "vscode-resource:", nonce: "abc123", scriptUri: "x/webview.js", styleUri: "x/webview.css" });
  assert.equal(contentSecurityPolicy("vscode-resource:", "abc123"),
    "default-src 'none'; img-src vscode-resource: data:; style-src vscode-resource:; font-src vscode-resource:; script-src 'nonce-abc123'");
  assert.ok(html.includes(`content="default-src 'none';`));
  const scripts = html.match(/<script[^>]*>/g) ?? [];
  assert.deepEqual(scripts, ['<script nonce="abc123" src="x/webview.js">']);
  assert.doesNotMatch(html, /\son[a-z]+=/i, "no inline event handlers");
  assert.doesNotMatch(html, /https?:\/\//, "no remote resources");
});
