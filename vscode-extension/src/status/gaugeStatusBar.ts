// The status-bar context gauge. Holds the inputs of statusView() and repaints on change.

import * as vscode from "vscode";
import type { ConnectionState } from "../shared/messages";
import type { Gauge, McpServerStatus, StatusParams } from "../shared/protocol";
import { STAGE_WORDS, gaugeStage, offersCompact } from "./gaugeFormat";
import { Commands, statusView, type StatusInputs } from "./statusView";

const backgrounds = {
  warning: "statusBarItem.warningBackground",
  error: "statusBarItem.errorBackground",
} as const;

export class GaugeStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  /** "Compact" beside the gauge once its stage reaches warning. */
  private readonly compactItem: vscode.StatusBarItem;
  private state: StatusInputs = { connection: "starting", compacting: false, clickAction: "showContext" };
  private countdown: NodeJS.Timeout | undefined;

  constructor() {
    this.item = vscode.window.createStatusBarItem("contextSidecar.gauge", vscode.StatusBarAlignment.Right, 100);
    this.item.name = "Context Sidecar Gauge";
    this.compactItem = vscode.window.createStatusBarItem("contextSidecar.compactOffer", vscode.StatusBarAlignment.Right, 99);
    this.compactItem.name = "Context Sidecar Compact";
    this.compactItem.text = "$(fold) Compact";
    this.compactItem.command = Commands.compact;
    this.render();
    this.item.show();
  }

  /** The compact offer, for tests. */
  get compactView(): Pick<vscode.StatusBarItem, "text" | "tooltip" | "command"> {
    return this.compactItem;
  }

  /** A missing key (a prompt failed with ProviderNotConfigured), or undefined once fixed. */
  setKeyMissing(error: { message: string; fix?: string } | undefined): void {
    this.update({ keyMissing: error });
  }

  /** A retry_update: shows a countdown until the next attempt; undefined ends it. */
  setRetry(retry: { attempt: number; maxRetries: number; delayMs: number; reason: string } | undefined, now = Date.now()): void {
    if (this.countdown) clearInterval(this.countdown);
    this.countdown = undefined;
    if (!retry) return this.update({ retry: undefined });
    const until = now + Math.max(0, retry.delayMs);
    this.update({ retry: { attempt: retry.attempt, maxRetries: retry.maxRetries, reason: retry.reason, until }, now });
    if (retry.delayMs > 0) {
      this.countdown = setInterval(() => {
        const t = Date.now();
        this.update({ now: t });
        if (t >= until && this.countdown) {
          clearInterval(this.countdown);
          this.countdown = undefined;
        }
      }, 1000);
    }
  }

  setMcpServers(servers: McpServerStatus[]): void {
    this.update({ mcpServers: servers });
  }

  /** The item, for tests running inside the extension host. */
  get view(): Pick<vscode.StatusBarItem, "text" | "backgroundColor" | "tooltip" | "command"> {
    return this.item;
  }

  setConnection(connection: ConnectionState, error?: string): void {
    // A new sidecar process reports its own status: the old one's (say, "no API key") goes.
    const patch: Partial<StatusInputs> = { connection, connectionError: error };
    if (connection === "starting") patch.serverStatus = undefined;
    this.update(patch);
  }

  setServerStatus(status: StatusParams | undefined): void {
    this.update({ serverStatus: status });
  }

  setSession(sessionId: string | null, gauge: Gauge | undefined): void {
    this.update({ sessionId, gauge });
  }

  setCompacting(compacting: boolean): void {
    this.update({ compacting });
  }

  setClickAction(action: unknown): void {
    this.update({ clickAction: action === "compact" ? "compact" : "showContext" });
  }

  private update(patch: Partial<StatusInputs>): void {
    this.state = { ...this.state, ...patch };
    this.render();
  }

  private render(): void {
    const view = statusView(this.state);
    this.item.text = view.text;
    const tooltip = new vscode.MarkdownString(view.tooltip, true);
    this.item.tooltip = tooltip;
    this.item.backgroundColor = view.background ? new vscode.ThemeColor(backgrounds[view.background]) : undefined;
    this.item.command = view.command;
    const g = this.state.gauge;
    const offer = this.state.connection === "running" && !!this.state.sessionId && !!g && offersCompact(g) && !this.state.compacting;
    if (offer && g) {
      const stage = gaugeStage(g);
      this.compactItem.tooltip = `Context ${STAGE_WORDS[stage]}: compact the conversation now.${g.next ? `\n\n${g.next}` : ""}`;
      this.compactItem.backgroundColor = new vscode.ThemeColor(backgrounds[stage === "warning" ? "warning" : "error"]);
      this.compactItem.show();
    } else {
      this.compactItem.hide();
    }
  }

  dispose(): void {
    if (this.countdown) clearInterval(this.countdown);
    this.item.dispose();
    this.compactItem.dispose();
  }
}
