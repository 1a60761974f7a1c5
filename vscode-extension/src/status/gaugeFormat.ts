// Pure formatting of the sidecar's Gauge for the status bar and the chat header. Kept free
// of the `vscode` module so the webview bundles it too and both show the same figures.

import type { Gauge, GaugeLevel, GaugeStage } from "../shared/protocol";

/** 142300 -> "142.3K", 200000 -> "200K", 1000000 -> "1M", 950 -> "950". */
export function formatTokens(n: number): string {
  if (!Number.isFinite(n)) return "?";
  const sign = n < 0 ? "-" : "";
  const abs = Math.abs(n);
  if (abs < 1000) return `${sign}${Math.round(abs)}`;
  const [value, unit] = abs < 999_950 ? [abs / 1000, "K"] : [abs / 1_000_000, "M"];
  // One decimal, dropped when it is zero, so round numbers read as the model card says them.
  const rounded = Math.round(value * 10) / 10;
  const text = Number.isInteger(rounded) ? rounded.toFixed(0) : rounded.toFixed(1);
  return `${sign}${text}${unit}`;
}

export function formatPercent(p: number): string {
  if (!Number.isFinite(p)) return "?%";
  // Below 1% still shows something non-zero once anything is in context.
  if (p > 0 && p < 1) return "<1%";
  return `${Math.floor(p)}%`;
}

/** The status bar's text: "142.3K / 200K · 71%". */
export function gaugeText(g: Pick<Gauge, "used" | "size" | "percentUsed">): string {
  const percent = Number.isFinite(g.percentUsed) ? g.percentUsed : (g.size > 0 ? (g.used / g.size) * 100 : NaN);
  return `${formatTokens(g.used)} / ${formatTokens(g.size)} · ${formatPercent(percent)}`;
}

export type GaugeColor = "warning" | "error" | undefined;

/** The gauge's presentation stage: `stage` when the sidecar sends it, else its `level`. */
export function gaugeStage(g: Pick<Gauge, "level" | "stage">): GaugeStage {
  const s = g.stage ?? g.level;
  if (s === "warning" || s === "error" || s === "blocking") return s;
  return "normal";
}

/** The stage in words a user reads calmly: "error" at 76% with room to go sounded like a fault. */
export const STAGE_WORDS: Record<GaugeStage, string> = {
  normal: "ok",
  warning: "filling up",
  error: "nearly full",
  blocking: "full",
};

/** Whether to offer /compact: the stage reached warning or beyond. */
export function offersCompact(g: Pick<Gauge, "level" | "stage">): boolean {
  return gaugeStage(g) !== "normal";
}

/** warning -> the status bar's warning colour; error and blocking -> its error colour. */
export function gaugeColor(level: GaugeLevel | GaugeStage | string | undefined): GaugeColor {
  if (level === "warning") return "warning";
  if (level === "error" || level === "blocking") return "error";
  return undefined;
}

const breakdownLabels: [keyof NonNullable<Gauge["breakdown"]>, string][] = [
  ["system", "System prompt"],
  ["tools", "Tools"],
  ["memoryFiles", "Memory files"],
  ["messages", "Messages"],
  ["toolResults", "Tool results"],
  ["summary", "Summary"],
  ["reservedOutput", "Reserved for output"],
  ["free", "Free"],
];

function compactionCount(c: Gauge["compactions"]): { total: number; byTier: string } {
  if (typeof c === "number") return { total: c, byTier: "" };
  if (!c || typeof c !== "object") return { total: 0, byTier: "" };
  const entries = Object.entries(c).filter(([, n]) => typeof n === "number" && n > 0);
  const total = entries.reduce((sum, [, n]) => sum + n, 0);
  return { total, byTier: entries.map(([tier, n]) => `${tier} ${n}`).join(", ") };
}

