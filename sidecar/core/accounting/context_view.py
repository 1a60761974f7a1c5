"""The `/context` view as text, for clients that only show chat messages."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sidecar.core.settings import Settings
    from sidecar.core.workspace.trust import Trust, TrustBook


# The breakdown's parts in the order and words the editor's Context view uses.
BREAKDOWN_LABELS = {
    "system": "System prompt",
    "tools": "Tools",
    "memoryFiles": "Memory files",
    "messages": "Messages",
    "toolResults": "Tool results",
    "summary": "Summary",
    "reservedOutput": "Reserved for output",
    "free": "Free",
}


def _count(n: int, word: str) -> str:
    """``1 message``, ``2 messages``: the number and the word it takes."""
    return f"{n:,} {word if n == 1 else word + 's'}"


def _label(key: str) -> str:
    """A part's name in words: the known ones as the editor says them, others from camelCase."""
    if key in BREAKDOWN_LABELS:
        return BREAKDOWN_LABELS[key]
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", key).lower()
    return words[:1].upper() + words[1:]


def _code(text: str) -> str:
    """Inline code that survives backticks in the text (a path may hold any character)."""
    text = str(text).replace("\n", " ")
    if "`" not in text:
        return f"`{text}`"
    return f"`` {text} ``"


def _one_line(text: str, limit: int = 160) -> str:
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[:limit - 1].rstrip() + "…"


def _percent(p: float) -> str:
    if 0 < p < 1:
        return "<1%"
    return f"{p:g}%"


def render_context(view: dict[str, Any]) -> str:
    """The `/context` view as markdown for a chat message: a heading, a summary line, the
    facts as a list, the breakdown as a table, then a section for each thing that has any."""
    g = view["gauge"]
    n_messages = len(view.get("messages") or [])
    lines = [
        # Bold inside the heading: plain-text clients still show the word marked.
        f"## **Context**: {g['model']}" if g.get("model") else "## **Context**",
        "",
        (f"**{g['used']:,} / {g['size']:,} tokens ({_percent(g['percentUsed'])})**, level {g['level']} · "
         f"{_count(n_messages, 'message')} in the model's view."),
        "",
    ]
    status = view.get("modelStatus") or {}
    if status.get("message"):
        said = f" (per {status['source']})" if status.get("source") else ""
        lines += [f"**Model** {status['message']}{said}", ""]
    facts = [f"Auto-compact at {g['autoCompactAt']:,} tokens" if g.get("autoCompactAt")
             else "Auto-compact off"]
    if g.get("source") == "provider":
        facts.append("Counted by the provider (source: provider)")
    elif g.get("source") == "estimate":
        facts.append("Estimated: no provider count yet, or just compacted (source: estimate)")
    else:
        facts.append(f"Source: {g.get('source')}")
    if g.get("windowSource"):
        facts.append(f"Window {g['size']:,} tokens, from {g['windowSource']}")
    exact = view.get("exact")
    if exact:
        facts.append(f"The next request counted exactly: {exact['tokens']:,} tokens ({exact['source']})")
    last = view.get("lastCompaction")
    if last:
        who = "the provider" if last.get("backend") == "server" else "the sidecar"
        facts.append(f"Last compaction: {last.get('tier')} ({last.get('trigger')}), summarized by {who}")
    deferred = deferred_tools_text(g.get("deferredTools"))
    if deferred:
        facts.append(deferred)
    lines += [f"- {fact}" for fact in facts]
    breakdown = g.get("breakdown") or {}
    if breakdown:
        ordered = [k for k in BREAKDOWN_LABELS if k in breakdown] + [
            k for k in breakdown if k not in BREAKDOWN_LABELS]
        lines += ["", "| Part | Tokens |", "|---|---:|"]
        lines += [f"| {_label(k)} | {breakdown[k]:,} |" for k in ordered]
    files = (view.get("prefix") or {}).get("memoryFiles") or []
    if files:
        lines += ["", "### Memory files", ""] + [
            f"- {_code(f.get('path'))} ({_count(f.get('tokens', 0), 'token')})" for f in files]
    reads = view.get("fileReadState") or []
    if reads:
        lines += ["", "### Files read", ""] + [f"- {_code(r.get('path'))}{_read_note(r)}" for r in reads]
    lines += _skill_lines(view.get("skills"))
    lines += _memory_tool_lines(view.get("memory"))
    lines += _server_tool_lines(view.get("serverTools"))
    lines += _mcp_lines(view.get("mcpServers"))
    lines += _storage_lines(view.get("storage"))
    trust = view.get("workspaceTrust") or {}
    if trust.get("withheld"):
        state = "trusted" if trust.get("trusted") else (
            "in the editor's Restricted Mode" if trust.get("source") == "editor"
            else "not trusted (type /trust to trust it)")
        lines += ["", "### Not applied", "", f"This folder is {state}.", ""] + [
            f"- {item}" for item in trust["withheld"]]
    return "\n".join(lines)


