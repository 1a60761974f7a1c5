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

// test/unit/handshake.test.ts
var import_strict = __toESM(require("node:assert/strict"));
var import_node_test = require("node:test");

// src/shared/protocol.ts
var PROTOCOL_MAJOR = 1;

// src/client/handshake.ts
var clientSidecarCapabilities = {
  protocolVersion: PROTOCOL_MAJOR,
  permissionRequests: true,
  compactionUpdates: true
};
function initializationOptions(settings, editorInfo) {
  return { settings, editorInfo };
}
function withSidecarCapabilities(capabilities) {
  const experimental = typeof capabilities.experimental === "object" && capabilities.experimental !== null ? capabilities.experimental : {};
  capabilities.experimental = { ...experimental, contextSidecar: { ...clientSidecarCapabilities } };
  return capabilities;
}
function majorOf(version) {
  if (typeof version === "number" && Number.isFinite(version)) return Math.trunc(version);
  if (typeof version === "string" && /^\d+(\.\d+)*$/.test(version.trim())) {
    return Number.parseInt(version.trim().split(".")[0], 10);
  }
  return void 0;
}
function checkServerProtocol(initializeResult) {
  const result = initializeResult ?? {};
  const block = result.capabilities?.experimental?.contextSidecar;
  const server = result.serverInfo?.name ? `${result.serverInfo.name}${result.serverInfo.version ? ` ${result.serverInfo.version}` : ""}` : "The server";
  if (!block) {
    return {
      ok: false,
      message: `${server} does not speak the context-sidecar protocol (no capabilities.experimental.contextSidecar in its initialize result). Check contextSidecar.serverCommand / pythonPath.`
    };
  }
  const major = majorOf(block.protocolVersion);
  if (major !== PROTOCOL_MAJOR) {
    return {
      ok: false,
      message: `${server} speaks context-sidecar protocol version ${String(block.protocolVersion)}, but this extension speaks version ${PROTOCOL_MAJOR}. Install matching versions of the extension and the sidecar (pip install -U context-sidecar, or update the extension).`
    };
  }
  const providers = Array.isArray(block.providers) ? block.providers.filter((p) => typeof p === "string") : [];
  return { ok: true, version: block.protocolVersion, providers };
}
function fixFromErrorData(data) {
  if (data === void 0 || data === null) return void 0;
  if (typeof data === "string") return data;
  if (typeof data === "object") {
    const d = data;
    for (const key of ["fix", "hint", "howToFix", "message", "reason"]) {
      if (typeof d[key] === "string" && d[key]) return d[key];
    }
    const parts = [];
    if (d.status !== void 0) parts.push(`status ${String(d.status)}`);
    if (typeof d.type === "string") parts.push(d.type);
    if (d.retryAfter !== void 0 && d.retryAfter !== null) parts.push(`retry after ${String(d.retryAfter)} s`);
    if (typeof d.tier === "string") parts.push(`tier ${d.tier}`);
    if (parts.length) return parts.join(", ");
    try {
      return JSON.stringify(data);
    } catch {
      return void 0;
    }
  }
  return String(data);
}

// src/shared/messages.ts
var SeqStamper = class {
  next = 1;
  stamp(body) {
    return { ...body, seq: this.next++ };
  }
};
var SeqGate = class {
  last = 0;
  accept(message) {
    if (typeof message.seq !== "number" || !Number.isFinite(message.seq)) return false;
    if (message.seq <= this.last) return false;
    this.last = message.seq;
    return true;
  }
  /** The other side restarted its numbering (a reloaded webview says `ready` again). */
  reset() {
    this.last = 0;
  }
};
var webviewTypes = /* @__PURE__ */ new Set([
  "ready",
  "newSession",
  "listSessions",
  "loadSession",
  "prompt",
  "cancel",
  "compact",
  "showContext",
  "permissionAnswer"
]);
function parseWebviewMessage(value) {
  if (typeof value !== "object" || value === null) return void 0;
  const m = value;
  if (typeof m.type !== "string" || !webviewTypes.has(m.type)) return void 0;
  if (typeof m.seq !== "number") return void 0;
  switch (m.type) {
    case "loadSession":
      return typeof m.sessionId === "string" ? m : void 0;
    case "prompt":
      return typeof m.text === "string" ? m : void 0;
    case "compact":
      return m.instructions === void 0 || typeof m.instructions === "string" ? m : void 0;
    case "permissionAnswer":
      return typeof m.requestId === "number" && (m.optionId === null || typeof m.optionId === "string") ? m : void 0;
    default:
      return m;
  }
}

