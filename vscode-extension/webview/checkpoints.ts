// The rewind control of a sent message: each prompt with a checkpoint (the state just before
// its turn) gets one; a click asks the host what to do from there (restore code and
// conversation, either, or fork), and the host shows its own picker and preview.

import { button, send } from "./dom";

/** The message the host has not yet named a checkpoint for (its turn is running). */
let awaiting: HTMLElement | undefined;

/** Gives a user message its rewind control, once. */
export function markRewindable(message: HTMLElement, checkpointId: string): void {
  message.dataset.checkpointId = checkpointId;
  message.classList.add("rewindable");
  if (message.querySelector(":scope > .rewind-control")) return;
  const control = button("↺ Rewind", "rewind-control", "Rewind to before this prompt (code, conversation or both), or fork from here");
  control.setAttribute("aria-label", "Rewind to before this prompt, or fork from here");
  control.addEventListener("click", () => {
    const id = message.dataset.checkpointId;
    if (id) send({ type: "rewindAt", checkpointId: id });
  });
  message.prepend(control);
}

/** A prompt was just sent: its checkpoint comes with the turn's answer. */
export function awaitCheckpoint(message: HTMLElement): void {
  awaiting = message;
}

/** The host names the checkpoint taken before the prompt just sent. */
export function checkpointTaken(checkpointId: string): void {
  if (awaiting?.isConnected) markRewindable(awaiting, checkpointId);
  awaiting = undefined;
}

export function forgetAwaited(): void {
  awaiting = undefined;
}
