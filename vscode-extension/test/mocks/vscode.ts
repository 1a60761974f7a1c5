// A recording stand-in for the `vscode` module, used by the unit layer (esbuild aliases
// `vscode` to this file). It implements only what the extension's modules call, with
// settings defaults read from package.json so tests see what VS Code would show.

import { readFileSync } from "node:fs";
import * as path from "node:path";

// ---- settings -------------------------------------------------------------------------------

const pkg = JSON.parse(readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8"));
const defaults: Record<string, unknown> = Object.fromEntries(
  Object.entries(pkg.contributes.configuration.properties as Record<string, { default?: unknown }>).map(([k, v]) => [k, v.default]),
);

export const __settings = {
  global: {} as Record<string, unknown>,
  workspace: {} as Record<string, unknown>,
  reset(): void {
    this.global = {};
    this.workspace = {};
  },
};

function full(section: string | undefined, key: string): string {
  return section ? `${section}.${key}` : key;
}

export const workspace = {
  workspaceFolders: undefined as { uri: Uri; name: string; index: number }[] | undefined,
  getConfiguration(section?: string) {
    return {
      get<T>(key: string, fallback?: T): T | undefined {
        const k = full(section, key);
        for (const layer of [__settings.workspace, __settings.global, defaults]) {
          if (k in layer) return layer[k] as T;
        }
        return fallback;
      },
      inspect(key: string) {
        const k = full(section, key);
        return {
          key: k,
          defaultValue: defaults[k],
          globalValue: __settings.global[k],
          workspaceValue: __settings.workspace[k],
          workspaceFolderValue: undefined,
        };
      },
      has(key: string): boolean {
        return full(section, key) in defaults;
      },
    };
  },
  onDidChangeConfiguration: () => ({ dispose() {} }),
  createFileSystemWatcher: () => ({ dispose() {} }),
  registerTextDocumentContentProvider: () => ({ dispose() {} }),
  textDocuments: [] as { uri: Uri; isDirty: boolean; save(): Promise<boolean> }[],
  async openTextDocument(uri: Uri) {
    const doc = workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (!doc) throw new Error(`no document ${uri.toString()}`);
    return doc;
  },
  asRelativePath(uri: Uri | string, _includeFolder?: boolean): string {
    const p = typeof uri === "string" ? uri : uri.path;
    const root = workspace.workspaceFolders?.[0]?.uri.path;
    return root && p.startsWith(`${root}/`) ? p.slice(root.length + 1) : p;
  },
  /** What applyEdit was given, and whether it succeeds. */
  __applied: [] as WorkspaceEdit[],
  __applyResult: true,
  async applyEdit(edit: WorkspaceEdit): Promise<boolean> {
    workspace.__applied.push(edit);
    return workspace.__applyResult;
  },
  __files: [] as string[],
  async findFiles(_include: string, _exclude?: string, max = 100): Promise<Uri[]> {
    return workspace.__files.slice(0, max).map((p) => Uri.file(p));
  },
};

/** A ConfigurationChangeEvent for the given full keys, with VS Code's prefix semantics. */
export function __changeEvent(keys: string[]) {
  return {
    affectsConfiguration(section: string): boolean {
      return keys.some((k) => k === section || k.startsWith(`${section}.`) || section.startsWith(`${k}.`));
    },
  };
}

// ---- values ---------------------------------------------------------------------------------

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly path: string,
    readonly query = "",
  ) {}
  static file(p: string): Uri {
    return new Uri("file", p);
  }
  static parse(value: string): Uri {
    const m = /^([a-z][\w+.-]*):(?:\/\/)?(.*)$/i.exec(value);
    return m ? new Uri(m[1], m[2].startsWith("/") ? m[2] : `/${m[2]}`) : new Uri("file", value);
  }
  static joinPath(base: Uri, ...parts: string[]): Uri {
    return new Uri(base.scheme, path.posix.join(base.path, ...parts));
  }
  static from(c: { scheme: string; path: string; query?: string }): Uri {
    return new Uri(c.scheme, c.path, c.query ?? "");
  }
  get fsPath(): string {
    return this.path;
  }
  toString(): string {
    return `${this.scheme}://${this.path}${this.query ? `?${this.query}` : ""}`;
  }
}