/** The MCP tools deferred to a tool search, in words; undefined while none is. */
export function deferredToolsText(d: Gauge["deferredTools"] | undefined): string | undefined {
  if (!d || typeof d.count !== "number") return undefined;
  const how = d.search === "server" ? "the provider's tool search finds them" : "the model finds them with the ToolSearch tool";
  return `Tool search: ${d.count.toLocaleString("en-US")} MCP tools deferred, ${(d.savedTokens ?? 0).toLocaleString("en-US")} tokens of definitions kept out of every request; ${how}`;
}

/** Markdown for the status bar tooltip; plain text only, no links, so it needs no trust. */
export function gaugeTooltipMarkdown(g: Gauge): string {
  const lines: string[] = [];
  lines.push(`**Context: ${gaugeText(g)}** (${STAGE_WORDS[gaugeStage(g)]})`);
  lines.push("");
  if (g.next) {
    lines.push(`Next: ${g.next}`);
    lines.push("");
  }
  lines.push(`${g.provider} · ${g.model}`);
  lines.push("");
  lines.push("| | tokens |");
  lines.push("|---|---:|");
  lines.push(`| Used | ${g.used.toLocaleString("en-US")} |`);
  lines.push(`| Window | ${g.size.toLocaleString("en-US")} |`);
  if (g.autoCompactAt != null) {
    const left = g.percentLeftUntilAutoCompact;
    const leftText = left == null ? "" : ` (${formatPercent(left)} left)`;
    lines.push(`| Auto-compact at | ${g.autoCompactAt.toLocaleString("en-US")}${leftText} |`);
  } else {
    lines.push("| Auto-compact | off |");
  }
  for (const [key, label] of breakdownLabels) {
    const n = g.breakdown?.[key];
    if (typeof n === "number") lines.push(`| ${label} | ${n.toLocaleString("en-US")} |`);
  }
  const deferred = deferredToolsText(g.deferredTools);
  if (deferred) {
    lines.push("");
    lines.push(deferred);
  }
  lines.push("");
  const source = g.source === "provider"
    ? "Counted by the provider (last API usage plus an estimate of what was added since)"
    : "Estimated (no provider count yet, or just compacted)";
  lines.push(`Source: ${source}`);
  const { total, byTier } = compactionCount(g.compactions);
  lines.push("");
  lines.push(`Compactions: ${total}${byTier ? ` (${byTier})` : ""}`);
  if (g.autoCompact) {
    const breaker = g.autoCompact.circuitBreaker === "open"
      ? `circuit breaker **open** after ${g.autoCompact.consecutiveFailures ?? "?"} failures: auto-compact paused, run /compact`
      : "circuit breaker closed";
    lines.push("");
    lines.push(`Auto-compact: ${g.autoCompact.enabled ? "on" : "off"}, ${breaker}`);
  }
  if (g.cost && typeof g.cost.amount === "number") {
    lines.push("");
    lines.push(`Cost so far: ${g.cost.amount.toFixed(4)} ${g.cost.currency}`);
  }
  return lines.join("\n");
}

/**
 * Keeps the newest gauge of the focused session: a payload whose seq is below the last one
 * seen is stale (notifications and request results can cross on the wire), and a payload
 * for another session is not ours to show.
 */
export class GaugeTracker {
  private current: Gauge | undefined;
  private session: string | undefined;

  get gauge(): Gauge | undefined {
    return this.current;
  }

  get sessionId(): string | undefined {
    return this.session;
  }

  /** Focus a session (or none); its gauge starts empty until one is offered. */
  setSession(sessionId: string | undefined): void {
    if (sessionId !== this.session) this.current = undefined;
    this.session = sessionId;
  }

  /** Returns true when the gauge was accepted. */
  offer(g: Gauge | undefined | null): boolean {
    if (!g || typeof g.used !== "number" || typeof g.size !== "number") return false;
    if (this.session === undefined || g.sessionId !== this.session) return false;
    const cur = this.current;
    if (cur && typeof g.seq === "number" && g.seq < cur.seq) return false;
    this.current = g;
    return true;
  }
}
