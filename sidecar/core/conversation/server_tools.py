"""Server tools in the conversation: the tools a provider runs itself within one response
(web search, web fetch, tool search), as opposed to the client tools the sidecar runs.

Their blocks stay verbatim in the assistant message that produced them and go back to the
provider that made them exactly as it sent them:

- Anthropic: a ``server_tool_use`` block (``srvtoolu_`` id, ``name``, ``input``) and, in the
  same assistant message, its result block, typed ``<tool>_tool_result`` (for instance
  ``web_search_tool_result``, ``web_fetch_tool_result``) with ``tool_use_id`` naming it. The
  API refuses a ``server_tool_use`` sent back without its result, a result that answers no
  ``server_tool_use`` of its message, and a client ``tool_result`` that answers a server id.
- OpenAI Responses: a ``web_search_call`` output item, kept whole as a block of that type
  and sent back as the same input item.

They are never client tool calls: nothing here is a ``tool_use``, so no turn runs them and
no ``tool_result`` answers them. A provider's blocks are meaningless to another provider
(the results are encrypted for the one that made them): an adapter sends only its own.

Clearing (microcompact: time-based, step and in-turn): a cleared server result must still
be a block the API accepts, and its type has no text field for the usual marker. A web
search result becomes an empty result list (a search that found nothing: the encrypted
results cannot be cut, only left out); a web fetch result keeps its URL, and its document
becomes a plain text document holding the marker. Other server results (tool search) are never cleared:
they are what loads the tools they name.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Iterable

from sidecar.contract.updates import SessionUpdate, tool_call, tool_call_update
from sidecar.core.conversation.messages import CLEARED_TOOL_RESULT, Block

SERVER_TOOL_USE = "server_tool_use"
CLIENT_RESULT = "tool_result"
# OpenAI Responses' web search output item, kept whole.
OPENAI_WEB_SEARCH_CALL = "web_search_call"
WEB_SEARCH_RESULT = "web_search_tool_result"
WEB_FETCH_RESULT = "web_fetch_tool_result"
# Results a clearing may replace, and the names of the server tools whose results they are.
CLEARABLE_RESULTS = frozenset({WEB_SEARCH_RESULT, WEB_FETCH_RESULT})
CLEARABLE_SERVER_TOOLS = frozenset({"web_search", "web_fetch"})


def is_server_result(block: Block) -> bool:
    kind = str(block.get("type", ""))
    return kind.endswith("_tool_result") and kind != CLIENT_RESULT


def is_openai_server_block(block: Block) -> bool:
    return block.get("type") == OPENAI_WEB_SEARCH_CALL


def is_result(block: Block) -> bool:
    """A client ``tool_result`` or a server tool's result: both answer a use by its id."""
    return block.get("type") == CLIENT_RESULT or is_server_result(block)


def is_use(block: Block) -> bool:
    return block.get("type") in ("tool_use", SERVER_TOOL_USE)


def paired(content: Iterable[Block]) -> list[Block]:
    """The blocks with Anthropic's server tool uses and results kept only in pairs: a use
    whose result never came (an answer cut short) and a result without its use would both
    be refused, so they go; everything else is kept in order."""
    blocks = list(content)
    uses = {str(b.get("id")) for b in blocks if b.get("type") == SERVER_TOOL_USE}
    answered = {str(b.get("tool_use_id")) for b in blocks if is_server_result(b)}
    both = uses & answered
    return [b for b in blocks
            if not (b.get("type") == SERVER_TOOL_USE and str(b.get("id")) not in both)
            and not (is_server_result(b) and str(b.get("tool_use_id")) not in both)]


# ----- clearing ------------------------------------------------------------------------------

def cleared(block: Block) -> Block:
    """``block`` (a result) as a clearing leaves it, in a form the API accepts."""
    kind = block.get("type")
    if kind == CLIENT_RESULT:
        return {**copy.copy(block), "content": CLEARED_TOOL_RESULT}
    if kind == WEB_SEARCH_RESULT:
        return {**copy.copy(block), "content": []}
    if kind == WEB_FETCH_RESULT:
        content = block.get("content")
        url = str(content.get("url", "")) if isinstance(content, dict) else ""
        return {**copy.copy(block), "content": {
            "type": "web_fetch_result", "url": url,
            "content": {"type": "document", "source": {
                "type": "text", "media_type": "text/plain", "data": CLEARED_TOOL_RESULT}}}}
    return block


def is_cleared(block: Block) -> bool:
    kind = block.get("type")
    if kind == CLIENT_RESULT:
        return block.get("content") == CLEARED_TOOL_RESULT
    if kind in CLEARABLE_RESULTS:
        return cleared(block) == block
    return False


