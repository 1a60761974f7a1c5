"""The chat's first lines fit the terminal: broken between items, never inside a word."""

from __future__ import annotations


def test_the_header_lines_break_between_items_not_inside_words() -> None:
    from sidecar.terminal.chat import joined_to_fit

    items = ["context-sidecar 0.1.0", "anthropic", "claude-sonnet-5-5",
             "session 96b59914-906a-4e78-a396-9894e496b3af", "mode default"]
    lines = joined_to_fit(items, 60)
    assert lines == ["context-sidecar 0.1.0 · anthropic · claude-sonnet-5-5",
                     "session 96b59914-906a-4e78-a396-9894e496b3af · mode default"]
    assert all(len(line) <= 60 for line in lines)
    assert joined_to_fit(["a" * 80, "b"], 40) == ["a" * 80, "b"]  # a long item keeps a line
