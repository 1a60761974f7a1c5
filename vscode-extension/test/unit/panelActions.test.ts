// What the host does with the panel's actions: code blocks into the editor, opening files,
// the Context view, deleting and renaming sessions.
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";
import { ApplyChoices, PROPOSED_CODE_SCHEME, ProposedCode, applyCode, copyCode, insertCode, openFile, resolvePath } from "../../src/editor/codeActions";
import * as vscode from "../mocks/vscode";
import { harness, started } from "./harness";

const FILE = vscode.Uri.file("/work/proj/src/app.py");

beforeEach(() => {
  vscode.__recorded.reset();
  vscode.window.activeTextEditor = undefined;
  vscode.window.visibleTextEditors = [];
  vscode.window.shown = [];
  vscode.window.__missing.clear();
  vscode.window.tabGroups.all = [];
  vscode.workspace.__applied = [];
  vscode.workspace.__applyResult = true;
});

test("copyCode puts the block's text on the clipboard", async () => {
  await copyCode("print('hi')\n");
  assert.equal(await vscode.env.clipboard.readText(), "print('hi')\n");
});

test("insertCode inserts at the cursor of the active editor, and says so when there is none", async () => {
  const cursor = new vscode.Position(3, 4);
  const editor = vscode.__editor(FILE, "a\nb\nc\nd = 1\n", new vscode.Selection(new vscode.Position(1, 0), cursor));
  vscode.window.activeTextEditor = editor;
  assert.equal(await insertCode("x = 2\n"), true);
  assert.deepEqual(editor.edits, [{ op: "insert", at: cursor, text: "x = 2\n" }], "at the cursor, the selection left alone");

  vscode.window.activeTextEditor = undefined;
  assert.equal(await insertCode("x = 2\n"), false);
  assert.match(vscode.__recorded.messages.at(-1)!.text, /open a file to insert/);
});

test("insertCode goes to the visible file editor when the chat has focus, never to a read-only view", async () => {
  const view = vscode.__editor(vscode.Uri.from({ scheme: "context-sidecar", path: "/context.md" }), "");
  const file = vscode.__editor(FILE, "a\n");
  vscode.window.activeTextEditor = view;
  vscode.window.visibleTextEditors = [view, file];
  assert.equal(await insertCode("b\n"), true);
  assert.equal(view.edits.length, 0);
  assert.equal(file.edits.length, 1);
});

test("applyCode replaces the selection when there is one", async () => {
  const selection = new vscode.Selection(new vscode.Position(0, 0), new vscode.Position(1, 0));
  const editor = vscode.__editor(FILE, "a = 1\nb = 2\n", selection);
  vscode.window.activeTextEditor = editor;
  assert.equal(await applyCode("a = 10\n", new ProposedCode()), "replaced");
  assert.deepEqual(editor.edits, [{ op: "replace", at: selection, text: "a = 10\n" }]);
  assert.equal(vscode.__recorded.commands.length, 0, "no diff for a selection");
});

test("applyCode without a selection shows a diff of the file and changes it only when accepted", async () => {
  const editor = vscode.__editor(FILE, "a = 1\nb = 2\n");
  vscode.window.activeTextEditor = editor;
  const proposed = new ProposedCode();
  let shownText: string | undefined;
  const original = vscode.commands.executeCommand;
  vscode.commands.executeCommand = async (id: string, ...args: unknown[]) => {
    // What the diff's right side shows while it is open.
    if (id === "vscode.diff") shownText = proposed.provideTextDocumentContent(args[1] as never);
    return original(id, ...args);
  };
  try {
    vscode.__recorded.answers.push(ApplyChoices.accept);
    assert.equal(await applyCode("a = 1\nb = 3\n", proposed), "accepted");
    const diff = vscode.__recorded.commands.find((c) => c.id === "vscode.diff")!;
    assert.equal((diff.args[0] as vscode.Uri).toString(), FILE.toString(), "the file on the left");
    assert.equal((diff.args[1] as vscode.Uri).scheme, PROPOSED_CODE_SCHEME, "the block on the right");
    assert.equal(shownText, "a = 1\nb = 3\n");
    const [edit] = vscode.workspace.__applied;
    assert.equal(edit.replaced.length, 1);
    const { uri, range, text } = edit.replaced[0];
    assert.equal(uri.toString(), FILE.toString());
    assert.deepEqual([range.start, range.end], [new vscode.Position(0, 0), new vscode.Position(2, 0)], "the whole file");
    assert.equal(text, "a = 1\nb = 3\n");
    assert.equal(vscode.window.tabGroups.all[0].tabs.length, 0, "the diff is closed");
    assert.equal(proposed.provideTextDocumentContent(diff.args[1] as never), "", "the proposal is forgotten");

    vscode.__recorded.answers.push(ApplyChoices.discard);
    assert.equal(await applyCode("nothing\n", proposed), "discarded");
    assert.equal(vscode.workspace.__applied.length, 1, "a discarded block changes nothing");
    assert.equal(editor.edits.length, 0);
    assert.equal(vscode.window.tabGroups.all[0].tabs.length, 0);
  } finally {
    vscode.commands.executeCommand = original;
  }
});

