// Starts, watches and restarts the sidecar process through vscode-languageclient.

import * as os from "node:os";
import { createInterface } from "node:readline";
import * as vscode from "vscode";
import {
  CancellationToken,
  LanguageClient,
  ResponseError,
  RevealOutputChannelOn,
  State,
  TransportKind,
  type ClientCapabilities,
  type FeatureState,
  type LanguageClientOptions,
  type ServerOptions,
  type StaticFeature,
} from "vscode-languageclient/node";
import type { SidecarPort } from "../chat/controller";
import type { ConnectionState } from "../shared/messages";
import {
  Methods,
  type PermissionOutcome,
  type RequestPermissionParams,
  type SessionUpdateParams,
  type StatusParams,
} from "../shared/protocol";
import { checkServerProtocol, initializationOptions, withSidecarCapabilities } from "./handshake";
import { resolveServerCommand, ServerNotFoundError, type ServerCommand } from "./serverCommand";
import { stderrLineParser } from "./serverLog";
import { apiKeyEnvName, processSettings, readSidecarSettings, SECTION } from "./settings";
import { saveEditedDocuments } from "../edits/editReview";
import { editedUris } from "../edits/reviewModel";

export const secretKeyFor = (envName: string) => `contextSidecar.apiKey.${envName}`;

const START_TIMEOUT_MS = 60_000;

export interface SidecarEvents {
  state(state: ConnectionState, port?: SidecarPort, error?: string): void;
  sessionUpdate(params: SessionUpdateParams): void;
  status(params: StatusParams): void;
  permission(params: RequestPermissionParams, token: vscode.CancellationToken): Promise<PermissionOutcome>;
}

/** Announces capabilities.experimental.contextSidecar in initialize. */
class SidecarCapabilitiesFeature implements StaticFeature {
  fillClientCapabilities(capabilities: ClientCapabilities): void {
    withSidecarCapabilities(capabilities);
  }
  initialize(): void {}
  getState(): FeatureState {
    return { kind: "static" };
  }
  clear(): void {}
}

