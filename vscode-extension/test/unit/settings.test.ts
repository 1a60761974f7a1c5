import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { beforeEach, test } from "node:test";
import {
  EXTENSION_KEYS,
  SIDECAR_KEYS,
  affectsSidecar,
  apiKeyEnvName,
  explicitValue,
  needsRestart,
  nestSettings,
  readSidecarSettings,
} from "../../src/client/settings";
import * as vscode from "../mocks/vscode";

const pkg = JSON.parse(readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8"));
const props = pkg.contributes.configuration.properties as Record<string, { default?: unknown; description?: string; scope?: string }>;

beforeEach(() => vscode.__settings.reset());

test("package.json contributes exactly the sidecar keys plus the extension's own, each described and scoped", () => {
  const contributed = Object.keys(props).sort();
  const expected = [...SIDECAR_KEYS, ...EXTENSION_KEYS].map((k) => `contextSidecar.${k}`).sort();
  assert.deepEqual(contributed, expected);
  for (const [key, p] of Object.entries(props)) {
    assert.ok(p.description && p.description.length > 20, `${key} has a description`);
    assert.ok(p.scope, `${key} has a scope`);
  }
});

test("contributed defaults are the seed's numbers", () => {
  const d = (k: string) => props[`contextSidecar.${k}`].default;
  assert.equal(d("autoCompact.bufferTokens"), 13000);
  assert.equal(d("autoCompact.enabled"), true);
  assert.equal(d("apiContextManagement.triggerTokens"), 180000);
  assert.equal(d("apiContextManagement.keepTokens"), 40000);
  assert.equal(d("sessionMemory.minTokens"), 10000);
  assert.equal(d("sessionMemory.minTextBlockMessages"), 5);
  assert.equal(d("sessionMemory.maxTokens"), 40000);
  assert.equal(d("postCompact.maxFiles"), 5);
  assert.equal(d("postCompact.totalTokens"), 50000);
  assert.equal(d("postCompact.perFileTokens"), 5000);
  assert.equal(d("history.maxItems"), 100);
  assert.equal(d("history.maxPastedContentLength"), 1024);
  assert.equal(d("microcompact.timeBased.gapMinutes"), 60);
  assert.equal(d("provider"), "anthropic");
  assert.equal(d("model"), "claude-sonnet-5-5");
  assert.equal(d("apiKeyEnv"), "ANTHROPIC_API_KEY");
  assert.equal(d("gaugeClickAction"), "showContext");
});

test("no setting can hold a key: nothing named like a secret is contributed", () => {
  for (const key of Object.keys(props)) assert.doesNotMatch(key, /apiKey$|secret|token$|password/i, key);
});

test("nestSettings builds the nested object and skips blanks", () => {
  assert.deepEqual(
    nestSettings([
      ["autoCompact.enabled", false],
      ["autoCompact.bufferTokens", 9000],
      ["microcompact.timeBased.gapMinutes", 5],
      ["baseUrl", "  "],
      ["contextWindow", null],
      ["model", "gpt-4.1"],
      ["tools.allow", ["read"]],
    ]),
    { autoCompact: { enabled: false, bufferTokens: 9000 }, microcompact: { timeBased: { gapMinutes: 5 } }, model: "gpt-4.1", tools: { allow: ["read"] } },
  );
});

test("explicitValue prefers folder over workspace over user and ignores defaults", () => {
  assert.equal(explicitValue({ globalValue: 1, workspaceValue: 2, workspaceFolderValue: 3 }), 3);
  assert.equal(explicitValue({ globalValue: 1, workspaceValue: 2 }), 2);
  assert.equal(explicitValue({ globalValue: 1 }), 1);
  assert.equal(explicitValue({}), undefined);
  assert.equal(explicitValue(undefined), undefined);
});

test("only explicitly set values reach the sidecar, never the extension's own settings", () => {
  assert.deepEqual(readSidecarSettings(), {}, "defaults alone send nothing, so the sidecar's settings files still apply");
  vscode.__settings.global["contextSidecar.model"] = "claude-opus-4-1";
  vscode.__settings.global["contextSidecar.autoCompact.bufferTokens"] = 20000;
  vscode.__settings.workspace["contextSidecar.model"] = "claude-haiku-4-5";
  vscode.__settings.workspace["contextSidecar.baseUrl"] = "http://127.0.0.1:9999";
  vscode.__settings.global["contextSidecar.pythonPath"] = "/usr/bin/python3";
  vscode.__settings.global["contextSidecar.gaugeClickAction"] = "compact";
  assert.deepEqual(readSidecarSettings(), {
    model: "claude-haiku-4-5",
    baseUrl: "http://127.0.0.1:9999",
    autoCompact: { bufferTokens: 20000 },
  });
});

test("restart only for settings that shape the process; others are pushed live", () => {
  assert.equal(needsRestart(vscode.__changeEvent(["contextSidecar.pythonPath"]) as never), true);
  assert.equal(needsRestart(vscode.__changeEvent(["contextSidecar.serverCommand"]) as never), true);
  assert.equal(needsRestart(vscode.__changeEvent(["contextSidecar.apiKeyEnv"]) as never), true);
  assert.equal(needsRestart(vscode.__changeEvent(["contextSidecar.provider"]) as never), true);
  assert.equal(needsRestart(vscode.__changeEvent(["contextSidecar.model"]) as never), false);
  assert.equal(affectsSidecar(vscode.__changeEvent(["contextSidecar.autoCompact.bufferTokens"]) as never), true);
  assert.equal(affectsSidecar(vscode.__changeEvent(["contextSidecar.gaugeClickAction"]) as never), false);
  assert.equal(affectsSidecar(vscode.__changeEvent(["editor.fontSize"]) as never), false);
});

test("apiKeyEnvName: an explicit variable name, else the provider's usual one", () => {
  assert.equal(apiKeyEnvName(), "ANTHROPIC_API_KEY");
  vscode.__settings.global["contextSidecar.provider"] = "openai-compatible";
  assert.equal(apiKeyEnvName(), "OPENAI_API_KEY");
  vscode.__settings.global["contextSidecar.apiKeyEnv"] = "OPENAI_API_KEY";
  assert.equal(apiKeyEnvName(), "OPENAI_API_KEY");
  vscode.__settings.global["contextSidecar.apiKeyEnv"] = "sk-ant-this-is-a-key";
  assert.equal(apiKeyEnvName(), "OPENAI_API_KEY", "a value that is no variable name is ignored");
});
