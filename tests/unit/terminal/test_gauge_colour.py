"""The prompt's gauge is coloured by the gauge's ``stage``, as the other clients colour it."""

from __future__ import annotations

from sidecar.terminal.style import Style, gauge_bar, gauge_label

COLOUR = Style(colour=True, unicode=True)


def _colour_of(painted: str) -> str:
    assert painted.startswith("\x1b["), painted
    return painted[2:painted.index("m")]


def test_90_percent_of_a_1m_window_is_not_green() -> None:
    # 900K of 1M: `level` is still ok (auto-compact is far off in tokens), but the stage
    # ramp towards the auto-compact point says error.
    gauge = {"used": 900_000, "size": 1_000_000, "percentUsed": 90.0, "level": "ok", "stage": "error"}
    assert _colour_of(gauge_label(gauge, COLOUR)) == "31"  # red, not green
    warning = {**gauge, "used": 700_000, "percentUsed": 70.0, "stage": "warning"}
    assert _colour_of(gauge_label(warning, COLOUR)) == "33"
    blocking = {**gauge, "stage": "blocking", "level": "blocking"}
    assert _colour_of(gauge_label(blocking, COLOUR)) == "31;1;7"
    normal = {**gauge, "used": 10_000, "percentUsed": 1.0, "stage": "normal", "level": "ok"}
    assert _colour_of(gauge_label(normal, COLOUR)) == "32"


def test_the_bar_follows_the_stage_too() -> None:
    gauge = {"used": 900_000, "size": 1_000_000, "level": "ok", "stage": "error"}
    assert "\x1b[31m" in gauge_bar(gauge, COLOUR, width=10)


def test_an_older_sidecar_without_stage_falls_back_to_level() -> None:
    gauge = {"used": 150_000, "size": 200_000, "percentUsed": 75.0, "level": "error"}
    assert _colour_of(gauge_label(gauge, COLOUR)) == "31"
    assert _colour_of(gauge_label({**gauge, "level": "ok"}, COLOUR)) == "32"


def test_the_label_says_how_many_tools_wait_for_a_tool_search() -> None:
    plain = Style(colour=False, unicode=True)
    gauge = {"used": 24_000, "size": 150_000, "percentUsed": 16.0, "level": "ok",
             "deferredTools": {"count": 300, "savedTokens": 19_954, "search": "server"}}
    assert gauge_label(gauge, plain) == "[ctx 16% 24K/150K · 300 tools deferred, -20K]"
    assert gauge_label({**gauge, "deferredTools": None}, plain) == "[ctx 16% 24K/150K]"