export class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
}

export class Range {
  readonly start: Position;
  readonly end: Position;
  constructor(a: Position | number, b: Position | number, c?: number, d?: number) {
    this.start = typeof a === "number" ? new Position(a, b as number) : a;
    this.end = typeof a === "number" ? new Position(c!, d!) : (b as Position);
  }
  get isEmpty(): boolean {
    return this.start.line === this.end.line && this.start.character === this.end.character;
  }
}

export class Selection extends Range {
  constructor(
    readonly anchor: Position,
    readonly active: Position,
  ) {
    super(anchor, active);
  }
}

export class WorkspaceEdit {
  readonly replaced: { uri: Uri; range: Range; text: string }[] = [];
  replace(uri: Uri, range: Range, text: string): void {
    this.replaced.push({ uri, range, text });
  }
}

/** A text document over a string, and an editor on it that records its edits. */
export function __editor(uri: Uri, text: string, selection = new Selection(new Position(0, 0), new Position(0, 0))) {
  const lines = () => text.split("\n");
  const document = {
    uri,
    getText: () => text,
    positionAt(offset: number): Position {
      const before = text.slice(0, offset).split("\n");
      return new Position(before.length - 1, before.at(-1)!.length);
    },
    get lineCount() {
      return lines().length;
    },
  };
  const edits: { op: "insert" | "replace"; at: Position | Range; text: string }[] = [];
  const editor = {
    document,
    selection,
    edits,
    async edit(build: (b: { insert(at: Position, t: string): void; replace(at: Range, t: string): void }) => void) {
      build({ insert: (at, t) => edits.push({ op: "insert", at, text: t }), replace: (at, t) => edits.push({ op: "replace", at, text: t }) });
      return true;
    },
  };
  return editor;
}

export class ThemeColor {
  constructor(readonly id: string) {}
}

export class MarkdownString {
  constructor(
    public value = "",
    public supportThemeIcons = false,
  ) {}
}

export enum StatusBarAlignment {
  Left = 1,
  Right = 2,
}

export interface CancellationToken {
  isCancellationRequested: boolean;
}

export class CancellationTokenSource {
  token: CancellationToken = { isCancellationRequested: false };
  cancel(): void {
    this.token.isCancellationRequested = true;
  }
  dispose(): void {}
}

export class EventEmitter<T> {
  private listeners: ((e: T) => void)[] = [];
  event = (listener: (e: T) => void) => {
    this.listeners.push(listener);
    return { dispose: () => (this.listeners = this.listeners.filter((l) => l !== listener)) };
  };
  fire(e: T): void {
    for (const l of this.listeners) l(e);
  }
  dispose(): void {
    this.listeners = [];
  }
}

// ---- window ---------------------------------------------------------------------------------

export interface RecordedStatusBarItem {
  id: string;
  alignment: StatusBarAlignment;
  priority: number;
  name?: string;
  text: string;
  tooltip?: string | MarkdownString;
  backgroundColor?: ThemeColor;
  command?: string;
  visible: boolean;
  disposed: boolean;
  show(): void;
  hide(): void;
  dispose(): void;
}

export const __recorded = {
  statusBarItems: [] as RecordedStatusBarItem[],
  messages: [] as { level: "info" | "warning" | "error"; text: string; items?: string[] }[],
  commands: [] as { id: string; args: unknown[] }[],
  quickPicks: [] as unknown[],
  closedTabs: [] as unknown[],
  /** Answers the next notifications return (a button's title), first in first out. */
  answers: [] as (string | undefined)[],
  /** What the next input boxes return (undefined: Escape), first in first out; and what they asked. */
  inputs: [] as (string | undefined)[],
  inputBoxes: [] as { options: Record<string, unknown>; token?: { isCancellationRequested: boolean } }[],
  /** How the next quick picks choose among their items (none: Escape), first in first out;
   *  and the options each was shown with. */
  picks: [] as ((items: any[]) => unknown)[],
  quickPickOptions: [] as (Record<string, unknown> | undefined)[],
  /** What the next warnings return (a button's title), first in first out; and what they showed. */
  warningAnswers: [] as (string | undefined)[],
  warnings: [] as { text: string; options?: Record<string, unknown>; items: string[] }[],
  reset(): void {
    this.statusBarItems = [];
    this.messages = [];
    this.commands = [];
    this.quickPicks = [];
    this.closedTabs = [];
    this.answers = [];
    this.inputs = [];
    this.inputBoxes = [];
    this.picks = [];
    this.quickPickOptions = [];
    this.warningAnswers = [];
    this.warnings = [];
  },
};

