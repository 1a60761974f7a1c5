"""Document URIs as paths."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlparse


def uri_to_path(uri: str) -> Path:
    """The path a ``file:`` URI names; anything else is taken as a path already (ACP
    clients send plain paths, and an unsaved buffer's ``untitled:`` name matches no file)."""
    if uri.startswith("file:"):
        return Path(unquote(urlparse(uri).path))
    return Path(uri)
