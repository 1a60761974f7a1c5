"""Colours, symbols and the gauge's terminal forms (prompt label and bar).

Colour is on only for a terminal, and never when ``NO_COLOR`` is set (no-color.org).
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Any, TextIO

_CODES = {
    "bold": "1", "dim": "2", "italic": "3", "red": "31", "green": "32", "yellow": "33",
    "blue": "34", "magenta": "35", "cyan": "36", "grey": "90", "inverse": "7",
}
# Clients colour the gauge by its ``stage`` (docs/protocol.md "Gauge"); ``level`` only when an
# older sidecar sends no stage. ``level`` stays ok far into a large window, ``stage`` does not.
STAGE_COLOURS = {"normal": "green", "warning": "yellow", "error": "red", "blocking": "red bold inverse"}
LEVEL_COLOURS = {"ok": "green", "warning": "yellow", "error": "red", "blocking": "red bold inverse"}


def gauge_colour(gauge: dict[str, Any]) -> str:
    stage = gauge.get("stage")
    if stage in STAGE_COLOURS:
        return STAGE_COLOURS[str(stage)]
    return LEVEL_COLOURS.get(str(gauge.get("level")), "")


def colour_wanted(stream: TextIO) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _unicode_ok(stream: TextIO) -> bool:
    encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
    return encoding in ("utf8", "utf_8")


@dataclass(frozen=True)
class Style:
    colour: bool
    unicode: bool
    # Wrap escapes in \001..\002 so GNU readline does not count them as prompt width.
    readline_safe: bool = False

    @classmethod
    def for_stream(cls, stream: TextIO | None = None) -> Style:
        stream = stream or sys.stdout
        return cls(colour=colour_wanted(stream), unicode=_unicode_ok(stream))

    def paint(self, text: str, spec: str) -> str:
        if not self.colour or not spec or not text:
            return text
        codes = ";".join(_CODES[name] for name in spec.split() if name in _CODES)
        start, end = f"\x1b[{codes}m", "\x1b[0m"
        if self.readline_safe:
            start, end = f"\x01{start}\x02", f"\x01{end}\x02"
        return f"{start}{text}{end}"

    def symbol(self, name: str) -> str:
        fancy = {"ok": "✓", "fail": "✗", "run": "…", "arrow": "→", "bar": "█", "empty": "░",
                 "bullet": "•"}
        plain = {"ok": "ok", "fail": "x", "run": "..", "arrow": "->", "bar": "#", "empty": ".",
                 "bullet": "*"}
        return (fancy if self.unicode else plain)[name]

    def spinner_frames(self) -> str:
        return "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏" if self.unicode else "|/-\\"


def tokens_short(n: int | float | None) -> str:
    """142300 -> '142.3K', 200000 -> '200K', 850 -> '850', 1500000 -> '1.5M'."""
    if n is None:
        return "?"
    value = float(n)
    for unit, size in (("M", 1_000_000), ("K", 1_000)):
        if abs(value) >= size:
            text = f"{value / size:.1f}".removesuffix(".0")
            return f"{text}{unit}"
    return str(int(value))


def gauge_label(gauge: dict[str, Any] | None, style: Style) -> str:
    """``[ctx 71% 142.3K/200K]`` in the stage's colour (``... · 300 tools deferred, -20K]``
    while MCP tools wait for a tool search)."""
    if not gauge:
        return style.paint("[ctx ?]", "grey")
    used, size = gauge.get("used"), gauge.get("size")
    percent = gauge.get("percentUsed")
    if percent is None and used is not None and size:
        percent = used / size * 100
    deferred = gauge.get("deferredTools")
    # MCP tools waiting for a tool search: how many, and the tokens that keeps out.
    extra = (f" · {deferred.get('count')} tools deferred, "
             f"-{tokens_short(deferred.get('savedTokens'))}") if isinstance(deferred, dict) else ""
    text = f"[ctx {round(percent or 0)}% {tokens_short(used)}/{tokens_short(size)}{extra}]"
    return style.paint(text, gauge_colour(gauge))


def gauge_bar(gauge: dict[str, Any] | None, style: Style, width: int = 30) -> str:
    """A bar of the window with the auto-compact point marked: ``[█████░░░|░░]``."""
    if not gauge or not gauge.get("size"):
        return "[" + style.symbol("empty") * width + "]"
    size = float(gauge["size"])
    used = min(float(gauge.get("used") or 0), size)
    filled = round(used / size * width)
    mark = gauge.get("autoCompactAt")
    mark_at = round(float(mark) / size * width) if mark else None
    cells = []
    for i in range(width):
        if mark_at is not None and i == mark_at:
            cells.append("|")
        else:
            cells.append(style.symbol("bar") if i < filled else style.symbol("empty"))
    body = "".join(cells)
    colour = gauge_colour(gauge)
    return "[" + style.paint(body[:filled], colour) + body[filled:] + "]"
