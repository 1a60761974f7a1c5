"use strict";
var __create = Object.create;
var __defProp = Object.defineProperty;
var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __getProtoOf = Object.getPrototypeOf;
var __hasOwnProp = Object.prototype.hasOwnProperty;
var __copyProps = (to, from, except, desc) => {
  if (from && typeof from === "object" || typeof from === "function") {
    for (let key of __getOwnPropNames(from))
      if (!__hasOwnProp.call(to, key) && key !== except)
        __defProp(to, key, { get: () => from[key], enumerable: !(desc = __getOwnPropDesc(from, key)) || desc.enumerable });
  }
  return to;
};
var __toESM = (mod, isNodeMode, target) => (target = mod != null ? __create(__getProtoOf(mod)) : {}, __copyProps(
  // If the importer is in node compatibility mode or this is not an ESM
  // file that has been converted to a CommonJS file using a Babel-
  // compatible transform (i.e. "__esModule" has not been set), then set
  // "default" to the CommonJS "module.exports" for node compatibility.
  isNodeMode || !mod || !mod.__esModule ? __defProp(target, "default", { value: mod, enumerable: true }) : target,
  mod
));

// test/unit/settings.test.ts
var import_strict = __toESM(require("node:assert/strict"));
var import_node_fs2 = require("node:fs");
var path2 = __toESM(require("node:path"));
var import_node_test = require("node:test");

// test/mocks/vscode.ts
var import_node_fs = require("node:fs");
var path = __toESM(require("node:path"));
var pkg = JSON.parse((0, import_node_fs.readFileSync)(path.join(__dirname, "..", "..", "package.json"), "utf8"));
var defaults = Object.fromEntries(
  Object.entries(pkg.contributes.configuration.properties).map(([k, v]) => [k, v.default])
);
var __settings = {
  global: {},
  workspace: {},
  reset() {
    this.global = {};
    this.workspace = {};
  }
};
function full(section, key) {
  return section ? `${section}.${key}` : key;
}
var workspace = {
  workspaceFolders: void 0,
  getConfiguration(section) {
    return {
      get(key, fallback) {
        const k = full(section, key);
        for (const layer of [__settings.workspace, __settings.global, defaults]) {
          if (k in layer) return layer[k];
        }
        return fallback;
      },
      inspect(key) {
        const k = full(section, key);
        return {
          key: k,
          defaultValue: defaults[k],
          globalValue: __settings.global[k],
          workspaceValue: __settings.workspace[k],
          workspaceFolderValue: void 0
        };
      },
      has(key) {
        return full(section, key) in defaults;
      }
    };
  },
  onDidChangeConfiguration: () => ({ dispose() {
  } }),
  createFileSystemWatcher: () => ({ dispose() {
  } }),
  registerTextDocumentContentProvider: () => ({ dispose() {
  } })
};
function __changeEvent(keys) {
  return {
    affectsConfiguration(section) {
      return keys.some((k) => k === section || k.startsWith(`${section}.`) || section.startsWith(`${k}.`));
    }
  };
}

