// Activation: wires the sidecar client, the chat panel, the status-bar gauge and commands.

import * as vscode from "vscode";
import { ChatController, describeError } from "./chat/controller";
import { CHAT_VIEW_ID, ChatViewProvider } from "./chat/chatView";
import { contextMarkdown } from "./chat/contextMarkdown";
import { SidecarClient, secretKeyFor } from "./client/sidecarClient";
import { affectsSidecar, apiKeyEnvName, getSetting, needsRestart, SECTION } from "./client/settings";
import { Methods, ErrorCodes, type ContextView, type McpServerStatus } from "./shared/protocol";
import { ACTION_NAMES, mcpActions, mcpLabel, mcpState, mcpSummary } from "./shared/mcpWords";
import { GaugeStatusBar } from "./status/gaugeStatusBar";
import { ModeStatusBar } from "./status/modeStatusBar";
import { modePickItems } from "./status/modes";
import { modelPickItems, modelPickPlaceholder } from "./status/models";
import { Commands } from "./status/statusView";
import { EditReview, PROPOSED_SCHEME } from "./edits/editReview";
import { readReview } from "./edits/reviewModel";
import { activeEditorBlocks, fileAttachment, findWorkspaceFiles, selectionAttachment } from "./editor/editorContext";
import { PROPOSED_CODE_SCHEME, ProposedCode, applyCode, copyCode, insertCode, openFile } from "./editor/codeActions";
import { REWIND_SCHEME, RewindFlow } from "./rewind/rewindFlow";

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
  modeBar: ModeStatusBar;
}

