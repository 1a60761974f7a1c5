// Routes chat traffic between the webview and the sidecar. It owns the focused session and
// knows nothing of VS Code: the extension host gives it a SidecarPort (the language client)
// and a ChatHooks sink (the webview and the status bar), and the protocol tests give it a
// vscode-jsonrpc connection, so the same routing runs against the real sidecar in tests.

import { fixFromErrorData } from "../client/handshake";
import type { Attachment, ConnectionState, HostToWebviewBody, WebviewToHost } from "../shared/messages";
import { SeqGate } from "../shared/messages";
import { mcpState } from "../shared/mcpWords";
import {
  ErrorCodes,
  Methods,
  type Checkpoint,
  type CheckpointList,
  type CompactResult,
  type ContextView,
  type ContentBlock,
  type McpServerStatus,
  type ModelList,
  type ModelSet,
  type SessionModes,
  type Gauge,
  type PermissionOutcome,
  type PromptResult,
  type RequestPermissionParams,
  type RestoreKind,
  type Rewound,
  type SessionList,
  type SessionStarted,
  type SessionSummary,
  type SessionUpdate,
  type SessionUpdateParams,
  type StatusParams,
  type TrustWorkspaceResult,
} from "../shared/protocol";
import { GaugeTracker, gaugeStage, offersCompact } from "../status/gaugeFormat";
import { forkNotice, rewindNotice } from "../rewind/rewindModel";
import { mentionedFiles } from "./mentions";
import { promptBlocks } from "./promptBlocks";

export type RetryUpdate = Extract<SessionUpdate, { sessionUpdate: "retry_update" }>;

export interface SidecarPort {
  request<R>(method: string, params: unknown): Promise<R>;
  notify(method: string, params: unknown): void;
}

export interface ChatHooks {
  /** Send to the webview (the caller stamps seq). */
  post(body: HostToWebviewBody): void;
  /** A fresh gauge of the focused session, or undefined when no session is focused. */
  gaugeChanged(gauge: Gauge | undefined): void;
  compactingChanged(compacting: boolean): void;
  /** Open the /context view of a session. */
  showContext(sessionId: string): void;
  log(line: string): void;
  /** The focused session's permission modes changed (or there is no session: null). */
  modesChanged?(modes: SessionModes | null): void;
  /** A retry is waiting (or the last one ended: undefined). */
  retryChanged?(retry: RetryUpdate | undefined): void;
  /** The MCP servers' status changed. */
  mcpChanged?(servers: McpServerStatus[]): void;
  /** A prompt failed; its text is kept so it can be sent again. */
  promptFailed?(error: { message: string; code?: number; fix?: string }, text: string): void;
  /** A prompt that failed may be sent again now (the sidecar came back). */
  offerResend?(text: string): void;
  /** A prompt went through: whatever the host showed about a failed one can go. */
  promptSucceeded?(): void;
  /** A permission request is shown in the panel; the host may show it too (a diff editor). */
  permissionShown?(requestId: number, params: RequestPermissionParams): void;
  /** A permission request was answered (from anywhere) or dropped. */
  permissionDone?(requestId: number, optionId: string | null, reason?: string): void;
  /** Blocks describing the editor's active file/selection, when the user asked for them. */
  editorContext?(): ContentBlock[];
  /** A webview request the host answers itself (file search, quick picks, the key prompt,
   *  code blocks into the editor, opening a file). */
  hostRequest?(message: Extract<WebviewToHost, { type: HostRequestType }>): void;
  /** Deleting the open session clears the chat: true when the user confirms it. */
  confirmDeleteCurrent?(title: string | null): Promise<boolean>;
  /** `/rewind [N [both|conversation|code]]` was typed: the host offers its checkpoint picker.
   *  Without this hook the command goes to the sidecar, which answers it in words. */
  pickCheckpoint?(args: string): void;
}

/** Panel messages the host serves itself, with VS Code's editor and windows. */
export type HostRequestType =
  | "fileQuery" | "pickMode" | "pickModel" | "setApiKey" | "copyCode" | "insertCode" | "applyCode" | "openFile" | "manageTrust"
  | "rewindAt";

export interface ControllerOptions {
  /** Reopen the workspace's newest session when the sidecar first comes up. */
  resumeLastSession?: () => boolean;
}

interface RpcErrorLike {
  code?: unknown;
  message?: unknown;
  data?: unknown;
}

export function describeError(error: unknown): { message: string; code?: number; fix?: string } {
  const e = (error ?? {}) as RpcErrorLike;
  const message = typeof e.message === "string" && e.message ? e.message : String(error);
  const code = typeof e.code === "number" ? e.code : undefined;
  let fix = fixFromErrorData(e.data);
  if (!fix && code === ErrorCodes.providerNotConfigured) {
    fix = "Run “Context Sidecar: Set API Key”, or check contextSidecar.provider, model and apiKeyEnv.";
  }
  if (!fix && code === ErrorCodes.contextWindowExceeded) fix = "Run /compact, or start a new session.";
  if (!fix && code === ErrorCodes.sessionBusy) fix = "Wait for the running turn to end, or press Cancel.";
  return { message, code, fix };
}

