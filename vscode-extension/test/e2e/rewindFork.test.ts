// End to end: rewind and fork through the panel. A turn edits app.py; the message's rewind
// control, "Restore code and conversation", opens the preview (the file's diff against what
// it gets back, and the modal naming the shell command it cannot undo), and Rewind puts the
// file back on disk, shows the conversation as it now stands and the prompt back in the box;
// the model's next request, as the fake LLM recorded it, holds no trace of the rewound turn.
// Then /rewind's picker forks from a prompt: a new session whose first request carries the
// conversation before that prompt and not the prompt's own turn, while the original stays.
// Saves docs/screenshots/rewind-preview-dark.png, rewind-choices-dark.png and rewound-*.png.

import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { after, before } from "node:test";
import { CodeServerSession, scenarioHooks, scenarios, skipReason } from "../support/codeServer";
import { REPO_ROOT, startFakeLlm, type FakeLlm } from "../support/processes";

const skip = skipReason();
const cs = new CodeServerSession();
const scenario = scenarios(cs);
let fake: FakeLlm;
const shots: string[] = [];

const APP = "def add(a, b):\n    return a + b\n";
const text = (t: string) => ({ content: [{ type: "text", text: t }], chunk_size: 16 });
const tool = (id: string, name: string, input: Record<string, unknown>) => ({ content: [{ type: "tool_use", id, name, input }] });
const appPath = () => path.join(cs.dirs.workspace, "app.py");
/** What the model was sent last: its messages, as one string to search. */
const lastSent = async () => JSON.stringify((await fake.requests()).at(-1).body.messages);

before(async () => {
  if (skip) return;
  fake = await startFakeLlm();
  writeFileSync(appPath(), APP);
  await cs.start(
    {
      "contextSidecar.baseUrl": fake.url,
      "contextSidecar.model": "claude-haiku-4-5",
      "contextSidecar.apiKeyEnv": "FAKE_LLM_KEY",
      // The model's edits go through without a review card: this is about undoing them.
      "contextSidecar.permissions.defaultMode": "acceptEdits",
    },
    { FAKE_LLM_KEY: "test" },
  );
});

scenarioHooks(cs, skip);

after(async () => {
  if (shots.length) console.log(`screenshots:\n${shots.join("\n")}`);
  await cs.stop();
  await fake?.stop();
});

