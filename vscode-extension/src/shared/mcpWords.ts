// MCP servers in words a user understands, for the panel, the quick pick and the status bar.
// The sidecar says each server's state (`state`, `label`, `actions`); a sidecar from before
// them is read from `status` and `error`.

import type { McpServer } from "./contract.generated";

export type McpState = NonNullable<McpServer["state"]>;
export type McpAction = NonNullable<McpServer["actions"]>[number];

type Server = Pick<McpServer, "name" | "status"> & Partial<McpServer>;

const WAITING = "waiting for approval";
const RESTRICTED = "not started: the folder is in the editor's Restricted Mode";
const REJECTED = "not started: rejected";

/** What the server is in: a hold (waiting, rejected, untrusted) is no failure. */
export function mcpState(s: Server): McpState {
  if (s.state) return s.state;
  if (s.status === "failed" && s.error === WAITING) return "waiting";
  if (s.status === "failed" && s.error?.startsWith(RESTRICTED)) return "untrusted";
  if (s.status === "failed" && s.error?.startsWith(REJECTED)) return "rejected";
  return s.status;
}

/** The state in words: "waiting for your approval", "connected · 8 tools", "failed: why". */
export function mcpLabel(s: Server): string {
  if (s.label) return s.label;
  const tools = s.tools?.length ?? 0;
  switch (mcpState(s)) {
    case "waiting":
      return "waiting for your approval";
    case "untrusted":
      return "not used: the folder is not trusted";
    case "rejected":
      return "rejected for this workspace";
    case "starting":
      return "connecting…";
    case "connected":
      return `connected · ${tools} tool${tools === 1 ? "" : "s"}`;
    case "stopped":
      return "stopped";
    default:
      return s.error ? `failed: ${s.error}` : "failed";
  }
}

/** The buttons for a server: what `sidecar/mcpAction` can do about it now. */
export function mcpActions(s: Server): McpAction[] {
  if (s.actions) return s.actions;
  switch (mcpState(s)) {
    case "waiting":
      return ["approve", "reject"];
    case "rejected":
      return ["approve"];
    default:
      return [];
  }
}

export const ACTION_NAMES: Record<McpAction, string> = { approve: "Approve", reject: "Reject", retry: "Retry" };

/** How many tools the model is offered in all (the sidecar's count of its next request). */
export function mcpOffered(servers: Server[]): number {
  return servers.reduce((n, s) => n + (s.offered ?? (mcpState(s) === "connected" || s.status === "failed" ? s.tools?.length ?? 0 : 0)), 0);
}

/** One line for all of them: "MCP: 8 tools · 1 waiting for your approval", and whether it
 *  needs the user (a server waiting) or is in trouble (one failed). */
export function mcpSummary(servers: Server[]): { text: string; tone: "ok" | "attention" | "failed" | "busy" } {
  const count = (state: McpState) => servers.filter((s) => mcpState(s) === state).length;
  const offered = mcpOffered(servers);
  const parts = [`${offered} tool${offered === 1 ? "" : "s"}`];
  if (count("waiting")) parts.push(`${count("waiting")} waiting for your approval`);
  if (count("starting")) parts.push(`${count("starting")} connecting…`);
  if (count("failed")) parts.push(`${count("failed")} failed`);
  if (count("rejected")) parts.push(`${count("rejected")} rejected`);
  if (count("untrusted")) parts.push(`${count("untrusted")} not used (folder not trusted)`);
  const tone = count("failed") ? "failed" : count("waiting") ? "attention" : count("starting") ? "busy" : "ok";
  return { text: `MCP: ${parts.join(" · ")}`, tone };
}
