// Rewind and fork: the controller's calls (sidecar/checkpoints, sidecar/rewind, sidecar/fork,
// the chat shown again), /rewind and /fork typed in the box, and the VS Code flow around them
// (the checkpoint picker, the choice of what to do, the preview's diffs and the modal).

import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";
import { ConfirmChoices, REWIND_SCHEME, RewindFlow } from "../../src/rewind/rewindFlow";
import { checkpointItems, parseRewindArgs, previewPlan, rewindNotice } from "../../src/rewind/rewindModel";
import { parseWebviewMessage } from "../../src/shared/messages";
import type { Checkpoint, Rewound } from "../../src/shared/protocol";
import * as vscode from "../mocks/vscode";
import { gauge } from "./fixtures";
import { harness, started, tick, type Handler } from "./harness";

beforeEach(() => {
  vscode.__recorded.reset();
  vscode.window.tabGroups.all = [];
  vscode.workspace.workspaceFolders = [{ uri: vscode.Uri.file("/work/proj"), name: "proj", index: 0 }];
});

const CHECKPOINTS: Checkpoint[] = [
  { checkpointId: "cp-1", prompt: "Add a docstring to add()", at: "2026-12-01T10:00:00Z", used: 3_000, files: [{ path: "/work/proj/app.py", created: false }], commands: [] },
  { checkpointId: "cp-2", prompt: "Write tests\nfor add and sub", at: "2026-12-01T10:05:00Z", used: 5_000,
    files: [{ path: "/work/proj/app.py", created: false }, { path: "/work/proj/test_app.py", created: true }], commands: ["pip install pytest"] },
];

const preview = (over: Partial<Rewound> = {}): Rewound => ({
  restore: "both",
  conversation: false,
  files: [
    { path: "/work/proj/app.py", action: "restore", oldText: "def add(a, b):\n    return a + b  # sum\n", newText: "def add(a, b):\n    return a + b\n" },
    { path: "/work/proj/test_app.py", action: "delete", oldText: "def test_add(): ...\n", newText: null },
    { path: "/work/proj/README.md", action: "unchanged", oldText: "# demo\n", newText: "# demo\n" },
  ],
  commands: ["pip install pytest"],
  prompt: "Write tests\nfor add and sub",
  gauge: gauge({ used: 3_000 }),
  ...over,
});

/** A controller on a session with two checkpoints, the sidecar scripted by `extra`. */
async function session(extra: Record<string, Handler> = {}, hooks = {}) {
  const t = harness({
    "session/new": () => started(),
    "session/load": ({ sessionId }) => started(sessionId, { gauge: gauge({ sessionId, seq: 9, used: 3_000 }) }),
    "sidecar/checkpoints": () => ({ checkpoints: CHECKPOINTS }),
    "sidecar/rewind": (p) => preview({ restore: p.restore, conversation: !p.preview && p.restore !== "code" }),
    "sidecar/fork": () => started("s-fork"),
    ...extra,
  }, hooks);
  await t.controller.setConnection("running", t.port);
  await t.controller.newSession();
  return t;
}

test("a prompt's answer names its checkpoint: the panel gets it before the turn ends", async () => {
  const t = await session({ "session/prompt": () => ({ stopReason: "end_turn", gauge: gauge({ seq: 2 }), checkpointId: "cp-3" }) });
  await t.controller.prompt("Rename add to plus");
  const types = t.posts.map((p) => p.type);
  assert.deepEqual(t.posted("checkpoint"), [{ type: "checkpoint", checkpointId: "cp-3" }]);
  assert.ok(types.indexOf("checkpoint") < types.indexOf("turnEnded"), types.join(","));
});

test("/rewind typed in the box opens the host's picker; without one it goes to the sidecar", async () => {
  const asked: string[] = [];
  const t = await session({ "session/prompt": () => ({ stopReason: "end_turn" }) }, { pickCheckpoint: (args: string) => asked.push(args) });
  await t.send({ type: "prompt", text: "/rewind" });
  await t.send({ type: "prompt", text: "/rewind 2 code" });
  assert.deepEqual(asked, ["", "2 code"]);
  assert.ok(!t.port.methods().includes("session/prompt"), "nothing was sent to the model");

  const plain = await session({ "session/prompt": () => ({ stopReason: "end_turn" }) });
  await plain.send({ type: "prompt", text: "/rewind" });
  assert.deepEqual(plain.port.requests.at(-1), { method: "session/prompt", params: { sessionId: "s-1", prompt: [{ type: "text", text: "/rewind" }] } });
});

