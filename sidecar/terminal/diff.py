"""A compact unified diff of an edit, for the terminal's permission prompt."""

from __future__ import annotations

import difflib


def compact_diff(old: str | None, new: str, path: str, max_lines: int) -> list[str]:
    """The edit as unified diff lines (two lines of context), at most ``max_lines`` of them
    and a line saying how many more there are."""
    before = (old or "").splitlines()
    after = new.splitlines()
    lines = list(difflib.unified_diff(before, after, fromfile=path if old is not None else "/dev/null",
                                      tofile=path, n=2, lineterm=""))
    if len(lines) > max_lines:
        rest = len(lines) - max_lines
        lines = lines[:max_lines] + [f"... {rest} more diff lines"]
    return lines
