// The permission mode of the focused session, in the status bar: click to pick another.

import * as vscode from "vscode";
import type { SessionModes } from "../shared/protocol";
import { modeLabel } from "./modes";
import { Commands } from "./statusView";

export class ModeStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;

  constructor() {
    this.item = vscode.window.createStatusBarItem("contextSidecar.mode", vscode.StatusBarAlignment.Right, 101);
    this.item.name = "Context Sidecar Permission Mode";
    this.item.command = Commands.setPermissionMode;
  }

  get view(): Pick<vscode.StatusBarItem, "text" | "tooltip" | "command"> {
    return this.item;
  }

  set(modes: SessionModes | null): void {
    if (!modes) return void this.item.hide();
    const label = modeLabel(modes);
    this.item.text = `${label.icon} ${label.name}`;
    this.item.tooltip = `Permission mode: ${label.name}${label.description ? `. ${label.description}` : ""}\n\nClick to change it.`;
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
