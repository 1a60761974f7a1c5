"""The `/context` view as text, for clients that only show chat messages."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sidecar.core.settings import Settings
    from sidecar.core.workspace_trust import Trust, TrustBook


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
    trust = view.get("workspaceTrust") or {}
    if trust.get("withheld"):
        state = "trusted" if trust.get("trusted") else (
            "in the editor's Restricted Mode" if trust.get("source") == "editor"
            else "not trusted (type /trust to trust it)")
        lines += ["", f"**Not applied** (this folder is {state})"] + [
            f"- {item}" for item in trust["withheld"]]
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


def withheld_view(book: TrustBook, settings: Settings, cwd: str) -> tuple[Trust, list[str], list[str]]:
    """The folder's verdict, its hook files that do not run, and in words everything of the
    workspace's that is not applied (blocking: reads files)."""
    from sidecar.core.hooks import skipped_hook_files
    from sidecar.core.settings import WORKSPACE_SETTINGS_FILE, workspace_layer

    trust = book.of(cwd)
    skipped = skipped_hook_files(settings, Path(cwd), trust)
    withheld = [f"hooks in {Path(f).relative_to(cwd) if Path(f).is_relative_to(cwd) else f}"
                for f in skipped]
    refused = workspace_layer(cwd, [])[1]
    if refused:
        withheld.append(f"settings {', '.join(refused)} from {WORKSPACE_SETTINGS_FILE}")
    return trust, skipped, withheld

