// The panel header's mode picker, plan button and MCP status line.

import type { McpServerStatus, SessionMode } from "../src/shared/protocol";
import { $, el, send } from "./dom";

/** Claude Code's permission modes, until the session names its own. */
const DEFAULT_MODES: SessionMode[] = [
  { id: "default", name: "Ask before edits", description: "Ask before every edit and shell command" },
  { id: "acceptEdits", name: "Accept edits", description: "Edits go through; shell commands ask" },
  { id: "plan", name: "Plan", description: "Read-only: the model plans, then asks to leave plan mode" },
  { id: "bypassPermissions", name: "Bypass permissions", description: "Nothing asks" },
];

const picker = $("mode") as HTMLSelectElement;
const planButton = $("plan") as HTMLButtonElement;
const mcpLine = $("mcp");
const trustBanner = $("trust-banner");
const BANNER_TITLE = "Trust this folder (Manage Trust) to apply them to new sessions.";
let modes: SessionMode[] = DEFAULT_MODES;
let current = "default";

function renderModes(): void {
  picker.replaceChildren(
    ...modes.map((m) => {
      const option = el("option", undefined, m.name);
      option.value = m.id;
      if (m.description) option.title = m.description;
      return option;
    }),
  );
  if (!modes.some((m) => m.id === current)) {
    const option = el("option", undefined, current);
    option.value = current;
    picker.appendChild(option);
  }
  picker.value = current;
  const mode = modes.find((m) => m.id === current);
  picker.title = `Mode: ${mode?.name ?? current}${mode?.description ? ` (${mode.description})` : ""}`;
  document.body.dataset.mode = current;
  planButton.setAttribute("aria-pressed", String(current === "plan"));
  planButton.title = current === "plan" ? "Leave plan mode (/plan off)" : "Plan first: read-only until you approve the plan (/plan)";
}

export function setModes(available: SessionMode[], currentId: string): void {
  if (available.length) modes = available;
  current = currentId;
  renderModes();
}

export function setCurrentMode(id: string): void {
  current = id;
  renderModes();
}

export function currentMode(): string {
  return current;
}

picker.addEventListener("change", () => {
  const chosen = picker.value;
  // The header follows the sidecar: it changes when current_mode_update arrives.
  picker.value = current;
  if (chosen !== current) send({ type: "setMode", modeId: chosen });
});
planButton.addEventListener("click", () => send({ type: "setMode", modeId: current === "plan" ? "default" : "plan" }));

export function showMcp(servers: McpServerStatus[]): void {
  if (servers.length === 0) {
    mcpLine.hidden = true;
    return;
  }
  const by = (s: McpServerStatus["status"]) => servers.filter((x) => x.status === s).length;
  const parts = [
    by("connected") && `${by("connected")} connected`,
    by("starting") && `${by("starting")} starting`,
    by("failed") && `${by("failed")} failed`,
    by("stopped") && `${by("stopped")} stopped`,
  ].filter(Boolean);
  mcpLine.hidden = false;
  mcpLine.dataset.state = by("failed") ? "failed" : by("starting") ? "starting" : "ok";
  mcpLine.textContent = `MCP: ${parts.join(" · ")}`;
  mcpLine.title = servers
    .map((s) => `${s.name} (${s.transport ?? "stdio"}): ${s.status}${s.tools?.length ? `, ${s.tools.length} tools` : ""}${s.error ? ` · ${s.error}` : ""}`)
    .join("\n");
}

renderModes();

/** The Restricted Mode banner: shown while the editor does not trust the folder. */
export function showTrust(trusted: boolean, withheld: string[] = []): void {
  trustBanner.hidden = trusted;
  document.body.dataset.trusted = String(trusted);
  trustBanner.title = withheld.length ? `Not applied:\n${withheld.map((w) => `• ${w}`).join("\n")}\n${BANNER_TITLE}` : BANNER_TITLE;
}

$("trust-manage").addEventListener("click", () => send({ type: "manageTrust" }));
