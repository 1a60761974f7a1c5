// Workspace Trust: what the manifest declares for Restricted Mode, what the controller sends
// when the user trusts the folder, and what the panel is told about it.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { test } from "node:test";
import { contextMarkdown } from "../../src/chat/contextMarkdown";
import { SIDECAR_KEYS, EXTENSION_KEYS, processSettings } from "../../src/client/settings";
import * as vscode from "../mocks/vscode";
import { parseWebviewMessage } from "../../src/shared/messages";
import { Methods, type ContextView } from "../../src/shared/protocol";
import { gauge } from "./fixtures";
import { harness, started, tick } from "./harness";

const pkg = JSON.parse(readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8"));

test("the manifest supports Restricted Mode in part and names what it restricts", () => {
  const untrusted = pkg.capabilities?.untrustedWorkspaces;
  assert.equal(untrusted?.supported, "limited");
  assert.match(untrusted.description, /hooks/);
  assert.match(untrusted.description, /MCP servers/);
  assert.match(untrusted.description, /settings/);
  const restricted: string[] = untrusted.restrictedConfigurations;
  // What starts a process, sends the key elsewhere, moves the store, runs commands or loosens permissions.
  for (const key of [
    "pythonPath", "serverCommand", "baseUrl", "apiKeyEnv", "storageDir", "preCompactHooks", "postCompactHooks",
    "sessionStartHooks", "permissions.defaultMode", "tools.allow", "mcpServers",
  ]) {
    assert.ok(restricted.includes(`contextSidecar.${key}`), `contextSidecar.${key} is restricted`);
  }
  const properties = pkg.contributes.configuration.properties;
  const known = new Set<string>([...SIDECAR_KEYS, ...EXTENSION_KEYS]);
  for (const key of restricted) {
    assert.ok(properties[key], `${key} is a contributed setting`);
    assert.ok(known.has(key.replace(/^contextSidecar\./, "")), `${key} is read by the extension`);
    // Only settings a workspace can set need restricting.
    assert.notEqual(properties[key].scope, "application", `${key} cannot come from a workspace anyway`);
  }
});

test("a restricted workspace shows the banner in a new view, with what the sidecar withholds", async () => {
  const withheld = ["hooks in .claude/settings.json", "MCP servers in .mcp.json"];
  const view = { gauge: gauge(), workspaceTrust: { trusted: false, source: "editor", withheld } };
  const h = harness({
    [Methods.sessionNew]: () => started(),
    [Methods.context]: () => view,
  });
  h.controller.setWorkspaceTrust(false);
  assert.deepEqual(h.posted("trust").at(-1), { type: "trust", trusted: false });
  await h.controller.setConnection("running", h.port);
  await h.controller.newSession();
  await tick();
  assert.deepEqual(h.posted("trust").at(-1), { type: "trust", trusted: false, withheld });
  // A reloaded webview gets the banner again.
  h.posts.length = 0;
  await h.send({ type: "ready" });
  assert.deepEqual(h.posted("trust"), [{ type: "trust", trusted: false, withheld }]);
});

test("a trusted workspace asks nothing more of the sidecar and shows no banner", async () => {
  const h = harness({ [Methods.sessionNew]: () => started() });
  h.controller.setWorkspaceTrust(true);
  await h.controller.setConnection("running", h.port);
  await h.controller.newSession();
  await tick();
  assert.deepEqual(h.port.methods(), [Methods.sessionNew]);
  assert.deepEqual(h.posted("trust"), [{ type: "trust", trusted: true }]);
});

test("trusting the folder sends sidecar/trustWorkspace for the workspace root and drops the banner", async () => {
  const h = harness({ [Methods.trustWorkspace]: (p) => ({ trusted: true, cwd: p.cwd }) });
  h.controller.setWorkspaceTrust(false);
  await h.controller.setConnection("running", h.port);
  const result = await h.controller.trustWorkspace();
  assert.deepEqual(result, { trusted: true, cwd: "/work/proj" });
  assert.deepEqual(h.port.requests.at(-1), { method: Methods.trustWorkspace, params: { cwd: "/work/proj" } });
  assert.deepEqual(h.posted("trust").at(-1), { type: "trust", trusted: true });
  assert.match(h.posted("notice").at(-1)!.text, /trusted now/);
  assert.equal(h.controller.workspaceTrusted, true);
});

test("trusting while the sidecar is down only changes the verdict the next start sends", async () => {
  const h = harness({});
  h.controller.setWorkspaceTrust(false);
  assert.equal(await h.controller.trustWorkspace(), undefined);
  assert.deepEqual(h.port.requests, []);
  assert.equal(h.posted("error").length, 0);
  assert.equal(h.controller.workspaceTrusted, true);
});

test("the banner's button is answered by the host (workbench.trust.manage)", async () => {
  assert.deepEqual(parseWebviewMessage({ type: "manageTrust", seq: 1 }), { type: "manageTrust", seq: 1 });
  const h = harness({});
  await h.send({ type: "ready" });
  await h.send({ type: "manageTrust" });
  assert.equal((h.hooks("hostRequest")[0][0] as { type: string }).type, "manageTrust");
});

test("the /context document says what a restricted folder does not get", () => {
  const view: ContextView = {
    gauge: gauge(),
    skippedHookFiles: ["/ws/.claude/settings.json"],
    workspaceTrust: { trusted: false, source: "none", withheld: ["hooks in .claude/settings.json"] },
  };
  const md = contextMarkdown(view);
  assert.match(md, /## Restricted: this folder is not trusted/);
  assert.match(md, /- hooks in \.claude\/settings\.json/);
  assert.doesNotMatch(md, /Hooks not run/, "said once");
  assert.doesNotMatch(contextMarkdown({ gauge: gauge(), workspaceTrust: { trusted: true, source: "editor", withheld: [] } }), /Restricted/);
});

test("a change event naming the process settings without changing them restarts nothing", () => {
  // Granting Workspace Trust names every restricted setting in its change event.
  vscode.__settings.reset();
  vscode.__settings.global["contextSidecar.pythonPath"] = "/opt/venv/bin/python";
  const before = processSettings();
  vscode.__settings.global["contextSidecar.model"] = "claude-haiku-4-5";
  assert.equal(processSettings(), before, "only the settings that shape the process count");
  vscode.__settings.workspace["contextSidecar.pythonPath"] = "/repo/.venv/bin/python";
  assert.notEqual(processSettings(), before);
  vscode.__settings.reset();
});
