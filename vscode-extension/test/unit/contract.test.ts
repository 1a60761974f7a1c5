// The extension's mirror of the wire (src/shared/protocol.ts) against the golden fixtures the
// sidecar generates from its contract module (docs/contract/, `python -m sidecar.contract.fixtures`).
// A renamed method, a moved code, a new update kind or a dropped result field fails here.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { ChatController, type SidecarPort } from "../../src/chat/controller";
import type { HostToWebviewBody } from "../../src/shared/messages";
import {
  ErrorCodes,
  Methods,
  PROTOCOL_MAJOR,
  ResultFields,
  SessionSummaryFields,
  SessionUpdateKinds,
  type SessionUpdateParams,
} from "../../src/shared/protocol";

// out-test/unit/ after the build, three levels under the repository.
const CONTRACT = join(__dirname, "..", "..", "..", "docs", "contract");
const read = (file: string) => JSON.parse(readFileSync(join(CONTRACT, file), "utf8"));
const index = read("index.json");
const updateFiles: Record<string, string> = index.serverNotifications["session/update"].kinds;
const result = (method: string) => read(index.requests[method].result).result;

test("the extension speaks the contract's protocol version", () => {
  assert.equal(PROTOCOL_MAJOR, index.protocolVersion);
});

test("every method name the extension uses is one of the contract's", () => {
  const known = new Set(
    ["requests", "notifications", "serverNotifications", "serverRequests"].flatMap((k) => Object.keys(index[k])),
  );
  for (const [name, method] of Object.entries(Methods)) {
    assert.ok(known.has(method), `Methods.${name} is ${method}, which docs/contract/ does not have`);
  }
});

test("error codes are the contract's, and every one of the sidecar's own is mirrored", () => {
  for (const [name, code] of Object.entries(ErrorCodes)) {
    const golden = index.errors[name[0].toUpperCase() + name.slice(1)];
    assert.ok(golden, `ErrorCodes.${name} names no error of docs/contract/`);
    assert.equal(code, golden.code, `ErrorCodes.${name}`);
    assert.equal(read(golden.file).error.code, code);
  }
  const mirrored = new Set<number>(Object.values(ErrorCodes));
  for (const [name, golden] of Object.entries<{ code: number }>(index.errors)) {
    // -33001 and below are the sidecar's own; clients must read them by name.
    if (golden.code <= -33000) assert.ok(mirrored.has(golden.code), `${name} (${golden.code}) is not in ErrorCodes`);
  }
});

test("the update kinds are the contract's", () => {
  assert.deepEqual(Object.keys(SessionUpdateKinds).sort(), Object.keys(updateFiles).sort());
});

test("the fields the extension reads of each answer are in the contract's answers", () => {
  for (const [method, fields] of Object.entries(ResultFields)) {
    assert.ok(index.requests[method], `${method} is not a request of docs/contract/`);
    const answer = result(method);
    for (const field of fields) assert.ok(field in answer, `${method} answers no ${field}`);
  }
  const [summary] = result(Methods.sessionList).sessions;
  for (const field of SessionSummaryFields) assert.ok(field in summary, `session/list entries carry no ${field}`);
});

class GoldenPort implements SidecarPort {
  async request<R>(method: string): Promise<R> {
    return result(method) as R;
  }
  notify(): void {}
}

test("every update kind reaches the chat view, and the controller acts on the ones it reads", async () => {
  const posts: HostToWebviewBody[] = [];
  const compacting: boolean[] = [];
  const controller = new ChatController(
    {
      post: (b) => posts.push(b),
      gaugeChanged: () => undefined,
      compactingChanged: (c) => compacting.push(c),
      showContext: () => undefined,
      log: () => undefined,
    },
    () => "/home/dev/project",
  );
  await controller.setConnection("running", new GoldenPort());
  assert.ok(await controller.newSession());
  const started = result(Methods.sessionNew);
  assert.equal(controller.currentSessionId, started.sessionId);

  for (const [kind, file] of Object.entries(updateFiles)) {
    const notification = read(file);
    assert.equal(notification.method, Methods.sessionUpdate);
    const params = notification.params as SessionUpdateParams;
    assert.equal(params.sessionId, started.sessionId, `${file} is about the session session/new opened`);
    if (params.update.sessionUpdate === "compaction_update") {
      // The same compaction, running: the controller reads status and compactionId.
      controller.onSessionUpdate({ ...params, update: { ...params.update, status: "in_progress" } });
      assert.deepEqual(compacting, [true]);
    }
    posts.length = 0;
    controller.onSessionUpdate(params);
    assert.deepEqual(
      posts.filter((p) => p.type === "update"),
      [{ type: "update", update: params.update }],
      `${kind} reaches the chat view`,
    );
    const update = params.update;
    if (update.sessionUpdate === "usage_update") {
      assert.deepEqual(posts.find((p) => p.type === "gauge"), { type: "gauge", gauge: update._meta?.sidecar });
    }
    if (update.sessionUpdate === "compaction_update") {
      assert.deepEqual(compacting, [true, update.status === "in_progress"]);
    }
    if (update.sessionUpdate === "session_info_update") {
      const state = posts.find((p) => p.type === "state") as { title?: string } | undefined;
      assert.equal(state?.title, update.title);
    }
  }
});
