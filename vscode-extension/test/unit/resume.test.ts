import assert from "node:assert/strict";
import { test } from "node:test";
import { harness, started } from "./harness";

const list = (...ids: string[]) => ({ sessions: ids.map((sessionId, i) => ({ sessionId, title: `title ${i}` })) });

test("when the sidecar comes up, the workspace's newest session is reopened", async () => {
  const t = harness(
    { "session/list": () => list("newest", "older"), "session/load": (p) => started(p.sessionId) },
    {},
    { resumeLastSession: () => true },
  );
  await t.controller.setConnection("running", t.port);
  assert.deepEqual(t.port.requests.map((r) => [r.method, r.params]), [
    ["session/list", { cwd: "/work/proj" }],
    ["session/load", { sessionId: "newest" }],
  ]);
  assert.equal(t.controller.currentSessionId, "newest");
  const state = t.posted("state").at(-1)!;
  assert.equal(state.sessionId, "newest");
  assert.equal(state.title, "title 0", "the title shows before the first update");
  assert.equal(t.posted("sessions").length, 0, "resuming does not open the session list");

  // A sidecar restart reloads the focused session; it does not list again.
  await t.controller.setConnection("stopped");
  await t.controller.setConnection("running", t.port);
  assert.deepEqual(t.port.methods(), ["session/list", "session/load", "session/load"]);
  assert.equal(t.port.requests.at(-1)!.params.sessionId, "newest");
});

test("resumeLastSession false, or no session yet: the chat starts empty", async () => {
  const off = harness({ "session/list": () => list("s") }, {}, { resumeLastSession: () => false });
  await off.controller.setConnection("running", off.port);
  assert.deepEqual(off.port.methods(), []);
  assert.equal(off.controller.currentSessionId, null);

  const none = harness({ "session/list": () => list() }, {}, { resumeLastSession: () => true });
  await none.controller.setConnection("running", none.port);
  assert.deepEqual(none.port.methods(), ["session/list"]);
  assert.equal(none.controller.currentSessionId, null);
});

test("a session that cannot be loaded leaves the chat empty, and resume is tried once", async () => {
  const t = harness(
    {
      "session/list": () => list("broken"),
      "session/load": () => {
        throw Object.assign(new Error("Session not found"), { code: -33001 });
      },
    },
    {},
    { resumeLastSession: () => true },
  );
  await t.controller.setConnection("running", t.port);
  assert.equal(t.controller.currentSessionId, null);
  await t.controller.setConnection("stopped");
  await t.controller.setConnection("running", t.port);
  assert.deepEqual(t.port.methods(), ["session/list", "session/load"]);
});
