"""The `/context` view as text, for clients that only show chat messages."""

from __future__ import annotations

from typing import Any


def render_context(view: dict[str, Any]) -> str:
    g = view["gauge"]
    lines = [
        f"**Context** {g['used']:,} / {g['size']:,} tokens ({g['percentUsed']}%), "
        f"source: {g['source']}, level: {g['level']}",
        f"Auto-compact at {g['autoCompactAt']:,}" if g.get("autoCompactAt") else "Auto-compact off",
    ]
    if g.get("windowSource"):
        lines.append(f"Window {g['size']:,} tokens, from {g['windowSource']}")
    status = view.get("modelStatus") or {}
    if status.get("message"):
        said = f" (per {status['source']})" if status.get("source") else ""
        lines.append(f"**Model** {status['message']}{said}")
    last = view.get("lastCompaction")
    if last:
        who = "the provider" if last.get("backend") == "server" else "the sidecar"
        lines.append(f"Last compaction: {last.get('tier')} ({last.get('trigger')}), "
                     f"summarized by {who}")
    exact = view.get("exact")
    if exact:
        lines.append(f"The next request counted exactly: {exact['tokens']:,} tokens ({exact['source']})")
    lines += [
        "",
        "| part | tokens |", "|---|---|",
    ]
    for key, value in g["breakdown"].items():
        lines.append(f"| {key} | {value:,} |")
    files = view["prefix"].get("memoryFiles") or []
    if files:
        lines += ["", "**Memory files**"] + [f"- {f.get('path')} ({f.get('tokens', 0):,} tokens)" for f in files]
    reads = view.get("fileReadState") or []
    if reads:
        lines += ["", "**Files read**"] + [
            f"- {r.get('path')}{' (stale)' if r.get('stale') else ''}" for r in reads]
    lines += ["", f"{len(view['messages'])} messages in the model's view."]
    lines += _storage_lines(view.get("storage"))
    skipped = view.get("skippedHookFiles") or []
    if skipped:
        lines += ["", "**Hooks not run**"] + [
            f"- {f}: this folder is not trusted (accept Claude Code's trust dialog for it, "
            "or set hooks.trustWorkspace in your user settings)" for f in skipped]
    return "\n".join(lines)


def _storage_lines(storage: dict[str, Any] | None) -> list[str]:
    """Only what needs attention: skipped lines or values, writes held back, a failure."""
    if not storage:
        return []
    notes = []
    skipped = storage.get("skippedTranscriptLines", 0) + storage.get("skippedTranscriptValues", 0)
    if skipped:
        notes.append(f"- transcript: {storage.get('skippedTranscriptLines', 0)} lines and "
                     f"{storage.get('skippedTranscriptValues', 0)} values skipped when it was loaded")
    if storage.get("skippedHistoryLines") or storage.get("skippedHistoryValues"):
        notes.append(f"- prompt history: {storage.get('skippedHistoryLines', 0)} lines and "
                     f"{storage.get('skippedHistoryValues', 0)} values skipped when last read")
    if storage.get("pendingWrites"):
        notes.append(f"- {storage['pendingWrites']} records held in memory, not yet written")
    if storage.get("lastWriteError"):
        notes.append(f"- last write error: {storage['lastWriteError']}")
    return ["", "**Storage**", *notes] if notes else []
