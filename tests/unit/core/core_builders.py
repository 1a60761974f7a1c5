"""Record builders for the core unit tests, and the way to the shared corpus."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from sidecar.core.conversation.messages import Block, Message, Usage, as_blocks

REPO_ROOT = Path(__file__).resolve().parents[3]
CORPUS = REPO_ROOT.parent / "shared" / "corpus"


def text(value: str) -> Block:
    return {"type": "text", "text": value}


def tool_use(tid: str, name: str = "Read", **inp: Any) -> Block:
    return {"type": "tool_use", "id": tid, "name": name, "input": inp or {"file_path": f"/w/{tid}"}}


def result(tid: str, content: Any = "ok", is_error: bool = False) -> Block:
    block: Block = {"type": "tool_result", "tool_use_id": tid, "content": content}
    if is_error:
        block["is_error"] = True
    return block


def user(*blocks: Block, **kw: Any) -> Message:
    return Message(kind="user", content=list(blocks), **kw)


def assistant(*blocks: Block, mid: str | None = None, usage: Usage | None = None,
              **kw: Any) -> Message:
    kw.setdefault("model", "claude-sonnet-4-5")
    return Message(kind="assistant", content=list(blocks), message_id=mid, usage=usage, **kw)


def corpus_lines(name: str) -> list[dict[str, Any]]:
    path = CORPUS / name
    if not path.is_file():
        pytest.skip(f"corpus file {path} is not available")
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def message_from_line(record: dict[str, Any]) -> Message | None:
    """A deliberately small reading of one Claude Code transcript line (main chain only).

    The project's own ingestion lives elsewhere; this keeps the core tests independent of it.
    """
    kind = record.get("type")
    if record.get("isSidechain"):
        return None
    body = record.get("message") if isinstance(record.get("message"), dict) else {}
    if kind == "user":
        return Message(
            kind="user",
            content=as_blocks(body.get("content")),
            uuid=record.get("uuid") or "",
            is_meta=bool(record.get("isMeta")),
            is_compact_summary=bool(record.get("isCompactSummary")),
        )
    if kind == "assistant":
        return Message(
            kind="assistant",
            content=as_blocks(body.get("content")),
            uuid=record.get("uuid") or "",
            message_id=body.get("id"),
            model=body.get("model"),
            usage=Usage.from_json(body.get("usage")),
            is_api_error=bool(record.get("isApiErrorMessage")),
        )
    if kind == "system":
        return Message(kind="system", content=as_blocks(record.get("content")),
                       subtype=record.get("subtype"))
    if kind == "progress":
        return Message(kind="progress", content=[])
    return None


def corpus_messages(name: str, stop: int | None = None) -> list[Message]:
    lines = corpus_lines(name)[:stop]
    return [m for m in (message_from_line(r) for r in lines) if m is not None]


# ----- a compaction host's measures, for re-injection sources ------------------------------


class QuarterCounter:
    """Four characters a token."""

    def text(self, text: str) -> float:
        return len(text) / 4


@dataclass
class WindowThresholds:
    size: int = 200_000


@dataclass
class CountingLedger:
    counter: QuarterCounter = field(default_factory=QuarterCounter)

