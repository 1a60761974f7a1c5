"""The tool-result budget: scaled to the room left in the window, with a floor per response."""

from __future__ import annotations

from sidecar.core.accounting.window import Window, compute_thresholds
from sidecar.core.settings import Settings, parse_settings
from sidecar.core.turns.result_budget import MAX_RESULT_TOKENS, preview, result_budget

SMALL = compute_thresholds(Window(60_000, 32_000, "test"), Settings())  # auto-compact at 27,000
LARGE = compute_thresholds(Window(200_000, 32_000, "test"), Settings())


def test_the_budget_is_a_share_of_the_room_left() -> None:
    assert SMALL.auto_compact_at == 27_000
    assert result_budget(SMALL, 3_000, 50) == 13_500  # the floor: half of the point
    assert result_budget(SMALL, 3_000, 70) == 16_800
    assert result_budget(SMALL, 3_000, 100) == 24_000
    # Near the auto-compact point an ordinary read still fits: half of that point.
    assert result_budget(SMALL, 20_000, 50) == 13_500
    assert result_budget(SMALL, 40_000, 50) == 13_500


def test_the_floor_holds_for_a_response_s_results_together() -> None:
    assert result_budget(SMALL, 20_000, 50, round_so_far=6_000) == 7_500
    assert result_budget(SMALL, 20_000, 50, round_so_far=14_000) == 0


def test_a_large_window_keeps_today_s_caps() -> None:
    assert result_budget(LARGE, 10_000, 50) == MAX_RESULT_TOKENS
    assert result_budget(LARGE, 160_000, 50) == MAX_RESULT_TOKENS


def test_the_preview_is_the_head_cut_at_a_line_end() -> None:
    text = "".join(f"line {i:04d} of the output\n" for i in range(1_000))
    head = preview(text)
    assert len(head) <= 2_000 and text.startswith(head) and text[len(head)] == "\n"
    assert preview("short\n") == "short\n"
    assert len(preview("x" * 5_000)) == 2_000  # one long line is cut where the limit falls


def test_the_percent_setting_is_bounded() -> None:
    settings, warnings = parse_settings({"tools": {"resultBudgetPercent": 101}})
    assert settings.tools.resultBudgetPercent == 50 and warnings
    settings, warnings = parse_settings({"tools": {"resultBudgetPercent": 100}})
    assert settings.tools.resultBudgetPercent == 100 and not warnings