test("/fork forks the whole conversation and shows the new session; /fork N forks at the N-th prompt, its text back in the box", async () => {
  const t = await session();
  await t.send({ type: "prompt", text: "/fork" });
  assert.deepEqual(t.port.requests.slice(-2), [
    { method: "sidecar/fork", params: { sessionId: "s-1" } },
    { method: "session/load", params: { sessionId: "s-fork" } },
  ]);
  assert.equal(t.controller.currentSessionId, "s-fork");
  assert.match(t.posted("notice").at(-1)!.text, /Forked: a new session with a copy of the whole conversation/);
  assert.equal(t.posted("setInput").length, 0);

  await t.send({ type: "prompt", text: "/fork 1" });
  assert.deepEqual(t.port.requests.slice(-3).map((r) => [r.method, r.params]), [
    ["sidecar/checkpoints", { sessionId: "s-fork" }],
    ["sidecar/fork", { sessionId: "s-fork", checkpointId: "cp-1" }],
    ["session/load", { sessionId: "s-fork" }],
  ]);
  assert.deepEqual(t.posted("setInput").at(-1), { type: "setInput", text: "Add a docstring to add()" });

  await t.send({ type: "prompt", text: "/fork 7" });
  assert.match(t.posted("error").at(-1)!.message, /No checkpoint 7: this conversation has 2/);
});

test("the toolbar's Fork forks; a running turn refuses rewind and fork without asking the sidecar", async () => {
  let release!: () => void;
  const t = await session({ "session/prompt": () => new Promise((r) => (release = () => r({ stopReason: "end_turn" }))) });
  const turn = t.controller.prompt("A long task");
  await tick();
  await t.send({ type: "fork" });
  assert.equal(await t.controller.rewind("cp-1", "both"), undefined);
  assert.ok(!t.port.methods().some((m) => m === "sidecar/fork" || m === "sidecar/rewind"));
  assert.match(t.posted("error").at(-1)!.message, /A turn is running/);
  release();
  await turn;
  await t.send({ type: "fork" });
  assert.equal(t.controller.currentSessionId, "s-fork");
});

test("a rewind of the conversation shows the chat again as it stands, the prompt back in the box", async () => {
  const t = await session();
  const posts = t.posts.length;
  const result = await t.controller.rewind("cp-2", "conversation");
  assert.equal(result?.conversation, true);
  assert.deepEqual(t.port.requests.slice(-2), [
    { method: "sidecar/rewind", params: { sessionId: "s-1", checkpointId: "cp-2", restore: "conversation" } },
    { method: "session/load", params: { sessionId: "s-1" } },
  ]);
  const after = t.posts.slice(posts).map((p) => p.type);
  assert.ok(after.indexOf("reset") < after.indexOf("setInput") && after.indexOf("setInput") < after.indexOf("notice"), after.join(","));
  assert.deepEqual(t.posted("setInput").at(-1), { type: "setInput", text: "Write tests\nfor add and sub" });

  // A preview changes nothing: no reload, nothing said.
  const before = t.posts.length;
  await t.controller.rewind("cp-2", "code", { preview: true });
  assert.deepEqual(t.port.requests.at(-1)!.params, { sessionId: "s-1", checkpointId: "cp-2", restore: "code", preview: true });
  assert.equal(t.posts.length, before);
});

