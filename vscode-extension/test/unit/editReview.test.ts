import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";
import { EditReview, PROPOSED_SCHEME, saveEditedDocuments } from "../../src/edits/editReview";
import { editedUris, optionFor, readReview } from "../../src/edits/reviewModel";
import type { PermissionOption, RequestPermissionParams } from "../../src/shared/protocol";
import * as vscode from "../mocks/vscode";
import { harness, started, tick } from "./harness";

beforeEach(() => {
  vscode.__recorded.reset();
  vscode.window.tabGroups.all = [];
});

// The options wire.md gives an edit and ExitPlanMode.
const EDIT_OPTIONS: PermissionOption[] = [
  { optionId: "allow_once", name: "Accept", kind: "allow_once" },
  { optionId: "allow_turn", name: "Accept all edits this turn", kind: "allow_always" },
  { optionId: "reject_once", name: "Reject", kind: "reject_once" },
];
const PLAN_OPTIONS: PermissionOption[] = [
  { optionId: "accept_edits", name: "Yes, and accept edits", kind: "allow_once" },
  { optionId: "default", name: "Yes, ask before edits", kind: "allow_once" },
  { optionId: "reject_once", name: "No, keep planning", kind: "reject_once" },
];

function editRequest(oldText: string | null = "a = 1\n"): RequestPermissionParams {
  return {
    sessionId: "s-1",
    toolCall: {
      toolCallId: "t1",
      title: "Edit app.py",
      kind: "edit",
      locations: [{ path: "/work/proj/app.py" }],
      content: [{ type: "diff", path: "/work/proj/app.py", oldText, newText: "a = 2\n" }],
    },
    options: EDIT_OPTIONS,
  };
}

test("readReview tells an edit's diff, a plan and anything else apart", () => {
  const edit = readReview(editRequest());
  assert.equal(edit.kind, "edit");
  assert.deepEqual(edit.kind === "edit" && edit.diff, { type: "diff", path: "/work/proj/app.py", oldText: "a = 1\n", newText: "a = 2\n" });
  const created = readReview(editRequest(null));
  assert.equal(created.kind === "edit" && created.diff.oldText, null, "a new file has no old text");
  const plan = readReview({
    sessionId: "s-1",
    toolCall: { kind: "switch_mode", title: "Leave plan mode?", content: [{ type: "content", content: { type: "text", text: "# Plan\n1. do it" } }] },
    options: PLAN_OPTIONS,
  });
  assert.deepEqual(plan, { kind: "plan", plan: "# Plan\n1. do it", options: PLAN_OPTIONS });
  assert.equal(readReview({ sessionId: "s-1", toolCall: { kind: "execute", title: "npm test" }, options: [] }).kind, "other");
});

test("optionFor picks the wire's option ids, then falls back to the kinds", () => {
  assert.equal(optionFor(EDIT_OPTIONS, "accept"), "allow_once");
  assert.equal(optionFor(EDIT_OPTIONS, "acceptAll"), "allow_turn");
  assert.equal(optionFor(EDIT_OPTIONS, "reject"), "reject_once");
  const bash: PermissionOption[] = [
    { optionId: "yes", name: "Yes", kind: "allow_once" },
    { optionId: "always", name: "Always", kind: "allow_always" },
  ];
  assert.equal(optionFor(bash, "acceptAll"), "always");
  assert.equal(optionFor(bash, "reject"), undefined);
});

test("editedUris lists what an LSP WorkspaceEdit touched", () => {
  assert.deepEqual(editedUris({ changes: { "file:///a.py": [] } }), ["file:///a.py"]);
  assert.deepEqual(
    editedUris({
      documentChanges: [
        { kind: "create", uri: "file:///new.py" },
        { textDocument: { uri: "file:///new.py", version: null }, edits: [] },
        { textDocument: { uri: "file:///b.py", version: 3 }, edits: [] },
      ],
    }),
    ["file:///new.py", "file:///b.py"],
  );
  assert.deepEqual(editedUris(null), []);
});

