// The /context view as a markdown document: the gauge with its breakdown, then whatever
// the sidecar reports about the prefix, the files the model has read and the messages.

import type { ContextView } from "../shared/protocol";
import { formatPercent, formatTokens, gaugeTooltipMarkdown } from "../status/gaugeFormat";

function fence(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value, null, 2);
  const ticks = text.includes("```") ? "````" : "```";
  return `${ticks}${typeof value === "string" ? "text" : "json"}\n${text}\n${ticks}`;
}

function bar(used: number, size: number, width = 40): string {
  const filled = size > 0 ? Math.min(width, Math.round((used / size) * width)) : 0;
  return `\`${"█".repeat(filled)}${"░".repeat(width - filled)}\``;
}

export function contextMarkdown(view: ContextView): string {
  const g = view.gauge;
  const out: string[] = [];
  out.push(`# Context: ${g.model}`);
  out.push("");
  out.push(`${bar(g.used, g.size)} ${formatTokens(g.used)} / ${formatTokens(g.size)} (${formatPercent(g.percentUsed)})`);
  out.push("");
  out.push(gaugeTooltipMarkdown(g));
  const sections: [string, unknown][] = [
    ["Prefix (system and user context)", view.prefix],
    ["Files read", view.fileReadState],
    ["Messages", view.messages],
  ];
  for (const [heading, value] of sections) {
    if (value === undefined || value === null) continue;
    out.push("", `## ${heading}`, "");
    if (Array.isArray(value) && value.every((v) => typeof v === "object" && v !== null)) {
      out.push(`${value.length} entr${value.length === 1 ? "y" : "ies"}`, "");
    }
    out.push(fence(value));
  }
  // The provider's own tools (web search, web fetch): offered, or why not.
  const provided = view.serverTools ?? [];
  if (provided.length > 0) {
    out.push("", "## Provider tools", "");
    for (const t of provided) {
      out.push(`- ${t.tool.replace(/_/g, " ")}: ${t.offered ? "offered" : "not offered"} — ${t.reason}`);
    }
  }
  const trust = view.workspaceTrust;
  if (trust && !trust.trusted) {
    out.push("", "## Restricted: this folder is not trusted", "",
      "Trust it (Workspace Trust, or `/trust`) to apply these to sessions started afterwards.", "");
    for (const item of trust.withheld ?? []) out.push(`- ${item}`);
  }
  const skipped = view.skippedHookFiles ?? [];
  if (skipped.length > 0 && !(trust && !trust.trusted)) {
    out.push("", "## Hooks not run", "",
      "This folder is not trusted: accept Claude Code's trust dialog for it, or set " +
      "`contextSidecar.hooks.trustWorkspace`.", "");
    for (const file of skipped) out.push(`- \`${file}\``);
  }
  return out.join("\n") + "\n";
}