scenario("rewind from a message: the preview shows the diff and what cannot be undone, then the file and the conversation are back", { skip, timeout: 240_000 }, async () => {
  // The extension is up (its commands registered) once the gauge says so.
  await cs.statusBar().getByText(/no session/).waitFor({ timeout: 90_000 });
  await fake.queue([text("Hello! What shall we build?")]);
  await cs.sendPrompt("Say hello");
  await cs.waitForAnswer("What shall we build?");
  await fake.queue([
    tool("toolu_read1", "Read", { file_path: appPath() }),
    tool("toolu_edit1", "Edit", { file_path: appPath(), old_string: "return a + b", new_string: "return a + b  # the sum" }),
    tool("toolu_sh1", "Bash", { command: "touch built.txt", description: "Build" }),
    text("Commented the sum and built it."),
  ]);
  await cs.sendPrompt("Comment the sum in app.py and build");
  const frame = cs.chat();
  // The shell command asks first.
  const card = frame.locator(".permission:not(.answered)", { hasText: "touch built.txt" }).first();
  await card.waitFor({ timeout: 60_000 });
  await card.locator("button.allow_once").click();
  await cs.waitForAnswer("Commented the sum");
  assert.equal(readFileSync(appPath(), "utf8"), "def add(a, b):\n    return a + b  # the sum\n");

  const message = frame.locator(".message.user", { hasText: "Comment the sum" }).first();
  await message.locator(".rewind-control").waitFor({ state: "attached", timeout: 30_000 });
  await message.hover();
  await message.locator(".rewind-control").click();
  await cs.page.locator(".quick-input-widget", { hasText: "Rewind to before “Comment the sum" }).waitFor({ timeout: 30_000 });
  assert.match(await cs.page.locator(".quick-input-widget input").getAttribute("placeholder") ?? "", /app\.py · ran: touch built\.txt/);
  await cs.page.mouse.move(900, 700);
  const choices = path.join(REPO_ROOT, "docs", "screenshots", "rewind-choices-dark.png");
  await cs.page.screenshot({ path: choices });
  shots.push(choices);
  await cs.pickRow("Restore code and conversation");

  // The preview: the file against what it gets back, and the modal asking first.
  await cs.page.locator(".tabs-container .tab", { hasText: "app.py: now ↔ after the rewind" }).first().waitFor({ timeout: 30_000 });
  await cs.page.locator(".editor-instance .monaco-diff-editor").first().waitFor();
  const dialog = cs.page.locator(".monaco-dialog-box");
  await dialog.waitFor({ timeout: 30_000 });
  const said = await dialog.innerText();
  assert.match(said, /Rewind code and conversation to before “Comment the sum in app\.py and build”\?/);
  assert.match(said, /Restores: app\.py/);
  assert.match(said, /Does not undo what these shell commands may have changed: touch built\.txt/);
  assert.equal(readFileSync(appPath(), "utf8").includes("# the sum"), true, "nothing changes before the user confirms");
  await cs.page.mouse.move(900, 700);
  await cs.page.waitForTimeout(400);
  const preview = path.join(REPO_ROOT, "docs", "screenshots", "rewind-preview-dark.png");
  await cs.page.screenshot({ path: preview });
  shots.push(preview);
  await dialog.getByRole("button", { name: "Rewind", exact: true }).click();

  // The file on disk, the chat as it now stands, the prompt back in the box.
  const deadline = Date.now() + 30_000;
  while (readFileSync(appPath(), "utf8") !== APP) {
    assert.ok(Date.now() < deadline, `app.py is not restored: ${readFileSync(appPath(), "utf8")}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  await frame.locator(".notice", { hasText: /Rewound to before “Comment the sum/ }).waitFor({ timeout: 30_000 });
  assert.match(await frame.locator(".notice").last().innerText(), /the conversation, 1 file restored\. Not undone: touch built\.txt/);
  assert.equal(await frame.locator(".message.user", { hasText: "Comment the sum" }).count(), 0, "the rewound prompt is gone from the chat");
  await frame.locator(".message.agent", { hasText: "What shall we build?" }).waitFor();
  assert.equal(await frame.locator("#input").inputValue(), "Comment the sum in app.py and build");
  assert.equal(await cs.page.locator(".tabs-container .tab", { hasText: "after the rewind" }).count(), 0, "the preview's diff closed");
  shots.push(...(await cs.shootBoth("rewound", async (file) => {
    await frame.locator(".message.user", { hasText: "Say hello" }).first().hover();
    await cs.page.waitForTimeout(300);
    await cs.page.screenshot({ path: file });
  })));

  // The edited prompt goes on from before the rewound turn: the model never sees it.
  await fake.queue([text("app.py adds two numbers.")]);
  const input = frame.locator("#input");
  await input.fill("Explain app.py instead");
  await input.press("Enter");
  await cs.waitForAnswer("adds two numbers");
  const sent = await lastSent();
  assert.match(sent, /Say hello/);
  assert.match(sent, /Explain app\.py instead/);
  assert.doesNotMatch(sent, /Comment the sum|Commented the sum|toolu_edit1|the sum/, "the rewound turn is not in the model's view");
  assert.deepEqual(await fake.violations(), [], "every request is one the real API accepts");
});

scenario("/rewind's picker forks from a prompt: the new session holds the conversation before it, the original stays", { skip, timeout: 180_000 }, async () => {
  const frame = await cs.openChat();
  const input = frame.locator("#input");
  await input.fill("/rewind");
  await input.press("Enter");
  // Newest first: the last prompt heads the list.
  const rows = cs.page.locator(".quick-input-list .monaco-list-row");
  await rows.first().waitFor({ timeout: 30_000 });
  assert.match(await rows.first().innerText(), /Explain app\.py instead/);
  assert.match(await rows.nth(1).innerText(), /Say hello/);
  await cs.pickRow("Explain app.py instead");
  await cs.pickRow("Fork from here");

  await frame.locator(".notice", { hasText: /Forked: a new session with the conversation up to that prompt/ }).waitFor({ timeout: 30_000 });
  await frame.locator(".message.user", { hasText: "Say hello" }).waitFor();
  assert.equal(await frame.locator(".message.user", { hasText: "Explain app.py instead" }).count(), 0, "the fork stops before that prompt");
  assert.equal(await input.inputValue(), "Explain app.py instead");
  await frame.locator("#title", { hasText: "(fork)" }).waitFor({ timeout: 10_000 });

  await fake.queue([text("In the fork: it adds.")]);
  await input.fill("Explain app.py in one word");
  await input.press("Enter");
  await cs.waitForAnswer("In the fork");
  const sent = await lastSent();
  assert.match(sent, /Say hello/);
  assert.match(sent, /Explain app\.py in one word/);
  assert.doesNotMatch(sent, /Explain app\.py instead|adds two numbers/, "the fork's request holds nothing from that prompt on");

  // The original is still there, whole, under Sessions.
  await frame.locator("#sessions").click();
  const sessions = frame.locator(".session-row");
  await sessions.nth(1).waitFor({ timeout: 30_000 });
  assert.equal(await sessions.count(), 2);
  await frame.locator(".session-row:not(.current) .session-open").first().click();
  await frame.locator(".message.user", { hasText: "Explain app.py instead" }).waitFor({ timeout: 30_000 });
  await frame.locator(".message.agent", { hasText: "adds two numbers" }).waitFor();
  assert.deepEqual(await fake.violations(), [], "every request is one the real API accepts");
});
