// The model's task list (a `plan` update, sent whole each time it changes), pinned above the
// prompt box as Claude Code's panel shows it: how many are done, then each task, the one in
// progress as it reads while being done.

import type { SessionUpdate } from "../src/shared/protocol";
import { $, el } from "./dom";

type PlanUpdate = Extract<SessionUpdate, { sessionUpdate: "plan" }>;
type Entry = PlanUpdate["entries"][number];

const box = $("tasks") as HTMLDetailsElement;

const MARKS: Record<Entry["status"], string> = { pending: "☐", in_progress: "▸", completed: "✔" };

function activeForm(entry: Entry): string | undefined {
  const meta = entry._meta as { sidecar?: { activeForm?: unknown } } | undefined;
  const doing = meta?.sidecar?.activeForm;
  return typeof doing === "string" && doing ? doing : undefined;
}

export function showTasks(u: PlanUpdate): void {
  const entries = Array.isArray(u.entries) ? u.entries : [];
  if (!entries.length) {
    clearTasks();
    return;
  }
  const done = entries.filter((e) => e.status === "completed").length;
  const current = entries.find((e) => e.status === "in_progress");
  const summary = el("summary", "tasks-summary");
  summary.append(
    el("span", "tasks-label", `Tasks ${done}/${entries.length}`),
    el("span", "tasks-current", current ? activeForm(current) ?? current.content : done === entries.length ? "all done" : ""),
  );
  const list = el("ol", "tasks-list");
  for (const entry of entries) {
    const item = el("li", "task");
    item.dataset.status = entry.status;
    item.append(
      el("span", "task-mark", MARKS[entry.status] ?? "☐"),
      el("span", "task-text", entry.status === "in_progress" ? activeForm(entry) ?? entry.content : entry.content),
    );
    list.append(item);
  }
  const open = box.hidden ? true : box.open;
  box.replaceChildren(summary, list);
  box.open = open;
  box.hidden = false;
}

export function clearTasks(): void {
  box.replaceChildren();
  box.hidden = true;
}
