// What a permission request asks, read from its tool call: an edit with ACP diff content
// (reviewed in the diff editor), leaving plan mode with the plan as markdown, or anything else
// (answered in the panel). Free of the `vscode` module so it is unit-tested directly.

import type { DiffContent, PermissionOption, RequestPermissionParams } from "../shared/protocol";

export type Review =
  | { kind: "edit"; diff: DiffContent; options: PermissionOption[] }
  | { kind: "plan"; plan: string; options: PermissionOption[] }
  | { kind: "other" };

function isDiff(c: unknown): c is DiffContent {
  if (typeof c !== "object" || c === null) return false;
  const d = c as Record<string, unknown>;
  return d.type === "diff" && typeof d.path === "string" && typeof d.newText === "string" && (d.oldText === null || d.oldText === undefined || typeof d.oldText === "string");
}

function textOf(c: unknown): string | undefined {
  if (typeof c !== "object" || c === null) return undefined;
  const outer = c as { type?: unknown; content?: { type?: unknown; text?: unknown } };
  if (outer.type === "content" && outer.content?.type === "text" && typeof outer.content.text === "string") return outer.content.text;
  return undefined;
}

export function readReview(params: RequestPermissionParams): Review {
  const call = params.toolCall ?? {};
  const options = Array.isArray(params.options) ? params.options : [];
  const content = Array.isArray(call.content) ? call.content : [];
  if (call.kind === "switch_mode") {
    const plan = content.map(textOf).filter((t): t is string => t !== undefined).join("\n\n");
    return { kind: "plan", plan, options };
  }
  const diff = content.find(isDiff);
  if (diff && (call.kind === "edit" || call.kind === undefined)) {
    return { kind: "edit", diff: { ...diff, oldText: diff.oldText ?? null }, options };
  }
  return { kind: "other" };
}

export type EditAnswer = "accept" | "acceptAll" | "reject";

/** The offered option that carries an answer: wire ids first, then the option kinds. */
export function optionFor(options: PermissionOption[], answer: EditAnswer): string | undefined {
  const byId = { accept: "allow_once", acceptAll: "allow_turn", reject: "reject_once" }[answer];
  const byKind = { accept: "allow_once", acceptAll: "allow_always", reject: "reject_once" }[answer];
  return (options.find((o) => o.optionId === byId) ?? options.find((o) => o.kind === byKind))?.optionId;
}

/**
 * The URIs an applied workspace edit touched (LSP WorkspaceEdit: `changes` keys and
 * `documentChanges` text edits and creates), so the host saves each afterwards.
 */
export function editedUris(edit: unknown): string[] {
  const uris = new Set<string>();
  if (typeof edit !== "object" || edit === null) return [];
  const e = edit as { changes?: Record<string, unknown>; documentChanges?: unknown[] };
  for (const uri of Object.keys(e.changes ?? {})) uris.add(uri);
  for (const change of e.documentChanges ?? []) {
    const c = change as { kind?: string; uri?: unknown; newUri?: unknown; textDocument?: { uri?: unknown } };
    if (typeof c.textDocument?.uri === "string") uris.add(c.textDocument.uri);
    else if (c.kind === "create" && typeof c.uri === "string") uris.add(c.uri);
    else if (c.kind === "rename" && typeof c.newUri === "string") uris.add(c.newUri);
  }
  return [...uris];
}
