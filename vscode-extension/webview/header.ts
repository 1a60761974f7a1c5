// The panel header's mode picker, plan button and MCP status line with its list of servers.

import { ACTION_NAMES, mcpActions, mcpLabel, mcpState, mcpSummary } from "../src/shared/mcpWords";
import { PERMISSION_MODES, type McpServerStatus, type SessionMode } from "../src/shared/protocol";
import { $, button, el, send } from "./dom";


const picker = $("mode") as HTMLSelectElement;
const planButton = $("plan") as HTMLButtonElement;
const mcpLine = $("mcp") as HTMLButtonElement;
const mcpList = $("mcp-list");
const trustBanner = $("trust-banner");
const BANNER_TITLE = "Trust this folder (Manage Trust) to apply them to new sessions.";
// The sidecar's modes, as the contract names them, until the session names its own.
let modes: SessionMode[] = [...PERMISSION_MODES];
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

const waitingShown = new Set<string>();

/** The MCP line ("MCP: 8 tools · 1 waiting for your approval") and, under it, one row per
 *  server in words with its buttons (Approve / Reject / Retry); the list opens by itself
 *  when a server starts waiting for the user. */
export function showMcp(servers: McpServerStatus[]): void {
  if (servers.length === 0) {
    mcpLine.hidden = true;
    mcpList.hidden = true;
    return;
  }
  const summary = mcpSummary(servers);
  mcpLine.hidden = false;
  mcpLine.dataset.state = summary.tone;
  mcpLine.textContent = summary.text;
  mcpLine.title = `${servers.map((s) => `${s.name}: ${mcpLabel(s)}`).join("\n")}\nClick to show the MCP servers.`;
  const waiting = servers.filter((s) => mcpState(s) === "waiting").map((s) => s.name);
  if (waiting.some((name) => !waitingShown.has(name))) mcpList.hidden = false;
  waitingShown.clear();
  waiting.forEach((name) => waitingShown.add(name));
  mcpList.replaceChildren(
    ...servers.map((s) => {
      const row = el("div", "mcp-server");
      row.dataset.server = s.name;
      row.dataset.state = mcpState(s);
      row.append(el("span", "mcp-name", s.name), el("span", "mcp-label", mcpLabel(s)));
      if (s.error && mcpState(s) === "connected") row.title = s.error;
      for (const action of mcpActions(s)) {
        const b = button(ACTION_NAMES[action], `mcp-action mcp-${action}`, `${ACTION_NAMES[action]} the MCP server '${s.name}'`);
        b.dataset.action = action;
        b.addEventListener("click", () => {
          b.disabled = true;
          send({ type: "mcpAction", server: s.name, action });
        });
        row.appendChild(b);
      }
      return row;
    }),
  );
  mcpLine.setAttribute("aria-expanded", String(!mcpList.hidden));
}

mcpLine.addEventListener("click", () => {
  mcpList.hidden = !mcpList.hidden;
  mcpLine.setAttribute("aria-expanded", String(!mcpList.hidden));
});

renderModes();

/** The Restricted Mode banner: shown while the editor does not trust the folder. */
export function showTrust(trusted: boolean, withheld: string[] = []): void {
  trustBanner.hidden = trusted;
  document.body.dataset.trusted = String(trusted);
  trustBanner.title = withheld.length ? `Not applied:\n${withheld.map((w) => `• ${w}`).join("\n")}\n${BANNER_TITLE}` : BANNER_TITLE;
}

$("trust-manage").addEventListener("click", () => send({ type: "manageTrust" }));
