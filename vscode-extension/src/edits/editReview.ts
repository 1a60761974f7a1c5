// Edits the sidecar asks about open in VS Code's diff editor (the file as the model read it
// on the left, the proposed text on the right, both read-only documents), with Accept,
// Accept all edits this turn and Reject as editor title actions; the panel's card answers
// the same request, and whichever answers first wins. Leaving plan mode shows the plan as
// markdown with its three options. Rejecting (an edit, or "No, keep planning") asks what to
// tell the model about why; Escape or an empty answer rejects without a reason.

import * as path from "node:path";
import * as vscode from "vscode";
import type { RequestPermissionParams } from "../shared/protocol";
import { optionFor, readReview, type EditAnswer } from "./reviewModel";

export const PROPOSED_SCHEME = "context-sidecar-proposed";
const REVIEWING = "contextSidecar.reviewingEdit";

interface OpenReview {
  requestId: number;
  options: RequestPermissionParams["options"];
  left: vscode.Uri;
  right: vscode.Uri;
}

export interface EditReviewHost {
  /** Answers the request (false when it was answered already); `reason` goes with a rejection. */
  answer(requestId: number, optionId: string | null, reason?: string): boolean;
  log(line: string): void;
}

export class EditReview implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly reviews = new Map<number, OpenReview>();
  /** The reason boxes open, by request: an answer from elsewhere closes its box. */
  private readonly asking = new Map<number, vscode.CancellationTokenSource>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly host: EditReviewHost) {}

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? "";
  }

  /** Called for every permission request the panel shows. */
  async shown(requestId: number, params: RequestPermissionParams): Promise<void> {
    const review = readReview(params);
    if (review.kind === "edit") await this.openDiff(requestId, review.diff, review.options);
    else if (review.kind === "plan") await this.showPlan(requestId, review.plan, review.options);
  }

  /** The request was answered (from the panel, a notification or here): close its diff. */
  async done(requestId: number): Promise<void> {
    this.asking.get(requestId)?.cancel();
    const review = this.reviews.get(requestId);
    if (!review) return;
    this.reviews.delete(requestId);
    await this.closeTabs(review.right);
    this.texts.delete(review.left.toString());
    this.texts.delete(review.right.toString());
    await this.updateContext();
  }

  /** An editor title action: the review in the active diff editor, else the oldest one open. */
  async answerActive(answer: EditAnswer, uri?: vscode.Uri): Promise<void> {
    const review = this.find(uri) ?? this.find(activeUri()) ?? [...this.reviews.values()][0];
    if (!review) return void vscode.window.showInformationMessage("No proposed edit is waiting for review.");
    const optionId = optionFor(review.options, answer);
    if (!optionId) return void vscode.window.showWarningMessage("This request offers no such answer.");
    const reason = answer === "reject" ? await this.reasonFor(review.requestId, review.left === review.right ? "plan" : "edit") : undefined;
    // The panel may have answered while the question was open: its answer stands.
    if (!this.reviews.has(review.requestId)) return;
    this.host.answer(review.requestId, optionId, reason);
    await this.done(review.requestId);
  }

  private async reasonFor(requestId: number, what: "edit" | "plan"): Promise<string | undefined> {
    const source = new vscode.CancellationTokenSource();
    this.asking.set(requestId, source);
    try {
      return await askReason(what, source.token);
    } finally {
      this.asking.delete(requestId);
      source.dispose();
    }
  }

  private find(uri: vscode.Uri | undefined): OpenReview | undefined {
    if (!uri || uri.scheme !== PROPOSED_SCHEME) return undefined;
    const key = uri.toString();
    return [...this.reviews.values()].find((r) => r.right.toString() === key || r.left.toString() === key);
  }

  private async openDiff(requestId: number, diff: { path: string; oldText: string | null; newText: string }, options: OpenReview["options"]): Promise<void> {
    const name = path.basename(diff.path);
    const uriFor = (side: string) =>
      vscode.Uri.from({ scheme: PROPOSED_SCHEME, path: diff.path, query: `request=${requestId}&side=${side}` });
    const left = uriFor("current");
    const right = uriFor("proposed");
    this.texts.set(left.toString(), diff.oldText ?? "");
    this.texts.set(right.toString(), diff.newText);
    this.reviews.set(requestId, { requestId, options, left, right });
    await this.updateContext();
    const title = `${name}: ${diff.oldText === null ? "new file" : "current ↔ proposed"} (review the edit)`;
    try {
      await vscode.commands.executeCommand("vscode.diff", left, right, title, { preview: false, preserveFocus: false });
    } catch (error) {
      this.host.log(`Could not open the diff editor: ${String(error)}`);
    }
  }

  private async showPlan(requestId: number, plan: string, options: OpenReview["options"]): Promise<void> {
    const uri = vscode.Uri.from({ scheme: PROPOSED_SCHEME, path: "/plan.md", query: `request=${requestId}&side=plan` });
    this.texts.set(uri.toString(), plan || "(the model wrote no plan)");
    this.reviews.set(requestId, { requestId, options, left: uri, right: uri });
    try {
      await vscode.commands.executeCommand("markdown.showPreview", uri);
    } catch {
      await vscode.window.showTextDocument(uri, { preview: true });
    }
    const names = options.map((o) => o.name);
    const choice = await vscode.window.showInformationMessage("Leave plan mode and start on the plan?", ...names);
    const picked = options.find((o) => o.name === choice);
    if (!picked || !this.reviews.has(requestId)) return;
    const reason = picked.kind.startsWith("reject") ? await this.reasonFor(requestId, "plan") : undefined;
    if (this.reviews.has(requestId)) this.host.answer(requestId, picked.optionId, reason);
  }

  private async closeTabs(uri: vscode.Uri): Promise<void> {
    const key = uri.toString();
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => {
      const input = t.input as { modified?: vscode.Uri; uri?: vscode.Uri } | undefined;
      return input?.modified?.toString() === key || input?.uri?.toString() === key;
    });
    if (tabs.length) await vscode.window.tabGroups.close(tabs).then(undefined, () => undefined);
  }

  private async updateContext(): Promise<void> {
    await vscode.commands.executeCommand("setContext", REVIEWING, this.reviews.size > 0);
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/**
 * What to tell the model about a rejection: trimmed, or undefined when the user pressed
 * Escape or left it empty (a rejection without a reason).
 */
export async function askReason(what: "edit" | "plan", token?: vscode.CancellationToken): Promise<string | undefined> {
  const said = await vscode.window.showInputBox({
    title: what === "plan" ? "Keep planning" : "Reject the edit",
    prompt: what === "plan"
      ? "Tell the model what to change in the plan (optional). Enter sends; Escape keeps planning without feedback."
      : "Tell the model why (optional). Enter rejects; Escape rejects without a reason.",
    placeHolder: what === "plan" ? "e.g. write the test first" : "e.g. keep the old name; add a test instead",
    ignoreFocusOut: true,
  }, token);
  return said?.trim() || undefined;
}

function activeUri(): vscode.Uri | undefined {
  return vscode.window.activeTextEditor?.document.uri;
}

/** Saves every document an applied edit touched, so the shell and other tools see it on disk. */
export async function saveEditedDocuments(uris: string[], log: (line: string) => void): Promise<void> {
  for (const raw of uris) {
    try {
      const uri = vscode.Uri.parse(raw);
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString()) ?? (await vscode.workspace.openTextDocument(uri));
      if (doc.isDirty && !(await doc.save())) log(`Could not save ${uri.fsPath} after the edit.`);
    } catch (error) {
      log(`Saving ${raw} after the edit failed: ${String(error)}`);
    }
  }
}
