// Permission modes (ACP session modes with Claude Code's ids), as the UI names them.
// The sidecar sends each mode's name and description; these are the fallbacks and icons.

import type { SessionMode, SessionModes } from "../shared/protocol";

const known: Record<string, { icon: string; name: string; description: string }> = {
  default: { icon: "$(shield)", name: "Ask before edits", description: "Edits and shell commands ask first." },
  acceptEdits: { icon: "$(edit)", name: "Accept edits", description: "Edits go through; shell commands ask." },
  plan: { icon: "$(checklist)", name: "Plan mode", description: "Read-only: the model plans, then asks to leave plan mode." },
  bypassPermissions: { icon: "$(warning)", name: "Bypass permissions", description: "Nothing asks. Use only in a sandbox." },
};

export const MODE_IDS = ["default", "acceptEdits", "plan", "bypassPermissions"] as const;

export function modeInfo(mode: SessionMode | string): { id: string; icon: string; name: string; description: string } {
  const id = typeof mode === "string" ? mode : mode.id;
  const fallback = known[id] ?? { icon: "$(circle-outline)", name: id, description: "" };
  if (typeof mode === "string") return { id, ...fallback };
  return { id, icon: fallback.icon, name: mode.name || fallback.name, description: mode.description || fallback.description };
}

/** The current mode's icon, name and description. */
export function modeLabel(modes: SessionModes): { icon: string; name: string; description: string } {
  const current = modes.availableModes.find((m) => m.id === modes.currentModeId) ?? modes.currentModeId;
  return modeInfo(current);
}

/** Quick-pick items: the sidecar's modes (Claude Code's four when it sent none), current first marked. */
export function modePickItems(modes: SessionModes | null): { id: string; label: string; description: string; picked: boolean }[] {
  const list: (SessionMode | string)[] = modes?.availableModes.length ? modes.availableModes : [...MODE_IDS];
  return list.map((m) => {
    const info = modeInfo(m);
    const current = info.id === (modes?.currentModeId ?? "default");
    return { id: info.id, label: `${info.icon} ${info.name}`, description: `${current ? "(current) " : ""}${info.description}`, picked: current };
  });
}
