import assert from "node:assert/strict";
import { test } from "node:test";
import { stderrLineParser } from "../../src/client/serverLog";

test("sidecar stderr keeps its levels; tracebacks follow their record", () => {
  const parse = stderrLineParser();
  assert.deepEqual(parse("2026-11-30 01:25:02,132 INFO sidecar.lsp.server: serving LSP over stdio"), {
    level: "info",
    text: "sidecar.lsp.server: serving LSP over stdio",
  });
  assert.deepEqual(parse("2026-11-30 01:25:03,001 WARNING sidecar.core.settings: unknown setting x"), { level: "warn", text: "sidecar.core.settings: unknown setting x" });
  assert.deepEqual(parse("2026-11-30 01:25:04,002 ERROR sidecar.core.service: turn failed"), { level: "error", text: "sidecar.core.service: turn failed" });
  assert.deepEqual(parse("Traceback (most recent call last):"), { level: "error", text: "Traceback (most recent call last):" });
  assert.equal(parse("2026-11-30 01:25:05,000 DEBUG x: y").level, "debug");
  assert.equal(parse("  continuation").level, "debug");
  assert.equal(stderrLineParser()("/usr/bin/python: No module named sidecar").level, "error", "output before any record is an error");
});
