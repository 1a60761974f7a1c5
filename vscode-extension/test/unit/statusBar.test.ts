import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { beforeEach, test } from "node:test";
import { GaugeStatusBar } from "../../src/status/gaugeStatusBar";
import { statusView } from "../../src/status/statusView";
import * as vscode from "../mocks/vscode";
import { gauge } from "./fixtures";

beforeEach(() => vscode.__recorded.reset());

function item(id = "contextSidecar.gauge") {
  const items = vscode.__recorded.statusBarItems.filter((i) => i.id === id);
  assert.equal(items.length, 1);
  return items[0];
}

test("the gauge item shows used / size · percent, coloured by level", () => {
  const bar = new GaugeStatusBar();
  assert.equal(item().text, "$(sync~spin) sidecar");
  assert.equal(item().visible, true);
  assert.equal(item().alignment, vscode.StatusBarAlignment.Right);
  bar.setConnection("running");
  assert.equal(item().text, "$(comment-discussion) no session");
  assert.equal(item().command, "contextSidecar.openChat");

  bar.setSession("s-1", gauge());
  assert.equal(item().text, "$(pulse) 142.3K / 200K · 71%");
  assert.equal(item().backgroundColor, undefined);
  assert.equal(item().command, "contextSidecar.showContext");
  const tooltip = item().tooltip as vscode.MarkdownString;
  assert.ok(tooltip instanceof vscode.MarkdownString);
  assert.equal(tooltip.supportThemeIcons, true);
  assert.match(tooltip.value, /Auto-compact at \| 167,000/);

  bar.setSession("s-1", gauge({ level: "warning", used: 150_000, percentUsed: 75 }));
  assert.equal(item().text, "$(pulse) 150K / 200K · 75%");
  assert.equal(item().backgroundColor?.id, "statusBarItem.warningBackground");
  bar.setSession("s-1", gauge({ level: "error" }));
  assert.equal(item().backgroundColor?.id, "statusBarItem.errorBackground");
  bar.setSession("s-1", gauge({ level: "blocking" }));
  assert.equal(item().backgroundColor?.id, "statusBarItem.errorBackground");

  bar.setCompacting(true);
  assert.equal(item().text, "$(sync~spin) 142.3K / 200K · 71%");
  bar.setCompacting(false);
  bar.setClickAction("compact");
  assert.equal(item().command, "contextSidecar.compact");
  bar.dispose();
  assert.equal(item().disposed, true);
});

test("while a compaction runs the gauge's click cancels it, and says so; Compact is not offered", () => {
  const bar = new GaugeStatusBar();
  bar.setConnection("running");
  bar.setSession("s-1", gauge({ level: "warning", used: 150_000, percentUsed: 75 }));
  bar.setClickAction("compact");
  assert.equal(item("contextSidecar.compactOffer").visible, true);
  bar.setCompacting(true);
  assert.equal(item().command, "contextSidecar.cancel");
  assert.match((item().tooltip as vscode.MarkdownString).value, /Compacting… click to cancel/);
  assert.doesNotMatch((item().tooltip as vscode.MarkdownString).value, /Click to compact/);
  assert.equal(item("contextSidecar.compactOffer").visible, false);
  bar.setCompacting(false);
  assert.equal(item().command, "contextSidecar.compact");
  assert.doesNotMatch((item().tooltip as vscode.MarkdownString).value, /Compacting/);
  assert.equal(item("contextSidecar.compactOffer").visible, true, "the offer is back: the stage still warrants it");
  const waiting = statusView({ connection: "running", sessionId: "s-1", compacting: true, clickAction: "showContext" });
  assert.equal(waiting.command, "contextSidecar.cancel");
  assert.match(waiting.tooltip, /click to cancel/);
});

test("Context Sidecar: Cancel is a command of the palette", () => {
  const pkg = JSON.parse(readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8"));
  const cancel = pkg.contributes.commands.find((c: { command: string }) => c.command === "contextSidecar.cancel");
  assert.deepEqual(cancel, { command: "contextSidecar.cancel", title: "Cancel", category: "Context Sidecar" });
});

test("a provider error about the key says so and offers to set it", () => {
  const bar = new GaugeStatusBar();
  bar.setConnection("running");
  bar.setSession("s-1", gauge());
  bar.setServerStatus({ kind: "error", message: "No API key: ANTHROPIC_API_KEY is not set" });
  assert.equal(item().text, "$(key) no API key");
  assert.equal(item().backgroundColor?.id, "statusBarItem.errorBackground");
  assert.equal(item().command, "contextSidecar.setApiKey");
  bar.setServerStatus({ kind: "error", message: "Provider unreachable: connection refused to 127.0.0.1:9" });
  assert.equal(item().text, "$(error) Provider unreachable: connection refuse…");
  assert.equal(item().command, "contextSidecar.showLog");
  bar.setServerStatus({ kind: "normal" });
  assert.equal(item().text, "$(pulse) 142.3K / 200K · 71%");
});

test("a stopped sidecar wins over everything and explains why", () => {
  const v = statusView({ connection: "failed", connectionError: "cannot find the sidecar", sessionId: "s-1", gauge: gauge(), compacting: true, clickAction: "showContext" });
  assert.equal(v.text, "$(error) sidecar stopped");
  assert.equal(v.background, "error");
  assert.match(v.tooltip, /cannot find the sidecar/);
  const waiting = statusView({ connection: "running", sessionId: "s-1", compacting: false, clickAction: "compact" });
  assert.equal(waiting.text, "$(comment-discussion) …");
  assert.equal(waiting.command, "contextSidecar.compact");
});
