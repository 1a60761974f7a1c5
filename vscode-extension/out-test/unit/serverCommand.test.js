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

// test/unit/serverCommand.test.ts
var import_strict = __toESM(require("node:assert/strict"));
var import_node_fs3 = require("node:fs");
var import_node_os = require("node:os");
var path3 = __toESM(require("node:path"));
var import_node_test = require("node:test");

// src/client/serverCommand.ts
var import_node_child_process = require("node:child_process");
var import_node_fs2 = require("node:fs");
var path2 = __toESM(require("node:path"));

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
var Uri = class _Uri {
  constructor(scheme, path4) {
    this.scheme = scheme;
    this.path = path4;
  }
  scheme;
  path;
  static file(p) {
    return new _Uri("file", p);
  }
  static parse(value) {
    const m = /^([a-z][\w+.-]*):(?:\/\/)?(.*)$/i.exec(value);
    return m ? new _Uri(m[1], m[2].startsWith("/") ? m[2] : `/${m[2]}`) : new _Uri("file", value);
  }
  static joinPath(base, ...parts) {
    return new _Uri(base.scheme, path.posix.join(base.path, ...parts));
  }
  static from(c) {
    return new _Uri(c.scheme, c.path);
  }
  get fsPath() {
    return this.path;
  }
  toString() {
    return `${this.scheme}://${this.path}`;
  }
};
var __extensions = /* @__PURE__ */ new Map();
var extensions = {
  getExtension(id) {
    return __extensions.get(id);
  }
};

// src/client/settings.ts
var SECTION = "contextSidecar";
function getSetting(key, scope) {
  return workspace.getConfiguration(SECTION, scope).get(key);
}

// src/client/serverCommand.ts
var ServerNotFoundError = class extends Error {
};
var HOW_TO_FIX = 'Install the sidecar (`pip install context-sidecar`) and either set `contextSidecar.pythonPath` to that Python, set `contextSidecar.serverCommand` to the full command (for example `["/path/to/context-sidecar", "serve"]`), select that interpreter with the Python extension, or put `context-sidecar` on PATH.';
function expandVariables(value, home, workspaceFolder) {
  let out = value.replace(/\$\{userHome\}/g, home);
  if (workspaceFolder) out = out.replace(/\$\{workspaceFolder\}/g, workspaceFolder);
  if (out === "~" || out.startsWith("~/")) out = home + out.slice(1);
  return out;
}
function pythonModuleCommand(python, origin) {
  return { command: python, args: ["-m", "sidecar", "serve"], origin };
}
async function isExecutable(file) {
  try {
    await import_node_fs2.promises.access(file, import_node_fs2.constants.X_OK);
    return (await import_node_fs2.promises.stat(file)).isFile();
  } catch {
    return false;
  }
}
async function findOnPath(name, envPath = process.env.PATH ?? "") {
  for (const dir of envPath.split(path2.delimiter)) {
    if (!dir) continue;
    const candidate = path2.join(dir, name);
    if (await isExecutable(candidate)) return candidate;
  }
  return void 0;
}
function pythonHasSidecar(python) {
  return new Promise((resolve) => {
    (0, import_node_child_process.execFile)(python, ["-c", "import sidecar"], { timeout: 1e4 }, (error) => resolve(!error));
  });
}
async function pythonFromExtension(resource) {
  const ext = extensions.getExtension("ms-python.python");
  if (!ext) return void 0;
  try {
    const api = ext.isActive ? ext.exports : await ext.activate();
    const active = api?.environments?.getActiveEnvironmentPath(resource);
    return active?.path || void 0;
  } catch {
    return void 0;
  }
}
async function resolveServerCommand(opts2) {
  const folderPath = opts2.workspaceFolder?.fsPath;
  const expand = (v) => expandVariables(v, opts2.home, folderPath);
  const serverCommand = getSetting("serverCommand", opts2.workspaceFolder);
  if (Array.isArray(serverCommand) && serverCommand.length > 0 && serverCommand.every((s) => typeof s === "string")) {
    const [command, ...args] = serverCommand.map(expand);
    return { command, args, origin: "serverCommand" };
  }
  const pythonPath = getSetting("pythonPath", opts2.workspaceFolder);
  if (typeof pythonPath === "string" && pythonPath.trim()) {
    return pythonModuleCommand(expand(pythonPath.trim()), "pythonPath");
  }
  const fromExtension = await pythonFromExtension(opts2.workspaceFolder);
  if (fromExtension) {
    if (await pythonHasSidecar(fromExtension)) return pythonModuleCommand(fromExtension, "pythonExtension");
    opts2.log?.(`The Python extension's interpreter ${fromExtension} cannot import the sidecar; trying PATH.`);
  }
  const onPath = await findOnPath("context-sidecar");
  if (onPath) return { command: onPath, args: ["serve"], origin: "path" };
  throw new ServerNotFoundError(`Context Sidecar cannot find the sidecar. ${HOW_TO_FIX}`);
}