/** `sidecar/compact` failed because the user cancelled it (`session/cancel` during it). */
export function compactionCancelled(error: unknown): boolean {
  const e = (error ?? {}) as RpcErrorLike;
  const data = e.data as { reason?: unknown } | null | undefined;
  return (e.code === ErrorCodes.compactionFailed && data?.reason === "cancelled") || e.code === ErrorCodes.requestCancelled;
}

export class ChatController {
  private sessionId: string | null = null;
  private title: string | null = null;
  private model: string | null = null;
  private busy = false;
  private compacting = 0;
  private connection: ConnectionState = "starting";
  private port: SidecarPort | undefined;
  private readonly gate = new SeqGate();
  private readonly tracker = new GaugeTracker();
  private nextPermissionId = 1;
  private readonly pendingPermissions = new Map<number, (outcome: PermissionOutcome) => void>();
  /** The pending questions "Start the MCP server …?": request id -> the server's name. */
  private readonly mcpQuestions = new Map<number, string>();
  private readonly compactionsSeen = new Set<string>();
  private modes: SessionModes | null = null;
  private availableCommands: { name: string; description?: string }[] | null = null;
  private mcpServers: McpServerStatus[] = [];
  private attachments: Attachment[] = [];
  private nextAttachmentId = 1;
  private failedPrompt: { text: string; attachments: Attachment[] } | null = null;
  private resumeTried = false;
  /** The stage the panel's compact offer was last posted for ("normal": no offer). */
  /** The compact offer the panel shows: its stage and the gauge's `next`, the one text that
   * says what happens next (the status bar's tooltip shows the same). */
  private offered: { stage: string; next?: string } = { stage: "normal" };
  /** The editor's verdict on the workspace (undefined: the editor has none). */
  private trusted: boolean | undefined;
  /** What the sidecar says it withholds from the untrusted workspace (`sidecar/context`). */
  private withheld: string[] = [];

  constructor(
    private readonly hooks: ChatHooks,
    private readonly cwd: () => string,
    private readonly options: ControllerOptions = {},
  ) {}

  get currentModes(): SessionModes | null {
    return this.modes;
  }

  /** The focused session's model, as the last answer or gauge named it. */
  get currentModel(): string | null {
    return this.model;
  }

  get servers(): McpServerStatus[] {
    return this.mcpServers;
  }

  get pendingAttachments(): readonly Attachment[] {
    return this.attachments;
  }

  get failedPromptText(): string | null {
    return this.failedPrompt?.text ?? null;
  }

  get currentSessionId(): string | null {
    return this.sessionId;
  }

  get isBusy(): boolean {
    return this.busy;
  }

  /** The sidecar (re)connected or went away. A reconnect re-attaches the focused session. */
  async setConnection(state: ConnectionState, port?: SidecarPort): Promise<void> {
    this.connection = state;
    this.port = state === "running" ? port : undefined;
    if (state !== "running") {
      this.busy = false;
      this.setCompacting(false, true);
      this.cancelPendingPermissions();
    }
    this.postState();
    if (state !== "running") return;
    if (this.sessionId) await this.loadSession(this.sessionId);
    else if (!this.resumeTried) {
      this.resumeTried = true;
      if (this.options.resumeLastSession?.()) await this.resumeLast();
    }
    if (this.failedPrompt) {
      this.hooks.post({ type: "resendOffer", text: this.failedPrompt.text });
      this.hooks.offerResend?.(this.failedPrompt.text);
    }
  }

  /** Reopens the newest session of this workspace (session/list is newest first). */
  async resumeLast(): Promise<boolean> {
    const port = this.port;
    if (!port) return false;
    try {
      const result = await port.request<SessionList>(Methods.sessionList, { cwd: this.cwd() });
      const newest = Array.isArray(result?.sessions) ? result.sessions[0] : undefined;
      if (!newest || this.sessionId) return false;
      this.hooks.log(`Reopening the last session of this workspace: ${newest.sessionId}`);
      return await this.loadSession(newest.sessionId, newest.title ?? null);
    } catch (error) {
      this.hooks.log(`Could not reopen the last session: ${describeError(error).message}`);
      return false;
    }
  }

  // ---- from the webview -------------------------------------------------------------

