import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "node:test";
import { mentionedFiles, mentionedPaths } from "../../src/chat/mentions";
import { harness, started } from "./harness";

function workspace(): { root: string; outside: string } {
  const base = mkdtempSync(path.join(tmpdir(), "mentions-"));
  const root = path.join(base, "ws");
  mkdirSync(path.join(root, "src"), { recursive: true });
  writeFileSync(path.join(root, "notes.txt"), "the notes\n");
  writeFileSync(path.join(root, "src", "my file.ts"), "x\n");
  writeFileSync(path.join(base, "secret.txt"), "secret\n");
  symlinkSync(path.join(base, "secret.txt"), path.join(root, "link.txt"));
  return { root, outside: base };
}

test("mentions are @ words at a word's start, without the sentence's punctuation", () => {
  assert.deepEqual(mentionedPaths("Summarize @notes.txt, then @src/my\\ file.ts. Mail a@b.com"),
    ["notes.txt", "src/my file.ts"]);
});

test("only regular files inside the workspace become attachments", async () => {
  const { root } = workspace();
  const files = await mentionedFiles("Read @notes.txt and @src/my\\ file.ts, not @missing.txt, @../secret.txt, @link.txt or @src", root);
  assert.deepEqual(files, [
    { uri: pathToFileURL(path.join(root, "notes.txt")).href, label: "notes.txt" },
    { uri: pathToFileURL(path.join(root, "src", "my file.ts")).href, label: path.join("src", "my file.ts") },
  ]);
});

test("a mentioned file reaches the sidecar as a resource_link beside the text", async () => {
  const { root } = workspace();
  const t = harness({ "session/new": () => started(), "session/prompt": () => ({ stopReason: "end_turn" }) }, {}, {}, () => root);
  await t.controller.setConnection("running", t.port);
  await t.send({ type: "ready" });
  await t.send({ type: "prompt", text: "Summarize @notes.txt" });
  const prompt = t.port.requests.find((r) => r.method === "session/prompt")!.params.prompt;
  assert.deepEqual(prompt, [
    { type: "text", text: "Summarize @notes.txt" },
    { type: "resource_link", uri: pathToFileURL(path.join(root, "notes.txt")).href, name: "notes.txt" },
  ]);
});
