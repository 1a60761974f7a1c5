"""Parsing stored JSON lines without letting one bad line or value fail a whole read.

``json.loads`` raises for a torn or garbage line, raises RecursionError (not ValueError)
for a line nested tens of thousands deep, and happily returns ``nan`` and ``inf`` for
``NaN`` and ``1e999``, which later fail ``int()`` far from the file. Here the first two are
a skipped line and the last a skipped value (read as null), each counted.
"""

from __future__ import annotations

import json
import math
from typing import Any

# Deeper than any record a writer produces; deeper ones stall or break whoever walks them.
MAX_DEPTH = 100

BAD = object()  # what ``parse`` returns for a line that is not usable JSON


class TolerantJson:
    def __init__(self, max_depth: int = MAX_DEPTH) -> None:
        self.max_depth = max_depth
        self.bad_lines = 0
        self.bad_values = 0

    def parse(self, text: bytes | str) -> Any:
        """The value of one JSON text, or BAD (counted)."""
        raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
        # Counting brackets is cheap; only a text with many can be too deep.
        if raw.count(b"{") + raw.count(b"[") > self.max_depth and json_depth(raw) > self.max_depth:
            self.bad_lines += 1
            return BAD
        try:
            return json.loads(raw, parse_constant=self._constant, parse_float=self._float)
        except (ValueError, RecursionError):
            self.bad_lines += 1
            return BAD

    def _constant(self, name: str) -> None:
        self.bad_values += 1  # NaN, Infinity, -Infinity: nothing a writer meant
        return None

    def _float(self, text: str) -> float | None:
        value = float(text)
        if math.isfinite(value):
            return value
        self.bad_values += 1  # 1e999 parses as infinity
        return None


def json_depth(data: bytes) -> int:
    """Bracket nesting of a JSON text, ignoring brackets inside strings."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in data:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x7B, 0x5B):
            depth += 1
            if depth > deepest:
                deepest = depth
        elif byte in (0x7D, 0x5D):
            depth -= 1
    return deepest