test("applyCode with no editor open says so", async () => {
  assert.equal(await applyCode("x", new ProposedCode()), "noEditor");
  assert.match(vscode.__recorded.messages.at(-1)!.text, /open a file to apply/);
});

test("openFile opens at the 1-based line; relative paths are the workspace's", async () => {
  assert.equal(await openFile("src/app.py", 12, "/work/proj"), true);
  assert.equal(await openFile("/abs/lib.py", undefined, "/work/proj"), true);
  const [rel, abs] = vscode.window.shown;
  assert.equal(rel.uri.toString(), "file:///work/proj/src/app.py");
  const at = (rel.options as { selection: vscode.Range }).selection;
  assert.deepEqual([at.start.line, at.start.character], [11, 0]);
  assert.equal(abs.uri.toString(), "file:///abs/lib.py");
  assert.equal((abs.options as { selection: vscode.Range }).selection.start.line, 0);
  assert.equal(resolvePath("file:///x/y.ts", undefined)?.toString(), "file:///x/y.ts");
  assert.equal(resolvePath("y.ts", undefined), undefined);

  vscode.window.__missing.add("file:///work/proj/gone.py");
  assert.equal(await openFile("gone.py", 1, "/work/proj"), false);
  assert.match(vscode.__recorded.messages.at(-1)!.text, /cannot open gone\.py/);
  assert.equal(await openFile("rel.py", 1, undefined), false);
  assert.match(vscode.__recorded.messages.at(-1)!.text, /no workspace folder/);
});

test("the controller hands code blocks and file links to the host", async () => {
  const t = harness({});
  await t.send({ type: "ready" });
  await t.send({ type: "copyCode", text: "a" });
  await t.send({ type: "insertCode", text: "b", language: "python" });
  await t.send({ type: "applyCode", text: "c" });
  await t.send({ type: "openFile", path: "src/app.py", line: 3 });
  assert.deepEqual(t.hooks("hostRequest").map(([m]) => (m as { type: string }).type), ["copyCode", "insertCode", "applyCode", "openFile"]);
});

const CONTEXT = { gauge: { sessionId: "s-1", used: 10 }, prefix: { parts: { system: 5 } }, fileReadState: [], messages: [] };

test("requestContext answers with the focused session's sidecar/context", async () => {
  const t = harness({ "session/new": () => started(), "sidecar/context": () => CONTEXT });
  await t.controller.setConnection("running", t.port);
  await t.send({ type: "ready" });
  await t.send({ type: "requestContext" });
  assert.match(t.posted("error").at(-1)!.message, /No session yet/);
  assert.equal(t.port.methods().includes("sidecar/context"), false);

  await t.controller.newSession();
  await t.send({ type: "requestContext" });
  assert.deepEqual(t.port.requests.at(-1), { method: "sidecar/context", params: { sessionId: "s-1" } });
  assert.deepEqual(t.posted("context").at(-1)!.view, CONTEXT);
});

const LISTED = { sessions: [{ sessionId: "s-2", title: "Other" }] };

test("deleteSession deletes another session, then posts a fresh list", async () => {
  const t = harness({ "session/new": () => started(), "session/delete": () => ({}), "session/list": () => LISTED });
  await t.controller.setConnection("running", t.port);
  await t.send({ type: "ready" });
  await t.controller.newSession();
  await t.send({ type: "deleteSession", sessionId: "s-9" });
  assert.deepEqual(t.port.requests.slice(-2), [
    { method: "session/delete", params: { sessionId: "s-9" } },
    { method: "session/list", params: { cwd: "/work/proj" } },
  ]);
  assert.deepEqual(t.posted("sessions").at(-1)!.sessions, LISTED.sessions);
  assert.equal(t.controller.currentSessionId, "s-1", "the open session stays");
});

