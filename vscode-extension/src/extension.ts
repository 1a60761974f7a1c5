// Activation: wires the sidecar client, the chat panel, the status-bar gauge and commands.

import * as vscode from "vscode";
import { ChatController, describeError } from "./chat/controller";
import { CHAT_VIEW_ID, ChatViewProvider } from "./chat/chatView";
import { contextMarkdown } from "./chat/contextMarkdown";
import { SidecarClient, secretKeyFor } from "./client/sidecarClient";
import { affectsSidecar, apiKeyEnvName, getSetting, needsRestart, SECTION } from "./client/settings";
import { Methods, type ContextView } from "./shared/protocol";
import { GaugeStatusBar } from "./status/gaugeStatusBar";
import { Commands } from "./status/statusView";

const CONTEXT_SCHEME = "context-sidecar";

/** Read-only documents for the /context view. */
class ContextDocuments implements vscode.TextDocumentContentProvider {
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  set(uri: vscode.Uri, text: string): void {
    this.contents.set(uri.toString(), text);
    this.changed.fire(uri);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? "";
  }
}

export interface ExtensionApi {
  controller: ChatController;
  statusBar: GaugeStatusBar;
}

export async function activate(context: vscode.ExtensionContext): Promise<ExtensionApi> {
  const log = vscode.window.createOutputChannel("Context Sidecar", { log: true });
  const statusBar = new GaugeStatusBar();
  statusBar.setClickAction(getSetting("gaugeClickAction"));
  const chatView = new ChatViewProvider(context.extensionUri, log);
  const contextDocs = new ContextDocuments();

  const showContext = async (sessionId: string) => {
    const port = sidecar.port;
    if (!port) return void vscode.window.showWarningMessage("Context Sidecar is not running.");
    try {
      const view = await port.request<ContextView>(Methods.context, { sessionId });
      const uri = vscode.Uri.from({ scheme: CONTEXT_SCHEME, path: `/context-${sessionId.slice(0, 8)}.md` });
      contextDocs.set(uri, contextMarkdown(view));
      try {
        await vscode.commands.executeCommand("markdown.showPreview", uri);
      } catch {
        await vscode.window.showTextDocument(uri, { preview: true });
      }
    } catch (error) {
      const e = describeError(error);
      void vscode.window.showErrorMessage(`Context view failed: ${e.message}${e.fix ? ` — ${e.fix}` : ""}`);
    }
  };

  const controller = new ChatController(
    {
      post: (body) => chatView.post(body),
      gaugeChanged: (gauge) => statusBar.setSession(controller.currentSessionId, gauge),
      compactingChanged: (on) => statusBar.setCompacting(on),
      showContext: (sessionId) => void showContext(sessionId),
      log: (line) => log.info(line),
    },
    () => vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd(),
  );
  chatView.attach(controller);

  const sidecar = new SidecarClient(context, log, {
    state: (state, port, error) => {
      statusBar.setConnection(state, error);
      void controller.setConnection(state, port);
    },
    sessionUpdate: (params) => controller.onSessionUpdate(params),
    status: (params) => {
      statusBar.setServerStatus(params);
      controller.onStatus(params);
    },
    permission: async (params, token) => {
      await chatView.reveal();
      return controller.requestPermission(params, (cancel) => token.onCancellationRequested(cancel));
    },
  });

  const withSession = (run: (sessionId: string) => unknown) => () => {
    const id = controller.currentSessionId;
    if (!id) return void vscode.window.showInformationMessage("Context Sidecar: no session yet. Open the chat to start one.");
    return run(id);
  };

  context.subscriptions.push(
    log,
    statusBar,
    chatView,
    sidecar,
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, chatView, { webviewOptions: { retainContextWhenHidden: true } }),
    vscode.workspace.registerTextDocumentContentProvider(CONTEXT_SCHEME, contextDocs),
    vscode.commands.registerCommand(Commands.setApiKey, async () => {
      const envName = apiKeyEnvName();
      const provider = getSetting<string>("provider") ?? "anthropic";
      const key = await vscode.window.showInputBox({
        title: `API key for ${provider}`,
        prompt: `Stored in VS Code's secret storage and handed to the sidecar only as the environment variable ${envName}. Leave empty to remove it.`,
        password: true,
        ignoreFocusOut: true,
      });
      if (key === undefined) return;
      if (key.trim()) await context.secrets.store(secretKeyFor(envName), key.trim());
      else await context.secrets.delete(secretKeyFor(envName));
      // secrets.onDidChange below restarts the sidecar with the new environment.
    }),
    vscode.commands.registerCommand(Commands.restart, () => sidecar.restart()),
    vscode.commands.registerCommand(Commands.showLog, () => log.show()),
    vscode.commands.registerCommand(Commands.openChat, () => chatView.reveal()),
    vscode.commands.registerCommand(Commands.newSession, async () => {
      await chatView.reveal();
      await controller.newSession();
    }),
    vscode.commands.registerCommand(Commands.showContext, withSession((id) => showContext(id))),
    vscode.commands.registerCommand(
      Commands.compact,
      withSession(async () => {
        // From the status bar there is nothing to ask; from the palette, instructions are optional.
        await controller.compact();
      }),
    ),
    vscode.commands.registerCommand(
      "contextSidecar.compactWithInstructions",
      withSession(async () => {
        const instructions = await vscode.window.showInputBox({
          title: "Compact the conversation",
          prompt: "Optional: what the summary should focus on",
          ignoreFocusOut: true,
        });
        if (instructions !== undefined) await controller.compact(instructions.trim() || undefined);
      }),
    ),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(`${SECTION}.gaugeClickAction`)) statusBar.setClickAction(getSetting("gaugeClickAction"));
      if (needsRestart(event)) sidecar.scheduleRestart("settings changed");
      else if (affectsSidecar(event)) sidecar.settingsChanged();
    }),
    context.secrets.onDidChange((event) => {
      if (event.key === secretKeyFor(apiKeyEnvName())) sidecar.scheduleRestart("API key changed");
    }),
  );

  void sidecar.start();
  return { controller, statusBar };
}

export function deactivate(): void {
  // Subscriptions dispose the client, which stops the sidecar process.
}
