// Rewind and fork in VS Code: the checkpoint picker (`/rewind`, "Context Sidecar: Rewind…"),
// the choice of what to do from a checkpoint (a message's rewind control), and, before any
// rewind of the files, a preview: each file it changes opens as a diff (the file now on the
// left, what it gets back on the right, a read-only document), and a modal lists the files,
// the conflicts and the shell commands whose changes are not undone, then asks to confirm.

import * as path from "node:path";
import * as vscode from "vscode";
import type { Checkpoint, RestoreKind, Rewound, RewoundFile } from "../shared/protocol";
import {
  ACTION_CHOICES,
  changedLine,
  checkpointItems,
  parseRewindArgs,
  previewPlan,
  promptLine,
  restoresCode,
  type CheckpointAction,
} from "./rewindModel";

export const REWIND_SCHEME = "context-sidecar-rewind";

/** The modal's buttons. */
export const ConfirmChoices = { rewind: "Rewind", force: "Restore Anyway" } as const;

/** What the flow asks of the chat (the ChatController's checkpoint calls). */
export interface RewindChat {
  listCheckpoints(): Promise<Checkpoint[] | undefined>;
  rewind(checkpointId: string, restore: RestoreKind, options?: { preview?: boolean; force?: boolean }): Promise<Rewound | undefined>;
  fork(from?: Pick<Checkpoint, "checkpointId" | "prompt">): Promise<boolean>;
  compact(instructions?: string, fromCheckpointId?: string): Promise<unknown>;
}

export class RewindFlow implements vscode.TextDocumentContentProvider {
  /** The read-only "after the rewind" documents of the open previews. */
  private readonly texts = new Map<string, string>();
  private next = 1;

  constructor(private readonly chat: RewindChat) {}

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? "";
  }

  /** `/rewind [N [action]]` and the palette: pick a checkpoint (newest first), then what to do. */
  async pick(args = ""): Promise<void> {
    const parsed = parseRewindArgs(args);
    if ("error" in parsed) return void vscode.window.showWarningMessage(parsed.error);
    const checkpoints = await this.chat.listCheckpoints();
    if (!checkpoints) return;
    if (!checkpoints.length) {
      return void vscode.window.showInformationMessage("Context Sidecar: nothing to rewind to yet. Each prompt you send takes a checkpoint first.");
    }
    let checkpoint: Checkpoint | undefined;
    if (parsed.number !== undefined) {
      checkpoint = checkpoints[parsed.number - 1];
      if (!checkpoint) return void vscode.window.showWarningMessage(`No checkpoint ${parsed.number}: this conversation has ${checkpoints.length}.`);
    } else {
      const picked = await vscode.window.showQuickPick(checkpointItems(checkpoints, relative), {
        title: "Rewind to before a prompt",
        placeHolder: "The prompts of this conversation, newest first, with the files each turn changed",
        matchOnDescription: true,
        matchOnDetail: true,
      });
      checkpoint = picked?.checkpoint;
    }
    if (checkpoint) await this.from(checkpoint, parsed.action);
  }

  /** A sent message's rewind control: what to do from the checkpoint before it. */
  async at(checkpointId: string): Promise<void> {
    const checkpoints = await this.chat.listCheckpoints();
    if (!checkpoints) return;
    const checkpoint = checkpoints.find((c) => c.checkpointId === checkpointId);
    if (!checkpoint) {
      return void vscode.window.showWarningMessage("That prompt is no longer part of the conversation: a rewind took it back.");
    }
    await this.from(checkpoint);
  }

  private async from(checkpoint: Checkpoint, chosen?: CheckpointAction): Promise<void> {
    let action = chosen;
    if (!action) {
      const picked = await vscode.window.showQuickPick(
        ACTION_CHOICES.map((c) => ({ label: c.label, detail: c.detail, action: c.action })),
        { title: `Rewind to before “${promptLine(checkpoint.prompt, 60)}”`, placeHolder: `This prompt's turn changed: ${changedLine(checkpoint, relative)}` },
      );
      action = picked?.action;
    }
    if (!action) return;
    if (action === "fork") return void (await this.chat.fork(checkpoint));
    if (action === "summarize") return void (await this.chat.compact(undefined, checkpoint.checkpointId));
    if (!restoresCode(action)) return void (await this.chat.rewind(checkpoint.checkpointId, action));
    const preview = await this.chat.rewind(checkpoint.checkpointId, action, { preview: true });
    if (!preview) return;
    const plan = previewPlan(preview, relative, action);
    const shown = await this.showDiffs(plan.changing);
    let choice: string | undefined;
    try {
      const buttons = plan.conflicts.length ? [ConfirmChoices.force, ConfirmChoices.rewind] : [ConfirmChoices.rewind];
      choice = await vscode.window.showWarningMessage(plan.message, { modal: true, detail: plan.detail }, ...buttons);
    } finally {
      await this.closeDiffs(shown);
    }
    if (!choice) return;
    await this.chat.rewind(checkpoint.checkpointId, action, { force: choice === ConfirmChoices.force });
  }

  /** One diff per file the rewind changes: the file now, and what it gets back. The
   *  read-only documents made for them (the right sides, and an empty left for a file that
   *  is gone now). */
  private async showDiffs(files: RewoundFile[]): Promise<vscode.Uri[]> {
    const made: vscode.Uri[] = [];
    for (const file of files) {
      const name = path.basename(file.path);
      const id = this.next++;
      const virtual = (side: string, text: string) => {
        const uri = vscode.Uri.from({ scheme: REWIND_SCHEME, path: file.path, query: `preview=${id}&side=${side}` });
        this.texts.set(uri.toString(), text);
        made.push(uri);
        return uri;
      };
      // A file that is gone now shows as empty on the left; one the rewind deletes, on the right.
      const left = file.oldText === null || file.oldText === undefined ? virtual("now", "") : vscode.Uri.file(file.path);
      const right = virtual("after", file.newText ?? "");
      const what = file.action === "conflict" ? "changed since; restore anyway?" : file.newText === null || file.newText === undefined ? "deleted by the rewind" : "now ↔ after the rewind";
      await vscode.commands.executeCommand("vscode.diff", left, right, `${name}: ${what}`, { preview: false }).then(undefined, () => undefined);
    }
    return made;
  }

  /** Closes the preview's diff tabs and forgets its documents. */
  private async closeDiffs(made: vscode.Uri[]): Promise<void> {
    const keys = new Set(made.map((u) => u.toString()));
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => {
      const input = t.input as { modified?: vscode.Uri } | undefined;
      return input?.modified !== undefined && keys.has(input.modified.toString());
    });
    if (tabs.length) await vscode.window.tabGroups.close(tabs).then(undefined, () => undefined);
    for (const key of keys) this.texts.delete(key);
  }
}

/** A path as the workspace names it (absolute outside it). */
function relative(file: string): string {
  return vscode.workspace.asRelativePath(file, false);
}
