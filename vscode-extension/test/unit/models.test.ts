import assert from "node:assert/strict";
import { test } from "node:test";
import { modelDetails, modelPickItems, modelPickPlaceholder, windowWords } from "../../src/status/models";
import type { ModelList } from "../../src/shared/protocol";
import { harness, started } from "./harness";

const LIST: ModelList = {
  current: "claude-sonnet-5-5",
  source: "provider",
  models: [
    { id: "claude-sonnet-5-5", displayName: "Claude Sonnet 5.5", lifecycle: "active", contextWindow: 1_000_000 },
    { id: "claude-opus-4-5-20251101", displayName: "Claude Opus 4.5", lifecycle: "deprecated", contextWindow: 200_000 },
    { id: "local-model", displayName: null, lifecycle: "active", contextWindow: null },
  ],
};

test("the quick pick marks the current model and says each one's name, window and lifecycle", () => {
  assert.deepEqual(modelPickItems(LIST), [
    { id: "claude-sonnet-5-5", label: "$(check) claude-sonnet-5-5", description: "(current) Claude Sonnet 5.5 · 1M context", picked: true },
    { id: "claude-opus-4-5-20251101", label: "claude-opus-4-5-20251101", description: "Claude Opus 4.5 · 200K context · deprecated", picked: false },
    { id: "local-model", label: "local-model", description: "", picked: false },
  ]);
  assert.match(modelPickPlaceholder(LIST), /^Now claude-sonnet-5-5 · from the provider's models list$/);
  assert.match(modelPickPlaceholder({ ...LIST, source: "catalog" }), /the model catalog/);
  assert.equal(windowWords(1_050_000), "1M");
  assert.equal(windowWords(1_500_000), "1.5M");
  assert.equal(windowWords(128_000), "128K");
  assert.equal(modelDetails({ id: "x", displayName: "x" }), "");
});

test("listModels asks sidecar/models for the focused session; setModel switches it and the panel follows", async () => {
  const t = harness({
    "session/new": () => started("s-1"),
    "sidecar/models": () => LIST,
    "session/set_model": () => ({ gauge: { sessionId: "s-1", seq: 5, model: "claude-opus-5-5", provider: "anthropic", used: 10, size: 1_000_000, percentUsed: 0, level: "ok" } }),
  });
  await t.controller.setConnection("running", t.port);
  // No session yet: one is started first.
  assert.deepEqual(await t.controller.listModels(), LIST);
  assert.deepEqual(t.port.requests.slice(-1), [{ method: "sidecar/models", params: { sessionId: "s-1" } }]);
  assert.ok(await t.controller.setModel("claude-opus-5-5"));
  assert.deepEqual(t.port.requests.at(-1), { method: "session/set_model", params: { sessionId: "s-1", model: "claude-opus-5-5" } });
  assert.equal(t.controller.currentModel, "claude-opus-5-5");
  assert.equal(t.posted("state").at(-1)!.model, "claude-opus-5-5");
  // The panel's model chip asks the host for the quick pick.
  await t.send({ type: "pickModel" });
  assert.equal((t.hooks("hostRequest").at(-1)![0] as { type: string }).type, "pickModel");
});

test("a model switched in the chat (/model NAME) reaches the panel's chip through the gauge", async () => {
  const t = harness({ "session/new": () => started("s-1") });
  await t.controller.setConnection("running", t.port);
  await t.controller.newSession();
  t.controller.onSessionUpdate({
    sessionId: "s-1",
    update: { sessionUpdate: "usage_update", used: 10, size: 1_000_000, _meta: { sidecar: { sessionId: "s-1", seq: 9, model: "claude-haiku-5-5", provider: "anthropic", used: 10, size: 1_000_000, percentUsed: 0, level: "ok" } } },
  });
  assert.equal(t.posted("state").at(-1)!.model, "claude-haiku-5-5");
});