test("an edit request opens the diff editor; Accept answers allow_once and closes it", async () => {
  const t = harness({ "session/new": () => started() });
  const review = new EditReview({ answer: (id, o) => t.controller.answer(id, o), log: () => undefined });
  await t.controller.setConnection("running", t.port);
  await t.controller.newSession();
  const answered = t.controller.requestPermission(editRequest());
  const [requestId, params] = t.hooks("permissionShown")[0] as [number, RequestPermissionParams];
  assert.equal(t.posted("permission").length, 1, "the panel shows its card as well");
  await review.shown(requestId, params);

  const diff = vscode.__recorded.commands.find((c) => c.id === "vscode.diff")!;
  const [left, right, title] = diff.args as [vscode.Uri, vscode.Uri, string];
  assert.equal(left.scheme, PROPOSED_SCHEME);
  assert.equal(right.path, "/work/proj/app.py");
  assert.equal(review.provideTextDocumentContent(left as never), "a = 1\n");
  assert.equal(review.provideTextDocumentContent(right as never), "a = 2\n");
  assert.match(title, /app\.py/);
  assert.ok(vscode.__recorded.commands.some((c) => c.id === "setContext" && c.args[0] === "contextSidecar.reviewingEdit" && c.args[1] === true));

  await review.answerActive("accept", right as never);
  assert.deepEqual(await answered, { outcome: { outcome: "selected", optionId: "allow_once" } });
  assert.deepEqual(t.posted("permissionDone").at(-1), { type: "permissionDone", requestId, optionId: "allow_once" });
  assert.equal(vscode.__recorded.closedTabs.length, 1, "the diff tab closes");
  assert.ok(vscode.__recorded.commands.some((c) => c.id === "setContext" && c.args[1] === false));
});

test("Reject and Accept all answer with their options; an answer from the panel closes the diff", async () => {
  const t = harness({ "session/new": () => started() });
  const review = new EditReview({ answer: (id, o) => t.controller.answer(id, o), log: () => undefined });
  t.controller["hooks"].permissionDone = (id: number) => void review.done(id);
  await t.controller.setConnection("running", t.port);
  await t.controller.newSession();

  const first = t.controller.requestPermission(editRequest());
  await review.shown(...(t.hooks("permissionShown")[0] as [number, RequestPermissionParams]));
  vscode.__recorded.inputs.push(undefined); // Escape: a rejection without a reason
  await review.answerActive("reject");
  assert.deepEqual(await first, { outcome: { outcome: "selected", optionId: "reject_once" } });
  assert.match(String(vscode.__recorded.inputBoxes[0]!.options.prompt), /Tell the model why \(optional\)/);

  const second = t.controller.requestPermission(editRequest());
  await review.shown(...(t.hooks("permissionShown")[1] as [number, RequestPermissionParams]));
  await review.answerActive("acceptAll");
  assert.deepEqual(await second, { outcome: { outcome: "selected", optionId: "allow_turn" } });

  const third = t.controller.requestPermission(editRequest());
  const [id3, p3] = t.hooks("permissionShown")[2] as [number, RequestPermissionParams];
  await review.shown(id3, p3);
  const closedBefore = vscode.__recorded.closedTabs.length;
  await t.send({ type: "ready" });
  await t.send({ type: "permissionAnswer", requestId: id3, optionId: "allow_once" });
  assert.deepEqual(await third, { outcome: { outcome: "selected", optionId: "allow_once" } });
  await tick();
  assert.equal(vscode.__recorded.closedTabs.length, closedBefore + 1, "the panel's answer closes the diff editor");
  assert.equal(t.controller.answer(id3, "reject_once"), false, "a second answer is ignored");
});

test("leaving plan mode shows the plan and its three options", async () => {
  const t = harness({ "session/new": () => started() });
  const review = new EditReview({ answer: (id, o) => t.controller.answer(id, o), log: () => undefined });
  await t.controller.setConnection("running", t.port);
  await t.controller.newSession();
  vscode.__recorded.answers.push("Yes, and accept edits");
  const answered = t.controller.requestPermission({
    sessionId: "s-1",
    toolCall: { kind: "switch_mode", title: "Leave plan mode?", content: [{ type: "content", content: { type: "text", text: "# Plan\n1. edit app.py" } }] },
    options: PLAN_OPTIONS,
  });
  await review.shown(...(t.hooks("permissionShown")[0] as [number, RequestPermissionParams]));
  const preview = vscode.__recorded.commands.find((c) => c.id === "markdown.showPreview")!;
  assert.equal(review.provideTextDocumentContent(preview.args[0] as never), "# Plan\n1. edit app.py");
  const note = vscode.__recorded.messages.at(-1)!;
  assert.deepEqual(note.items, ["Yes, and accept edits", "Yes, ask before edits", "No, keep planning"]);
  assert.deepEqual(await answered, { outcome: { outcome: "selected", optionId: "accept_edits" } });
  assert.equal(vscode.__recorded.inputBoxes.length, 0, "only a rejection asks why");
});