  async handleWebviewMessage(message: WebviewToHost): Promise<void> {
    if (message.type === "ready") {
      // A (re)loaded webview numbers its messages from 1 again.
      this.gate.reset();
      this.gate.accept(message);
      this.postState();
      const gauge = this.tracker.gauge;
      if (gauge) this.hooks.post({ type: "gauge", gauge });
      if (this.modes) this.hooks.post({ type: "modes", ...this.modes });
      if (this.availableCommands) {
        this.hooks.post({ type: "update", update: { sessionUpdate: "available_commands_update", availableCommands: this.availableCommands } });
      }
      if (this.attachments.length) this.postAttachments();
      if (this.failedPrompt && this.port) this.hooks.post({ type: "resendOffer", text: this.failedPrompt.text });
      if (this.trusted !== undefined) this.postTrust();
      if (this.mcpServers.length) this.hooks.post({ type: "update", update: { sessionUpdate: "mcp_status_update", servers: this.mcpServers } });
      return;
    }
    if (!this.gate.accept(message)) {
      this.hooks.log(`Dropped a stale webview message (${message.type}, seq ${message.seq}).`);
      return;
    }
    switch (message.type) {
      case "newSession":
        await this.newSession();
        return;
      case "listSessions":
        await this.listSessions();
        return;
      case "loadSession":
        await this.loadSession(message.sessionId);
        return;
      case "prompt":
        await this.prompt(message.text);
        return;
      case "cancel":
        this.cancel();
        return;
      case "compact":
        await this.compact(message.instructions);
        return;
      case "showContext":
        if (this.sessionId) this.hooks.showContext(this.sessionId);
        else this.postError({ message: "No session yet.", fix: "Send a message or press New to start one." });
        return;
      case "permissionAnswer":
        this.answerPermission(message.requestId, message.optionId, message.reason);
        return;
      case "setMode":
        await this.setMode(message.modeId);
        return;
      case "removeAttachment":
        this.removeAttachment(message.id);
        return;
      case "resend":
        await this.resend();
        return;
      case "dismissResend":
        this.failedPrompt = null;
        return;
      case "requestContext":
        await this.requestContext();
        return;
      case "deleteSession":
        await this.deleteSession(message.sessionId);
        return;
      case "renameSession":
        await this.renameSession(message.sessionId, message.title);
        return;
      case "mcpAction":
        await this.mcpAction(message.server, message.action);
        return;
      case "fork":
        await this.fork();
        return;
      case "fileQuery":
      case "pickMode":
      case "pickModel":
      case "setApiKey":
      case "copyCode":
      case "insertCode":
      case "applyCode":
      case "openFile":
      case "manageTrust":
      case "rewindAt":
        // Answered by the host (workspace files, a quick pick, the secret prompt, the editor).
        this.hooks.hostRequest?.(message);
        return;
    }
  }

  // ---- from the sidecar -------------------------------------------------------------

  onSessionUpdate(params: SessionUpdateParams): void {
    if (!params || params.sessionId !== this.sessionId || !params.update) return;
    const update = params.update;
    switch (update.sessionUpdate) {
      case "usage_update":
        this.offerGauge(update._meta?.sidecar);
        break;
      case "compaction_update":
        this.compactionsSeen.add(update.compactionId);
        if (update.status === "in_progress") this.setCompacting(true);
        else this.setCompacting(false);
        break;
      case "session_info_update":
        if (update.title !== undefined) {
          this.title = update.title ?? null;
          this.postState();
        }
        break;
      case "current_mode_update":
        this.applyMode(update.currentModeId);
        break;
      case "available_commands_update":
        this.availableCommands = Array.isArray(update.availableCommands) ? update.availableCommands : [];
        break;
      case "retry_update":
        this.hooks.retryChanged?.(update.done ? undefined : update);
        break;
      case "mcp_status_update":
        this.mcpServers = Array.isArray(update.servers) ? update.servers : [];
        this.hooks.mcpChanged?.(this.mcpServers);
        this.dropDecidedMcpQuestions();
        break;
    }
    // The view renders the kinds it knows and passes over the others.
    this.hooks.post({ type: "update", update });
  }

  onStatus(status: StatusParams): void {
    this.hooks.log(`sidecar status: ${status.kind}${status.busy ? " (busy)" : ""}${status.message ? `: ${status.message}` : ""}`);
  }

  /** Shows the permission prompt in the panel and waits for the user's choice. */
  requestPermission(params: RequestPermissionParams, onCancel?: (cb: () => void) => void): Promise<PermissionOutcome> {
    const requestId = this.nextPermissionId++;
    return new Promise<PermissionOutcome>((resolve) => {
      this.pendingPermissions.set(requestId, resolve);
      const server = mcpApprovalServer(params);
      if (server !== undefined) this.mcpQuestions.set(requestId, server);
      onCancel?.(() => this.answerPermission(requestId, null));
      this.hooks.post({
        type: "permission",
        requestId,
        toolCall: params.toolCall ?? {},
        options: Array.isArray(params.options) ? params.options : [],
      });
      this.hooks.permissionShown?.(requestId, params);
    });
  }

  /**
   * Answers a pending permission request from the host (an editor action, a quick pick);
   * with a rejection, `reason` is what the user said about why.
   */
  answer(requestId: number, optionId: string | null, reason?: string): boolean {
    if (!this.pendingPermissions.has(requestId)) return false;
    this.answerPermission(requestId, optionId, reason);
    return true;
  }

  // ---- workspace trust -----------------------------------------------------------------

  get workspaceTrusted(): boolean | undefined {
    return this.trusted;
  }

  /** The editor's verdict on the workspace folder; false shows the Restricted Mode banner. */
  setWorkspaceTrust(trusted: boolean): void {
    if (trusted) this.withheld = [];
    this.trusted = trusted;
    this.postTrust();
  }