test("a message's rewind control: restore code and conversation previews the files as diffs, the modal lists what is not undone, Restore Anyway forces", async () => {
  const t = await session({
    "sidecar/rewind": (p) => preview({
      restore: p.restore,
      conversation: !p.preview,
      files: p.preview
        ? [...preview().files.slice(0, 2), { path: "/work/proj/notes.md", action: "conflict", oldText: "mine\n", newText: "theirs\n" }]
        : [{ path: "/work/proj/app.py", action: "restore" }, { path: "/work/proj/test_app.py", action: "delete" }, { path: "/work/proj/notes.md", action: "restore" }],
    }),
  });
  const flow = new RewindFlow(t.controller);
  vscode.__recorded.picks.push((items) => items.find((i: { action: string }) => i.action === "both"));
  vscode.__recorded.warningAnswers.push(ConfirmChoices.force);
  let diffsOpenAtModal = -1;
  const warn = vscode.window.showWarningMessage;
  vscode.window.showWarningMessage = async (...args: Parameters<typeof warn>) => {
    diffsOpenAtModal = vscode.window.tabGroups.all.flatMap((g) => g.tabs).length;
    return warn(...args);
  };
  try {
    await t.send({ type: "rewindAt", checkpointId: "cp-2" });
    assert.deepEqual(t.hooks("hostRequest").at(-1), [{ type: "rewindAt", checkpointId: "cp-2", seq: 1 }]);
    await flow.at("cp-2");
  } finally {
    vscode.window.showWarningMessage = warn;
  }
  const actions = vscode.__recorded.quickPicks[0] as { label: string }[];
  assert.deepEqual(actions.map((a) => a.label), ["Restore code and conversation", "Restore conversation only", "Restore code only", "Fork from here", "Summarize from here"]);
  assert.match(String(vscode.__recorded.quickPickOptions[0]?.placeHolder), /app\.py, test_app\.py \(new\) · ran: pip install pytest/);

  // The preview first, then one diff per file that changes (the unchanged README has none).
  const rewinds = t.port.requests.filter((r) => r.method === "sidecar/rewind").map((r) => r.params);
  assert.deepEqual(rewinds, [
    { sessionId: "s-1", checkpointId: "cp-2", restore: "both", preview: true },
    { sessionId: "s-1", checkpointId: "cp-2", restore: "both", force: true },
  ]);
  const diffs = vscode.__recorded.commands.filter((c) => c.id === "vscode.diff");
  assert.deepEqual(diffs.map((d) => String(d.args[2])), [
    "app.py: now ↔ after the rewind",
    "test_app.py: deleted by the rewind",
    "notes.md: changed since; restore anyway?",
  ]);
  const [left, right] = diffs[0].args as vscode.Uri[];
  assert.equal(left.toString(), "file:///work/proj/app.py", "the left side is the file itself");
  assert.equal(right.scheme, REWIND_SCHEME);
  assert.equal(diffsOpenAtModal, 3, "the diffs are open while the modal asks");

  const modal = vscode.__recorded.warnings.at(-1)!;
  assert.equal(modal.text, "Rewind code and conversation to before “Write tests”?");
  assert.equal(modal.options?.modal, true);
  assert.deepEqual(modal.items, ["Restore Anyway", "Rewind"]);
  const detail = String(modal.options?.detail);
  assert.match(detail, /Restores: app\.py/);
  assert.match(detail, /Deletes \(the model created them\): test_app\.py/);
  assert.match(detail, /Changed since by someone else: notes\.md/);
  assert.match(detail, /Does not undo what these shell commands may have changed: pip install pytest/);
  assert.equal(vscode.window.tabGroups.all.flatMap((g) => g.tabs).length, 0, "the preview's diffs closed");
  assert.match(t.posted("notice").at(-1)!.text, /Rewound to before “Write tests”: the conversation, 3 files restored\. Not undone: pip install pytest\. The prompt is back in the box\./);
});

test("closing the modal rewinds nothing; the restore of the conversation alone asks for no preview", async () => {
  const t = await session();
  const flow = new RewindFlow(t.controller);
  vscode.__recorded.picks.push((items) => items.find((i: { action: string }) => i.action === "code"));
  await flow.at("cp-1");
  assert.deepEqual(t.port.requests.filter((r) => r.method === "sidecar/rewind").map((r) => r.params.preview), [true]);
  assert.deepEqual(vscode.__recorded.warnings.at(-1)!.items, ["Rewind"]);

  vscode.__recorded.picks.push((items) => items.find((i: { action: string }) => i.action === "conversation"));
  await flow.at("cp-1");
  assert.deepEqual(t.port.requests.filter((r) => r.method === "sidecar/rewind").at(-1)!.params,
    { sessionId: "s-1", checkpointId: "cp-1", restore: "conversation" });
  assert.equal(vscode.__recorded.warnings.length, 1, "no modal for the conversation alone");

  await flow.at("cp-gone");
  assert.match(vscode.__recorded.warnings.at(-1)!.text, /no longer part of the conversation/);
});

