// The editor as context for the chat: "Add Selection to Chat", "Add File to Chat", the
// active file and selection with every prompt (contextSidecar.includeActiveEditor), and the
// workspace files `@` completion offers.

import * as vscode from "vscode";
import type { Attachment, FileMatch } from "../shared/messages";
import type { ContentBlock } from "../shared/protocol";
import { attachmentBlock } from "../chat/promptBlocks";
import { queryGlob, rankFiles } from "./fileRank";

const EXCLUDE = "{**/node_modules/**,**/.git/**,**/.venv/**,**/dist/**,**/out/**,**/__pycache__/**}";

export function relativeLabel(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, false);
}

export function fileAttachment(uri: vscode.Uri): Omit<Attachment, "id"> {
  return { kind: "file", uri: uri.toString(), label: relativeLabel(uri) };
}

export function selectionAttachment(editor: vscode.TextEditor): Omit<Attachment, "id"> | undefined {
  const sel = editor.selection;
  if (sel.isEmpty) return undefined;
  const first = sel.start.line + 1;
  // A selection ending at column 0 of a line does not include that line.
  const last = sel.end.character === 0 && sel.end.line > sel.start.line ? sel.end.line : sel.end.line + 1;
  const doc = editor.document;
  return {
    kind: "selection",
    uri: doc.uri.toString(),
    label: `${relativeLabel(doc.uri)}:${first}${last !== first ? `-${last}` : ""}`,
    text: doc.getText(sel),
    lines: [first, last],
  };
}

/** The active editor's file and selection, as blocks, when the setting asks for them. */
export function activeEditorBlocks(enabled: boolean): ContentBlock[] {
  if (!enabled) return [];
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.uri.scheme !== "file") return [];
  const blocks: ContentBlock[] = [attachmentBlock({ id: 0, ...fileAttachment(editor.document.uri) })];
  const sel = selectionAttachment(editor);
  if (sel) blocks.push(attachmentBlock({ id: 0, ...sel }));
  return blocks;
}

/** Workspace files for an `@` query, best first. */
export async function findWorkspaceFiles(query: string, limit = 20): Promise<FileMatch[]> {
  const uris = await vscode.workspace.findFiles(queryGlob(query), EXCLUDE, 500);
  const byPath = new Map(uris.map((u) => [relativeLabel(u), u]));
  return rankFiles([...byPath.keys()], query, limit).map((p) => ({ path: p, uri: byPath.get(p)!.toString() }));
}
