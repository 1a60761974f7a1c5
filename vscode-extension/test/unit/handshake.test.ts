import assert from "node:assert/strict";
import { test } from "node:test";
import { checkServerProtocol, fixFromErrorData, initializationOptions, majorOf, withSidecarCapabilities } from "../../src/client/handshake";
import { SeqGate, SeqStamper, parseWebviewMessage } from "../../src/shared/messages";

test("capabilities keep other experimental entries and add ours", () => {
  const caps = withSidecarCapabilities({ experimental: { other: 1 } } as { experimental?: unknown });
  assert.deepEqual(caps.experimental, {
    other: 1,
    contextSidecar: { protocolVersion: 8, permissionRequests: true, compactionUpdates: true },
  });
  assert.deepEqual(withSidecarCapabilities({} as { experimental?: unknown }).experimental, {
    contextSidecar: { protocolVersion: 8, permissionRequests: true, compactionUpdates: true },
  });
});

test("initializationOptions carry settings and editor info, nothing else", () => {
  assert.deepEqual(initializationOptions({ model: "m" }, { name: "VS Code", version: "1.100.3" }), {
    settings: { model: "m" },
    editorInfo: { name: "VS Code", version: "1.100.3" },
  });
});

test("initializationOptions carry the editor's trust verdict, false as well as true", () => {
  const editor = { name: "VS Code", version: "1.100.3" };
  assert.deepEqual(initializationOptions({}, editor, false), { settings: {}, editorInfo: editor, workspaceTrusted: false });
  assert.deepEqual(initializationOptions({}, editor, true), { settings: {}, editorInfo: editor, workspaceTrusted: true });
  assert.ok(!("workspaceTrusted" in initializationOptions({}, editor, undefined)), "no verdict: the sidecar decides");
});

test("protocol major versions", () => {
  assert.equal(majorOf(1), 1);
  assert.equal(majorOf(1.4), 1);
  assert.equal(majorOf("1"), 1);
  assert.equal(majorOf("2.0"), 2);
  assert.equal(majorOf("v1"), undefined);
  assert.equal(majorOf(undefined), undefined);
});

test("a sidecar of another major version is refused with a reason", () => {
  const ok = checkServerProtocol({
    serverInfo: { name: "context-sidecar", version: "0.1.0" },
    capabilities: { experimental: { contextSidecar: { protocolVersion: 8, providers: ["anthropic", "openai"] } } },
  });
  assert.deepEqual(ok, { ok: true, version: 8, providers: ["anthropic", "openai"] });

  // Version 1 numbered the sidecar's errors -32001..-32006; its codes would be misread.
  const older = checkServerProtocol({
    serverInfo: { name: "context-sidecar", version: "0.0.9" },
    capabilities: { experimental: { contextSidecar: { protocolVersion: 1 } } },
  });
  assert.equal(older.ok, false);
  assert.match((older as { message: string }).message, /context-sidecar 0\.0\.9 speaks context-sidecar protocol version 1, but this extension speaks version 8/);

  const newer = checkServerProtocol({
    serverInfo: { name: "context-sidecar", version: "9.0.0" },
    capabilities: { experimental: { contextSidecar: { protocolVersion: 9 } } },
  });
  assert.equal(newer.ok, false);
  assert.match((newer as { message: string }).message, /context-sidecar 9\.0\.0 speaks context-sidecar protocol version 9, but this extension speaks version 8/);

  // Version 7 carried no provider tools in /context nor deferred tools in the gauge.
  const v7 = checkServerProtocol({ serverInfo: { name: "context-sidecar", version: "0.1.0" }, capabilities: { experimental: { contextSidecar: { protocolVersion: 7 } } } });
  assert.equal(v7.ok, false);

  // Version 6 took no checkpoints: a message's rewind control would have nothing to go back to.
  const v6 = checkServerProtocol({ serverInfo: { name: "context-sidecar", version: "0.1.0" }, capabilities: { experimental: { contextSidecar: { protocolVersion: 6 } } } });
  assert.equal(v6.ok, false);

  // Version 5 sent no task list: the panel would never show the model's plan.
  const v5 = checkServerProtocol({ serverInfo: { name: "context-sidecar", version: "0.1.0" }, capabilities: { experimental: { contextSidecar: { protocolVersion: 5 } } } });
  assert.equal(v5.ok, false);

  // Version 4 had no sidecar/models: the model picker would find no list.
  const v4 = checkServerProtocol({ serverInfo: { name: "context-sidecar", version: "0.1.0" }, capabilities: { experimental: { contextSidecar: { protocolVersion: 4 } } } });
  assert.equal(v4.ok, false);

  // Version 3 knew no workspace trust: a restricted window's verdict would go unheeded.
  const v3 = checkServerProtocol({ serverInfo: { name: "context-sidecar", version: "0.1.0" }, capabilities: { experimental: { contextSidecar: { protocolVersion: 3 } } } });
  assert.equal(v3.ok, false);

  const foreign = checkServerProtocol({ serverInfo: { name: "pylsp" }, capabilities: {} });
  assert.equal(foreign.ok, false);
  assert.match((foreign as { message: string }).message, /pylsp does not speak the context-sidecar protocol/);
  assert.equal(checkServerProtocol(undefined).ok, false);
});

test("error data becomes a fix sentence", () => {
  assert.equal(fixFromErrorData("Set ANTHROPIC_API_KEY"), "Set ANTHROPIC_API_KEY");
  assert.equal(fixFromErrorData({ fix: "Run Set API Key" }), "Run Set API Key");
  assert.equal(fixFromErrorData({ status: 429, type: "rate_limit_error", retryAfter: 30 }), "status 429, rate_limit_error, retry after 30 s");
  assert.equal(fixFromErrorData({ tier: "full", reason: "prompt too long" }), "prompt too long");
  assert.equal(fixFromErrorData({ odd: true }), '{"odd":true}');
  assert.equal(fixFromErrorData(null), undefined);
});

test("seq stamping and gating", () => {
  const s = new SeqStamper();
  const a = s.stamp({ type: "ready" });
  const b = s.stamp({ type: "cancel" });
  assert.deepEqual([a.seq, b.seq], [1, 2]);
  const g = new SeqGate();
  assert.equal(g.accept(b), true);
  assert.equal(g.accept(a), false, "older than the last accepted");
  assert.equal(g.accept(b), false, "a duplicate");
  assert.equal(g.accept({}), false, "no seq");
  g.reset();
  assert.equal(g.accept(a), true);
});

test("parseWebviewMessage rejects malformed posts", () => {
  assert.deepEqual(parseWebviewMessage({ type: "prompt", text: "hi", seq: 3 }), { type: "prompt", text: "hi", seq: 3 });
  assert.equal(parseWebviewMessage({ type: "prompt", seq: 3 }), undefined);
  assert.equal(parseWebviewMessage({ type: "prompt", text: "hi" }), undefined);
  assert.equal(parseWebviewMessage({ type: "rm -rf", seq: 1 }), undefined);
  assert.equal(parseWebviewMessage({ type: "permissionAnswer", requestId: "1", optionId: "a", seq: 1 }), undefined);
  assert.ok(parseWebviewMessage({ type: "permissionAnswer", requestId: 1, optionId: null, seq: 1 }));
  assert.equal(parseWebviewMessage({ type: "compact", instructions: 5, seq: 1 }), undefined);
  assert.equal(parseWebviewMessage(null), undefined);
  assert.equal(parseWebviewMessage("prompt"), undefined);
});