test("/rewind's picker lists the checkpoints newest first with their files; Fork from here forks at the one picked", async () => {
  const t = await session();
  const flow = new RewindFlow(t.controller);
  vscode.__recorded.picks.push((items) => items[1]);
  vscode.__recorded.picks.push((items) => items.find((i: { action: string }) => i.action === "fork"));
  await flow.pick("");
  const rows = vscode.__recorded.quickPicks[0] as { label: string; description: string; detail: string }[];
  assert.deepEqual(rows.map((r) => r.label), ["Write tests", "Add a docstring to add()"]);
  assert.match(rows[0].description, /^#2 · /);
  assert.equal(rows[0].detail, "app.py, test_app.py (new) · ran: pip install pytest");
  assert.deepEqual(t.port.requests.filter((r) => r.method === "sidecar/fork").map((r) => r.params), [{ sessionId: "s-1", checkpointId: "cp-1" }]);
  assert.equal(t.controller.currentSessionId, "s-fork");
  assert.deepEqual(t.posted("setInput").at(-1), { type: "setInput", text: "Add a docstring to add()" });

  // `/rewind 1 conversation` goes straight there; a bad number says so.
  await flow.pick("1 conversation");
  assert.deepEqual(t.port.requests.at(-2), { method: "sidecar/rewind", params: { sessionId: "s-fork", checkpointId: "cp-1", restore: "conversation" } });
  await flow.pick("5");
  assert.match(vscode.__recorded.warnings.at(-1)!.text, /No checkpoint 5: this conversation has 2/);

  // Summarize from here: a compaction of that prompt and what follows, nothing rewound.
  await flow.pick("2 summarize");
  assert.deepEqual(t.port.requests.filter((r) => r.method === "sidecar/compact").map((r) => r.params),
    [{ sessionId: "s-fork", fromCheckpointId: "cp-2" }]);
});

test("the words: /rewind's arguments, the preview's plan and the notice after", () => {
  assert.deepEqual(parseRewindArgs(""), {});
  assert.deepEqual(parseRewindArgs(" 3 "), { number: 3 });
  assert.deepEqual(parseRewindArgs("2 Code"), { number: 2, action: "code" });
  assert.deepEqual(parseRewindArgs("1 summarize"), { number: 1, action: "summarize" });
  assert.ok("error" in parseRewindArgs("two"));
  assert.ok("error" in parseRewindArgs("2 everything"));

  const relative = (p: string) => p.replace("/work/proj/", "");
  const plan = previewPlan(preview({ commands: [] }), relative, "code");
  assert.deepEqual(plan.changing.map((f) => f.action), ["restore", "delete"]);
  assert.equal(plan.message, "Rewind code to before “Write tests”?");
  assert.doesNotMatch(plan.detail, /Not undone|conversation/);
  assert.match(previewPlan(preview({ files: [] }), relative, "both").detail, /No file needs restoring[\s\S]*The conversation goes back/);

  assert.equal(rewindNotice(preview({ restore: "code", files: [{ path: "/a", action: "conflict" }], commands: [] })),
    "Rewound to before “Write tests”: no file needed restoring. 1 file changed since was left as it is.");
  assert.equal(rewindNotice(preview({ restore: "conversation", conversation: true, files: [] })),
    "Rewound to before “Write tests”: the conversation. The prompt is back in the box.");

  const items = checkpointItems(CHECKPOINTS, relative, Date.parse("2026-12-01T10:08:00Z"));
  assert.deepEqual(items.map((i) => [i.number, i.description]), [[2, "#2 · 3 min ago"], [1, "#1 · 8 min ago"]]);
});

test("the panel's rewind and fork messages are checked like the others", () => {
  assert.ok(parseWebviewMessage({ type: "rewindAt", checkpointId: "cp-1", seq: 1 }));
  assert.equal(parseWebviewMessage({ type: "rewindAt", seq: 1 }), undefined);
  assert.equal(parseWebviewMessage({ type: "rewindAt", checkpointId: "", seq: 1 }), undefined);
  assert.ok(parseWebviewMessage({ type: "fork", seq: 2 }));
});
