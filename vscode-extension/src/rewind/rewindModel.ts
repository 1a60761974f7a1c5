// The words and choices of rewind and fork, apart from VS Code: the checkpoint picker's
// rows, what can be done from a checkpoint, what a preview says before the user confirms,
// and what the panel says after. Pure, so the unit tests read them directly.

import type { Checkpoint, RestoreKind, Rewound, RewoundFile } from "../shared/protocol";

/** What can be done from a checkpoint: a rewind of one kind, a fork, or a summary of
 *  what follows it. */
export type CheckpointAction = RestoreKind | "fork" | "summarize";

export interface ActionChoice {
  action: CheckpointAction;
  label: string;
  detail: string;
}

export const ACTION_CHOICES: readonly ActionChoice[] = [
  { action: "both", label: "Restore code and conversation", detail: "Files and conversation go back to just before this prompt" },
  { action: "conversation", label: "Restore conversation only", detail: "The conversation goes back to just before this prompt; files stay as they are" },
  { action: "code", label: "Restore code only", detail: "Files go back to just before this prompt; the conversation goes on" },
  { action: "fork", label: "Fork from here", detail: "A new session with a copy of the conversation up to this prompt; this one stays as it is" },
  { action: "summarize", label: "Summarize from here", detail: "This prompt and what follows become a summary; earlier turns stay as they are" },
];

/** Whether a choice touches the files (it is previewed and confirmed first). */
export const restoresCode = (action: CheckpointAction): boolean => action === "both" || action === "code";

/** The prompt's first line, cut for a one-line label. */
export function promptLine(prompt: string, max = 80): string {
  const line = prompt.trim().split("\n", 1)[0]!.trim() || "(empty prompt)";
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** "just now", "5 min ago", "3 h ago", or the date. */
export function ago(at: string | undefined, now: number): string {
  const t = at ? Date.parse(at) : NaN;
  if (!Number.isFinite(t)) return "";
  const minutes = Math.round((now - t) / 60_000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  if (minutes < 24 * 60) return `${Math.round(minutes / 60)} h ago`;
  return new Date(t).toISOString().slice(0, 10);
}

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What a checkpoint's turns changed, in a line: "app.py, util.py (new) · ran: npm install". */
export function changedLine(c: Checkpoint, relative: (path: string) => string): string {
  const files = (c.files ?? []).map((f) => `${relative(f.path)}${f.created ? " (new)" : ""}`);
  const parts = [files.length ? files.join(", ") : "no file changes"];
  if (c.commands?.length) parts.push(`ran: ${c.commands.join("; ")}`);
  return parts.join(" · ");
}

export interface CheckpointItem {
  label: string;
  description: string;
  detail: string;
  checkpoint: Checkpoint;
  /** 1 the oldest, as `/rewind N` counts. */
  number: number;
}

/** The picker's rows: newest first, each the prompt, its number and age, and its files. */
export function checkpointItems(checkpoints: readonly Checkpoint[], relative: (path: string) => string, now = Date.now()): CheckpointItem[] {
  return checkpoints
    .map((checkpoint, i) => ({
      label: promptLine(checkpoint.prompt),
      description: [`#${i + 1}`, ago(checkpoint.at, now)].filter(Boolean).join(" · "),
      detail: changedLine(checkpoint, relative),
      checkpoint,
      number: i + 1,
    }))
    .reverse();
}

/** `/rewind` arguments: `N` picks the N-th checkpoint, then `both|conversation|code|fork|summarize`. */
export function parseRewindArgs(args: string): { number?: number; action?: CheckpointAction } | { error: string } {
  const words = args.trim().split(/\s+/).filter(Boolean);
  if (!words.length) return {};
  const number = Number(words[0]);
  if (!Number.isInteger(number) || number < 1) return { error: `“${words[0]}” is not a checkpoint number (1 is the oldest prompt).` };
  if (words.length === 1) return { number };
  const action = words[1]!.toLowerCase();
  if (words.length > 2 || !ACTION_CHOICES.some((c) => c.action === action)) {
    return { error: "Type /rewind N, optionally followed by both, conversation, code, fork or summarize." };
  }
  return { number, action: action as CheckpointAction };
}

/** What a preview shows before the user confirms a rewind of the files. */
export interface PreviewPlan {
  /** Files whose content the rewind changes (restored or deleted), conflicts included. */
  changing: RewoundFile[];
  conflicts: RewoundFile[];
  commands: string[];
  /** The modal's question and its detail. */
  message: string;
  detail: string;
}

export function previewPlan(preview: Rewound, relative: (path: string) => string, restore: RestoreKind): PreviewPlan {
  const changing = preview.files.filter((f) => f.action !== "unchanged");
  const conflicts = changing.filter((f) => f.action === "conflict");
  const commands = preview.commands ?? [];
  const lines: string[] = [];
  const restored = changing.filter((f) => f.action === "restore");
  const deleted = changing.filter((f) => f.action === "delete");
  if (restored.length) lines.push(`Restores: ${restored.map((f) => relative(f.path)).join(", ")}`);
  if (deleted.length) lines.push(`Deletes (the model created them): ${deleted.map((f) => relative(f.path)).join(", ")}`);
  if (conflicts.length) {
    lines.push(`Changed since by someone else: ${conflicts.map((f) => relative(f.path)).join(", ")}. “Restore Anyway” overwrites them; “Rewind” leaves them as they are.`);
  }
  if (!changing.length) lines.push("No file needs restoring: they are as they were.");
  if (commands.length) lines.push(`Does not undo what these shell commands may have changed: ${commands.join("; ")}`);
  if (restore === "both") lines.push("The conversation goes back to just before this prompt.");
  const what = restore === "both" ? "code and conversation" : "code";
  return {
    changing,
    conflicts,
    commands,
    message: `Rewind ${what} to before “${promptLine(preview.prompt, 60)}”?`,
    detail: lines.join("\n\n"),
  };
}

/** What the panel says after a rewind. */
export function rewindNotice(result: Rewound): string {
  const restored = result.files.filter((f) => f.action === "restore" || f.action === "delete").length;
  const conflicts = result.files.filter((f) => f.action === "conflict").length;
  const parts: string[] = [];
  if (result.conversation) parts.push("the conversation");
  if (result.restore !== "conversation") parts.push(restored ? `${count(restored, "file")} restored` : "no file needed restoring");
  let text = `Rewound to before “${promptLine(result.prompt, 60)}”: ${parts.join(", ")}.`;
  if (conflicts) text += ` ${count(conflicts, "file")} changed since ${conflicts === 1 ? "was" : "were"} left as ${conflicts === 1 ? "it is" : "they are"}.`;
  if (result.restore !== "conversation" && result.commands?.length) text += ` Not undone: ${result.commands.join("; ")}.`;
  if (result.conversation) text += " The prompt is back in the box.";
  return text;
}

export function forkNotice(fromCheckpoint: boolean): string {
  return fromCheckpoint
    ? "Forked: a new session with the conversation up to that prompt, which is back in the box. The original stays under Sessions."
    : "Forked: a new session with a copy of the whole conversation. The original stays under Sessions.";
}