// test/unit/handshake.test.ts
(0, import_node_test.test)("capabilities keep other experimental entries and add ours", () => {
  const caps = withSidecarCapabilities({ experimental: { other: 1 } });
  import_strict.default.deepEqual(caps.experimental, {
    other: 1,
    contextSidecar: { protocolVersion: 1, permissionRequests: true, compactionUpdates: true }
  });
  import_strict.default.deepEqual(withSidecarCapabilities({}).experimental, {
    contextSidecar: { protocolVersion: 1, permissionRequests: true, compactionUpdates: true }
  });
});
(0, import_node_test.test)("initializationOptions carry settings and editor info, nothing else", () => {
  import_strict.default.deepEqual(initializationOptions({ model: "m" }, { name: "VS Code", version: "1.100.3" }), {
    settings: { model: "m" },
    editorInfo: { name: "VS Code", version: "1.100.3" }
  });
});
(0, import_node_test.test)("protocol major versions", () => {
  import_strict.default.equal(majorOf(1), 1);
  import_strict.default.equal(majorOf(1.4), 1);
  import_strict.default.equal(majorOf("1"), 1);
  import_strict.default.equal(majorOf("2.0"), 2);
  import_strict.default.equal(majorOf("v1"), void 0);
  import_strict.default.equal(majorOf(void 0), void 0);
});
(0, import_node_test.test)("a sidecar of another major version is refused with a reason", () => {
  const ok = checkServerProtocol({
    serverInfo: { name: "context-sidecar", version: "0.1.0" },
    capabilities: { experimental: { contextSidecar: { protocolVersion: 1, providers: ["anthropic", "openai"] } } }
  });
  import_strict.default.deepEqual(ok, { ok: true, version: 1, providers: ["anthropic", "openai"] });
  const newer = checkServerProtocol({
    serverInfo: { name: "context-sidecar", version: "3.0.0" },
    capabilities: { experimental: { contextSidecar: { protocolVersion: 2 } } }
  });
  import_strict.default.equal(newer.ok, false);
  import_strict.default.match(newer.message, /context-sidecar 3\.0\.0 speaks context-sidecar protocol version 2, but this extension speaks version 1/);
  const foreign = checkServerProtocol({ serverInfo: { name: "pylsp" }, capabilities: {} });
  import_strict.default.equal(foreign.ok, false);
  import_strict.default.match(foreign.message, /pylsp does not speak the context-sidecar protocol/);
  import_strict.default.equal(checkServerProtocol(void 0).ok, false);
});
(0, import_node_test.test)("error data becomes a fix sentence", () => {
  import_strict.default.equal(fixFromErrorData("Set ANTHROPIC_API_KEY"), "Set ANTHROPIC_API_KEY");
  import_strict.default.equal(fixFromErrorData({ fix: "Run Set API Key" }), "Run Set API Key");
  import_strict.default.equal(fixFromErrorData({ status: 429, type: "rate_limit_error", retryAfter: 30 }), "status 429, rate_limit_error, retry after 30 s");
  import_strict.default.equal(fixFromErrorData({ tier: "full", reason: "prompt too long" }), "prompt too long");
  import_strict.default.equal(fixFromErrorData({ odd: true }), '{"odd":true}');
  import_strict.default.equal(fixFromErrorData(null), void 0);
});
(0, import_node_test.test)("seq stamping and gating", () => {
  const s = new SeqStamper();
  const a = s.stamp({ type: "ready" });
  const b = s.stamp({ type: "cancel" });
  import_strict.default.deepEqual([a.seq, b.seq], [1, 2]);
  const g = new SeqGate();
  import_strict.default.equal(g.accept(b), true);
  import_strict.default.equal(g.accept(a), false, "older than the last accepted");
  import_strict.default.equal(g.accept(b), false, "a duplicate");
  import_strict.default.equal(g.accept({}), false, "no seq");
  g.reset();
  import_strict.default.equal(g.accept(a), true);
});
(0, import_node_test.test)("parseWebviewMessage rejects malformed posts", () => {
  import_strict.default.deepEqual(parseWebviewMessage({ type: "prompt", text: "hi", seq: 3 }), { type: "prompt", text: "hi", seq: 3 });
  import_strict.default.equal(parseWebviewMessage({ type: "prompt", seq: 3 }), void 0);
  import_strict.default.equal(parseWebviewMessage({ type: "prompt", text: "hi" }), void 0);
  import_strict.default.equal(parseWebviewMessage({ type: "rm -rf", seq: 1 }), void 0);
  import_strict.default.equal(parseWebviewMessage({ type: "permissionAnswer", requestId: "1", optionId: "a", seq: 1 }), void 0);
  import_strict.default.ok(parseWebviewMessage({ type: "permissionAnswer", requestId: 1, optionId: null, seq: 1 }));
  import_strict.default.equal(parseWebviewMessage({ type: "compact", instructions: 5, seq: 1 }), void 0);
  import_strict.default.equal(parseWebviewMessage(null), void 0);
  import_strict.default.equal(parseWebviewMessage("prompt"), void 0);
});
//# sourceMappingURL=handshake.test.js.map
