import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { after, beforeEach, test } from "node:test";
import { HOW_TO_FIX, ServerNotFoundError, expandVariables, findOnPath, resolveServerCommand } from "../../src/client/serverCommand";
import * as vscode from "../mocks/vscode";

const scratch = mkdtempSync(path.join(tmpdir(), "sidecar-cmd-"));
const savedPath = process.env.PATH;

function executable(name: string, body: string): string {
  const file = path.join(scratch, name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

// A "python" that can import the sidecar, and one that cannot.
const goodPython = executable("python-good", "exit 0");
const badPython = executable("python-bad", "exit 1");

beforeEach(() => {
  vscode.__settings.reset();
  vscode.__extensions.clear();
  process.env.PATH = "/nonexistent";
});
after(() => {
  process.env.PATH = savedPath;
  rmSync(scratch, { recursive: true, force: true });
});

function pythonExtension(interpreter: string | undefined) {
  vscode.__extensions.set("ms-python.python", {
    isActive: true,
    exports: { environments: { getActiveEnvironmentPath: () => (interpreter ? { path: interpreter } : undefined) } },
    activate: async () => undefined,
  });
}

const opts = { home: "/home/me" };

test("serverCommand wins, with variables expanded", async () => {
  vscode.__settings.global["contextSidecar.serverCommand"] = ["~/bin/context-sidecar", "serve", "--log", "${userHome}/x"];
  vscode.__settings.global["contextSidecar.pythonPath"] = goodPython;
  const cmd = await resolveServerCommand(opts);
  assert.deepEqual(cmd, { command: "/home/me/bin/context-sidecar", args: ["serve", "--log", "/home/me/x"], origin: "serverCommand" });
});

test("pythonPath runs the module", async () => {
  vscode.__settings.global["contextSidecar.pythonPath"] = "${workspaceFolder}/.venv/bin/python";
  pythonExtension(goodPython);
  const cmd = await resolveServerCommand({ ...opts, workspaceFolder: vscode.Uri.file("/proj") as never });
  assert.deepEqual(cmd, { command: "/proj/.venv/bin/python", args: ["-m", "sidecar", "serve"], origin: "pythonPath" });
});

test("the Python extension's interpreter is used when the sidecar imports there", async () => {
  pythonExtension(goodPython);
  assert.deepEqual(await resolveServerCommand(opts), { command: goodPython, args: ["-m", "sidecar", "serve"], origin: "pythonExtension" });
});

test("an interpreter without the sidecar falls through to PATH, and says so", async () => {
  pythonExtension(badPython);
  const bin = path.join(scratch, "bin");
  mkdirSync(bin, { recursive: true });
  const onPath = path.join(bin, "context-sidecar");
  writeFileSync(onPath, "#!/bin/sh\n");
  chmodSync(onPath, 0o755);
  process.env.PATH = `/nonexistent:${bin}`;
  const lines: string[] = [];
  const cmd = await resolveServerCommand({ ...opts, log: (l) => lines.push(l) });
  assert.deepEqual(cmd, { command: onPath, args: ["serve"], origin: "path" });
  assert.match(lines.join("\n"), /cannot import the sidecar/);
});

test("nothing found: a clear error that says how to fix it", async () => {
  await assert.rejects(resolveServerCommand(opts), (error: unknown) => {
    assert.ok(error instanceof ServerNotFoundError);
    assert.match(error.message, /contextSidecar\.pythonPath/);
    assert.match(error.message, /pip install context-sidecar/);
    assert.ok(error.message.endsWith(HOW_TO_FIX));
    return true;
  });
});

test("findOnPath skips non-executables and directories", async () => {
  const dir = path.join(scratch, "path-dir");
  mkdirSync(dir);
  writeFileSync(path.join(dir, "context-sidecar"), "not executable");
  assert.equal(await findOnPath("context-sidecar", dir), undefined);
  chmodSync(path.join(dir, "context-sidecar"), 0o755);
  assert.equal(await findOnPath("context-sidecar", `${dir}`), path.join(dir, "context-sidecar"));
});

test("expandVariables", () => {
  assert.equal(expandVariables("~", "/h", undefined), "/h");
  assert.equal(expandVariables("~/x", "/h", undefined), "/h/x");
  assert.equal(expandVariables("${workspaceFolder}/.venv", "/h", "/w"), "/w/.venv");
  assert.equal(expandVariables("a~b", "/h", "/w"), "a~b");
});