// src/client/settings.ts
var SECTION = "contextSidecar";
var SIDECAR_KEYS = [
  "provider",
  "model",
  "baseUrl",
  "apiKeyEnv",
  "contextWindow",
  "maxOutputTokens",
  "autoCompact.enabled",
  "autoCompact.bufferTokens",
  "autoCompact.confirm",
  "compactModel",
  "microcompact.timeBased.enabled",
  "microcompact.timeBased.gapMinutes",
  "apiContextManagement.enabled",
  "apiContextManagement.triggerTokens",
  "apiContextManagement.keepTokens",
  "sessionMemory.enabled",
  "sessionMemory.minTokens",
  "sessionMemory.minTextBlockMessages",
  "sessionMemory.maxTokens",
  "postCompact.maxFiles",
  "postCompact.totalTokens",
  "postCompact.perFileTokens",
  "history.maxItems",
  "history.maxPastedContentLength",
  "storageDir",
  "tools.shell",
  "tools.allow"
];
var EXTENSION_KEYS = ["pythonPath", "serverCommand", "gaugeClickAction"];
var RESTART_KEYS = ["pythonPath", "serverCommand", "apiKeyEnv"];
function isSet(value) {
  if (value === void 0 || value === null) return false;
  if (typeof value === "string" && value.trim() === "") return false;
  return true;
}
function nestSettings(flat) {
  const root = {};
  for (const [key, value] of flat) {
    if (!isSet(value)) continue;
    const parts = key.split(".");
    let node = root;
    for (const part of parts.slice(0, -1)) {
      const child = node[part];
      if (typeof child !== "object" || child === null || Array.isArray(child)) node[part] = {};
      node = node[part];
    }
    node[parts[parts.length - 1]] = value;
  }
  return root;
}
function explicitValue(inspected) {
  if (!inspected) return void 0;
  return inspected.workspaceFolderValue ?? inspected.workspaceValue ?? inspected.globalValue;
}
function readSidecarSettings(scope) {
  const config = workspace.getConfiguration(SECTION, scope);
  return nestSettings(SIDECAR_KEYS.map((key) => [key, explicitValue(config.inspect(key))]));
}
function needsRestart(event) {
  return RESTART_KEYS.some((key) => event.affectsConfiguration(`${SECTION}.${key}`));
}
function affectsSidecar(event) {
  return SIDECAR_KEYS.some((key) => event.affectsConfiguration(`${SECTION}.${key}`));
}
var conventionalKeyEnv = {
  anthropic: "ANTHROPIC_API_KEY",
  openai: "OPENAI_API_KEY",
  "openai-compatible": "OPENAI_API_KEY"
};
var ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
function apiKeyEnvName(scope) {
  const config = workspace.getConfiguration(SECTION, scope);
  const explicit = explicitValue(config.inspect("apiKeyEnv"));
  if (typeof explicit === "string" && ENV_NAME.test(explicit)) return explicit;
  const provider = config.get("provider") ?? "anthropic";
  return conventionalKeyEnv[provider] ?? "ANTHROPIC_API_KEY";
}

