"""What a submitted prompt leaves in the prompt history, pastes kept apart as Claude Code does.

The history line stays short: a text block longer than the paste limit, an embedded resource
(a selection) and an image each become a reference in ``display`` (``[Pasted text #1 +41
lines]``, ``[Image #2]``) with the text in ``pastedContents``; the history then moves text
over the limit to the paste store by hash. A file link stays a mention (``@path``).
"""

from __future__ import annotations

from typing import Any

from sidecar.storage.history_entry import HistoryEntry, PastedContent


def _lines(text: str) -> int:
    return text.count("\n") + (0 if text.endswith("\n") else 1)


def entry_from_prompt(blocks: list[dict[str, Any]], *, project: str, session_id: str,
                      paste_limit: int) -> HistoryEntry | None:
    parts: list[str] = []
    pastes: dict[int, PastedContent] = {}

    def paste(text: str, filename: str | None = None) -> str:
        pid = len(pastes) + 1
        pastes[pid] = PastedContent(id=pid, type="text", content=text, filename=filename)
        return f"[Pasted text #{pid} +{_lines(text)} lines]"

    for block in blocks:
        kind = block.get("type")
        if kind == "text":
            text = str(block.get("text", ""))
            parts.append(paste(text) if len(text) > paste_limit else text)
        elif kind == "resource":
            resource = block.get("resource") or {}
            parts.append(paste(str(resource.get("text", "")), str(resource.get("uri", "")) or None))
        elif kind == "resource_link":
            parts.append(f"@{block.get('name') or block.get('uri', '')}")
        elif kind == "image":
            pid = len(pastes) + 1
            pastes[pid] = PastedContent(id=pid, type="image", media_type=block.get("mimeType"))
            parts.append(f"[Image #{pid}]")
    display = " ".join(p for p in (part.strip() for part in parts) if p)
    if not display:
        return None
    return HistoryEntry(display=display, pasted_contents=pastes, project=project,
                        session_id=session_id)
