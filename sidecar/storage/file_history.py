"""The contents checkpoints keep of files, once per content: ``<storageDir>/projects/
<sanitized cwd>/file-history/<id[:2]>/<id>``, the id the content's SHA-256. Each is written
beside its place and renamed into it, so a kept content is whole or absent; the sessions of
one workspace (and their forks) share them."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

from sidecar.core.checkpoints.ports import content_id
from sidecar.storage.paths import project_dir


class FileHistoryStore:
    def __init__(self, storage_dir: Path | str, cwd: str) -> None:
        self.root = project_dir(storage_dir, cwd) / "file-history"

    def _path(self, blob: str) -> Path:
        if len(blob) != 64 or any(c not in "0123456789abcdef" for c in blob):
            raise KeyError(blob)  # a transcript names it: never a path of its own
        return self.root / blob[:2] / blob

    def put(self, data: bytes) -> str:
        blob = content_id(data)
        path = self._path(blob)
        if path.is_file():
            return blob
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        temporary = path.with_name(f".{blob}.{uuid.uuid4().hex[:8]}")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.replace(temporary, path)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
        return blob

    def get(self, blob: str) -> bytes:
        return self._path(blob).read_bytes()