test("the open session is deleted only when the user confirms, and the chat is cleared", async () => {
  const asked: (string | null)[] = [];
  let answer = false;
  const t = harness(
    { "session/new": () => started(), "session/delete": () => ({}), "session/list": () => LISTED, "session/set_title": () => ({}) },
    { confirmDeleteCurrent: async (title) => (asked.push(title), answer) },
  );
  await t.controller.setConnection("running", t.port);
  await t.send({ type: "ready" });
  await t.controller.newSession();
  await t.controller.renameSession("s-1", "Mine");

  await t.send({ type: "deleteSession", sessionId: "s-1" });
  assert.deepEqual(asked, ["Mine"]);
  assert.equal(t.port.methods().includes("session/delete"), false, "not confirmed: nothing is deleted");
  assert.equal(t.controller.currentSessionId, "s-1");
  assert.match(t.posted("notice").at(-1)!.text, /not deleted/);
  assert.equal(t.port.methods().at(-1), "session/list", "the list comes back as it was");

  answer = true;
  t.posts.length = 0;
  await t.send({ type: "deleteSession", sessionId: "s-1" });
  assert.deepEqual(t.port.requests.slice(-2).map((r) => r.method), ["session/delete", "session/list"]);
  assert.equal(t.controller.currentSessionId, null);
  assert.equal(t.posted("reset").length, 1, "the chat is cleared");
  assert.equal(t.posted("state").at(-1)!.sessionId, null);
});

test("without a way to confirm, the open session is not deleted", async () => {
  const t = harness({ "session/new": () => started(), "session/delete": () => ({}), "session/list": () => LISTED });
  await t.controller.setConnection("running", t.port);
  await t.send({ type: "ready" });
  await t.controller.newSession();
  assert.equal(await t.controller.deleteSession("s-1"), false);
  assert.equal(t.port.methods().includes("session/delete"), false);
});

test("deleting an open session that was never stored still clears the chat", async () => {
  const notFound = () => {
    throw Object.assign(new Error("Unknown session 's-1'"), { code: -33001 });
  };
  const t = harness(
    { "session/new": () => started(), "session/delete": notFound, "session/list": () => ({ sessions: [] }) },
    { confirmDeleteCurrent: async () => true },
  );
  await t.controller.setConnection("running", t.port);
  await t.send({ type: "ready" });
  await t.controller.newSession();
  assert.equal(await t.controller.deleteSession("s-1"), true);
  assert.equal(t.controller.currentSessionId, null);
  assert.equal(t.posted("error").length, 0);
});

test("renameSession sets the title with session/set_title, then posts a fresh list", async () => {
  const t = harness({ "session/new": () => started(), "session/set_title": () => ({}), "session/list": () => LISTED });
  await t.controller.setConnection("running", t.port);
  await t.send({ type: "ready" });
  await t.controller.newSession();
  await t.send({ type: "renameSession", sessionId: "s-2", title: "  Other work " });
  assert.deepEqual(t.port.requests.slice(-2), [
    { method: "session/set_title", params: { sessionId: "s-2", title: "Other work" } },
    { method: "session/list", params: { cwd: "/work/proj" } },
  ]);
  assert.notEqual(t.posted("state").at(-1)!.title, "Other work", "another session's title is not the open one's");

  await t.send({ type: "renameSession", sessionId: "s-1", title: "Mine" });
  assert.equal(t.posted("state").at(-1)!.title, "Mine", "the open session's title changes at once");

  const before = t.port.requests.length;
  await t.send({ type: "renameSession", sessionId: "s-1", title: "   " });
  assert.match(t.posted("error").at(-1)!.message, /cannot be empty/);
  assert.deepEqual(t.port.requests.slice(before).map((r) => r.method), ["session/list"]);
});

test("a refused rename shows the sidecar's error and the list as it is", async () => {
  const refuse = () => {
    throw Object.assign(new Error("Unknown session 'gone'"), { code: -33001 });
  };
  const t = harness({ "session/set_title": refuse, "session/list": () => LISTED });
  await t.controller.setConnection("running", t.port);
  await t.send({ type: "ready" });
  assert.equal(await t.controller.renameSession("gone", "x"), false);
  assert.match(t.posted("error").at(-1)!.message, /Unknown session/);
  assert.deepEqual(t.posted("sessions").at(-1)!.sessions, LISTED.sessions);
});
