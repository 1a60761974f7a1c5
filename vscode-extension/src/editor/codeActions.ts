// What the panel's code-block buttons and file links do in the editor: copy, insert at the
// cursor, apply to the active file (replace the selection, or review the whole file as a
// diff and accept it), and open a file the transcript names.

import * as path from "node:path";
import * as vscode from "vscode";

export const PROPOSED_CODE_SCHEME = "context-sidecar-code";

export const ApplyChoices = { accept: "Accept", discard: "Discard" } as const;

/** The editor a code block goes to: the active one, or the one left visible when the chat
 *  has focus. Only files and untitled documents, never our own read-only views. */
function targetEditor(): vscode.TextEditor | undefined {
  const editable = (e: vscode.TextEditor | undefined) =>
    e && (e.document.uri.scheme === "file" || e.document.uri.scheme === "untitled") ? e : undefined;
  return editable(vscode.window.activeTextEditor) ?? vscode.window.visibleTextEditors.find((e) => editable(e));
}

function noEditor(what: string): void {
  void vscode.window.showInformationMessage(`Context Sidecar: open a file to ${what} the code into first.`);
}

export async function copyCode(text: string): Promise<void> {
  await vscode.env.clipboard.writeText(text);
  vscode.window.setStatusBarMessage("Code copied to the clipboard", 2000);
}

/** Inserts at the cursor of the active editor (the selection stays as it is). */
export async function insertCode(text: string): Promise<boolean> {
  const editor = targetEditor();
  if (!editor) {
    noEditor("insert");
    return false;
  }
  const at = editor.selection.active;
  return editor.edit((b) => b.insert(at, text));
}

/** Read-only documents holding the proposed text of an apply, shown on a diff's right side. */
export class ProposedCode implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private next = 1;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? "";
  }

  /** The uri showing `text` as the proposed version of `file`. */
  add(file: vscode.Uri, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: PROPOSED_CODE_SCHEME, path: file.path, query: `apply=${this.next++}` });
    this.texts.set(uri.toString(), text);
    return uri;
  }

  drop(uri: vscode.Uri): void {
    this.texts.delete(uri.toString());
  }
}

/**
 * Applies a code block to the active editor. With a selection, the block replaces it. With
 * none, the block is taken as the whole new file: a diff of the file against it opens and
 * the change is made only when the user accepts it.
 * Returns "replaced", "accepted", "discarded" or "noEditor".
 */
export async function applyCode(text: string, proposed: ProposedCode): Promise<"replaced" | "accepted" | "discarded" | "noEditor"> {
  const editor = targetEditor();
  if (!editor) {
    noEditor("apply");
    return "noEditor";
  }
  const doc = editor.document;
  if (!editor.selection.isEmpty) {
    const selection = editor.selection;
    await editor.edit((b) => b.replace(selection, text));
    return "replaced";
  }
  const right = proposed.add(doc.uri, text);
  const name = path.basename(doc.uri.path);
  try {
    await vscode.commands.executeCommand("vscode.diff", doc.uri, right, `${name} ↔ code block (proposed)`, { preview: true });
    const choice = await vscode.window.showInformationMessage(
      `Replace the contents of ${name} with the code block?`,
      ApplyChoices.accept,
      ApplyChoices.discard,
    );
    if (choice !== ApplyChoices.accept) return "discarded";
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text);
    return (await vscode.workspace.applyEdit(edit)) ? "accepted" : "discarded";
  } finally {
    await closeTabsOf(right);
    proposed.drop(right);
  }
}

async function closeTabsOf(uri: vscode.Uri): Promise<void> {
  const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => {
    const input = t.input as { modified?: vscode.Uri } | undefined;
    return input?.modified?.toString() === uri.toString();
  });
  if (tabs.length) await vscode.window.tabGroups.close(tabs).then(undefined, () => undefined);
}

/** A path the transcript names as a file uri: absolute as it is, relative from the workspace. */
export function resolvePath(p: string, workspaceRoot: string | undefined): vscode.Uri | undefined {
  if (/^file:\/\//i.test(p)) return vscode.Uri.parse(p);
  if (path.isAbsolute(p)) return vscode.Uri.file(p);
  if (!workspaceRoot) return undefined;
  return vscode.Uri.file(path.join(workspaceRoot, p));
}

/** Opens `p` with the cursor at the start of 1-based `line` (the first line when absent). */
export async function openFile(p: string, line: number | undefined, workspaceRoot: string | undefined): Promise<boolean> {
  const uri = resolvePath(p, workspaceRoot);
  if (!uri) {
    void vscode.window.showWarningMessage(`Context Sidecar: cannot open ${p}: no workspace folder to find it in.`);
    return false;
  }
  const at = Math.max(0, Math.floor(line ?? 1) - 1);
  try {
    await vscode.window.showTextDocument(uri, { preview: true, selection: new vscode.Range(at, 0, at, 0) });
    return true;
  } catch (error) {
    void vscode.window.showWarningMessage(`Context Sidecar: cannot open ${p}: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  }
}
