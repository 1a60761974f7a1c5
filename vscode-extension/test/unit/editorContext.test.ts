import assert from "node:assert/strict";
import { test } from "node:test";
import { promptBlocks, selectionUri } from "../../src/chat/promptBlocks";
import { findWorkspaceFiles } from "../../src/editor/editorContext";
import { fileScore, queryGlob, rankFiles } from "../../src/editor/fileRank";
import * as vscode from "../mocks/vscode";
import { harness, started } from "./harness";

const FILE = { kind: "file" as const, uri: "file:///work/proj/src/app.ts", label: "src/app.ts" };
const SELECTION = { kind: "selection" as const, uri: "file:///work/proj/src/app.ts", label: "src/app.ts:3-4", text: "const a = 1;\nconst b = 2;", lines: [3, 4] as [number, number] };

test("a prompt carries the text, a file as resource_link and a selection as resource (docs/protocol.md)", () => {
  assert.deepEqual(promptBlocks("explain", [{ id: 1, ...FILE }, { id: 2, ...SELECTION }], []), [
    { type: "text", text: "explain" },
    { type: "resource_link", uri: "file:///work/proj/src/app.ts", name: "src/app.ts" },
    { type: "resource", resource: { uri: "file:///work/proj/src/app.ts#L3-4", text: "const a = 1;\nconst b = 2;" } },
  ]);
  assert.equal(selectionUri("file:///a.ts", [7, 7]), "file:///a.ts#L7");
  const editor = [{ type: "resource_link" as const, uri: "file:///work/proj/src/app.ts", name: "src/app.ts" }];
  assert.equal(promptBlocks("x", [{ id: 1, ...FILE }], editor).length, 2, "the active file is not sent twice");
});

test("Add to Chat attaches context the next prompt sends, then clears; chips can be removed", async () => {
  const t = harness({ "session/new": () => started(), "session/prompt": () => ({ stopReason: "end_turn" }) });
  await t.controller.setConnection("running", t.port);
  await t.send({ type: "ready" });
  const file = t.controller.addAttachment(FILE);
  t.controller.addAttachment(FILE);
  const sel = t.controller.addAttachment(SELECTION);
  assert.equal(t.controller.pendingAttachments.length, 2, "the same file is attached once");
  assert.deepEqual(t.posted("attachments").at(-1)!.items.map((a) => a.label), ["src/app.ts", "src/app.ts:3-4"]);
  await t.send({ type: "removeAttachment", id: file.id });
  assert.deepEqual(t.controller.pendingAttachments.map((a) => a.id), [sel.id]);
  await t.controller.prompt("what does this do?");
  const prompt = t.port.requests.find((r) => r.method === "session/prompt")!.params.prompt;
  assert.deepEqual(prompt, [
    { type: "text", text: "what does this do?" },
    { type: "resource", resource: { uri: "file:///work/proj/src/app.ts#L3-4", text: "const a = 1;\nconst b = 2;" } },
  ]);
  assert.deepEqual(t.posted("attachments").at(-1)!.items, [], "sent context is cleared");
  // The sent message keeps the chip of what went with it.
  assert.deepEqual(t.posted("userPrompt").at(-1), {
    type: "userPrompt", text: "what does this do?", attachments: [{ kind: "selection", label: "src/app.ts:3-4" }],
  });
});

test("with includeActiveEditor the editor's blocks ride along", async () => {
  const active = [{ type: "resource_link" as const, uri: "file:///work/proj/main.py", name: "main.py" }];
  const t = harness({ "session/new": () => started(), "session/prompt": () => ({ stopReason: "end_turn" }) }, { editorContext: () => active });
  await t.controller.setConnection("running", t.port);
  await t.controller.prompt("hi");
  assert.deepEqual(t.port.requests.at(-1)!.params.prompt, [{ type: "text", text: "hi" }, ...active]);
});

test("@ completion: the webview asks, the host searches the workspace and ranks file names first", async () => {
  assert.ok(fileScore("src/controller.ts", "contr") > fileScore("src/contrib/x.ts", "contr"));
  assert.ok(fileScore("src/controller.ts", "ctrl") > 0, "subsequences match");
  assert.equal(fileScore("README.md", "zzz"), 0);
  assert.deepEqual(rankFiles(["docs/app.md", "src/app.ts", "src/apple/x.ts", "lib/zz.ts"], "app"), ["src/app.ts", "docs/app.md", "src/apple/x.ts"]);
  assert.equal(queryGlob("@ctl"), "**/*[cC]*[tT]*[lL]*");
  assert.equal(queryGlob("src/Re.md"), "**/*[rR]*[eE]*.*[mM]*[dD]*", "either case: README.md matches 'readme'");
  assert.equal(queryGlob(""), "**/*");

  vscode.workspace.workspaceFolders = [{ uri: vscode.Uri.file("/work/proj"), name: "proj", index: 0 }];
  vscode.workspace.__files = ["/work/proj/src/app.ts", "/work/proj/docs/app.md", "/work/proj/README.md"];
  assert.deepEqual(await findWorkspaceFiles("app"), [
    { path: "src/app.ts", uri: "file:///work/proj/src/app.ts" },
    { path: "docs/app.md", uri: "file:///work/proj/docs/app.md" },
  ]);
  vscode.workspace.workspaceFolders = undefined;

  const t = harness({});
  await t.send({ type: "ready" });
  await t.send({ type: "fileQuery", requestId: 7, query: "app" });
  assert.deepEqual(t.hooks("hostRequest"), [[{ type: "fileQuery", requestId: 7, query: "app", seq: 2 }]]);
});

test("/ completion: the commands the sidecar announced are sent again to a reloaded panel", async () => {
  const t = harness({ "session/new": () => started() });
  await t.controller.setConnection("running", t.port);
  await t.controller.newSession();
  const commands = [{ name: "compact", description: "Summarize" }, { name: "plan" }];
  t.controller.onSessionUpdate({ sessionId: "s-1", update: { sessionUpdate: "available_commands_update", availableCommands: commands } });
  t.posts.length = 0;
  await t.send({ type: "ready" });
  assert.deepEqual(
    t.posted("update").map((p) => p.update),
    [{ sessionUpdate: "available_commands_update", availableCommands: commands }],
  );
});