export class SidecarClient implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private starting: Promise<void> | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  private stoppingOnPurpose = false;
  /** processSettings() of the last start. */
  private startedWith: string | undefined;
  /** Lives as long as one client; a restart makes a new one. */

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    private readonly events: SidecarEvents,
  ) {}

  get port(): SidecarPort | undefined {
    const client = this.client;
    if (!client || client.state !== State.Running) return undefined;
    return {
      request: <R>(method: string, params: unknown) => client.sendRequest<R>(method, params),
      notify: (method: string, params: unknown) => void client.sendNotification(method, params),
    };
  }

  start(): Promise<void> {
    this.starting ??= this.doStart().finally(() => (this.starting = undefined));
    return this.starting;
  }

  /** Restarts after a short pause, so a burst of setting changes restarts once. */
  scheduleRestart(reason: string, delayMs = 500): void {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      this.log.info(`Restarting the sidecar: ${reason}`);
      void this.restart();
    }, delayMs);
  }

  async restart(): Promise<void> {
    await this.starting?.catch(() => undefined);
    await this.stop();
    await this.start();
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    this.stoppingOnPurpose = true;
    try {
      if (client.state !== State.Stopped) await client.stop(5_000);
    } catch (error) {
      this.log.warn(`Stopping the sidecar: ${String(error)}`);
    } finally {
      this.stoppingOnPurpose = false;
      await client.dispose().catch(() => undefined);
    }
    this.events.state("stopped");
  }

  /** Whether the settings that shape the process differ from those it was started with. */
  processSettingsChanged(): boolean {
    return this.startedWith !== processSettings(vscode.workspace.workspaceFolders?.[0]?.uri);
  }

  /** Tells the sidecar its settings changed; it pulls them again with workspace/configuration. */
  settingsChanged(): void {
    const client = this.client;
    if (!client || client.state !== State.Running) return;
    void client.sendNotification("workspace/didChangeConfiguration", { settings: readSidecarSettings() });
  }

  private fail(message: string, actions: string[] = ["Open Settings", "Show Log"]): void {
    this.log.error(message);
    this.events.state("failed", undefined, message);
    void vscode.window.showErrorMessage(message, ...actions).then((choice) => {
      if (choice === "Open Settings") void vscode.commands.executeCommand("workbench.action.openSettings", SECTION);
      if (choice === "Show Log") this.log.show();
      if (choice === "Set API Key") void vscode.commands.executeCommand("contextSidecar.setApiKey");
    });
  }

  private async doStart(): Promise<void> {
    this.events.state("starting");
    const folder = vscode.workspace.workspaceFolders?.[0];
    this.startedWith = processSettings(folder?.uri);
    let server: ServerCommand;
    try {
      server = await resolveServerCommand({
        home: os.homedir(),
        workspaceFolder: folder?.uri,
        log: (line) => this.log.info(line),
      });
    } catch (error) {
      if (error instanceof ServerNotFoundError) return this.fail(error.message);
      throw error;
    }
    this.log.info(`Starting the sidecar (${server.origin}): ${server.command} ${server.args.join(" ")} --stdio`);

    const env: NodeJS.ProcessEnv = { ...process.env, PYTHONUNBUFFERED: "1" };
    const keyEnv = apiKeyEnvName(folder?.uri);
    const secret = await this.context.secrets.get(secretKeyFor(keyEnv));
    // The key travels only in the process environment, never in settings or initialize.
    if (secret) env[keyEnv] = secret;

    const serverOptions: ServerOptions = {
      command: server.command,
      args: server.args,
      transport: TransportKind.stdio,
      options: { cwd: folder?.uri.fsPath ?? os.homedir(), env },
    };
    // No file watcher here: the sidecar watches the CLAUDE.md files and git state it reads
    // itself (it alone knows which: includes, parent folders, the user's own file).
    const clientOptions: LanguageClientOptions = {
      documentSelector: [{ scheme: "file" }, { scheme: "untitled" }],
      outputChannel: this.log,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      // Workspace Trust is the one trust model: a restricted window keeps the sidecar from
      // applying the folder's hooks, settings and MCP servers.
      initializationOptions: initializationOptions(
        readSidecarSettings(folder?.uri),
        { name: vscode.env.appName, version: vscode.version },
        vscode.workspace.isTrusted,
      ),
      middleware: {
        workspace: {
          // Edits the sidecar applies are saved at once, so the shell and other tools see them.
          handleApplyEdit: async (params, next) => {
            const result = await next(params, CancellationToken.None);
            if (!(result instanceof ResponseError) && result?.applied) {
              await saveEditedDocuments(editedUris(params.edit), (line) => this.log.warn(line));
            }
            return result;
          },
          configuration: async (params, token, next) => {
            const answered = await next(params, token);
            if (!Array.isArray(answered)) return answered;
            return params.items.map((item, i) =>
              item.section === SECTION
                ? readSidecarSettings(item.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined)
                : answered[i],
            );
          },
        },
      },
      connectionOptions: { maxRestartCount: 3 },
      stdioOptions: {
        stdout: (input, channel) => createInterface({ input, crlfDelay: Infinity }).on("line", (l) => channel.info(l)),
        stderr: (input, channel) => {
          const parse = stderrLineParser();
          createInterface({ input, crlfDelay: Infinity }).on("line", (line) => {
            const { level, text } = parse(line);
            channel[level](`[sidecar] ${text}`);
          });
        },
      },
    };

    const client = new LanguageClient("contextSidecar", "Context Sidecar", serverOptions, clientOptions);
    client.registerFeature(new SidecarCapabilitiesFeature());
    client.onNotification(Methods.sessionUpdate, (params: SessionUpdateParams) => this.events.sessionUpdate(params));
    client.onNotification(Methods.didChangeStatus, (params: StatusParams) => this.events.status(params));
    client.onRequest(Methods.requestPermission, (params: RequestPermissionParams, token) =>
      this.events.permission(params, token),
    );
    client.onDidChangeState((change) => {
      if (this.client !== client || this.stoppingOnPurpose) return;
      if (change.newState === State.Stopped) this.events.state("stopped", undefined, "The sidecar process exited.");
      else if (change.newState === State.Running && change.oldState === State.Starting && !this.starting) {
        // The language client restarted a crashed sidecar on its own.
        this.announceRunning(client);
      }
    });
    this.client = client;

    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        client.start(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no initialize answer within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
        }),
      ]);
    } catch (error) {
      this.client = undefined;
      this.stoppingOnPurpose = true;
      await client.stop(2_000).catch(() => undefined);
      this.stoppingOnPurpose = false;
      return this.fail(`Context Sidecar could not start (${server.command}): ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      if (timer) clearTimeout(timer);
    }
    this.announceRunning(client);
  }

  private announceRunning(client: LanguageClient): void {
    const verdict = checkServerProtocol(client.initializeResult);
    if (!verdict.ok) {
      this.client = undefined;
      this.stoppingOnPurpose = true;
      void client.stop(2_000).catch(() => undefined).finally(() => (this.stoppingOnPurpose = false));
      return this.fail(verdict.message, ["Show Log"]);
    }
    const info = client.initializeResult?.serverInfo;
    this.log.info(
      `Connected to ${info?.name ?? "sidecar"} ${info?.version ?? ""} (protocol ${verdict.version}; providers: ${verdict.providers.join(", ") || "?"})`,
    );
    this.events.state("running", this.port);
  }

  dispose(): void {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    void this.stop();
  }
}