// test/unit/serverCommand.test.ts
var scratch = (0, import_node_fs3.mkdtempSync)(path3.join((0, import_node_os.tmpdir)(), "sidecar-cmd-"));
var savedPath = process.env.PATH;
function executable(name, body) {
  const file = path3.join(scratch, name);
  (0, import_node_fs3.writeFileSync)(file, `#!/bin/sh
${body}
`);
  (0, import_node_fs3.chmodSync)(file, 493);
  return file;
}
var goodPython = executable("python-good", "exit 0");
var badPython = executable("python-bad", "exit 1");
(0, import_node_test.beforeEach)(() => {
  __settings.reset();
  __extensions.clear();
  process.env.PATH = "/nonexistent";
});
(0, import_node_test.after)(() => {
  process.env.PATH = savedPath;
});
function pythonExtension(interpreter) {
  __extensions.set("ms-python.python", {
    isActive: true,
    exports: { environments: { getActiveEnvironmentPath: () => interpreter ? { path: interpreter } : void 0 } },
    activate: async () => void 0
  });
}
var opts = { home: "/home/me" };
(0, import_node_test.test)("serverCommand wins, with variables expanded", async () => {
  __settings.global["contextSidecar.serverCommand"] = ["~/bin/context-sidecar", "serve", "--log", "${userHome}/x"];
  __settings.global["contextSidecar.pythonPath"] = goodPython;
  const cmd = await resolveServerCommand(opts);
  import_strict.default.deepEqual(cmd, { command: "/home/me/bin/context-sidecar", args: ["serve", "--log", "/home/me/x"], origin: "serverCommand" });
});
(0, import_node_test.test)("pythonPath runs the module", async () => {
  __settings.global["contextSidecar.pythonPath"] = "${workspaceFolder}/.venv/bin/python";
  pythonExtension(goodPython);
  const cmd = await resolveServerCommand({ ...opts, workspaceFolder: Uri.file("/proj") });
  import_strict.default.deepEqual(cmd, { command: "/proj/.venv/bin/python", args: ["-m", "sidecar", "serve"], origin: "pythonPath" });
});
(0, import_node_test.test)("the Python extension's interpreter is used when the sidecar imports there", async () => {
  pythonExtension(goodPython);
  import_strict.default.deepEqual(await resolveServerCommand(opts), { command: goodPython, args: ["-m", "sidecar", "serve"], origin: "pythonExtension" });
});
(0, import_node_test.test)("an interpreter without the sidecar falls through to PATH, and says so", async () => {
  pythonExtension(badPython);
  const bin = path3.join(scratch, "bin");
  (0, import_node_fs3.mkdirSync)(bin, { recursive: true });
  const onPath = path3.join(bin, "context-sidecar");
  (0, import_node_fs3.writeFileSync)(onPath, "#!/bin/sh\n");
  (0, import_node_fs3.chmodSync)(onPath, 493);
  process.env.PATH = `/nonexistent:${bin}`;
  const lines = [];
  const cmd = await resolveServerCommand({ ...opts, log: (l) => lines.push(l) });
  import_strict.default.deepEqual(cmd, { command: onPath, args: ["serve"], origin: "path" });
  import_strict.default.match(lines.join("\n"), /cannot import the sidecar/);
});
(0, import_node_test.test)("nothing found: a clear error that says how to fix it", async () => {
  await import_strict.default.rejects(resolveServerCommand(opts), (error) => {
    import_strict.default.ok(error instanceof ServerNotFoundError);
    import_strict.default.match(error.message, /contextSidecar\.pythonPath/);
    import_strict.default.match(error.message, /pip install context-sidecar/);
    import_strict.default.ok(error.message.endsWith(HOW_TO_FIX));
    return true;
  });
});
(0, import_node_test.test)("findOnPath skips non-executables and directories", async () => {
  const dir = (0, import_node_fs3.mkdtempSync)(path3.join((0, import_node_os.tmpdir)(), "sidecar-path-"));
  (0, import_node_fs3.writeFileSync)(path3.join(dir, "context-sidecar"), "not executable");
  import_strict.default.equal(await findOnPath("context-sidecar", dir), void 0);
  (0, import_node_fs3.chmodSync)(path3.join(dir, "context-sidecar"), 493);
  import_strict.default.equal(await findOnPath("context-sidecar", `${dir}`), path3.join(dir, "context-sidecar"));
});
(0, import_node_test.test)("expandVariables", () => {
  import_strict.default.equal(expandVariables("~", "/h", void 0), "/h");
  import_strict.default.equal(expandVariables("~/x", "/h", void 0), "/h/x");
  import_strict.default.equal(expandVariables("${workspaceFolder}/.venv", "/h", "/w"), "/w/.venv");
  import_strict.default.equal(expandVariables("a~b", "/h", "/w"), "a~b");
});
//# sourceMappingURL=serverCommand.test.js.map