  /**
   * The user has just trusted the folder: `sidecar/trustWorkspace`, so sessions opened from
   * now on get the folder's hooks, settings and MCP servers. A sidecar not running then
   * learns it from `workspaceTrusted` when it next starts.
   */
  async trustWorkspace(): Promise<TrustWorkspaceResult | undefined> {
    this.setWorkspaceTrust(true);
    const port = this.port;
    if (!port) return undefined;
    try {
      const result = await port.request<TrustWorkspaceResult>(Methods.trustWorkspace, { cwd: this.cwd() });
      this.hooks.post({
        type: "notice",
        text: "This folder is trusted now: sessions started from here on apply its hooks, MCP servers and settings (New starts one).",
      });
      return result;
    } catch (error) {
      this.postError(describeError(error));
      return undefined;
    }
  }

  private postTrust(): void {
    const trusted = this.trusted !== false;
    this.hooks.post(trusted || !this.withheld.length ? { type: "trust", trusted } : { type: "trust", trusted, withheld: this.withheld });
  }

  private async refreshTrust(sessionId: string): Promise<void> {
    try {
      this.noteTrust(await this.port?.request<ContextView>(Methods.context, { sessionId }));
    } catch (error) {
      this.hooks.log(`sidecar/context failed: ${describeError(error).message}`);
    }
  }

  private noteTrust(view: ContextView | undefined): void {
    const trust = view?.workspaceTrust;
    if (!trust || this.trusted !== false || !Array.isArray(trust.withheld)) return;
    this.withheld = trust.withheld.filter((w): w is string => typeof w === "string");
    this.postTrust();
  }

  // ---- modes, attachments, resend ------------------------------------------------------

  /** Asks the sidecar to switch the focused session's permission mode. */
  async setMode(modeId: string): Promise<boolean> {
    const port = this.requirePort();
    if (!port) return false;
    if (!this.sessionId && !(await this.newSession())) return false;
    try {
      await port.request(Methods.setMode, { sessionId: this.sessionId, modeId });
      this.applyMode(modeId);
      return true;
    } catch (error) {
      this.postError(describeError(error));
      return false;
    }
  }

  /** `sidecar/mcpAction`: approve, reject or retry one of the session's MCP servers (the
   *  panel's buttons, the MCP Servers quick pick). The servers' new state comes back with
   *  the answer and as `mcp_status_update`; a refusal is said as a notice. */
  async mcpAction(server: string, action: "approve" | "reject" | "retry"): Promise<boolean> {
    const port = this.requirePort();
    if (!port || !this.sessionId) return false;
    try {
      const done = await port.request<{ done: boolean; message: string; servers?: McpServerStatus[] }>(
        Methods.mcpAction, { sessionId: this.sessionId, server, action });
      if (Array.isArray(done.servers)) this.setMcpServers(done.servers);
      this.hooks.post({ type: "notice", text: done.message });
      return done.done;
    } catch (error) {
      this.postError(describeError(error));
      if (this.mcpServers.length) this.setMcpServers(this.mcpServers);
      return false;
    }
  }

  /** `sidecar/models`: what the focused session (started first when there is none) can
   *  switch to; undefined when it cannot be asked. */
  async listModels(): Promise<ModelList | undefined> {
    const port = this.requirePort();
    if (!port) return undefined;
    if (!this.sessionId && !(await this.newSession())) return undefined;
    try {
      return await port.request<ModelList>(Methods.models, { sessionId: this.sessionId });
    } catch (error) {
      this.postError(describeError(error));
      return undefined;
    }
  }

  /** `session/set_model`: the focused session answers with `model` from now on, and the
   *  sidecar opens the workspace's new sessions on it too. */
  async setModel(model: string): Promise<boolean> {
    const port = this.requirePort();
    if (!port) return false;
    if (!this.sessionId && !(await this.newSession())) return false;
    try {
      const answer = await port.request<ModelSet>(Methods.sessionSetModel, { sessionId: this.sessionId, model });
      this.model = model;
      this.offerGauge(answer?.gauge);
      this.postState();
      return true;
    } catch (error) {
      this.postError(describeError(error));
      return false;
    }
  }

  private setMcpServers(servers: McpServerStatus[]): void {
    this.mcpServers = servers;
    this.hooks.mcpChanged?.(servers);
    this.hooks.post({ type: "update", update: { sessionUpdate: "mcp_status_update", servers } });
    this.dropDecidedMcpQuestions();
  }

  /** A server approved or rejected from the MCP list no longer needs its question: the card
   *  goes (answered as dismissed, which the sidecar ignores once the server is decided). */
  private dropDecidedMcpQuestions(): void {
    for (const [requestId, name] of [...this.mcpQuestions]) {
      const server = this.mcpServers.find((s) => s.name === name);
      if (server && mcpState(server) !== "waiting") this.answerPermission(requestId, null);
    }
  }

  /** `/plan`: into plan mode, or back to the default mode when already planning. */
  async togglePlanMode(): Promise<boolean> {
    return this.setMode(this.modes?.currentModeId === "plan" ? "default" : "plan");
  }

  addAttachment(attachment: Omit<Attachment, "id">): Attachment {
    const existing = this.attachments.find((a) => a.uri === attachment.uri && a.kind === attachment.kind && a.label === attachment.label);
    if (existing) return existing;
    const added = { ...attachment, id: this.nextAttachmentId++ };
    this.attachments.push(added);
    this.postAttachments();
    return added;
  }