def deferred_tools_text(deferred: dict[str, Any] | None) -> str | None:
    """The gauge's ``deferredTools`` in words, or None when no tool is deferred."""
    if not deferred:
        return None
    how = ("the provider's tool search finds them" if deferred.get("search") == "server"
           else "the model finds them with the ToolSearch tool")
    return (f"Tool search: {_count(int(deferred.get('count', 0)), 'MCP tool')} deferred, "
            f"{int(deferred.get('savedTokens', 0)):,} tokens of definitions kept out of every "
            f"request; {how}")


def _read_note(read: dict[str, Any]) -> str:
    notes = [_count(read["tokens"], "token")] if isinstance(read.get("tokens"), int) else []
    if read.get("stale"):
        notes.append("stale")
    return f" ({', '.join(notes)})" if notes else ""


def _memory_tool_lines(memory: dict[str, Any] | None) -> list[str]:
    """The memory tool's folder: outside the conversation, so no compaction loses it."""
    if not memory:
        return []
    files = memory.get("files") or []
    lines = ["", "### Memory tool", "", f"{_code(str(memory.get('folder')))}, /memories to the model: "
             + (f"{_count(len(files), 'file')}" if files else "empty")]
    return lines + [f"- {_code(str(f.get('path')))} ({_count(f.get('bytes', 0), 'byte')})"
                    for f in files]


SERVER_TOOL_LABELS = {"web_search": "web search", "web_fetch": "web fetch"}


def server_tool_line(state: dict[str, Any]) -> str:
    """``web search: offered — Anthropic's web_search_20260318 server tool``."""
    label = SERVER_TOOL_LABELS.get(str(state.get("tool")), str(state.get("tool")))
    offered = "offered" if state.get("offered") else "not offered"
    return f"{label}: {offered} — {state.get('reason')}"


def _server_tool_lines(states: list[dict[str, Any]] | None) -> list[str]:
    """The provider's own tools (run by the provider), offered or why not."""
    if not states:
        return []
    return ["", "### Provider tools", ""] + [f"- {server_tool_line(s)}" for s in states]


def _skill_lines(skills: list[dict[str, Any]] | None) -> list[str]:
    if not skills:
        return []
    lines = ["", "### Skills", ""]
    for s in skills:
        where = s.get("source") or "?"
        loaded = ", loaded" if s.get("invoked") else ""
        about = f": {_one_line(s['description'])}" if s.get("description") else ""
        lines.append(f"- **{s.get('name')}** ({where}{loaded}){about}")
    return lines


def _mcp_lines(servers: list[dict[str, Any]] | None) -> list[str]:
    if not servers:
        return []
    lines = ["", "### MCP servers", ""]
    for m in servers:
        tools = m.get("tools") or []
        line = f"- **{m.get('name')}**: {m.get('status')} ({m.get('transport')})"
        if tools:
            line += f", {_count(len(tools), 'tool')}"
        if m.get("error"):
            line += f": {_one_line(m['error'])}"
        lines.append(line)
    return lines


def _storage_lines(storage: dict[str, Any] | None) -> list[str]:
    """Only what needs attention: skipped lines or values, writes held back, a failure."""
    if not storage:
        return []
    notes = []
    lines_, values = storage.get("skippedTranscriptLines", 0), storage.get("skippedTranscriptValues", 0)
    if lines_ or values:
        notes.append(f"- transcript: {_count(lines_, 'line')} and {_count(values, 'value')} "
                     "skipped when it was loaded")
    lines_, values = storage.get("skippedHistoryLines", 0), storage.get("skippedHistoryValues", 0)
    if lines_ or values:
        notes.append(f"- prompt history: {_count(lines_, 'line')} and {_count(values, 'value')} "
                     "skipped when last read")
    if storage.get("pendingWrites"):
        held = storage["pendingWrites"]
        notes.append(f"- {_count(held, 'record')} held in memory, not yet written")
    if storage.get("lastWriteError"):
        notes.append(f"- last write error: {storage['lastWriteError']}")
    return ["", "### Storage", "", *notes] if notes else []


def withheld_view(book: TrustBook, settings: Settings, cwd: str) -> tuple[Trust, list[str], list[str]]:
    """The folder's verdict, its hook files that do not run, and in words everything of the
    workspace's that is not applied (blocking: reads files)."""
    from sidecar.core.settings import WORKSPACE_SETTINGS_FILE, workspace_layer
    from sidecar.core.workspace.hooks import skipped_hook_files

    trust = book.of(cwd)
    skipped = skipped_hook_files(settings, Path(cwd), trust)
    withheld = [f"hooks in {Path(f).relative_to(cwd) if Path(f).is_relative_to(cwd) else f}"
                for f in skipped]
    refused = workspace_layer(cwd, [])[1]
    if refused:
        withheld.append(f"settings {', '.join(refused)} from {WORKSPACE_SETTINGS_FILE}")
    return trust, skipped, withheld

