// The `contextSidecar` settings section, as the sidecar receives it.
//
// Only values the user really set (user, workspace or folder level) are sent. The
// contributed defaults equal the sidecar's own defaults, and sending them anyway would
// override the sidecar's settings files (`.context-sidecar/settings.json`), which rank
// below initializationOptions and workspace/configuration.

import * as vscode from "vscode";

export const SECTION = "contextSidecar";

/** Every sidecar setting, as dotted keys under the section (package.json contributes each). */
export const SIDECAR_KEYS = [
  "provider",
  "model",
  "baseUrl",
  "apiKeyEnv",
  "contextWindow",
  "maxOutputTokens",
  "maxAnswerBytes",
  "autoCompact.enabled",
  "autoCompact.bufferTokens",
  "autoCompact.confirm",
  "compactModel",
  "subagentModel",
  "microcompact.timeBased.enabled",
  "microcompact.timeBased.gapMinutes",
  "apiContextManagement.enabled",
  "apiContextManagement.triggerTokens",
  "apiContextManagement.keepTokens",
  "sessionMemory.enabled",
  "sessionMemory.minTokens",
  "sessionMemory.minTextBlockMessages",
  "sessionMemory.maxTokens",
  "postCompact.maxFiles",
  "postCompact.totalTokens",
  "postCompact.perFileTokens",
  "history.maxItems",
  "history.maxPastedContentLength",
  "storageDir",
  "tools.shell",
  "tools.memory",
  "tools.webSearch",
  "tools.webFetch",
  "tools.allow",
  "maxTurnRequests",
  "summaryReserveTokens",
  "warningBufferTokens",
  "errorBufferTokens",
  "blockingBufferTokens",
  "autoCompact.maxConsecutiveFailures",
  "autoCompact.maxPerTurn",
  "microcompact.timeBased.keepRecent",
  "microcompact.stepClearing.enabled",
  "microcompact.stepClearing.triggerTokens",
  "microcompact.stepClearing.triggerPercent",
  "microcompact.stepClearing.keepTokens",
  "promptCache.hourAnchors",
  "thinking.mode",
  "thinking.budgetTokens",
  "thinking.effort",
  "manualCompact",
  "compactionBackend",
  "sessionMemory.initTokens",
  "sessionMemory.updateTokens",
  "sessionMemory.updateToolCalls",
  "sessionMemory.startPercent",
  "sessionMemory.updatePercent",
  "sessionMemory.tailPercent",
  "tools.shellOutputChars",
  "tools.readMaxLines",
  "tools.resultBudgetPercent",
  "tokens.estimator",
  "preCompactHooks",
  "postCompactHooks",
  "sessionStartHooks",
  "hookTimeoutSeconds",
  "retry.maxRetries",
  "retry.baseDelayMs",
  "retry.maxDelayMs",
  "retry.timeoutSeconds",
  "transport.maxMessageBytes",
  "permissions.defaultMode",
  "mcpServers",
  "mcp.toolTimeoutSeconds",
  "mcp.startupTimeoutSeconds",
  "mcp.maxRestarts",
  "mcp.resultMaxChars",
  "mcp.trustWorkspaceServers",
  "mcp.maxToolDefinitionPercent",
  "mcp.toolSearch",
  "mcp.maxMessageBytes",
  "hooks.trustWorkspace",
] as const;

/** Settings that belong to the extension itself and never reach the sidecar. */
export const EXTENSION_KEYS = ["pythonPath", "serverCommand", "gaugeClickAction", "resumeLastSession", "includeActiveEditor"] as const;

/**
 * Changing one of these needs a new sidecar process: they shape its command or its
 * environment (the provider picks which variable carries the stored key).
 */
export const RESTART_KEYS = ["pythonPath", "serverCommand", "apiKeyEnv", "provider"] as const;

export type SidecarSettings = Record<string, unknown>;

/** Blank strings and nulls mean "not set": the sidecar then applies its own default. */
function isSet(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === "string" && value.trim() === "") return false;
  return true;
}

/** Builds the nested settings object from dotted keys: {"autoCompact.enabled": false} -> {autoCompact: {enabled: false}}. */
export function nestSettings(flat: Iterable<[string, unknown]>): SidecarSettings {
  const root: SidecarSettings = {};
  for (const [key, value] of flat) {
    if (!isSet(value)) continue;
    const parts = key.split(".");
    let node = root;
    for (const part of parts.slice(0, -1)) {
      const child = node[part];
      if (typeof child !== "object" || child === null || Array.isArray(child)) node[part] = {};
      node = node[part] as SidecarSettings;
    }
    node[parts[parts.length - 1]] = value;
  }
  return root;
}

interface Inspected<T> {
  globalValue?: T;
  workspaceValue?: T;
  workspaceFolderValue?: T;
}

/** The most specific explicitly set value, or undefined when only the default applies. */
export function explicitValue<T>(inspected: Inspected<T> | undefined): T | undefined {
  if (!inspected) return undefined;
  return inspected.workspaceFolderValue ?? inspected.workspaceValue ?? inspected.globalValue;
}

/** The settings object sent as initializationOptions.settings and on workspace/configuration. */
export function readSidecarSettings(scope?: vscode.Uri): SidecarSettings {
  const config = vscode.workspace.getConfiguration(SECTION, scope);
  return nestSettings(SIDECAR_KEYS.map((key) => [key, explicitValue(config.inspect(key))]));
}

/** The effective value (default included) of one setting, for the extension's own use. */
export function getSetting<T>(key: string, scope?: vscode.Uri): T | undefined {
  return vscode.workspace.getConfiguration(SECTION, scope).get<T>(key);
}

export function needsRestart(event: vscode.ConfigurationChangeEvent): boolean {
  return RESTART_KEYS.some((key) => event.affectsConfiguration(`${SECTION}.${key}`));
}

/**
 * The values that shape the sidecar's process, as one string. A change event can name these
 * settings without changing them (granting Workspace Trust names every restricted one), and
 * only a real change is worth a restart.
 */
export function processSettings(scope?: vscode.Uri): string {
  const config = vscode.workspace.getConfiguration(SECTION, scope);
  return JSON.stringify(RESTART_KEYS.map((key) => config.get(key) ?? null));
}

export function affectsSidecar(event: vscode.ConfigurationChangeEvent): boolean {
  return SIDECAR_KEYS.some((key) => event.affectsConfiguration(`${SECTION}.${key}`));
}

const conventionalKeyEnv: Record<string, string> = {
  anthropic: "ANTHROPIC_API_KEY",
  openai: "OPENAI_API_KEY",
  "openai-compatible": "OPENAI_API_KEY",
};

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The environment variable that carries the API key: apiKeyEnv when the user set it,
 * else the provider's usual variable (what the sidecar itself falls back to).
 */
export function apiKeyEnvName(scope?: vscode.Uri): string {
  const config = vscode.workspace.getConfiguration(SECTION, scope);
  const explicit = explicitValue(config.inspect<string>("apiKeyEnv"));
  if (typeof explicit === "string" && ENV_NAME.test(explicit)) return explicit;
  const provider = config.get<string>("provider") ?? "anthropic";
  return conventionalKeyEnv[provider] ?? "ANTHROPIC_API_KEY";
}
