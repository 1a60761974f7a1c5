// A ChatController wired to a scripted sidecar port and recording hooks, for unit tests.
import { ChatController, type ChatHooks, type ControllerOptions, type SidecarPort } from "../../src/chat/controller";
import type { HostToWebviewBody, WebviewToHostBody } from "../../src/shared/messages";

export type Handler = (params: any) => unknown;

export class FakePort implements SidecarPort {
  requests: { method: string; params: any }[] = [];
  notifications: { method: string; params: any }[] = [];
  constructor(readonly handlers: Record<string, Handler>) {}
  async request<R>(method: string, params: unknown): Promise<R> {
    this.requests.push({ method, params });
    const handler = this.handlers[method];
    if (!handler) throw Object.assign(new Error(`unhandled ${method}`), { code: -32601 });
    return (await handler(params)) as R;
  }
  notify(method: string, params: unknown): void {
    this.notifications.push({ method, params });
  }
  methods(): string[] {
    return this.requests.map((r) => r.method);
  }
}

export function harness(handlers: Record<string, Handler>, extraHooks: Partial<ChatHooks> = {}, options: ControllerOptions = {},
  cwd: () => string = () => "/work/proj") {
  const posts: HostToWebviewBody[] = [];
  const calls: { hook: string; args: unknown[] }[] = [];
  const record = (hook: string) => (...args: unknown[]) => void calls.push({ hook, args });
  const controller = new ChatController(
    {
      post: (b) => posts.push(b),
      gaugeChanged: record("gaugeChanged"),
      compactingChanged: record("compactingChanged"),
      showContext: record("showContext"),
      log: () => undefined,
      modesChanged: record("modesChanged"),
      retryChanged: record("retryChanged"),
      mcpChanged: record("mcpChanged"),
      promptFailed: record("promptFailed"),
      offerResend: record("offerResend"),
      promptSucceeded: record("promptSucceeded"),
      permissionShown: record("permissionShown"),
      permissionDone: record("permissionDone"),
      hostRequest: record("hostRequest"),
      ...extraHooks,
    },
    cwd,
    options,
  );
  const port = new FakePort(handlers);
  let seq = 0;
  const send = (body: WebviewToHostBody) => controller.handleWebviewMessage({ ...body, seq: ++seq } as never);
  const hooks = (name: string) => calls.filter((c) => c.hook === name).map((c) => c.args);
  const posted = <T extends HostToWebviewBody["type"]>(type: T) =>
    posts.filter((p) => p.type === type) as Extract<HostToWebviewBody, { type: T }>[];
  return { controller, port, posts, calls, send, hooks, posted };
}

export const MODES = {
  currentModeId: "default",
  availableModes: [
    { id: "default", name: "Default", description: "Ask before edits and shell" },
    { id: "acceptEdits", name: "Accept edits", description: "Edits go through, shell asks" },
    { id: "plan", name: "Plan", description: "Read-only" },
    { id: "bypassPermissions", name: "Bypass permissions", description: "Nothing asks" },
  ],
};

export const started = (id = "s-1", extra: Record<string, unknown> = {}) => ({ sessionId: id, model: "claude-sonnet-5-5", provider: "anthropic", ...extra });

export const tick = () => new Promise((r) => setImmediate(r));
