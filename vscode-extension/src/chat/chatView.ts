// The chat panel: a webview view in its own activity-bar container. It only moves typed,
// sequence-numbered messages between the webview and the ChatController.

import { randomBytes } from "node:crypto";
import * as vscode from "vscode";
import { SeqStamper, parseWebviewMessage, type HostToWebviewBody } from "../shared/messages";
import type { ChatController } from "./controller";
import { chatHtml, makeNonce } from "./html";

export const CHAT_VIEW_ID = "contextSidecar.chat";

export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private stamper = new SeqStamper();
  private readonly disposables: vscode.Disposable[] = [];
  private controller: ChatController | undefined;
  /** Messages posted before the webview exists, replayed once it says ready. */
  private backlog: HostToWebviewBody[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  attach(controller: ChatController): void {
    this.controller = controller;
  }

  post(body: HostToWebviewBody): void {
    const view = this.view;
    if (!view) {
      // Only what a fresh view needs: the last state comes again on ready; keep errors and permissions.
      if (body.type === "permission" || body.type === "error" || body.type === "resendOffer") this.backlog.push(body);
      return;
    }
    void view.webview.postMessage(this.stamper.stamp(body));
  }

  async reveal(): Promise<void> {
    await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    this.stamper = new SeqStamper();
    const dist = vscode.Uri.joinPath(this.extensionUri, "dist");
    view.webview.options = { enableScripts: true, localResourceRoots: [dist] };
    view.webview.html = chatHtml({
      cspSource: view.webview.cspSource,
      nonce: makeNonce((n) => randomBytes(n)),
      scriptUri: view.webview.asWebviewUri(vscode.Uri.joinPath(dist, "webview.js")).toString(),
      styleUri: view.webview.asWebviewUri(vscode.Uri.joinPath(dist, "webview.css")).toString(),
    });
    this.disposables.push(
      view.webview.onDidReceiveMessage(async (raw: unknown) => {
        const message = parseWebviewMessage(raw);
        if (!message) {
          this.log.warn(`Ignored a malformed message from the chat webview: ${JSON.stringify(raw)?.slice(0, 200)}`);
          return;
        }
        try {
          await this.controller?.handleWebviewMessage(message);
        } catch (error) {
          this.log.error(`Chat message ${message.type} failed: ${String(error)}`);
        }
        if (message.type === "ready") {
          const pending = this.backlog;
          this.backlog = [];
          for (const body of pending) this.post(body);
        }
      }),
      view.onDidDispose(() => {
        this.view = undefined;
      }),
    );
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
