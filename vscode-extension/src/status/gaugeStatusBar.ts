// The status-bar context gauge. Holds the inputs of statusView() and repaints on change.

import * as vscode from "vscode";
import type { ConnectionState } from "../shared/messages";
import type { Gauge, StatusParams } from "../shared/protocol";
import { statusView, type StatusInputs } from "./statusView";

const backgrounds = {
  warning: "statusBarItem.warningBackground",
  error: "statusBarItem.errorBackground",
} as const;

export class GaugeStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private state: StatusInputs = { connection: "starting", compacting: false, clickAction: "showContext" };

  constructor() {
    this.item = vscode.window.createStatusBarItem("contextSidecar.gauge", vscode.StatusBarAlignment.Right, 100);
    this.item.name = "Context Sidecar Gauge";
    this.render();
    this.item.show();
  }

  /** The item, for tests running inside the extension host. */
  get view(): Pick<vscode.StatusBarItem, "text" | "backgroundColor" | "tooltip" | "command"> {
    return this.item;
  }

  setConnection(connection: ConnectionState, error?: string): void {
    this.update({ connection, connectionError: error });
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
  }

  dispose(): void {
    this.item.dispose();
  }
}
