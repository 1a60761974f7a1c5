"""Renders ``session/update`` notifications on the terminal and keeps the latest gauge."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Callable

from sidecar.core.conversation.messages import json_object
from sidecar.terminal.markdown import render_markdown, terminal_width
from sidecar.terminal.screen import Screen

TIER_NAMES = {"session_memory": "session memory", "full": "full", "microcompact": "microcompact"}


def tier_name(tier: Any) -> str:
    return TIER_NAMES.get(str(tier), str(tier))


@dataclass
class CompactionEvent:
    compaction_id: str
    tier: str
    trigger: str
    status: str
    tokens_before: int | None = None
    tokens_after: int | None = None
    error: str | None = None


@dataclass
class ToolLine:
    title: str
    kind: str
    status: str = "pending"
    nested: bool = False  # a subagent's call, shown under its Task call's line


@dataclass
class UpdatePrinter:
    screen: Screen
    # Show what a tool returned (first lines) under its status line.
    show_tool_output: bool = False
    gauge: dict[str, Any] | None = None
    peak_used: int = 0
    compactions: list[CompactionEvent] = field(default_factory=list)
    commands: list[dict[str, str]] = field(default_factory=list)
    tools: dict[str, ToolLine] = field(default_factory=dict)
    on_gauge: Callable[[dict[str, Any]], None] | None = None
    # The session's permission mode (default, acceptEdits, plan, bypassPermissions).
    permission_mode: str | None = None
    # Each MCP server's last (status, error) printed, and lines held while a message streams.
    mcp: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    _held: list[tuple[str, str]] = field(default_factory=list)
    _mode: str | None = None  # "text" or "thought" while a message streams
    # On a terminal an answer is rendered as markdown once it is whole: its text is held
    # here meanwhile (a spinner shows it coming). Elsewhere it is written as it streams.
    _answer: list[str] = field(default_factory=list)

    @property
    def renders_markdown(self) -> bool:
        return self.screen.interactive

    # ----- entry points ---------------------------------------------------------------

    def handle(self, params: Any) -> None:
        if not isinstance(params, dict) or not isinstance(params.get("update"), dict):
            return
        update = params["update"]
        kind = update.get("sessionUpdate")
        handler = getattr(self, f"_on_{kind}", None)
        if handler is not None:
            handler(update)

    def take_gauge(self, gauge: Any) -> None:
        """Keep the newest gauge; ``seq`` rises per change, so an older payload is dropped."""
        if not isinstance(gauge, dict):
            return
        if self.gauge is not None and gauge.get("sessionId") == self.gauge.get("sessionId") \
                and int(gauge.get("seq") or 0) < int(self.gauge.get("seq") or 0):
            return
        self.gauge = gauge
        self.peak_used = max(self.peak_used, int(gauge.get("used") or 0))
        if self.on_gauge is not None:
            self.on_gauge(gauge)

    def end_message(self) -> None:
        """A turn or a replayed message ended: what streams next starts on a new line."""
        self._flush_answer()
        if self._mode is not None:
            self.screen.end_line()
        self._mode = None
        held, self._held = self._held, []
        for text, colour in held:
            self.screen.line(self.screen.style.paint(text, colour))

    # ----- streamed text ------------------------------------------------------------

    def _stream(self, mode: str, text: str) -> None:
        if not text:
            return
        if self._mode != mode:
            self._flush_answer()
            self.screen.clear_status()
            self.screen.end_line()
            self._mode = mode
        if mode == "text" and self.renders_markdown:
            if not self._answer:
                self._start_spinner()
            self._answer.append(text)
            return
        self.screen.write(self.screen.style.paint(text, "dim italic") if mode == "thought" else text)

    def _start_spinner(self) -> None:
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a direct call): no animation
            return
        self.screen.start_spinner("answering")

    def _flush_answer(self) -> None:
        """The held answer, rendered whole: no markup or escape is ever printed half-done."""
        text, self._answer = "".join(self._answer), []
        if not text:
            return
        self.screen.clear_status()
        self.screen.end_line()
        try:
            rendered = render_markdown(text, terminal_width(self.screen.stream), self.screen.style.colour)
        except Exception:  # rich missing or failing on odd input: the raw text still shows
            rendered = text if text.endswith("\n") else text + "\n"
        self.screen.write(rendered)

    def _on_agent_message_chunk(self, update: dict[str, Any]) -> None:
        content = update.get("content") or {}
        if isinstance(content, dict) and content.get("type") == "text":
            self._stream("text", str(content.get("text", "")))

    def _on_agent_thought_chunk(self, update: dict[str, Any]) -> None:
        content = update.get("content") or {}
        if isinstance(content, dict) and content.get("type") == "text":
            self._stream("thought", str(content.get("text", "")))

    def _on_user_message_chunk(self, update: dict[str, Any]) -> None:
        # Only seen while a resumed session replays its history.
        content = update.get("content") or {}
        text = str(content.get("text", "")) if isinstance(content, dict) else ""
        self.end_message()
        style = self.screen.style
        first, *rest = text.strip().splitlines() or [""]
        self.screen.line(style.paint("you> ", "bold") + first + (f" (+{len(rest)} lines)" if rest else ""))

    # ----- tools --------------------------------------------------------------------

    def _on_tool_call(self, update: dict[str, Any]) -> None:
        tid = str(update.get("toolCallId"))
        line = ToolLine(title=str(update.get("title") or "tool"), kind=str(update.get("kind") or "other"),
                        status=str(update.get("status") or "pending"),
                        nested=bool(json_object(json_object(update.get("_meta")).get("sidecar")).get("parentToolCallId")))
        self.tools[tid] = line
        self.end_message()
        if line.status in ("completed", "failed"):  # replayed history: the call is over
            self._tool_done(line, None)
        else:
            self.screen.status(self.screen.style.paint(f"  {self.screen.style.symbol('run')} {line.title}", "cyan"))

    def _on_tool_call_update(self, update: dict[str, Any]) -> None:
        tid = str(update.get("toolCallId"))
        line = self.tools.get(tid)
        if line is None:
            line = self.tools[tid] = ToolLine(title=tid, kind="other")
        status = str(update.get("status") or line.status)
        line.status = status
        if status in ("completed", "failed"):
            self._tool_done(line, update)

    def _tool_done(self, line: ToolLine, update: dict[str, Any] | None) -> None:
        style = self.screen.style
        ok = line.status == "completed"
        mark = style.paint(style.symbol("ok"), "green") if ok else style.paint(style.symbol("fail"), "red")
        detail = ""
        text = _tool_text(update) if update else ""
        if not ok and text:
            detail = style.paint(" — " + _first_line(text, 100), "red")
        elif ok and update:
            detail = style.paint(_tool_summary(update, text), "grey")
        self.screen.clear_status()
        indent = "      ↳ " if line.nested else "  "
        self.screen.line(f"{indent}{mark} {line.title}{detail}")
        if self.show_tool_output and text and not line.nested:
            for out in text.splitlines()[:6]:
                self.screen.line(style.paint("    " + out[:120], "grey"))
        # The pages a web search or fetch read: the result itself, so always listed.
        for name, uri in _tool_links(update) if update else []:
            shown = uri if name == uri else f"{name} — {uri}"
            self.screen.line(style.paint(f"    {shown}"[:160], "grey"))

    # ----- context ------------------------------------------------------------------

    def _on_usage_update(self, update: dict[str, Any]) -> None:
        meta = update.get("_meta") or {}
        gauge = meta.get("sidecar") if isinstance(meta, dict) else None
        if isinstance(gauge, dict):
            self.take_gauge(gauge)

    def _on_retry_update(self, update: dict[str, Any]) -> None:
        """A model call is retried: say why and which attempt, in place, until it goes through."""
        if update.get("done"):
            self.screen.clear_status()
            return
        self.screen.status(self.screen.style.paint(
            f"  Retrying ({update.get('attempt')}/{update.get('maxRetries')}): "
            f"{update.get('reason')}", "yellow"))

    def _on_compaction_update(self, update: dict[str, Any]) -> None:
        cid = str(update.get("compactionId"))
        status = str(update.get("status"))
        event = next((e for e in self.compactions if e.compaction_id == cid), None)
        if event is None:
            event = CompactionEvent(cid, str(update.get("tier")), str(update.get("trigger")), status)
            self.compactions.append(event)
        event.status = status
        event.tier = str(update.get("tier") or event.tier)
        event.tokens_before = update.get("tokensBefore", event.tokens_before)
        event.tokens_after = update.get("tokensAfter", event.tokens_after)
        event.error = update.get("error")
        style = self.screen.style
        self.end_message()
        before = f"{event.tokens_before:,}" if isinstance(event.tokens_before, int) else "?"
        if status == "in_progress":
            label = f"compacting ({tier_name(event.tier)}, {event.trigger}) {before} tokens"
            if self.screen.interactive:
                self.screen.start_spinner(label)
            else:
                self.screen.line(style.paint(label + "…" if style.unicode else label + "...", "cyan"))
            return
        self.screen.clear_status()
        if status == "completed":
            after = f"{event.tokens_after:,}" if isinstance(event.tokens_after, int) else "?"
            self.screen.line(style.paint(
                f"compacted: {before} -> {after} tokens ({tier_name(event.tier)}, {event.trigger})", "magenta"))
        elif status == "failed":
            self.screen.line(style.paint(f"compaction failed ({event.trigger}): {event.error or 'unknown reason'}",
                                         "red"))
        else:
            self.screen.line(style.paint(f"compaction {status}", "yellow"))

    def _on_current_mode_update(self, update: dict[str, Any]) -> None:
        mode = update.get("currentModeId")
        if not isinstance(mode, str):
            return
        self.permission_mode = mode
        self.end_message()
        self.screen.clear_status()
        self.screen.line(self.screen.style.paint(f"mode: {mode}", "magenta"))

    def _on_hook_result(self, update: dict[str, Any]) -> None:
        """A hook's run: one dim line (its first line of output), red when it failed."""
        self.end_message()
        code = update.get("exitCode")
        output = str(update.get("output") or "").strip().splitlines()
        first = f": {output[0][:120]}" if output else ""
        failed = code != 0
        label = f"hook {update.get('event')} `{update.get('command')}`"
        label += f" (exit {code})" if failed and code is not None else " (did not finish)" if failed else ""
        self.screen.line(self.screen.style.paint(label + first, "red" if failed else "dim"))

    def _on_plan(self, update: dict[str, Any]) -> None:
        """The model's task list, whole, each time it changes: done tasks ticked and dim, the
        one in progress as it reads while being done."""
        entries = [e for e in update.get("entries") or [] if isinstance(e, dict)]
        self.end_message()
        self.screen.clear_status()
        style = self.screen.style
        self.screen.line(style.paint("tasks:", "cyan bold"))
        for entry in entries:
            status = entry.get("status")
            content = str(entry.get("content") or "")
            if status == "completed":
                self.screen.line(style.paint(f"  ✔ {content}", "dim"))
            elif status == "in_progress":
                sidecar = json_object(json_object(entry.get("_meta")).get("sidecar"))
                doing = sidecar.get("activeForm")
                doing = doing if isinstance(doing, str) and doing else content
                self.screen.line(style.paint(f"  ▸ {doing}", "yellow bold"))
            else:
                self.screen.line(f"  ☐ {content}")

    def _on_mcp_status_update(self, update: dict[str, Any]) -> None:
        """One short line per MCP server whose status changed; held until a streaming
        message ends, so it never splits one."""
        for server in update.get("servers") or []:
            if not isinstance(server, dict):
                continue
            name, status, error = str(server.get("name")), str(server.get("status")), server.get("error")
            said = server.get("label")
            if self.mcp.get(name) == (status, said or error):
                continue
            self.mcp[name] = (status, said or error)
            text, colour = mcp_line(server)
            if self._mode is not None:
                self._held.append((text, colour))
            else:
                self.screen.line(self.screen.style.paint(text, colour))

    def _on_available_commands_update(self, update: dict[str, Any]) -> None:
        commands = update.get("availableCommands")
        if isinstance(commands, list):
            self.commands = [c for c in commands if isinstance(c, dict)]


