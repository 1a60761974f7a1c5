// Every message the panel posts is checked by the one parser before the host acts on it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { parseWebviewMessage } from "../../src/shared/messages";

test("parseWebviewMessage accepts each panel message in its shape", () => {
  const good = [
    { type: "ready" },
    { type: "prompt", text: "hi" },
    { type: "compact" },
    { type: "permissionAnswer", requestId: 1, optionId: null },
    { type: "permissionAnswer", requestId: 1, optionId: "reject_once", reason: "keep the old name" },
    { type: "copyCode", text: "x = 1\n" },
    { type: "insertCode", text: "x = 1\n", language: "python" },
    { type: "applyCode", text: "x = 1\n" },
    { type: "openFile", path: "/w/calc.py", line: 3 },
    { type: "setMode", modeId: "plan" },
    { type: "pickMode" },
    { type: "pickModel" },
    { type: "fileQuery", requestId: 2, query: "cal" },
    { type: "removeAttachment", id: 4 },
    { type: "resend" },
    { type: "dismissResend" },
    { type: "setApiKey" },
    { type: "requestContext" },
    { type: "deleteSession", sessionId: "s-1" },
    { type: "renameSession", sessionId: "s-1", title: "Fix it" },
  ];
  for (const [i, body] of good.entries()) {
    const m = { ...body, seq: i + 1 };
    assert.deepEqual(parseWebviewMessage(m), m, body.type);
  }
});

test("parseWebviewMessage refuses wrong shapes and unknown types", () => {
  const bad = [
    { type: "copyCode", seq: 1 },
    { type: "permissionAnswer", requestId: 1, optionId: "reject_once", reason: 3, seq: 1 },
    { type: "insertCode", text: 1, seq: 1 },
    { type: "insertCode", text: "x", language: 3, seq: 1 },
    { type: "openFile", path: "/a", line: "3", seq: 1 },
    { type: "setMode", seq: 1 },
    { type: "fileQuery", requestId: "1", query: "a", seq: 1 },
    { type: "removeAttachment", id: "4", seq: 1 },
    { type: "deleteSession", sessionId: null, seq: 1 },
    { type: "renameSession", sessionId: "s", seq: 1 },
    { type: "requestContext" },
    { type: "loadSession", seq: 1 },
    { type: "rm -rf", seq: 1 },
    null,
    "copyCode",
  ];
  for (const m of bad) assert.equal(parseWebviewMessage(m), undefined, JSON.stringify(m));
});
