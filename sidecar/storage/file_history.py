"""The contents checkpoints keep of files, once per content: ``<storageDir>/projects/
<sanitized cwd>/file-history/<id[:2]>/<id>``, the id the content's SHA-256. Each is written
beside its place and renamed into it, so a kept content is whole or absent; the sessions of
one workspace (and their forks) share them."""

from __future__ import annotations

from pathlib import Path

from sidecar.core.checkpoints.ports import content_id
from sidecar.core.json_files import replace_whole
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
        replace_whole(path, data)
        return blob

    def get(self, blob: str) -> bytes:
        return self._path(blob).read_bytes()
