"""Editor context a client sends with a prompt, as attachments of the conversation.

Clients send (docs/protocol.md, "Editor context in a prompt"):

- ``{"type": "resource_link", "uri": "file:///abs/path", "name"?}`` for an @-mentioned file:
  the sidecar reads it with the Read tool (so the read counts for a later Edit);
- ``{"type": "resource", "resource": {"uri": "file:///abs/path#L10-20", "text": "...",
  "mimeType"?}}`` for a selection (the ``#L<start>-<end>`` fragment names its lines) or the
  current file's text (no fragment).

Each becomes an ``attachment`` record (``{"type": "editor_context", "source": "file" |
"selection", "uri", "path", "lines"?}``) beside the prompt rather than text inside it: the
ledger counts it like any record, ``sidecar/context`` lists it (``editorContext``), the model
reads it as a note next to the question (normalization renders attachments), and the
prompt, in the transcript and when replayed, stays what the user typed.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from sidecar.contract.uris import uri_to_path
from sidecar.core.accounting.tokens import message_tokens
from sidecar.core.conversation.messages import Block, Message

if TYPE_CHECKING:
    from sidecar.core.session import Session

EDITOR_CONTEXT = "editor_context"
_LINES = re.compile(r"^L(\d+)(?:-L?(\d+))?$")


def split_uri(uri: str) -> tuple[str, str | None]:
    """The URI without its ``#L10-20`` fragment, and the lines it names ("10-20", "10")."""
    base, _, fragment = uri.partition("#")
    m = _LINES.match(fragment)
    if not m:
        return (base if fragment else uri), None
    start, end = m.group(1), m.group(2)
    return base, f"{start}-{end}" if end and end != start else start


async def editor_attachments(session: Session, blocks: list[Block]) -> tuple[list[Block], list[Message]]:
    """The prompt's own blocks (text, images) and the attachments its editor context makes."""
    kept: list[Block] = []
    attached: list[Message] = []
    for block in blocks:
        kind = block.get("type")
        if kind == "resource_link":
            attached.append(await _file(session, str(block.get("uri", ""))))
        elif kind == "resource":
            res = block.get("resource")
            if isinstance(res, dict):
                attached.append(_selection(res))
        elif kind == "image":
            kept.append({"type": "image", "source": {"type": "base64", "media_type": block.get("mimeType"),
                                                      "data": block.get("data")}})
        else:
            kept.append(block)
    return kept, attached


async def _file(session: Session, uri: str) -> Message:
    from sidecar.core.turns.tool_context import SessionToolContext

    base, _ = split_uri(uri)
    path = str(uri_to_path(base))
    tool = next((t for t in session.tools if t.name == "Read"), None)
    if tool is None:
        text = f"The user attached {path} to this message (there is no Read tool to show it)."
    else:
        outcome = await tool.run({"file_path": path}, SessionToolContext(session))
        body = outcome.content if isinstance(outcome.content, str) else outcome.text()
        if outcome.is_error:
            text = f"The user attached {path} to this message, but it could not be read: {body}"
        else:
            text = f"The user attached {path} to this message. Its content, as the Read tool returns it:\n{body}"
    return _record({"source": "file", "uri": base, "path": path}, text)


def _selection(resource: dict[str, Any]) -> Message:
    base, lines = split_uri(str(resource.get("uri", "")))
    path = str(uri_to_path(base)) if base else "an unnamed buffer"
    body = str(resource.get("text", ""))
    if lines:
        head = f"The user selected line{'s' if '-' in lines else ''} {lines} of {path} in the editor:"
    else:
        head = f"The user included the editor's text of {path}:"
    meta: dict[str, Any] = {"source": "selection", "uri": base, "path": path}
    if lines:
        meta["lines"] = lines
    return _record(meta, f"{head}\n{body}")


def _record(meta: dict[str, Any], text: str) -> Message:
    return Message(kind="attachment", attachment={"type": EDITOR_CONTEXT, **meta},
                   content=[{"type": "text", "text": text}])


def editor_context_view(session: Session) -> list[dict[str, Any]]:
    """``sidecar/context``'s ``editorContext``: what the editor attached since the last
    compaction, each with its estimated tokens."""
    out: list[dict[str, Any]] = []
    for m in session.transcript.since_boundary():
        att = m.attachment or {}
        if m.kind != "attachment" or att.get("type") != EDITOR_CONTEXT:
            continue
        entry: dict[str, Any] = {k: att.get(k) for k in ("source", "uri", "path", "lines")}
        entry["tokens"] = round(message_tokens(m, session.ledger.counter))
        out.append(entry)
    return out