  removeAttachment(id: number): void {
    this.attachments = this.attachments.filter((a) => a.id !== id);
    this.postAttachments();
  }

  /** Sends the prompt that failed last (after the key was set, the sidecar restarted). */
  async resend(): Promise<PromptResult | undefined> {
    const failed = this.failedPrompt;
    if (!failed) return undefined;
    this.failedPrompt = null;
    for (const a of failed.attachments) if (!this.attachments.some((b) => b.uri === a.uri && b.label === a.label)) this.attachments.push(a);
    return this.prompt(failed.text);
  }

  // ---- actions, also used by commands ------------------------------------------------

  async newSession(): Promise<boolean> {
    const port = this.requirePort();
    if (!port) return false;
    if (this.busy) this.cancel();
    try {
      const started = await port.request<SessionStarted>(Methods.sessionNew, { cwd: this.cwd() });
      this.focus(started.sessionId, null, started.model);
      this.hooks.post({ type: "reset" });
      this.setModes(started.modes);
      this.offerGauge(started.gauge);
      this.postState();
      // The banner names what the sidecar withholds from the restricted folder.
      if (this.trusted === false) void this.refreshTrust(started.sessionId);
      return true;
    } catch (error) {
      this.postError(describeError(error));
      return false;
    }
  }

  async listSessions(): Promise<SessionSummary[]> {
    const port = this.requirePort();
    if (!port) return [];
    try {
      const result = await port.request<SessionList>(Methods.sessionList, { cwd: this.cwd() });
      const sessions = Array.isArray(result?.sessions) ? result.sessions : [];
      this.hooks.post({ type: "sessions", sessions });
      return sessions;
    } catch (error) {
      this.postError(describeError(error));
      return [];
    }
  }

  /** The focused session's `sidecar/context`, for the panel's Context view. */
  async requestContext(): Promise<ContextView | undefined> {
    const port = this.requirePort();
    if (!port) return undefined;
    const sessionId = this.sessionId;
    if (!sessionId) {
      this.postError({ message: "No session yet.", fix: "Send a message or press New to start one." });
      return undefined;
    }
    try {
      const view = await port.request<ContextView>(Methods.context, { sessionId });
      if (sessionId === this.sessionId) this.hooks.post({ type: "context", view });
      this.noteTrust(view);
      return view;
    } catch (error) {
      if (sessionId === this.sessionId) this.postError(describeError(error));
      return undefined;
    }
  }

  /**
   * `session/delete`, then a fresh list. The open session is deleted only when the user
   * confirms it (the chat is cleared); otherwise the list comes back as it was.
   */
  async deleteSession(sessionId: string): Promise<boolean> {
    const port = this.requirePort();
    if (!port) return false;
    const current = sessionId === this.sessionId;
    if (current) {
      const confirmed = (await this.hooks.confirmDeleteCurrent?.(this.title)) ?? false;
      if (!confirmed) {
        this.hooks.post({ type: "notice", text: "The open session was not deleted." });
        await this.listSessions();
        return false;
      }
      if (this.busy) this.cancel();
    }
    let deleted = false;
    let gone = false;
    try {
      await port.request(Methods.sessionDelete, { sessionId });
      deleted = gone = true;
    } catch (error) {
      const e = describeError(error);
      // An open session never written to disk is closed, then reported as not found.
      gone = e.code === ErrorCodes.sessionNotFound;
      if (!(current && gone)) this.postError(e);
      deleted = current && gone;
    }
    if (gone && current && sessionId === this.sessionId) {
      this.focus(null, null, null);
      this.hooks.post({ type: "reset" });
      this.postState();
    }
    await this.listSessions();
    return deleted;
  }

  /** `session/set_title`, then a fresh list (an open session's title follows at once). */
  async renameSession(sessionId: string, title: string): Promise<boolean> {
    const port = this.requirePort();
    if (!port) return false;
    const trimmed = title.trim();
    if (!trimmed) {
      this.postError({ message: "A session's title cannot be empty." });
      await this.listSessions();
      return false;
    }
    let renamed = false;
    try {
      await port.request(Methods.setTitle, { sessionId, title: trimmed });
      renamed = true;
      if (sessionId === this.sessionId) {
        this.title = trimmed;
        this.postState();
      }
    } catch (error) {
      this.postError(describeError(error));
    }
    await this.listSessions();
    return renamed;
  }

  async loadSession(sessionId: string, title: string | null = null): Promise<boolean> {
    const port = this.requirePort();
    if (!port) return false;
    if (this.busy && sessionId !== this.sessionId) this.cancel();
    const previous = { id: this.sessionId, title: this.title, model: this.model };
    // Focus first: the replay arrives as session/update before the answer.
    this.focus(sessionId, title ?? (sessionId === previous.id ? previous.title : null), null);
    this.hooks.post({ type: "reset" });
    this.postState();
    try {
      const loaded = await port.request<SessionStarted>(Methods.sessionLoad, { sessionId });
      this.model = loaded.model ?? null;
      this.setModes(loaded.modes);
      this.offerGauge(loaded.gauge);
      this.postState();
      return true;
    } catch (error) {
      this.focus(previous.id, previous.title, previous.model);
      this.postState();
      this.postError(describeError(error));
      return false;
    }
  }

