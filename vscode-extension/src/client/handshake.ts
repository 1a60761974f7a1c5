// What the extension announces in `initialize` and how it judges the answer. Pure, so the
// protocol tests send exactly what the extension sends.

import { PROTOCOL_MAJOR } from "../shared/protocol";
import type { SidecarSettings } from "./settings";

export const clientSidecarCapabilities = {
  protocolVersion: PROTOCOL_MAJOR,
  permissionRequests: true,
  compactionUpdates: true,
} as const;

export interface EditorInfo {
  name: string;
  version: string;
}

/**
 * `workspaceTrusted` is the editor's own verdict on the workspace folder (VS Code's
 * Workspace Trust): false keeps the sidecar from applying anything the repository ships.
 * Left out, the sidecar decides itself.
 */
export function initializationOptions(settings: SidecarSettings, editorInfo: EditorInfo, workspaceTrusted?: boolean) {
  return typeof workspaceTrusted === "boolean" ? { settings, editorInfo, workspaceTrusted } : { settings, editorInfo };
}

/** Adds our block under capabilities.experimental without dropping anyone else's. */
export function withSidecarCapabilities<T extends { experimental?: unknown }>(capabilities: T): T {
  const experimental =
    typeof capabilities.experimental === "object" && capabilities.experimental !== null
      ? (capabilities.experimental as Record<string, unknown>)
      : {};
  capabilities.experimental = { ...experimental, contextSidecar: { ...clientSidecarCapabilities } };
  return capabilities;
}

export type VersionVerdict =
  | { ok: true; version: number | string; providers: string[] }
  | { ok: false; message: string };

/** The major part of a protocol version given as 1, "1" or "1.3". */
export function majorOf(version: unknown): number | undefined {
  if (typeof version === "number" && Number.isFinite(version)) return Math.trunc(version);
  if (typeof version === "string" && /^\d+(\.\d+)*$/.test(version.trim())) {
    return Number.parseInt(version.trim().split(".")[0], 10);
  }
  return undefined;
}

export function checkServerProtocol(initializeResult: unknown): VersionVerdict {
  const result = (initializeResult ?? {}) as {
    serverInfo?: { name?: string; version?: string };
    capabilities?: { experimental?: { contextSidecar?: { protocolVersion?: unknown; providers?: unknown } } };
  };
  const block = result.capabilities?.experimental?.contextSidecar;
  const server = result.serverInfo?.name
    ? `${result.serverInfo.name}${result.serverInfo.version ? ` ${result.serverInfo.version}` : ""}`
    : "The server";
  if (!block) {
    return {
      ok: false,
      message:
        `${server} does not speak the context-sidecar protocol (no capabilities.experimental.contextSidecar ` +
        "in its initialize result). Check contextSidecar.serverCommand / pythonPath.",
    };
  }
  const major = majorOf(block.protocolVersion);
  if (major !== PROTOCOL_MAJOR) {
    return {
      ok: false,
      message:
        `${server} speaks context-sidecar protocol version ${String(block.protocolVersion)}, but this extension ` +
        `speaks version ${PROTOCOL_MAJOR}. Install matching versions of the extension and the sidecar ` +
        "(pip install -U context-sidecar, or update the extension).",
    };
  }
  const providers = Array.isArray(block.providers) ? block.providers.filter((p): p is string => typeof p === "string") : [];
  return { ok: true, version: block.protocolVersion as number | string, providers };
}

/** Turns a JSON-RPC error's `data` into a sentence telling the user how to fix it. */
export function fixFromErrorData(data: unknown): string | undefined {
  if (data === undefined || data === null) return undefined;
  if (typeof data === "string") return data;
  if (typeof data === "object") {
    const d = data as Record<string, unknown>;
    for (const key of ["fix", "hint", "howToFix", "message", "reason"]) {
      if (typeof d[key] === "string" && d[key]) return d[key] as string;
    }
    const parts: string[] = [];
    if (d.status !== undefined) parts.push(`status ${String(d.status)}`);
    if (typeof d.type === "string") parts.push(d.type);
    if (d.retryAfter !== undefined && d.retryAfter !== null) parts.push(`retry after ${String(d.retryAfter)} s`);
    if (typeof d.tier === "string") parts.push(`tier ${d.tier}`);
    if (parts.length) return parts.join(", ");
    try {
      return JSON.stringify(data);
    } catch {
      return undefined;
    }
  }
  return String(data);
}