export async function activate(context: vscode.ExtensionContext): Promise<ExtensionApi> {
  const log = vscode.window.createOutputChannel("Context Sidecar", { log: true });
  const statusBar = new GaugeStatusBar();
  const modeBar = new ModeStatusBar();
  statusBar.setClickAction(getSetting("gaugeClickAction"));
  const chatView = new ChatViewProvider(context.extensionUri, log);
  const contextDocs = new ContextDocuments();
  const proposedCode = new ProposedCode();
  const workspaceRoot = () => vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;

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
      modesChanged: (modes) => modeBar.set(modes),
      retryChanged: (retry) => statusBar.setRetry(retry),
      mcpChanged: (servers) => statusBar.setMcpServers(servers),
      promptFailed: (error) => void promptFailed(error),
      promptSucceeded: () => statusBar.setKeyMissing(undefined),
      offerResend: (text) => void offerResend(text),
      permissionShown: (requestId, params) => {
        const review = readReview(params);
        // The panel's card can say the diff is open in the editor.
        if (review.kind === "edit") chatView.post({ type: "reviewInEditor", requestId, path: review.diff.path });
        void editReview.shown(requestId, params);
      },
      permissionDone: (requestId) => void editReview.done(requestId),
      editorContext: () => activeEditorBlocks(getSetting<boolean>("includeActiveEditor") === true),
      hostRequest: (message) => {
        if (message.type === "fileQuery") {
          void findWorkspaceFiles(message.query).then(
            (files) => chatView.post({ type: "fileResults", requestId: message.requestId, files }),
            (error) => log.warn(`File search failed: ${String(error)}`),
          );
        } else if (message.type === "pickMode") void vscode.commands.executeCommand(Commands.setPermissionMode);
        else if (message.type === "pickModel") void vscode.commands.executeCommand(Commands.switchModel);
        else if (message.type === "setApiKey") void vscode.commands.executeCommand(Commands.setApiKey);
        else if (message.type === "copyCode") void copyCode(message.text);
        else if (message.type === "insertCode") void insertCode(message.text);
        else if (message.type === "applyCode") void applyCode(message.text, proposedCode);
        else if (message.type === "openFile") void openFile(message.path, message.line, workspaceRoot());
        else if (message.type === "manageTrust") void vscode.commands.executeCommand("workbench.trust.manage");
        else if (message.type === "rewindAt") void rewinds.at(message.checkpointId);
      },
      pickCheckpoint: (args) => void rewinds.pick(args),
      confirmDeleteCurrent: async (title) => {
        const choice = await vscode.window.showWarningMessage(
          `Delete the open session${title ? ` “${title}”` : ""}? Its transcript is removed and the chat is cleared.`,
          { modal: true },
          "Delete",
        );
        return choice === "Delete";
      },
    },
    () => vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd(),
    { resumeLastSession: () => getSetting<boolean>("resumeLastSession") !== false },
  );
  chatView.attach(controller);
  controller.setWorkspaceTrust(vscode.workspace.isTrusted);
  const rewinds = new RewindFlow(controller);
  const editReview = new EditReview({ answer: (id, option, reason) => controller.answer(id, option, reason), log: (line) => log.info(line) });

  // A prompt that failed for want of a key: say how to fix it, keep "no API key" in the
  // status bar until it is fixed, and offer to send the prompt again once the key is set.
  const promptFailed = async (error: { message: string; code?: number; fix?: string }) => {
    if (error.code !== ErrorCodes.providerNotConfigured) return;
    statusBar.setKeyMissing(error);
    const choice = await vscode.window.showErrorMessage(
      sentences(error.message, error.fix),
      "Set API Key",
      "Open Settings",
    );
    if (choice === "Set API Key") await vscode.commands.executeCommand(Commands.setApiKey);
    if (choice === "Open Settings") await vscode.commands.executeCommand("workbench.action.openSettings", "contextSidecar");
  };
  let resendOffered: string | undefined;
  const offerResend = async (text: string) => {
    if (resendOffered === text) return;
    resendOffered = text;
    const short = text.length > 60 ? `${text.slice(0, 59)}…` : text;
    const choice = await vscode.window.showInformationMessage(`Send your last prompt again? “${short}”`, "Resend", "Dismiss");
    resendOffered = undefined;
    if (choice === "Resend" && controller.failedPromptText === text) {
      await chatView.reveal();
      await controller.resend();
    }
  };

  const listMcpServers = async () => {
    let servers: McpServerStatus[] = controller.servers;
    const port = sidecar.port;
    const id = controller.currentSessionId;
    if (!servers.length && port && id) {
      try {
        servers = (await port.request<ContextView>(Methods.context, { sessionId: id })).mcpServers ?? [];
      } catch (error) {
        log.info(`sidecar/context failed: ${describeError(error).message}`);
      }
    }
    if (!servers.length) return void vscode.window.showInformationMessage("Context Sidecar: no MCP servers are configured for this session.");
    const icons: Record<string, string> = {
      connected: "$(pass)", starting: "$(sync~spin)", failed: "$(error)", stopped: "$(circle-slash)",
      waiting: "$(question)", rejected: "$(circle-slash)", untrusted: "$(shield)",
    };
    const picked = await vscode.window.showQuickPick(
      servers.map((s) => ({
        label: `${icons[mcpState(s)] ?? ""} ${s.name}`,
        description: `${mcpLabel(s)} · ${s.transport}${mcpActions(s).length ? ` · ${mcpActions(s).map((a) => ACTION_NAMES[a]).join(" / ")}` : ""}`,
        detail: mcpState(s) === "failed" || !s.tools.length ? s.error : s.tools.join(", "),
        server: s,
      })),
      { title: `MCP servers: ${mcpSummary(servers).text.replace(/^MCP: /, "")}`, placeHolder: "Pick a server waiting for approval to approve or reject it" },
    );
    const actions = picked ? mcpActions(picked.server) : [];
    if (!picked || !actions.length) return;
    const action = await vscode.window.showQuickPick(
      actions.map((a) => ({ label: ACTION_NAMES[a], description: `the MCP server '${picked.server.name}'`, action: a })),
      { title: `MCP server '${picked.server.name}': ${mcpLabel(picked.server)}` },
    );
    if (action) await controller.mcpAction(picked.server.name, action.action);
  };

  const addToChat = async (attachment: ReturnType<typeof fileAttachment> | undefined) => {
    if (!attachment) return;
    controller.addAttachment(attachment);
    await chatView.reveal();
  };

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
    vscode.workspace.registerTextDocumentContentProvider(PROPOSED_CODE_SCHEME, proposedCode),
    modeBar,
    editReview,
    vscode.workspace.registerTextDocumentContentProvider(PROPOSED_SCHEME, editReview),
    vscode.workspace.registerTextDocumentContentProvider(REWIND_SCHEME, rewinds),
    vscode.commands.registerCommand(Commands.acceptEdit, (uri?: vscode.Uri) => editReview.answerActive("accept", uri)),
    vscode.commands.registerCommand(Commands.acceptAllEdits, (uri?: vscode.Uri) => editReview.answerActive("acceptAll", uri)),
    vscode.commands.registerCommand(Commands.rejectEdit, (uri?: vscode.Uri) => editReview.answerActive("reject", uri)),
    vscode.commands.registerCommand(Commands.setPermissionMode, async (modeId?: string) => {
      if (typeof modeId === "string") return controller.setMode(modeId);
      const picked = await vscode.window.showQuickPick(modePickItems(controller.currentModes), {
        title: "Permission mode",
        placeHolder: "How much the model may do without asking",
      });
      if (picked) await controller.setMode(picked.id);
    }),
    vscode.commands.registerCommand(Commands.switchModel, async (model?: string) => {
      if (typeof model === "string" && model) return controller.setModel(model);
      const list = await controller.listModels();
      if (!list) return;
      const picked = await vscode.window.showQuickPick(modelPickItems(list), {
        title: "Switch Model (new sessions keep the one you pick)",
        placeHolder: modelPickPlaceholder(list),
        matchOnDescription: true,
      });
      if (picked && picked.id !== list.current) await controller.setModel(picked.id);
    }),
    vscode.commands.registerCommand(Commands.togglePlanMode, () => controller.togglePlanMode()),
    vscode.commands.registerCommand(Commands.showMcpServers, listMcpServers),
    vscode.commands.registerCommand(Commands.resendPrompt, () => controller.resend()),
    vscode.commands.registerCommand(Commands.addSelection, async () => {
      const editor = vscode.window.activeTextEditor;
      if (!editor) return void vscode.window.showInformationMessage("Context Sidecar: open a file and select some text first.");
      await addToChat(selectionAttachment(editor) ?? fileAttachment(editor.document.uri));
    }),
    vscode.commands.registerCommand(Commands.addFile, async (uri?: vscode.Uri, selected?: vscode.Uri[]) => {
      const targets = selected?.length ? selected : uri ? [uri] : vscode.window.activeTextEditor ? [vscode.window.activeTextEditor.document.uri] : [];
      if (!targets.length) return void vscode.window.showInformationMessage("Context Sidecar: no file to add.");
      for (const target of targets) controller.addAttachment(fileAttachment(target));
      await chatView.reveal();
    }),
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
    vscode.commands.registerCommand(Commands.rewind, withSession(() => rewinds.pick())),
    vscode.commands.registerCommand(
      Commands.fork,
      withSession(async () => {
        await chatView.reveal();
        await controller.fork();
      }),
    ),
    vscode.commands.registerCommand(
      Commands.compact,
      withSession(async () => {
        // From the status bar there is nothing to ask; from the palette, instructions are optional.
        await controller.compact();
      }),
    ),
    // Stops what runs in the focused session: a turn, or a compaction (the status bar's
    // click while compacting). The sidecar answers a cancelled compaction with a "cancelled" row.
    vscode.commands.registerCommand(Commands.cancel, () => controller.cancel()),
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
    // Trust only ever grows in a window (taking it back reloads the window).
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      log.info("The workspace is trusted now; telling the sidecar.");
      void controller.trustWorkspace();
    }),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(`${SECTION}.gaugeClickAction`)) statusBar.setClickAction(getSetting("gaugeClickAction"));
      if (needsRestart(event) && sidecar.processSettingsChanged()) sidecar.scheduleRestart("settings changed");
      else if (affectsSidecar(event)) sidecar.settingsChanged();
    }),
    context.secrets.onDidChange((event) => {
      if (event.key !== secretKeyFor(apiKeyEnvName())) return;
      statusBar.setKeyMissing(undefined);
      sidecar.scheduleRestart("API key changed");
    }),
  );

  void sidecar.start();
  return { controller, statusBar, modeBar };
}

/** "no key: X is not set" + "set X ..." -> "No key: X is not set. Set X ...". */
export function sentences(...parts: (string | undefined)[]): string {
  return parts
    .map((p) => p?.trim())
    .filter((p): p is string => !!p)
    .map((p) => `${p[0].toUpperCase()}${p.slice(1)}${/[.!?…]$/.test(p) ? "" : "."}`)
    .join(" ");
}

export function deactivate(): void {
  // Subscriptions dispose the client, which stops the sidecar process.
}