  async prompt(text: string): Promise<PromptResult | undefined> {
    const trimmed = text.trim();
    if (!trimmed) return undefined;
    const compact = /^\/compact(?:\s+([\s\S]*))?$/.exec(trimmed);
    if (compact) {
      await this.compact(compact[1]?.trim() || undefined);
      return undefined;
    }
    // `/rewind` opens the host's checkpoint picker, `/fork [N]` forks here; a client without
    // a picker leaves /rewind to the sidecar, which answers it in words.
    const rewindCommand = /^\/rewind(?:\s+([\s\S]*))?$/.exec(trimmed);
    if (rewindCommand && this.hooks.pickCheckpoint) {
      this.hooks.pickCheckpoint(rewindCommand[1]?.trim() ?? "");
      return undefined;
    }
    const forkCommand = /^\/fork(?:\s+(\d+))?\s*$/.exec(trimmed);
    if (forkCommand) {
      await this.forkAt(forkCommand[1] ? Number(forkCommand[1]) : undefined);
      return undefined;
    }
    if (this.busy) {
      this.postError({ message: "A turn is already running.", fix: "Wait for it to end, or press Cancel." });
      return undefined;
    }
    const port = this.requirePort();
    if (!port) return undefined;
    if (!this.sessionId && !(await this.newSession())) return undefined;
    const sessionId = this.sessionId!;
    const own = this.attachments;
    const attached = [...own];
    for (const file of await mentionedFiles(trimmed, this.cwd())) {
      if (!attached.some((a) => a.kind === "file" && a.uri === file.uri)) {
        attached.push({ id: -1, kind: "file", uri: file.uri, label: file.label });
      }
    }
    const prompt = promptBlocks(trimmed, attached, this.hooks.editorContext?.() ?? []);
    this.attachments = [];
    if (own.length) this.postAttachments();
    this.failedPrompt = null;
    this.hooks.post({
      type: "userPrompt",
      text: trimmed,
      ...(attached.length ? { attachments: attached.map(({ kind, label }) => ({ kind, label })) } : {}),
    });
    this.busy = true;
    this.postState();
    try {
      const result = await port.request<PromptResult>(Methods.sessionPrompt, { sessionId, prompt });
      if (sessionId === this.sessionId) {
        this.offerGauge(result?.gauge);
        // The prompt's message can rewind to the checkpoint taken before its turn.
        if (typeof result?.checkpointId === "string" && result.checkpointId) {
          this.hooks.post({ type: "checkpoint", checkpointId: result.checkpointId });
        }
        this.hooks.post({ type: "turnEnded", stopReason: String(result?.stopReason ?? "end_turn") });
      }
      this.hooks.promptSucceeded?.();
      return result;
    } catch (error) {
      const e = describeError(error);
      // Kept so it can be sent again once the cause is fixed (a key set, the sidecar back).
      this.failedPrompt = { text: trimmed, attachments: own };
      if (sessionId === this.sessionId) this.postError(e);
      this.hooks.promptFailed?.(e, trimmed);
      return undefined;
    } finally {
      this.hooks.retryChanged?.(undefined);
      if (sessionId === this.sessionId) {
        this.busy = false;
        this.postState();
      }
    }
  }

  cancel(): void {
    this.cancelPendingPermissions();
    if (!this.sessionId || !this.port) return;
    this.port.notify(Methods.sessionCancel, { sessionId: this.sessionId });
  }

  /** `sidecar/compact`; from a checkpoint, only its prompt and what follows are summarized. */
  async compact(instructions?: string, fromCheckpointId?: string): Promise<CompactResult | undefined> {
    const port = this.requirePort();
    if (!port) return undefined;
    if (!this.sessionId) {
      this.postError({ message: "No session to compact.", fix: "Start a session first." });
      return undefined;
    }
    const sessionId = this.sessionId;
    const rowsBefore = this.compactionsSeen.size;
    this.setCompacting(true);
    try {
      const params: Record<string, unknown> = { sessionId };
      if (instructions) params.instructions = instructions;
      if (fromCheckpointId) params.fromCheckpointId = fromCheckpointId;
      const result = await port.request<CompactResult>(Methods.compact, params);
      // A sidecar that streamed compaction_update rows already showed the result.
      if (result && !this.compactionsSeen.has(result.compactionId) && sessionId === this.sessionId) {
        this.hooks.post({
          type: "update",
          update: {
            sessionUpdate: "compaction_update",
            compactionId: result.compactionId,
            status: result.status === "completed" ? "completed" : "failed",
            tier: result.tier,
            trigger: "manual",
            tokensBefore: result.tokensBefore,
            tokensAfter: result.tokensAfter,
          },
        });
      }
      await this.refreshGauge();
      return result;
    } catch (error) {
      if (sessionId !== this.sessionId) return undefined;
      if (!compactionCancelled(error)) {
        this.postError(describeError(error));
        return undefined;
      }
      // Cancelled (Escape, Stop, the status bar): nothing changed, which is no error. The
      // sidecar's own "cancelled" row says so; one that streamed no row gets one here.
      if (this.compactionsSeen.size === rowsBefore) {
        this.hooks.post({
          type: "update",
          update: { sessionUpdate: "compaction_update", compactionId: `cancelled-${Date.now()}`, status: "cancelled", tier: "full", trigger: "manual" },
        });
      }
      return undefined;
    } finally {
      this.setCompacting(false);
    }
  }

