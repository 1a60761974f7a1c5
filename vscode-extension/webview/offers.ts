// Above the prompt box: chips for attached files and selections, and the host's offers
// (resend a prompt that failed, compact a filling context).

import type { Attachment } from "../src/shared/messages";
import { $, button, el, send } from "./dom";

const chipsBox = $("chips");
const offerBox = $("offer");


/** Files and selections attached to the next prompt, each with × to drop it. */
export function showAttachments(items: Attachment[]): void {
  chipsBox.replaceChildren(
    ...items.map((item) => {
      const chip = el("span", `chip ${item.kind}`);
      chip.dataset.id = String(item.id);
      chip.title = item.kind === "selection" && item.text ? item.text.slice(0, 400) : item.uri;
      const drop = button("×", "chip-drop", `Remove ${item.label}`);
      drop.addEventListener("click", () => send({ type: "removeAttachment", id: item.id }));
      chip.append(el("span", "chip-icon", item.kind === "file" ? "📄" : "✂"), el("span", "chip-label", item.label), drop);
      return chip;
    }),
  );
  chipsBox.hidden = items.length === 0;
}

let resendText: string | undefined;
let compactStage = "normal";
let compactNext: string | undefined;
/** No "Compact now" while a compaction runs; it comes back if the stage still warrants it. */
let compacting = false;

function renderOffer(): void {
  if (resendText !== undefined) {
    const again = button("Resend", "primary offer-action", "Send the message that failed again");
    again.addEventListener("click", () => {
      resendText = undefined;
      renderOffer();
      send({ type: "resend" });
    });
    const dismiss = button("×", "offer-dismiss", "Forget it");
    dismiss.addEventListener("click", () => {
      resendText = undefined;
      renderOffer();
      send({ type: "dismissResend" });
    });
    const preview = resendText.length > 60 ? `${resendText.slice(0, 59)}…` : resendText;
    offerBox.dataset.kind = "resend";
    offerBox.replaceChildren(el("span", "offer-text", `Not sent: “${preview}”`), again, dismiss);
    offerBox.hidden = false;
    return;
  }
  if (compactStage !== "normal" && !compacting) {
    const compact = button("Compact now", "offer-action", "Summarize older turns now (/compact)");
    compact.addEventListener("click", () => send({ type: "compact" }));
    offerBox.dataset.kind = "compact";
    offerBox.dataset.stage = compactStage;
    offerBox.replaceChildren(el("span", "offer-text", compactNext ?? "The context is filling up."), compact);
    offerBox.hidden = false;
    return;
  }
  offerBox.hidden = true;
  offerBox.replaceChildren();
}

/** A prompt failed and can be sent again (the host keeps its attachments). */
export function offerResend(text: string): void {
  resendText = text;
  renderOffer();
}

/** Whether a failed prompt waits for Resend; an error row's Retry then means the same. */
export function resendPending(): boolean {
  return resendText !== undefined;
}

export function resendNow(): void {
  resendText = undefined;
  renderOffer();
  send({ type: "resend" });
}

export function offerCompact(stage: string, next: string | undefined): void {
  compactStage = stage;
  compactNext = next;
  renderOffer();
}

export function setCompacting(on: boolean): void {
  if (on === compacting) return;
  compacting = on;
  renderOffer();
}

/** A new prompt replaces the one that failed. */
export function withdrawResend(): void {
  if (resendText === undefined) return;
  resendText = undefined;
  renderOffer();
}
