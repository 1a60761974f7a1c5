// Starts the real sidecar and the fake LLM server for the protocol and end-to-end layers.
// Every wait is bounded; every process is killed by its process group.

import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { createInterface } from "node:readline";

export const EXTENSION_ROOT = path.resolve(__dirname, "..", "..");
export const REPO_ROOT = path.resolve(EXTENSION_ROOT, "..");
export const PYTHON = process.env.PYTHON || path.join(REPO_ROOT, ".venv", "bin", "python");

export function pythonAvailable(): boolean {
  return existsSync(PYTHON);
}

export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms);
    }),
  ]);
}

export function killGroup(child: ChildProcess | undefined, signal: NodeJS.Signals = "SIGTERM"): void {
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      /* already gone */
    }
  }
}

/** Waits for exit, escalating to SIGKILL. */
export async function stopGroup(child: ChildProcess | undefined, graceMs = 3_000): Promise<void> {
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  killGroup(child, "SIGTERM");
  try {
    await withTimeout(exited, graceMs, "process exit");
  } catch {
    killGroup(child, "SIGKILL");
    await withTimeout(exited, 2_000, "process exit after SIGKILL").catch(() => undefined);
  }
}

export interface FakeLlm {
  url: string;
  process: ChildProcess;
  queue(replies: unknown[]): Promise<void>;
  requests(): Promise<any[]>;
  /** Requests the real API would refuse, and broken invariants, since the last reset. */
  violations(): Promise<string[]>;
  reset(): Promise<void>;
  stop(): Promise<void>;
}

export async function startFakeLlm(): Promise<FakeLlm> {
  const child = spawn(PYTHON, ["-m", "sidecar.fake_llm", "--port", "0"], {
    cwd: REPO_ROOT,
    detached: true,
    // The fake stops at end of stdin, so it also goes away if this process dies.
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  const lines = createInterface({ input: child.stdout! });
  const url = await withTimeout(
    new Promise<string>((resolve, reject) => {
      lines.on("line", (line) => {
        const m = /^FAKE_LLM_URL=(\S+)/.exec(line.trim());
        if (m) resolve(m[1]);
      });
      child.once("exit", (code) => reject(new Error(`fake LLM server exited (${code}): ${stderr}`)));
    }),
    20_000,
    "FAKE_LLM_URL line from the fake LLM server",
  ).catch(async (error) => {
    await stopGroup(child);
    throw error;
  });
  const call = async (method: string, route: string, body?: unknown) => {
    const response = await fetch(`${url}${route}`, {
      method,
      headers: body === undefined ? undefined : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(5_000),
    });
    const json = await response.json();
    if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  return {
    url,
    process: child,
    queue: async (replies) => void (await call("POST", "/_fake/replies", { replies })),
    requests: async () => (await call("GET", "/_fake/requests")).requests,
    violations: async () => (await call("GET", "/_fake/violations")).violations,
    reset: async () => void (await call("POST", "/_fake/reset", {})),
    stop: () => stopGroup(child),
  };
}

/** A scratch HOME and workspace so sessions and logs never land in the user's real folders. */
export function scratchDirs(prefix: string): { root: string; home: string; workspace: string; storage: string } {
  const root = mkdtempSync(path.join(tmpdir(), prefix));
  const dirs = {
    root,
    home: path.join(root, "home"),
    workspace: path.join(root, "workspace"),
    storage: path.join(root, "storage"),
  };
  for (const dir of [dirs.home, dirs.workspace, dirs.storage]) mkdirSync(dir, { recursive: true });
  return dirs;
}

/** Deletes a scratch tree unless KEEP_TEST_DIRS is set (to read logs after a failure). */
export function removeScratch(root: string): void {
  if (process.env.KEEP_TEST_DIRS) {
    console.log(`kept ${root}`);
    return;
  }
  rmSync(root, { recursive: true, force: true });
}