// test/unit/settings.test.ts
var pkg2 = JSON.parse((0, import_node_fs2.readFileSync)(path2.join(__dirname, "..", "..", "package.json"), "utf8"));
var props = pkg2.contributes.configuration.properties;
(0, import_node_test.beforeEach)(() => __settings.reset());
(0, import_node_test.test)("package.json contributes exactly the sidecar keys plus the extension's own, each described and scoped", () => {
  const contributed = Object.keys(props).sort();
  const expected = [...SIDECAR_KEYS, ...EXTENSION_KEYS].map((k) => `contextSidecar.${k}`).sort();
  import_strict.default.deepEqual(contributed, expected);
  for (const [key, p] of Object.entries(props)) {
    import_strict.default.ok(p.description && p.description.length > 20, `${key} has a description`);
    import_strict.default.ok(p.scope, `${key} has a scope`);
  }
});
(0, import_node_test.test)("contributed defaults are the seed's numbers", () => {
  const d = (k) => props[`contextSidecar.${k}`].default;
  import_strict.default.equal(d("autoCompact.bufferTokens"), 13e3);
  import_strict.default.equal(d("autoCompact.enabled"), true);
  import_strict.default.equal(d("apiContextManagement.triggerTokens"), 18e4);
  import_strict.default.equal(d("apiContextManagement.keepTokens"), 4e4);
  import_strict.default.equal(d("sessionMemory.minTokens"), 1e4);
  import_strict.default.equal(d("sessionMemory.minTextBlockMessages"), 5);
  import_strict.default.equal(d("sessionMemory.maxTokens"), 4e4);
  import_strict.default.equal(d("postCompact.maxFiles"), 5);
  import_strict.default.equal(d("postCompact.totalTokens"), 5e4);
  import_strict.default.equal(d("postCompact.perFileTokens"), 5e3);
  import_strict.default.equal(d("history.maxItems"), 100);
  import_strict.default.equal(d("history.maxPastedContentLength"), 1024);
  import_strict.default.equal(d("microcompact.timeBased.gapMinutes"), 60);
  import_strict.default.equal(d("provider"), "anthropic");
  import_strict.default.equal(d("model"), "claude-sonnet-4-5");
  import_strict.default.equal(d("apiKeyEnv"), "ANTHROPIC_API_KEY");
  import_strict.default.equal(d("gaugeClickAction"), "showContext");
});
(0, import_node_test.test)("no setting can hold a key: nothing named like a secret is contributed", () => {
  for (const key of Object.keys(props)) import_strict.default.doesNotMatch(key, /apiKey$|secret|token$|password/i, key);
});
(0, import_node_test.test)("nestSettings builds the nested object and skips blanks", () => {
  import_strict.default.deepEqual(
    nestSettings([
      ["autoCompact.enabled", false],
      ["autoCompact.bufferTokens", 9e3],
      ["microcompact.timeBased.gapMinutes", 5],
      ["baseUrl", "  "],
      ["contextWindow", null],
      ["model", "gpt-4.1"],
      ["tools.allow", ["read"]]
    ]),
    { autoCompact: { enabled: false, bufferTokens: 9e3 }, microcompact: { timeBased: { gapMinutes: 5 } }, model: "gpt-4.1", tools: { allow: ["read"] } }
  );
});
(0, import_node_test.test)("explicitValue prefers folder over workspace over user and ignores defaults", () => {
  import_strict.default.equal(explicitValue({ globalValue: 1, workspaceValue: 2, workspaceFolderValue: 3 }), 3);
  import_strict.default.equal(explicitValue({ globalValue: 1, workspaceValue: 2 }), 2);
  import_strict.default.equal(explicitValue({ globalValue: 1 }), 1);
  import_strict.default.equal(explicitValue({}), void 0);
  import_strict.default.equal(explicitValue(void 0), void 0);
});
(0, import_node_test.test)("only explicitly set values reach the sidecar, never the extension's own settings", () => {
  import_strict.default.deepEqual(readSidecarSettings(), {}, "defaults alone send nothing, so the sidecar's settings files still apply");
  __settings.global["contextSidecar.model"] = "claude-opus-4-1";
  __settings.global["contextSidecar.autoCompact.bufferTokens"] = 2e4;
  __settings.workspace["contextSidecar.model"] = "claude-haiku-4-5";
  __settings.workspace["contextSidecar.baseUrl"] = "http://127.0.0.1:9999";
  __settings.global["contextSidecar.pythonPath"] = "/usr/bin/python3";
  __settings.global["contextSidecar.gaugeClickAction"] = "compact";
  import_strict.default.deepEqual(readSidecarSettings(), {
    model: "claude-haiku-4-5",
    baseUrl: "http://127.0.0.1:9999",
    autoCompact: { bufferTokens: 2e4 }
  });
});
(0, import_node_test.test)("restart only for settings that shape the process; others are pushed live", () => {
  import_strict.default.equal(needsRestart(__changeEvent(["contextSidecar.pythonPath"])), true);
  import_strict.default.equal(needsRestart(__changeEvent(["contextSidecar.serverCommand"])), true);
  import_strict.default.equal(needsRestart(__changeEvent(["contextSidecar.apiKeyEnv"])), true);
  import_strict.default.equal(needsRestart(__changeEvent(["contextSidecar.model"])), false);
  import_strict.default.equal(affectsSidecar(__changeEvent(["contextSidecar.autoCompact.bufferTokens"])), true);
  import_strict.default.equal(affectsSidecar(__changeEvent(["contextSidecar.gaugeClickAction"])), false);
  import_strict.default.equal(affectsSidecar(__changeEvent(["editor.fontSize"])), false);
});
(0, import_node_test.test)("apiKeyEnvName: an explicit variable name, else the provider's usual one", () => {
  import_strict.default.equal(apiKeyEnvName(), "ANTHROPIC_API_KEY");
  __settings.global["contextSidecar.provider"] = "openai-compatible";
  import_strict.default.equal(apiKeyEnvName(), "OPENAI_API_KEY");
  __settings.global["contextSidecar.apiKeyEnv"] = "OPENAI_API_KEY";
  import_strict.default.equal(apiKeyEnvName(), "OPENAI_API_KEY");
  __settings.global["contextSidecar.apiKeyEnv"] = "sk-ant-this-is-a-key";
  import_strict.default.equal(apiKeyEnvName(), "OPENAI_API_KEY", "a value that is no variable name is ignored");
});
//# sourceMappingURL=settings.test.js.map