def is_clearable(block: Block) -> bool:
    """A result a clearing may replace, not cleared yet."""
    return (block.get("type") == CLIENT_RESULT or block.get("type") in CLEARABLE_RESULTS) \
        and not is_cleared(block)


# ----- what the user is shown ----------------------------------------------------------------

@dataclass(frozen=True)
class Source:
    title: str
    url: str


@dataclass(frozen=True)
class ServerCall:
    """One server tool call of an answer, as the clients show it."""

    id: str
    name: str  # web_search, web_fetch, ...
    input: dict[str, Any]
    sources: list[Source] = field(default_factory=list)
    error: str | None = None


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _anthropic_sources(result: Block) -> tuple[list[Source], str | None]:
    content = result.get("content")
    if isinstance(content, list):
        return [Source(_text(r.get("title")) or _text(r.get("url")), _text(r.get("url")))
                for r in content if isinstance(r, dict) and r.get("url")], None
    if not isinstance(content, dict):
        return [], None
    if "error_code" in content:
        return [], _text(content.get("error_code")) or "error"
    url = _text(content.get("url"))
    document = content.get("content")
    title = _text(document.get("title")) if isinstance(document, dict) else ""
    return ([Source(title or url, url)] if url else []), None


def _annotation_sources(content: list[Block]) -> list[Source]:
    out: list[Source] = []
    for b in content:
        for note in b.get("annotations") or [] if b.get("type") == "text" else []:
            if isinstance(note, dict) and note.get("type") == "url_citation" and note.get("url"):
                source = Source(_text(note.get("title")) or _text(note["url"]), _text(note["url"]))
                if source not in out:
                    out.append(source)
    return out


def server_calls(content: list[Block]) -> list[ServerCall]:
    """The server tool calls of one answer's blocks, with their sources, in order."""
    results = {str(b.get("tool_use_id")): b for b in content if is_server_result(b)}
    calls: list[ServerCall] = []
    for b in content:
        if b.get("type") == SERVER_TOOL_USE:
            given = b.get("input")
            result = results.get(str(b.get("id")))
            sources, error = _anthropic_sources(result) if result is not None else ([], None)
            calls.append(ServerCall(str(b.get("id")), str(b.get("name")),
                                    given if isinstance(given, dict) else {}, sources, error))
        elif b.get("type") == OPENAI_WEB_SEARCH_CALL:
            given_action = b.get("action")
            action: dict[str, Any] = given_action if isinstance(given_action, dict) else {}
            listed = [Source(_text(s.get("url")), _text(s.get("url")))
                      for s in action.get("sources") or [] if isinstance(s, dict) and s.get("url")]
            cited = _annotation_sources(content)
            sources = cited + [s for s in listed if s.url not in {c.url for c in cited}]
            query = action.get("query") or action.get("url") or ""
            calls.append(ServerCall(str(b.get("id")), "web_search",
                                    {"query": query} if query else {}, sources,
                                    None if b.get("status") != "failed" else "failed"))
    return calls


# ----- the clients' view -------------------------------------------------------------------

# ACP's tool kinds.
KINDS = {"web_search": "search", "web_fetch": "fetch"}


def _title(call: ServerCall) -> str:
    if call.name == "web_search":
        query = _text(call.input.get("query"))
        return f"Web search: {query}" if query else "Web search"
    if call.name == "web_fetch":
        url = _text(call.input.get("url"))
        return f"Web fetch: {url}" if url else "Web fetch"
    return call.name


def call_updates(content: list[Block], call_id: str | None = None) -> list[SessionUpdate]:
    """Each server tool call of an answer (or only ``call_id``) as a finished tool call: a
    ``tool_call`` of kind search or fetch, then its ``tool_call_update`` listing the sources
    as ``resource_link`` content (title and URL) and in ``rawOutput.sources``."""
    out: list[SessionUpdate] = []
    for call in server_calls(content):
        if call_id is not None and call.id != call_id:
            continue
        links: list[dict[str, Any]] = [
            {"type": "content", "content": {"type": "resource_link", "uri": s.url, "name": s.title}}
            for s in call.sources]
        if call.error is not None:
            links.append({"type": "content", "content": {
                "type": "text", "text": f"The provider's {call.name} failed: {call.error}"}})
        out.append(tool_call(call.id, _title(call), KINDS.get(call.name, "other"), "pending",
                             call.input))
        out.append(tool_call_update(
            call.id, "failed" if call.error is not None else "completed", content=links,
            raw_output={"sources": [{"title": s.title, "url": s.url} for s in call.sources],
                        "server": True}))
    return out


def starts_call(block: Block) -> bool:
    return block.get("type") in (SERVER_TOOL_USE, OPENAI_WEB_SEARCH_CALL)