  // ---- checkpoints, rewind, fork ------------------------------------------------------

  /** `sidecar/checkpoints` of the focused session, oldest first; undefined when it cannot
   *  be asked (the panel says why). */
  async listCheckpoints(): Promise<Checkpoint[] | undefined> {
    const port = this.requirePort();
    if (!port) return undefined;
    const sessionId = this.sessionId;
    if (!sessionId) {
      this.postError({ message: "No conversation to rewind yet.", fix: "Send a message first." });
      return undefined;
    }
    try {
      const list = await port.request<CheckpointList>(Methods.checkpoints, { sessionId });
      return Array.isArray(list?.checkpoints) ? list.checkpoints : [];
    } catch (error) {
      if (sessionId === this.sessionId) this.postError(describeError(error));
      return undefined;
    }
  }

  /**
   * `sidecar/rewind` of the focused session to the state just before a checkpoint's prompt.
   * A preview changes nothing and shows nothing. A rewound conversation is shown again as it
   * now stands (`session/load` replays it) with the prompt back in the box to edit; the panel
   * says what was restored and what was not.
   */
  async rewind(checkpointId: string, restore: RestoreKind, options: { preview?: boolean; force?: boolean } = {}): Promise<Rewound | undefined> {
    const port = this.requirePort();
    if (!port) return undefined;
    const sessionId = this.sessionId;
    if (!sessionId) return undefined;
    if (this.busy) {
      this.postError({ message: "A turn is running.", fix: "Wait for it to end, or press Cancel, then rewind." });
      return undefined;
    }
    const params: Record<string, unknown> = { sessionId, checkpointId, restore };
    if (options.preview) params.preview = true;
    if (options.force) params.force = true;
    let result: Rewound;
    try {
      result = await port.request<Rewound>(Methods.rewind, params);
    } catch (error) {
      if (sessionId === this.sessionId) this.postError(describeError(error));
      return undefined;
    }
    if (options.preview || sessionId !== this.sessionId) return result;
    if (result.conversation) {
      await this.loadSession(sessionId, this.title);
      this.putInInput(result.prompt);
    } else {
      this.offerGauge(result.gauge);
    }
    this.hooks.post({ type: "notice", text: rewindNotice(result) });
    return result;
  }

  /**
   * `sidecar/fork`: a new session continuing a copy of the conversation (up to a
   * checkpoint's prompt, or all of it), opened in the panel in place of this one, which
   * stays as it was under Sessions. A fork from a checkpoint puts its prompt in the box.
   */
  async fork(from?: Pick<Checkpoint, "checkpointId" | "prompt">): Promise<boolean> {
    const checkpointId = from?.checkpointId;
    const port = this.requirePort();
    if (!port) return false;
    const sessionId = this.sessionId;
    if (!sessionId) {
      this.postError({ message: "No conversation to fork yet.", fix: "Send a message first." });
      return false;
    }
    if (this.busy) {
      this.postError({ message: "A turn is running.", fix: "Wait for it to end, or press Cancel, then fork." });
      return false;
    }
    const parentTitle = this.title;
    try {
      const forked = await port.request<SessionStarted>(Methods.fork, checkpointId ? { sessionId, checkpointId } : { sessionId });
      // The sidecar names a fork after its parent.
      if (!(await this.loadSession(forked.sessionId, parentTitle ? `${parentTitle} (fork)` : null))) return false;
      this.hooks.post({ type: "notice", text: forkNotice(checkpointId !== undefined) });
      if (from) this.putInInput(from.prompt);
      return true;
    } catch (error) {
      if (sessionId === this.sessionId) this.postError(describeError(error));
      return false;
    }
  }

  /** `/fork N`: forks at the N-th checkpoint (1 the oldest, as `/rewind` in words numbers
   *  them), its prompt back in the box; `/fork` alone forks all of the conversation. */
  async forkAt(n?: number): Promise<boolean> {
    if (n === undefined) return this.fork();
    const checkpoints = await this.listCheckpoints();
    if (!checkpoints) return false;
    const picked = checkpoints[n - 1];
    if (!picked) {
      this.postError({ message: `No checkpoint ${n}: this conversation has ${checkpoints.length}.`, fix: "Type /rewind to pick one from the list." });
      return false;
    }
    return this.fork(picked);
  }

  /** Puts text in the panel's prompt box (a rewound or forked-from prompt, to edit and send). */
  putInInput(text: string): void {
    if (text) this.hooks.post({ type: "setInput", text });
  }

