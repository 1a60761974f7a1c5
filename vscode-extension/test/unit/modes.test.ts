import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";
import { ModeStatusBar } from "../../src/status/modeStatusBar";
import { modeLabel, modePickItems } from "../../src/status/modes";
import * as vscode from "../mocks/vscode";
import { MODES, harness, started } from "./harness";

beforeEach(() => vscode.__recorded.reset());

test("session/new's modes reach the panel and the status bar; current_mode_update moves them", async () => {
  const t = harness({ "session/new": () => started("s-1", { modes: MODES }), "session/set_mode": () => ({}) });
  await t.controller.setConnection("running", t.port);
  assert.ok(await t.controller.newSession());
  assert.deepEqual(t.posted("modes").at(-1), { type: "modes", ...MODES });
  assert.equal((t.hooks("modesChanged").at(-1)![0] as any).currentModeId, "default");

  t.controller.onSessionUpdate({ sessionId: "s-1", update: { sessionUpdate: "current_mode_update", currentModeId: "plan" } });
  assert.equal(t.controller.currentModes?.currentModeId, "plan");
  assert.equal(t.posted("modes").at(-1)!.currentModeId, "plan");
  assert.equal(t.posted("modes").at(-1)!.availableModes.length, 4, "the list stays");
  assert.ok(t.posted("update").some((p) => (p.update as any).sessionUpdate === "current_mode_update"), "the panel sees the update too");
});

test("setMode asks session/set_mode; /plan toggles between plan and default; the panel may ask too", async () => {
  const t = harness({ "session/new": () => started("s-1", { modes: MODES }), "session/set_mode": () => ({}) });
  await t.controller.setConnection("running", t.port);
  await t.controller.newSession();
  assert.ok(await t.controller.togglePlanMode());
  assert.deepEqual(t.port.requests.at(-1), { method: "session/set_mode", params: { sessionId: "s-1", modeId: "plan" } });
  assert.equal(t.controller.currentModes?.currentModeId, "plan");
  await t.controller.togglePlanMode();
  assert.deepEqual(t.port.requests.at(-1)!.params, { sessionId: "s-1", modeId: "default" });
  await t.send({ type: "ready" });
  await t.send({ type: "setMode", modeId: "acceptEdits" });
  assert.deepEqual(t.port.requests.at(-1)!.params, { sessionId: "s-1", modeId: "acceptEdits" });
  await t.send({ type: "pickMode" });
  assert.deepEqual(t.hooks("hostRequest").at(-1), [{ type: "pickMode", seq: 3 }]);
});

test("a refused mode change keeps the mode and shows the error", async () => {
  const t = harness({
    "session/new": () => started("s-1", { modes: MODES }),
    "session/set_mode": () => {
      throw Object.assign(new Error("Unknown mode: yolo"), { code: -32602 });
    },
  });
  await t.controller.setConnection("running", t.port);
  await t.controller.newSession();
  assert.equal(await t.controller.setMode("yolo"), false);
  assert.equal(t.controller.currentModes?.currentModeId, "default");
  assert.equal(t.posted("error").at(-1)!.message, "Unknown mode: yolo");
});

test("a sidecar without modes hides the mode item; the quick pick still offers Claude Code's four", () => {
  const bar = new ModeStatusBar();
  const item = vscode.__recorded.statusBarItems.find((i) => i.id === "contextSidecar.mode")!;
  bar.set(null);
  assert.equal(item.visible, false);
  bar.set({ ...MODES, currentModeId: "plan" });
  assert.equal(item.visible, true);
  assert.equal(item.text, "$(checklist) Plan");
  assert.equal(item.command, "contextSidecar.setPermissionMode");
  assert.match(String(item.tooltip), /Read-only/);
  assert.deepEqual(modePickItems(null).map((i) => i.id), ["default", "acceptEdits", "plan", "bypassPermissions"]);
  const items = modePickItems({ ...MODES, currentModeId: "acceptEdits" });
  assert.deepEqual(items.filter((i) => i.picked).map((i) => i.id), ["acceptEdits"]);
  assert.equal(modeLabel({ currentModeId: "bypassPermissions", availableModes: [] }).name, "Bypass permissions");
});
