// Permission modes (ACP session modes with Claude Code's ids). The sidecar sends each mode's
// name and description; before a session, the contract's list says the same; these are icons.

import { PERMISSION_MODES, type SessionMode, type SessionModes } from "../shared/protocol";

const icons: Record<string, string> = {
  default: "$(shield)", acceptEdits: "$(edit)", plan: "$(checklist)", bypassPermissions: "$(warning)",
};
const known: Record<string, { icon: string; name: string; description: string }> = Object.fromEntries(
  PERMISSION_MODES.map((m) => [m.id, { icon: icons[m.id] ?? "$(circle-outline)", name: m.name, description: m.description }]),
);

export const MODE_IDS = PERMISSION_MODES.map((m) => m.id);

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
