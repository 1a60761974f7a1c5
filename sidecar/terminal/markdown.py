"""The model's answers as rendered markdown on a terminal (headings, emphasis, code blocks
with highlighting, tables), by rich.

rich is imported on first use only: the sidecar's server never loads it, and the chat
client pays for it at its first answer. Output that is not a terminal keeps the raw text.
"""

from __future__ import annotations

import io
import os
import re
import shutil
from typing import Any

CODE_THEME = "monokai"
_TRAILING_SPACES = re.compile(r" +$", re.MULTILINE)  # rich pads lines to the width


def terminal_width(stream: Any) -> int:
    try:
        return max(20, os.get_terminal_size(stream.fileno()).columns)
    except (AttributeError, ValueError, OSError):
        return max(20, shutil.get_terminal_size().columns)


def render_markdown(text: str, width: int, colour: bool = True) -> str:
    """``text`` rendered for a terminal ``width`` columns wide, as one finished string of
    lines (ending with a newline), so no escape sequence is ever cut in half."""
    from rich.console import Console
    from rich.markdown import Markdown

    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=width, no_color=not colour,
                      color_system="auto" if colour else None, highlight=False, emoji=False,
                      soft_wrap=False, legacy_windows=False)
    console.print(Markdown(text, code_theme=CODE_THEME, hyperlinks=False))
    rendered = _TRAILING_SPACES.sub("", out.getvalue())
    return rendered if rendered.endswith("\n") else rendered + "\n"
