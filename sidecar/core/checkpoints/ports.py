"""Where a checkpoint's file contents are kept, as the engine sees it (the files in
``sidecar.storage.file_history``; in memory where there is no storage)."""

from __future__ import annotations

import hashlib
from typing import Protocol


def content_id(data: bytes) -> str:
    """The id a content is kept under: its SHA-256, in hex."""
    return hashlib.sha256(data).hexdigest()


class FileHistory(Protocol):
    """File contents kept once each, by ``content_id``. Blocking: call it off the loop."""

    def put(self, data: bytes) -> str:
        """Keep ``data`` (a no-op when it is kept already); its id. Raises OSError."""
        ...

    def get(self, blob: str) -> bytes:
        """The content kept under ``blob``. Raises OSError (KeyError: unknown)."""
        ...


class MemoryFileHistory:
    """Contents kept in memory: a session without storage can still rewind its code."""

    def __init__(self) -> None:
        self._blobs: dict[str, bytes] = {}

    def put(self, data: bytes) -> str:
        blob = content_id(data)
        self._blobs.setdefault(blob, data)
        return blob

    def get(self, blob: str) -> bytes:
        return self._blobs[blob]
