"""The replay chart: context per request, ours and recorded, with the thresholds drawn.

Plain SVG written by hand (one panel per session), so it opens in any browser or editor
preview without a plotting library.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from pathlib import Path

from sidecar.replay.result import SessionResult

WIDTH = 960
PANEL_HEIGHT = 340
MARGIN_LEFT = 70
MARGIN_RIGHT = 170
MARGIN_TOP = 40
MARGIN_BOTTOM = 40
OURS_COLOR = "#1f77b4"
RECORDED_COLOR = "#ff7f0e"
LINE_STYLES = (
    ("autoCompactAt", "auto-compact", "#2ca02c"),
    ("warningAt", "warning", "#bcbd22"),
    ("blockingAt", "blocking", "#d62728"),
)


def _polyline(
    values: list[int], x_of: Callable[[float], float], y_of: Callable[[float], float], color: str
) -> str:
    if not values:
        return ""
    points = " ".join(f"{x_of(i):.1f},{y_of(v):.1f}" for i, v in enumerate(values))
    return (
        f'<polyline fill="none" stroke="{color}" stroke-width="1.6" '
        f'stroke-linejoin="round" points="{points}"/>'
    )


def _panel(result: SessionResult, top: float) -> list[str]:
    plot_w = WIDTH - MARGIN_LEFT - MARGIN_RIGHT
    plot_h = PANEL_HEIGHT - MARGIN_TOP - MARGIN_BOTTOM
    count = max(len(result.ours_series), len(result.recorded_series), 2)
    size = int(result.thresholds.get("size") or 0)
    y_max = max(size, result.peak_ours, result.peak_recorded, 1)
    left, base = MARGIN_LEFT, top + MARGIN_TOP + plot_h

    def x_of(i: float) -> float:
        return left + plot_w * i / (count - 1)

    def y_of(v: float) -> float:
        return base - plot_h * v / y_max

    name = escape(Path(result.file).name)
    out = [
        '<g class="session">',
        (
            f'<text x="{left}" y="{top + 24}" font-size="15" font-weight="bold">{name} '
            f'<tspan font-weight="normal" font-size="12">({escape(result.model)}; context per '
            f"request, tokens)</tspan></text>"
        ),
        (
            f'<rect x="{left}" y="{top + MARGIN_TOP}" width="{plot_w}" height="{plot_h}" '
            f'fill="#fafafa" stroke="#999"/>'
        ),
    ]
    for step in range(5):
        tick = y_max * step / 4
        y = y_of(tick)
        out.append(f'<line x1="{left - 4}" y1="{y:.1f}" x2="{left}" y2="{y:.1f}" stroke="#999"/>')
        out.append(
            f'<text x="{left - 8}" y="{y + 4:.1f}" font-size="11" text-anchor="end">'
            f"{tick / 1000:.0f}K</text>"
        )
    ticks = max(1, (count - 1) // 8)
    for i in range(0, count, ticks):
        x = x_of(i)
        out.append(f'<line x1="{x:.1f}" y1="{base}" x2="{x:.1f}" y2="{base + 4}" stroke="#999"/>')
        out.append(
            f'<text x="{x:.1f}" y="{base + 16}" font-size="11" text-anchor="middle">{i}</text>'
        )
    out.append(
        f'<text x="{left + plot_w / 2}" y="{base + 32}" font-size="11" '
        f'text-anchor="middle">request</text>'
    )
    for key, label, color in LINE_STYLES:
        value = result.thresholds.get(key)
        if not value:
            continue
        y = y_of(value)
        out.append(
            f'<line x1="{left}" y1="{y:.1f}" x2="{left + plot_w}" y2="{y:.1f}" '
            f'stroke="{color}" stroke-dasharray="6 4"/>'
        )
        out.append(
            f'<text x="{left + plot_w + 6}" y="{y + 4:.1f}" font-size="11" fill="{color}">'
            f"{label} {value:,}</text>"
        )
    for point in result.compaction_points:
        x = x_of(min(point, count - 1))
        out.append(
            f'<line x1="{x:.1f}" y1="{top + MARGIN_TOP}" x2="{x:.1f}" y2="{base}" '
            f'stroke="{OURS_COLOR}" stroke-dasharray="2 3" opacity="0.6"/>'
        )
    out.append(_polyline(result.recorded_series, x_of, y_of, RECORDED_COLOR))
    out.append(_polyline(result.ours_series, x_of, y_of, OURS_COLOR))
    legend_y = top + MARGIN_TOP + plot_h - 40
    for offset, (label, color) in enumerate(
        (("ours (replayed)", OURS_COLOR), ("recorded", RECORDED_COLOR))
    ):
        y = legend_y + offset * 16
        out.append(
            f'<line x1="{left + plot_w + 6}" y1="{y}" x2="{left + plot_w + 26}" y2="{y}" '
            f'stroke="{color}" stroke-width="2"/>'
        )
        out.append(f'<text x="{left + plot_w + 30}" y="{y + 4}" font-size="11">{label}</text>')
    out.append("</g>")
    return out


def render_svg(results: list[SessionResult]) -> str:
    shown = [r for r in results if r.replayed]
    height = PANEL_HEIGHT * max(len(shown), 1)
    parts = [
        (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
            f'viewBox="0 0 {WIDTH} {height}" font-family="sans-serif">'
        ),
        f'<rect width="{WIDTH}" height="{height}" fill="white"/>',
    ]
    for index, result in enumerate(shown):
        parts.extend(_panel(result, index * PANEL_HEIGHT))
    if not shown:
        parts.append('<text x="20" y="40" font-size="14">No session was replayed.</text>')
    parts.append("</svg>")
    return "\n".join(p for p in parts if p) + "\n"


def write_chart(results: list[SessionResult], path: Path) -> None:
    path.write_text(render_svg(results), encoding="utf-8")