test("Reject in the diff editor asks why and sends what the user typed", async () => {
  const t = harness({ "session/new": () => started() });
  const review = new EditReview({ answer: (id, o, r) => t.controller.answer(id, o, r), log: () => undefined });
  await t.controller.setConnection("running", t.port);
  await t.controller.newSession();
  const answered = t.controller.requestPermission(editRequest());
  const [requestId, params] = t.hooks("permissionShown")[0] as [number, RequestPermissionParams];
  await review.shown(requestId, params);
  vscode.__recorded.inputs.push("  Keep a = 1; change b instead.  ");
  await review.answerActive("reject");
  assert.deepEqual(await answered, { outcome: { outcome: "selected", optionId: "reject_once", _meta: { sidecar: { reason: "Keep a = 1; change b instead." } } } });
  assert.deepEqual(t.posted("permissionDone").at(-1), { type: "permissionDone", requestId, optionId: "reject_once", reason: "Keep a = 1; change b instead." });
  assert.equal(vscode.__recorded.inputBoxes[0]!.options.ignoreFocusOut, true);
});

test("an answer from the panel while the reason box is open wins, and closes the box", async () => {
  const t = harness({ "session/new": () => started() });
  const review = new EditReview({ answer: (id, o, r) => t.controller.answer(id, o, r), log: () => undefined });
  t.controller["hooks"].permissionDone = (id: number) => void review.done(id);
  await t.controller.setConnection("running", t.port);
  await t.controller.newSession();
  const answered = t.controller.requestPermission(editRequest());
  const [requestId, params] = t.hooks("permissionShown")[0] as [number, RequestPermissionParams];
  await review.shown(requestId, params);
  let typed!: (text: string | undefined) => void;
  const original = vscode.window.showInputBox;
  vscode.window.showInputBox = async (options, token) => {
    vscode.__recorded.inputBoxes.push({ options, token });
    return new Promise((resolve) => (typed = resolve));
  };
  try {
    const rejecting = review.answerActive("reject");
    await tick();
    await t.send({ type: "ready" });
    await t.send({ type: "permissionAnswer", requestId, optionId: "allow_once" });
    assert.equal(vscode.__recorded.inputBoxes[0]!.token?.isCancellationRequested, true, "the box is closed");
    typed(undefined);
    await rejecting;
  } finally {
    vscode.window.showInputBox = original;
  }
  assert.deepEqual(await answered, { outcome: { outcome: "selected", optionId: "allow_once" } });
});

test("No, keep planning asks what to change and sends it as the plan's feedback", async () => {
  const t = harness({ "session/new": () => started() });
  const review = new EditReview({ answer: (id, o, r) => t.controller.answer(id, o, r), log: () => undefined });
  await t.controller.setConnection("running", t.port);
  await t.controller.newSession();
  vscode.__recorded.answers.push("No, keep planning");
  vscode.__recorded.inputs.push("Write the test first.");
  const answered = t.controller.requestPermission({
    sessionId: "s-1",
    toolCall: { kind: "switch_mode", title: "Leave plan mode?", content: [{ type: "content", content: { type: "text", text: "# Plan" } }] },
    options: PLAN_OPTIONS,
  });
  await review.shown(...(t.hooks("permissionShown")[0] as [number, RequestPermissionParams]));
  assert.deepEqual(await answered, { outcome: { outcome: "selected", optionId: "reject_once", _meta: { sidecar: { reason: "Write the test first." } } } });
  assert.match(String(vscode.__recorded.inputBoxes[0]!.options.prompt), /what to change in the plan/);
});

test("an applied edit is saved; a clean document is left alone", async () => {
  const saved: string[] = [];
  const doc = (uri: string, isDirty: boolean) => ({ uri: vscode.Uri.parse(uri), isDirty, save: async () => (saved.push(uri), true) });
  vscode.workspace.textDocuments = [doc("file:///w/a.py", true), doc("file:///w/b.py", false)];
  const logs: string[] = [];
  await saveEditedDocuments(["file:///w/a.py", "file:///w/b.py", "file:///w/gone.py"], (l) => logs.push(l));
  assert.deepEqual(saved, ["file:///w/a.py"]);
  assert.equal(logs.length, 1, "a document that cannot be opened is logged, not thrown");
  vscode.workspace.textDocuments = [];
});