export const window = {
  createStatusBarItem(id: string, alignment: StatusBarAlignment, priority: number): RecordedStatusBarItem {
    const item: RecordedStatusBarItem = {
      id,
      alignment,
      priority,
      text: "",
      visible: false,
      disposed: false,
      show() {
        item.visible = true;
      },
      hide() {
        item.visible = false;
      },
      dispose() {
        item.disposed = true;
      },
    };
    __recorded.statusBarItems.push(item);
    return item;
  },
  async showErrorMessage(text: string) {
    __recorded.messages.push({ level: "error", text });
    return undefined;
  },
  async showWarningMessage(text: string, ...rest: unknown[]) {
    __recorded.messages.push({ level: "warning", text });
    const options = typeof rest[0] === "object" && rest[0] !== null ? (rest.shift() as Record<string, unknown>) : undefined;
    __recorded.warnings.push({ text, options, items: rest as string[] });
    return __recorded.warningAnswers.shift();
  },
  async showInformationMessage(text: string, ...items: string[]) {
    __recorded.messages.push({ level: "info", text, items });
    return __recorded.answers.shift();
  },
  async showInputBox(options: Record<string, unknown>, token?: CancellationToken) {
    __recorded.inputBoxes.push({ options, token });
    return __recorded.inputs.shift();
  },
  async showQuickPick<T>(items: T[], options?: Record<string, unknown>) {
    __recorded.quickPicks.push(items);
    __recorded.quickPickOptions.push(options);
    const choose = __recorded.picks.shift();
    return choose ? (choose(items) as T | undefined) : undefined;
  },
  activeTextEditor: undefined as unknown,
  visibleTextEditors: [] as unknown[],
  shown: [] as { uri: Uri; options?: unknown }[],
  __missing: new Set<string>(),
  async showTextDocument(uri: Uri, options?: unknown) {
    if (window.__missing.has(uri.toString())) throw new Error(`cannot open ${uri.toString()}`);
    window.shown.push({ uri, options });
    return undefined;
  },
  statusMessages: [] as string[],
  setStatusBarMessage(text: string) {
    window.statusMessages.push(text);
    return { dispose() {} };
  },
  tabGroups: {
    all: [] as { tabs: { input: unknown }[] }[],
    async close(tabs: { input: unknown }[]) {
      __recorded.closedTabs.push(...tabs);
      for (const g of window.tabGroups.all) g.tabs = g.tabs.filter((t) => !tabs.includes(t));
      return true;
    },
  },
};

export const commands = {
  async executeCommand(id: string, ...args: unknown[]) {
    __recorded.commands.push({ id, args });
    if (id === "vscode.diff") {
      if (!window.tabGroups.all.length) window.tabGroups.all.push({ tabs: [] });
      window.tabGroups.all[0].tabs.push({ input: { original: args[0], modified: args[1] } });
    }
    return undefined;
  },
  registerCommand: () => ({ dispose() {} }),
};

// ---- extensions -----------------------------------------------------------------------------

export const __extensions = new Map<string, { isActive: boolean; exports: unknown; activate(): Promise<unknown> }>();

export const extensions = {
  getExtension(id: string) {
    return __extensions.get(id);
  },
};

export const env = {
  appName: "Mock Code",
  clipboard: {
    text: "",
    async writeText(value: string) {
      env.clipboard.text = value;
    },
    async readText() {
      return env.clipboard.text;
    },
  },
};
export const version = "1.100.0";
