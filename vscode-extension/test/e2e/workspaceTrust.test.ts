// End to end: Workspace Trust is the one trust model. A folder opened in Restricted Mode
// (Workspace Trust on, the folder not trusted, no Claude Code trust record in HOME) gets
// nothing it ships: its .claude/settings.json SessionStart hook does not run, and the hook
// its .vscode/settings.json names is ignored. Trusting the folder in VS Code tells the
// sidecar, and the next session runs them. Checked where it matters: on disk (the hooks'
// markers) and in what reached the fake LLM.

import assert from "node:assert/strict";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { after, before } from "node:test";
import { CodeServerSession, scenarios, skipReason } from "../support/codeServer";
import { startFakeLlm, type FakeLlm } from "../support/processes";

const skip = skipReason();
const cs = new CodeServerSession();
const scenario = scenarios(cs);
let fake: FakeLlm;
const shots: string[] = [];

// What each hook prints; SessionStart output is context for the model.
const CLAUDE_HOOK_SAID = "claude-hook-said-7d1f";
const SETTINGS_HOOK_SAID = "vscode-settings-hook-said-42ab";
const claudeMarker = () => path.join(cs.dirs.root, "claude-hook-ran");
const settingsMarker = () => path.join(cs.dirs.root, "settings-hook-ran");

const reply = (t: string) => ({ content: [{ type: "text", text: t }], chunk_size: 16 });

before(async () => {
  if (skip) return;
  fake = await startFakeLlm();
  const ws = cs.dirs.workspace;
  mkdirSync(path.join(ws, ".claude"), { recursive: true });
  writeFileSync(path.join(ws, ".claude", "settings.json"), JSON.stringify({
    hooks: { SessionStart: [{ hooks: [{ type: "command", command: `touch ${claudeMarker()} && echo ${CLAUDE_HOOK_SAID}` }] }] },
  }, null, 2));
  writeFileSync(path.join(ws, "README.md"), "# a cloned repository\n");
  // Claude Code's trust record for the folder is absent: HOME is a fresh scratch folder.
  assert.equal(existsSync(path.join(cs.dirs.home, ".claude.json")), false);
  await cs.start(
    { "contextSidecar.baseUrl": fake.url, "contextSidecar.model": "claude-haiku-4-5", "contextSidecar.apiKeyEnv": "FAKE_LLM_KEY" },
    { FAKE_LLM_KEY: "test" },
    {
      workspaceTrust: true,
      // The folder's own VS Code settings try a hook too; Restricted Mode must ignore it.
      workspaceSettings: { "contextSidecar.sessionStartHooks": [`touch ${settingsMarker()} && echo ${SETTINGS_HOOK_SAID}`] },
    },
  );
});

after(async () => {
  if (shots.length) console.log(`screenshots:\n${shots.join("\n")}`);
  await cs.stop();
  await fake?.stop();
});

/** The model calls of the conversation (not token counts or titles), as sent. */
async function modelCalls(): Promise<string[]> {
  const requests: { path?: string; body?: { messages?: unknown } }[] = await fake.requests();
  return requests.filter((r) => r.body?.messages && !/count_tokens/.test(r.path ?? "")).map((r) => JSON.stringify(r.body));
}

async function sendPrompt(prompt: string, answer: string): Promise<void> {
  await cs.sendPrompt(prompt);
  await cs.waitForAnswer(answer);
}

const sidebar = (file: string) => cs.page.locator("#workbench\\.parts\\.sidebar").screenshot({ path: file });

scenario("Restricted Mode: the folder's hooks do not run and the model hears nothing of them", { skip, timeout: 240_000 }, async () => {
  await cs.statusBar().getByText(/no session/).waitFor({ timeout: 60_000 });
  await fake.queue([reply("Restricted answer.")]);
  await sendPrompt("What does this repository do?", "Restricted answer.");
  const frame = cs.chat();
  const banner = frame.locator("#trust-banner");
  await banner.waitFor({ state: "visible", timeout: 15_000 });
  assert.equal(
    (await banner.locator(".trust-text").innerText()).trim(),
    "Restricted Mode: this folder's hooks, MCP servers and settings are not applied.",
  );
  // The sidecar says what it withheld; the banner's tooltip names the hook file.
  await frame.locator('#trust-banner[title*=".claude/settings.json"]').waitFor({ timeout: 15_000 });

  const calls = await modelCalls();
  assert.equal(calls.length, 1, "one model call");
  assert.match(calls[0], /What does this repository do\?/);
  assert.doesNotMatch(calls[0], new RegExp(CLAUDE_HOOK_SAID), "no output of .claude/settings.json's hook reached the model");
  assert.doesNotMatch(calls[0], new RegExp(SETTINGS_HOOK_SAID), "no output of .vscode/settings.json's hook reached the model");
  assert.equal(existsSync(claudeMarker()), false, ".claude/settings.json's SessionStart hook did not run");
  assert.equal(existsSync(settingsMarker()), false, "the workspace's contextSidecar.sessionStartHooks did not run");
  // The verdict is the window's own (workspaceTrusted: false), not the missing trust record.
  assert.match(cs.channelLogs(), /hooks in \S+\.claude\/settings\.json do not run: the folder is not trusted by the editor \(Restricted Mode\)/);

  await cs.page.mouse.move(900, 650);
  await cs.page.waitForTimeout(300);
  shots.push(...(await cs.shootBoth("restricted-mode", sidebar)));
});

scenario("trusting the folder from the banner: the next session runs its hooks and the model gets their output", { skip, timeout: 240_000 }, async () => {
  const frame = await cs.openChat();
  await frame.locator("#trust-manage").click();
  // VS Code's Workspace Trust editor, opened by workbench.trust.manage.
  const trustButton = cs.page.locator(".workspace-trust-editor .monaco-button", { hasText: /^Trust/ }).first();
  await trustButton.waitFor({ timeout: 30_000 });
  await trustButton.click();
  await frame.locator("#trust-banner").waitFor({ state: "hidden", timeout: 30_000 });
  await frame.locator(".notice", { hasText: "This folder is trusted now" }).waitFor({ timeout: 30_000 });
  assert.match(cs.channelLogs(), /The workspace is trusted now/);
  // Nothing ran for the session already open.
  assert.equal(existsSync(claudeMarker()), false);

  await fake.reset();
  await fake.queue([reply("Trusted answer.")]);
  await cs.openChat();
  await frame.locator("#new").click();
  await sendPrompt("And now?", "Trusted answer.");
  const deadline = Date.now() + 20_000;
  while (!existsSync(claudeMarker()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  assert.equal(existsSync(claudeMarker()), true, ".claude/settings.json's SessionStart hook ran for the new session");
  assert.equal(existsSync(settingsMarker()), true, "the workspace's contextSidecar.sessionStartHooks ran once trusted");
  const calls = await modelCalls();
  assert.equal(calls.length, 1, "one model call");
  assert.match(calls[0], /And now\?/);
  assert.match(calls[0], new RegExp(CLAUDE_HOOK_SAID), "the hook's output reached the model");
  assert.match(calls[0], new RegExp(SETTINGS_HOOK_SAID), "the settings hook's output reached the model");
  assert.deepEqual(await fake.violations(), []);
  assert.equal(await frame.locator("#trust-banner").isVisible(), false);
});
