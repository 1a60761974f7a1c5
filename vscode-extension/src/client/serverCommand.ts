// Finds how to start the sidecar. Order: the serverCommand setting, the pythonPath setting,
// the Python extension's active interpreter (when the sidecar imports there), then
// `context-sidecar` on PATH. vscode-languageclient appends `--stdio` itself.

import { execFile } from "node:child_process";
import { constants as fsConstants, promises as fs } from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { getSetting } from "./settings";

export interface ServerCommand {
  command: string;
  args: string[];
  /** Where the command came from, for the log and error messages. */
  origin: "serverCommand" | "pythonPath" | "pythonExtension" | "path";
}

export class ServerNotFoundError extends Error {}

export const HOW_TO_FIX =
  "Install the sidecar (`pip install context-sidecar`) and either set `contextSidecar.pythonPath` to that " +
  "Python, set `contextSidecar.serverCommand` to the full command (for example " +
  '`["/path/to/context-sidecar", "serve"]`), select that interpreter with the Python extension, ' +
  "or put `context-sidecar` on PATH.";

/** Expands ${userHome} and ${workspaceFolder} and a leading ~ in a setting value. */
export function expandVariables(value: string, home: string, workspaceFolder: string | undefined): string {
  let out = value.replace(/\$\{userHome\}/g, home);
  if (workspaceFolder) out = out.replace(/\$\{workspaceFolder\}/g, workspaceFolder);
  if (out === "~" || out.startsWith("~/")) out = home + out.slice(1);
  return out;
}

export function pythonModuleCommand(python: string, origin: ServerCommand["origin"]): ServerCommand {
  return { command: python, args: ["-m", "sidecar", "serve"], origin };
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    await fs.access(file, fsConstants.X_OK);
    return (await fs.stat(file)).isFile();
  } catch {
    return false;
  }
}

export async function findOnPath(name: string, envPath = process.env.PATH ?? ""): Promise<string | undefined> {
  for (const dir of envPath.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (await isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/** True when `python -c "import sidecar"` succeeds within a few seconds. */
export function pythonHasSidecar(python: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(python, ["-c", "import sidecar"], { timeout: 10_000 }, (error) => resolve(!error));
  });
}

interface PythonExtensionApi {
  environments?: {
    getActiveEnvironmentPath(resource?: vscode.Uri): { path: string } | undefined;
  };
}

async function pythonFromExtension(resource: vscode.Uri | undefined): Promise<string | undefined> {
  const ext = vscode.extensions.getExtension<PythonExtensionApi>("ms-python.python");
  if (!ext) return undefined;
  try {
    const api = ext.isActive ? ext.exports : await ext.activate();
    const active = api?.environments?.getActiveEnvironmentPath(resource);
    return active?.path || undefined;
  } catch {
    return undefined;
  }
}

export interface ResolveOptions {
  home: string;
  workspaceFolder?: vscode.Uri;
  log?: (line: string) => void;
}

export async function resolveServerCommand(opts: ResolveOptions): Promise<ServerCommand> {
  const folderPath = opts.workspaceFolder?.fsPath;
  const expand = (v: string) => expandVariables(v, opts.home, folderPath);

  const serverCommand = getSetting<unknown>("serverCommand", opts.workspaceFolder);
  if (Array.isArray(serverCommand) && serverCommand.length > 0 && serverCommand.every((s) => typeof s === "string")) {
    const [command, ...args] = (serverCommand as string[]).map(expand);
    return { command, args, origin: "serverCommand" };
  }

  const pythonPath = getSetting<string>("pythonPath", opts.workspaceFolder);
  if (typeof pythonPath === "string" && pythonPath.trim()) {
    return pythonModuleCommand(expand(pythonPath.trim()), "pythonPath");
  }

  const fromExtension = await pythonFromExtension(opts.workspaceFolder);
  if (fromExtension) {
    if (await pythonHasSidecar(fromExtension)) return pythonModuleCommand(fromExtension, "pythonExtension");
    opts.log?.(`The Python extension's interpreter ${fromExtension} cannot import the sidecar; trying PATH.`);
  }

  const onPath = await findOnPath("context-sidecar");
  if (onPath) return { command: onPath, args: ["serve"], origin: "path" };

  throw new ServerNotFoundError(`Context Sidecar cannot find the sidecar. ${HOW_TO_FIX}`);
}
