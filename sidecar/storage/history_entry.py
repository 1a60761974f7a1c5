"""The prompt-history record: what one submitted prompt leaves in ``history.jsonl``."""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from sidecar.core.secrets.redaction import redact_api_keys

PasteType = Literal["text", "image"]


def now_ms() -> int:
    return int(time.time() * 1000)


@dataclass(slots=True)
class PastedContent:
    """One paste referenced from a prompt by ``[Pasted text #id ...]`` / ``[Image #id]``.

    On disk, text longer than the paste limit is replaced by ``content_hash`` into the
    paste store; images keep only their description (the seed never stores them here).
    """

    id: int
    type: PasteType = "text"
    content: str | None = None
    content_hash: str | None = None
    media_type: str | None = None
    filename: str | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "type": self.type}
        if self.content is not None:
            data["content"] = self.content
        if self.content_hash is not None:
            data["contentHash"] = self.content_hash
        if self.media_type is not None:
            data["mediaType"] = self.media_type
        if self.filename is not None:
            data["filename"] = self.filename
        return data

    @classmethod
    def from_json(cls, data: Any) -> PastedContent | None:
        if not isinstance(data, dict) or not isinstance(data.get("id"), int):
            return None
        kind = data.get("type")
        return cls(
            id=data["id"],
            type="image" if kind == "image" else "text",
            content=_opt_str(data.get("content")),
            content_hash=_opt_str(data.get("contentHash")),
            media_type=_opt_str(data.get("mediaType")),
            filename=_opt_str(data.get("filename")),
        )


@dataclass(slots=True)
class HistoryEntry:
    display: str
    pasted_contents: dict[int, PastedContent] = field(default_factory=dict)
    timestamp: int = field(default_factory=now_ms)  # milliseconds since the epoch
    project: str | None = None
    session_id: str | None = None

    @property
    def key(self) -> tuple[int, str | None, str]:
        """What an undo tombstone names: unique enough within one millisecond."""
        return (self.timestamp, self.session_id, self.display)

    def redacted(self) -> HistoryEntry:
        """A copy with API keys removed from the prompt and the pasted text."""
        pastes = {
            pid: replace(p, content=redact_api_keys(p.content)) if p.content else p
            for pid, p in self.pasted_contents.items()
        }
        return replace(self, display=redact_api_keys(self.display), pasted_contents=pastes)

    def to_json(self) -> dict[str, Any]:
        return {
            "display": self.display,
            "pastedContents": {str(pid): p.to_json() for pid, p in self.pasted_contents.items()},
            "timestamp": self.timestamp,
            "project": self.project,
            "sessionId": self.session_id,
        }

    @classmethod
    def from_json(cls, data: Any) -> HistoryEntry | None:
        if not isinstance(data, dict) or not isinstance(data.get("display"), str):
            return None
        pastes: dict[int, PastedContent] = {}
        raw = data.get("pastedContents")
        if isinstance(raw, dict):
            for value in raw.values():
                paste = PastedContent.from_json(value)
                if paste is not None:
                    pastes[paste.id] = paste
        timestamp = data.get("timestamp")
        return cls(
            display=data["display"],
            pasted_contents=pastes,
            timestamp=int(timestamp) if isinstance(timestamp, (int, float)) else 0,
            project=_opt_str(data.get("project")),
            session_id=_opt_str(data.get("sessionId")),
        )


def _opt_str(value: Any) -> str | None:
    return value if isinstance(value, str) else None