  async refreshGauge(): Promise<void> {
    const port = this.port;
    if (!port || !this.sessionId) return;
    try {
      this.offerGauge(await port.request<Gauge>(Methods.gauge, { sessionId: this.sessionId }));
    } catch (error) {
      this.hooks.log(`sidecar/gauge failed: ${describeError(error).message}`);
    }
  }

  // ---- internals ----------------------------------------------------------------------

  private focus(sessionId: string | null, title: string | null, model: string | null): void {
    if (sessionId !== this.sessionId) {
      // A turn of the previous session may still answer; its result is no longer shown.
      this.compactionsSeen.clear();
      this.busy = false;
      this.availableCommands = null;
      if (this.modes) {
        this.modes = null;
        this.hooks.modesChanged?.(null);
      }
    }
    this.sessionId = sessionId;
    this.title = title;
    this.model = model;
    this.tracker.setSession(sessionId ?? undefined);
    this.hooks.gaugeChanged(undefined);
    if (this.offered.stage !== "normal") {
      this.offered = { stage: "normal" };
      this.hooks.post({ type: "compactOffer", stage: "normal" });
    }
  }

  private setModes(modes: SessionModes | undefined | null): void {
    const valid = modes && typeof modes.currentModeId === "string" && Array.isArray(modes.availableModes);
    this.modes = valid ? { currentModeId: modes.currentModeId, availableModes: modes.availableModes } : null;
    this.postModes();
  }

  private applyMode(modeId: string): void {
    if (typeof modeId !== "string") return;
    const available = this.modes?.availableModes ?? [];
    this.modes = { currentModeId: modeId, availableModes: available };
    this.postModes();
  }

  private postModes(): void {
    if (this.modes) this.hooks.post({ type: "modes", ...this.modes });
    this.hooks.modesChanged?.(this.modes);
  }

  private postAttachments(): void {
    this.hooks.post({ type: "attachments", items: this.attachments });
  }

  private offerGauge(gauge: Gauge | undefined | null): void {
    if (this.tracker.offer(gauge)) {
      const g = this.tracker.gauge!;
      if (g.model && g.model !== this.model) {
        // Another model (`/model NAME`): the panel's model chip follows.
        this.model = g.model;
        this.postState();
      }
      this.hooks.gaugeChanged(g);
      this.hooks.post({ type: "gauge", gauge: g });
      const stage = offersCompact(g) ? gaugeStage(g) : "normal";
      const next = stage === "normal" ? undefined : g.next;
      if (stage !== this.offered.stage || next !== this.offered.next) {
        this.offered = { stage, next };
        this.hooks.post({ type: "compactOffer", stage, next });
      }
    }
  }

  private setCompacting(on: boolean, reset = false): void {
    const before = this.compacting > 0;
    if (reset) this.compacting = 0;
    else if (on) this.compacting += 1;
    else this.compacting = Math.max(0, this.compacting - 1);
    const after = this.compacting > 0;
    if (before !== after) {
      this.hooks.compactingChanged(after);
      this.postState();
    }
  }

  private answerPermission(requestId: number, optionId: string | null, reason?: string): void {
    const resolve = this.pendingPermissions.get(requestId);
    if (!resolve) return;
    this.pendingPermissions.delete(requestId);
    this.mcpQuestions.delete(requestId);
    // The user's reason goes with the answer (the sidecar passes it to the model); blank is none.
    const said = optionId ? reason?.trim() || undefined : undefined;
    resolve(
      !optionId
        ? { outcome: { outcome: "cancelled" } }
        : said
          ? { outcome: { outcome: "selected", optionId, _meta: { sidecar: { reason: said } } } }
          : { outcome: { outcome: "selected", optionId } },
    );
    this.hooks.post(said ? { type: "permissionDone", requestId, optionId, reason: said } : { type: "permissionDone", requestId, optionId });
    this.hooks.permissionDone?.(requestId, optionId, said);
  }

  private cancelPendingPermissions(): void {
    for (const id of [...this.pendingPermissions.keys()]) this.answerPermission(id, null);
  }

  private requirePort(): SidecarPort | undefined {
    if (this.port) return this.port;
    const message =
      this.connection === "starting" ? "The sidecar is still starting." : "The sidecar is not running.";
    this.postError({ message, fix: "See the “Context Sidecar” output channel, or run “Context Sidecar: Restart”." });
    return undefined;
  }

  private postError(e: { message: string; code?: number; fix?: string }): void {
    this.hooks.post({ type: "error", ...e });
  }

  private postState(): void {
    this.hooks.post({
      type: "state",
      connection: this.connection,
      sessionId: this.sessionId,
      title: this.title,
      model: this.model,
      busy: this.busy,
      compacting: this.compacting > 0,
    });
  }
}

/** The server a "Start the MCP server …?" question is about, or undefined for another
 *  question. */
function mcpApprovalServer(params: RequestPermissionParams): string | undefined {
  const call = params.toolCall as { toolCallId?: unknown; rawInput?: { server?: unknown } } | undefined;
  if (typeof call?.toolCallId !== "string" || !call.toolCallId.startsWith("mcp-approval-")) return undefined;
  return typeof call.rawInput?.server === "string" ? call.rawInput.server : undefined;
}
