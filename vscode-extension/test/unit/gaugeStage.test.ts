import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";
import { gaugeColor, gaugeStage, gaugeTooltipMarkdown, offersCompact } from "../../src/status/gaugeFormat";
import { GaugeStatusBar } from "../../src/status/gaugeStatusBar";
import * as vscode from "../mocks/vscode";
import { gauge } from "./fixtures";
import { harness, started } from "./harness";

beforeEach(() => vscode.__recorded.reset());

const item = (id: string) => vscode.__recorded.statusBarItems.find((i) => i.id === id)!;
const bg = (i: { backgroundColor?: vscode.ThemeColor }) => i.backgroundColor?.id;
const NEXT = "Auto-compact at 167K (in 25K tokens): older turns will be summarized";

test("the stage decides the colour; without one the level does", () => {
  assert.equal(gaugeStage(gauge({ level: "ok", stage: "warning" })), "warning");
  assert.equal(gaugeStage(gauge({ level: "error" })), "error");
  assert.equal(gaugeStage(gauge({ level: "ok" })), "normal");
  assert.equal(gaugeColor(gaugeStage(gauge({ level: "ok", stage: "warning" }))), "warning");
  assert.equal(gaugeColor(gaugeStage(gauge({ level: "error", stage: "normal" }))), undefined, "the stage wins over the level");
  assert.equal(gaugeColor("blocking"), "error");
  assert.equal(offersCompact(gauge({ stage: "normal", level: "warning" })), false);
  assert.equal(offersCompact(gauge({ stage: "error" })), true);
});

test("the tooltip says what happens next", () => {
  const md = gaugeTooltipMarkdown(gauge({ stage: "warning", next: NEXT }));
  assert.match(md, /\(filling up\)/);
  // The stage in calm words: "error" with room to go read as a fault.
  assert.match(gaugeTooltipMarkdown(gauge({ stage: "error", next: NEXT })), /\(nearly full\)/);
  assert.doesNotMatch(gaugeTooltipMarkdown(gauge({ stage: "error" })), /\(error\)/);
  assert.ok(md.includes(`Next: ${NEXT}`), md);
  assert.doesNotMatch(gaugeTooltipMarkdown(gauge()), /Next:/);
});

test("the tooltip says how many MCP tools wait for a tool search, and what that saved", () => {
  const md = gaugeTooltipMarkdown(gauge({ deferredTools: { count: 300, savedTokens: 19954, search: "server" } }));
  assert.ok(md.includes("Tool search: 300 MCP tools deferred, 19,954 tokens of definitions kept out of every request; the provider's tool search finds them"), md);
  const client = gaugeTooltipMarkdown(gauge({ deferredTools: { count: 2, savedTokens: 80, search: "client" } }));
  assert.match(client, /ToolSearch tool/);
  assert.doesNotMatch(gaugeTooltipMarkdown(gauge({ deferredTools: null })), /Tool search/);
});

test("the status bar colours by stage and offers Compact from warning on", () => {
  const bar = new GaugeStatusBar();
  bar.setConnection("running");
  bar.setSession("s-1", gauge({ stage: "normal", next: NEXT }));
  const gaugeItem = item("contextSidecar.gauge");
  const compact = item("contextSidecar.compactOffer");
  assert.equal(bg(gaugeItem), undefined);
  assert.equal(compact.visible, false);
  assert.ok((gaugeItem.tooltip as vscode.MarkdownString).value.includes(NEXT));

  bar.setSession("s-1", gauge({ level: "ok", stage: "warning", next: NEXT }));
  assert.equal(bg(gaugeItem), "statusBarItem.warningBackground");
  assert.equal(compact.visible, true);
  assert.equal(compact.text, "$(fold) Compact");
  assert.equal(compact.command, "contextSidecar.compact");
  assert.match(String(compact.tooltip), /^Context filling up: /);
  assert.ok(String(compact.tooltip).includes(NEXT));

  bar.setSession("s-1", gauge({ stage: "error" }));
  assert.equal(bg(gaugeItem), "statusBarItem.errorBackground");
  assert.equal(bg(compact), "statusBarItem.errorBackground");
  bar.setCompacting(true);
  assert.equal(compact.visible, false, "no offer while a compaction runs");
  bar.setCompacting(false);
  bar.setSession("s-1", gauge({ stage: "normal" }));
  assert.equal(compact.visible, false, "the offer goes once the context is back to normal");
  bar.dispose();
});

test("the panel is offered /compact when the stage reaches warning, and the offer is withdrawn after", async () => {
  const t = harness({ "session/new": () => started("s-1", { gauge: gauge({ seq: 1, stage: "normal" }) }) });
  await t.controller.setConnection("running", t.port);
  await t.controller.newSession();
  assert.deepEqual(t.posted("compactOffer"), []);
  const usage = (seq: number, over: object) => ({ sessionUpdate: "usage_update" as const, used: 1, size: 1, _meta: { sidecar: gauge({ seq, ...over }) } });
  t.controller.onSessionUpdate({ sessionId: "s-1", update: usage(2, { stage: "warning", next: NEXT }) });
  t.controller.onSessionUpdate({ sessionId: "s-1", update: usage(3, { stage: "warning", next: NEXT }) });
  t.controller.onSessionUpdate({ sessionId: "s-1", update: usage(4, { level: "error" }) });
  t.controller.onSessionUpdate({ sessionId: "s-1", update: usage(5, { stage: "normal" }) });
  assert.deepEqual(t.posted("compactOffer"), [
    { type: "compactOffer", stage: "warning", next: NEXT },
    { type: "compactOffer", stage: "error", next: undefined },
    { type: "compactOffer", stage: "normal", next: undefined },
  ]);
});

test("the panel's offer says what the gauge's next says, as it changes within a stage", async () => {
  const t = harness({ "session/new": () => started("s-1", { gauge: gauge({ seq: 1, stage: "normal" }) }) });
  await t.controller.setConnection("running", t.port);
  await t.controller.newSession();
  const usage = (seq: number, over: object) => ({ sessionUpdate: "usage_update" as const, used: 1, size: 1, _meta: { sidecar: gauge({ seq, ...over }) } });
  const nearer = "Auto-compact at 167K (in 15K tokens): older turns will be summarized";
  const due = "Auto-compact runs before the next request: older turns will be summarized";
  t.controller.onSessionUpdate({ sessionId: "s-1", update: usage(2, { stage: "warning", next: NEXT }) });
  t.controller.onSessionUpdate({ sessionId: "s-1", update: usage(3, { stage: "warning", next: nearer }) });
  t.controller.onSessionUpdate({ sessionId: "s-1", update: usage(4, { stage: "warning", next: due }) });
  assert.deepEqual(t.posted("compactOffer").map((o) => (o as { next?: string }).next), [NEXT, nearer, due]);
});
