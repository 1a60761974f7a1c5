"""Content-addressed store for large pasted text (``<storage_dir>/paste-cache/<hash>.txt``)."""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from pathlib import Path

from sidecar.storage.files import read_regular

# The seed names paste files by the first 16 hex digits of SHA-256.
HASH_LENGTH = 16
_HASH = re.compile(rf"^[0-9a-f]{{{HASH_LENGTH}}}$")


def content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:HASH_LENGTH]


class PasteStore:
    def __init__(self, directory: Path | str) -> None:
        self.directory = Path(directory)

    def path_for(self, digest: str) -> Path:
        if not _HASH.match(digest):
            # The hash comes from a file another process wrote: never let it name a path
            # outside the store.
            raise ValueError(f"invalid paste hash: {digest!r}")
        return self.directory / f"{digest}.txt"

    def put(self, text: str) -> str:
        """Store ``text`` once and return its hash. The file appears whole or not at all."""
        digest = content_hash(text)
        target = self.path_for(digest)
        if target.exists():
            return digest
        self.directory.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(dir=self.directory, prefix=f".{digest}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(text.encode("utf-8"))
                f.flush()
                os.fsync(f.fileno())
            os.replace(temp, target)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise
        return digest

    def get(self, digest: str) -> str | None:
        """The stored text, or None when it is missing, not a regular file (a FIFO would
        block the read forever) or the hash is malformed."""
        try:
            return read_regular(self.path_for(digest)).decode("utf-8")
        except (OSError, ValueError, UnicodeDecodeError):
            return None