MCP_COLOURS = {"connected": "green", "failed": "red", "waiting": "yellow", "rejected": "dim",
               "untrusted": "dim", "starting": "dim", "stopped": "dim"}
MCP_HINTS = {"approve": "/mcp approve {name}", "reject": "/mcp reject {name}",
             "retry": "/mcp retry {name}"}


def mcp_line(server: dict[str, Any]) -> tuple[str, str]:
    """A server's status line and its colour: the sidecar's words, and the commands that act
    on it (a sidecar without words: its status and error)."""
    name, status, error = str(server.get("name")), str(server.get("status")), server.get("error")
    said = server.get("label")
    if isinstance(said, str) and said:
        state = str(server.get("state") or status)
        hints = [MCP_HINTS[a].format(name=name) for a in server.get("actions") or []
                 if a in MCP_HINTS]
        return (f"mcp: {name} {said}" + (f" ({', '.join(hints)})" if hints else ""),
                MCP_COLOURS.get(state, "dim"))
    tools = server.get("tools") or []
    if status == "connected":
        return f"mcp: {name} connected ({len(tools)} tools)", "green"
    if status == "failed":
        return f"mcp: {name} failed: {error or 'unknown reason'}", "red"
    return f"mcp: {name} {status}", "dim"


def _tool_text(update: dict[str, Any]) -> str:
    parts = []
    for item in update.get("content") or []:
        inner = item.get("content") if isinstance(item, dict) else None
        if isinstance(inner, dict) and inner.get("type") == "text":
            parts.append(str(inner.get("text", "")))
    return "\n".join(parts)


def _tool_links(update: dict[str, Any]) -> list[tuple[str, str]]:
    """The ``resource_link`` items of a tool call's content: (name, uri)."""
    out: list[tuple[str, str]] = []
    for item in update.get("content") or []:
        inner = item.get("content") if isinstance(item, dict) else None
        if isinstance(inner, dict) and inner.get("type") == "resource_link" and inner.get("uri"):
            out.append((str(inner.get("name") or inner["uri"]), str(inner["uri"])))
    return out


def _first_line(text: str, limit: int) -> str:
    line = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    return line if len(line) <= limit else line[: limit - 3] + "..."


def _tool_summary(update: dict[str, Any], text: str) -> str:
    raw = update.get("rawOutput")
    if isinstance(raw, dict) and isinstance(raw.get("exitCode"), int):
        return f" (exit {raw['exitCode']}, {len(text):,} chars)"
    if text:
        lines = text.count("\n") + 1
        return f" ({lines:,} lines)"
    links = _tool_links(update)
    if links:
        return f" ({len(links)} source{'' if len(links) == 1 else 's'})"
    return ""
