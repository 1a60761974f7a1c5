"""Confinement of tool paths to the workspace roots.

A path is accepted when its real location (symlinks resolved) lies inside the real
location of some root. The path handed back keeps the name the model used, normalized
but not resolved, because that is how the editor names the document too.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from sidecar.tools.base import ToolError


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def real_roots(roots: Sequence[Path]) -> list[str]:
    return [os.path.realpath(r) for r in roots]


def is_inside_roots(path: Path | str, roots: Sequence[Path]) -> bool:
    real = os.path.realpath(path)
    return any(_inside(real, r) for r in real_roots(roots))


def resolve_path(raw: str, roots: Sequence[Path], field: str = "file_path") -> Path:
    """The absolute path ``raw`` names, or a ToolError saying why it is refused."""
    if not roots:
        raise ToolError("No workspace folder is open; tools cannot reach any file.")
    if not raw or not raw.strip():
        raise ToolError(f"Invalid input: `{field}` must not be empty")
    if "\x00" in raw:
        raise ToolError(f"Invalid input: `{field}` contains a NUL character")
    text = os.path.expanduser(raw.strip())
    if text.startswith("file://"):
        text = unquote(urlparse(text).path)
    joined = text if os.path.isabs(text) else os.path.join(os.fspath(roots[0]), text)
    lexical = os.path.normpath(joined)
    real = os.path.realpath(lexical)
    reals = real_roots(roots)
    if any(_inside(real, r) for r in reals):
        return Path(lexical)
    lexical_inside = any(_inside(lexical, os.path.normpath(os.fspath(r))) for r in roots) or any(
        _inside(lexical, r) for r in reals
    )
    if lexical_inside:
        raise ToolError(
            f"Access denied: {raw} resolves through a symlink to {real}, outside the workspace "
            f"({', '.join(reals)})."
        )
    raise ToolError(
        f"Access denied: {raw} is outside the workspace ({', '.join(reals)}); "
        "tools may only reach files inside the workspace folders."
    )


def resolve_readable(raw: str, roots: Sequence[Path], readable: Sequence[Path],
                     field: str = "file_path") -> Path:
    """Like ``resolve_path``, but a file inside one of the ``readable`` directories (the
    session's saved tool outputs) is accepted too, wherever it lies."""
    if raw and "\x00" not in raw and readable:
        text = os.path.expanduser(raw.strip())
        if os.path.isabs(text):
            real = os.path.realpath(text)
            if any(_inside(real, r) and real != r for r in real_roots(readable)):
                return Path(os.path.normpath(text))
    return resolve_path(raw, roots, field)


def display_path(path: Path | str, roots: Sequence[Path]) -> str:
    """``path`` relative to the root holding it (for titles), else as given."""
    text = os.path.normpath(os.fspath(path))
    for root in roots:
        base = os.path.normpath(os.fspath(root))
        if _inside(text, base):
            rel = os.path.relpath(text, base)
            return "." if rel == "." else rel
    return text


def location_of(raw: Any, roots: Sequence[Path], line: Any = None) -> list[dict[str, Any]]:
    """An ACP ``locations`` list for a raw path argument; never raises (it runs on input
    that has not been validated yet)."""
    if not isinstance(raw, str) or not raw.strip():
        return []
    text = os.path.expanduser(raw.strip())
    if not os.path.isabs(text) and roots:
        text = os.path.join(os.fspath(roots[0]), text)
    loc: dict[str, Any] = {"path": os.path.normpath(text)}
    if isinstance(line, int) and not isinstance(line, bool) and line > 0:
        loc["line"] = line
    return [loc]
