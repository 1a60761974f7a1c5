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
  static from(c: { scheme: string; path: string }): Uri {
    return new Uri(c.scheme, c.path);
  }
  get fsPath(): string {
    return this.path;
  }
  toString(): string {
    return `${this.scheme}://${this.path}`;
  }
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
  messages: [] as { level: "info" | "warning" | "error"; text: string }[],
  commands: [] as { id: string; args: unknown[] }[],
  reset(): void {
    this.statusBarItems = [];
    this.messages = [];
    this.commands = [];
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
  async showWarningMessage(text: string) {
    __recorded.messages.push({ level: "warning", text });
    return undefined;
  },
  async showInformationMessage(text: string) {
    __recorded.messages.push({ level: "info", text });
    return undefined;
  },
};

export const commands = {
  async executeCommand(id: string, ...args: unknown[]) {
    __recorded.commands.push({ id, args });
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

export const env = { appName: "Mock Code" };
export const version = "1.100.0";
