// The "Context Sidecar: Switch Model" quick pick: one item per model `sidecar/models`
// lists, the session's own marked, its name, context window and lifecycle in the description.

import type { ModelChoice, ModelList } from "../shared/protocol";

export interface ModelPickItem {
  id: string;
  label: string;
  description: string;
  picked: boolean;
}

/** `1M`, `200K`: a context window in words. */
export function windowWords(tokens: number): string {
  if (tokens >= 1_000_000 && tokens % 1_000_000 < 100_000) return `${Math.floor(tokens / 1_000_000)}M`;
  if (tokens >= 1_000_000) return `${(tokens / 1_000_000).toFixed(1)}M`;
  return `${Math.round(tokens / 1000)}K`;
}

/** `Claude Opus 4.5 · 200K context · deprecated`: what follows a model's id. */
export function modelDetails(choice: ModelChoice): string {
  return [
    choice.displayName && choice.displayName !== choice.id ? choice.displayName : null,
    choice.contextWindow ? `${windowWords(choice.contextWindow)} context` : null,
    choice.lifecycle && choice.lifecycle !== "active" ? choice.lifecycle : null,
  ]
    .filter(Boolean)
    .join(" · ");
}

export function modelPickItems(list: ModelList): ModelPickItem[] {
  return list.models
    .filter((m) => typeof m?.id === "string" && m.id)
    .map((m) => {
      const current = m.id === list.current;
      const details = modelDetails(m);
      return {
        id: m.id,
        label: current ? `$(check) ${m.id}` : m.id,
        description: current ? `(current)${details ? ` ${details}` : ""}` : details,
        picked: current,
      };
    });
}

/** The quick pick's placeholder: where the list came from. */
export function modelPickPlaceholder(list: ModelList): string {
  const from = list.source === "provider" ? "the provider's models list" : "the model catalog (the provider listed none)";
  return `Now ${list.current} · from ${from}`;
}
