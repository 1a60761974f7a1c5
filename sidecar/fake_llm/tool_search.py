"""The APIs' tool search as the fake plays it: the rules of deferred tools, the search
itself, and what the deferred definitions count. Anthropic's first; the Responses API's
hosted ``tool_search`` at the end of the module.

A request may send tools with ``defer_loading: true`` beside a tool search tool
(``tool_search_tool_bm25_20251119`` or ``tool_search_tool_regex_20251119``). The API keeps
the deferred definitions out of the context until a search references them: the model's
``server_tool_use`` of the search tool is answered in the same message by a
``tool_search_tool_result`` whose ``tool_references`` name the tools found, and from then on
the model may call those tools. A script asks for a search with a reply block
``{"type": "tool_search", "query": "...", "max_results": 5}``, which the fake answers by
searching the request's deferred definitions.

The rules the API documents for it, refused with a 400 here:

- deferred tools need a tool search tool in the same request;
- at least one tool is not deferred, and the tool search tool itself never is;
- a ``tool_reference`` (in a search result or a tool result) names a tool of the request;
- a ``tool_use`` of a deferred tool follows a reference to it: the model cannot call a tool
  whose definition no search loaded.
"""

from __future__ import annotations

import dataclasses
import math
import re
import uuid
from collections import Counter
from typing import Any, Callable, Iterator

from .script import Reply

Problem = tuple[str, str]

SEARCH_TOOL_TYPES = frozenset({"tool_search_tool_bm25_20251119", "tool_search_tool_bm25",
                               "tool_search_tool_regex_20251119", "tool_search_tool_regex"})
DEFAULT_RESULTS = 5
_WORD = re.compile(r"[a-z0-9]+")


def _tools(body: dict[str, Any]) -> list[dict[str, Any]]:
    tools = body.get("tools")
    return [t for t in tools if isinstance(t, dict)] if isinstance(tools, list) else []


def is_search_tool(tool: dict[str, Any]) -> bool:
    return tool.get("type") in SEARCH_TOOL_TYPES


def search_tool(body: dict[str, Any]) -> dict[str, Any] | None:
    return next((t for t in _tools(body) if is_search_tool(t)), None)


def deferred_tools(body: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The request's deferred tools by name."""
    return {str(t.get("name")): t for t in _tools(body) if t.get("defer_loading") is True}


def _blocks(content: Any) -> list[dict[str, Any]]:
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def references(block: dict[str, Any]) -> list[str]:
    """The tool names a search result or a tool result references."""
    if block.get("type") == "tool_search_tool_result":
        content = block.get("content")
        found = content.get("tool_references") if isinstance(content, dict) else None
        return [str(r.get("tool_name")) for r in _blocks(found)]
    if block.get("type") == "tool_result":
        return [str(b.get("tool_name")) for b in _blocks(block.get("content"))
                if b.get("type") == "tool_reference"]
    return []


def problems(body: dict[str, Any]) -> Iterator[Problem]:
    """The tool search rules the body breaks (see the module's list)."""
    tools = _tools(body)
    deferred = deferred_tools(body)
    searcher = search_tool(body)
    if tools and all(t.get("defer_loading") is True for t in tools):
        yield "tools", ("tools: all tools have defer_loading set to true; at least one tool "
                        "must be loaded")
    if searcher is not None and searcher.get("defer_loading") is True:
        yield "tools", ("tools: the tool search tool cannot have defer_loading set to true; it "
                        "is what loads the deferred tools")
    if deferred and searcher is None:
        yield "tools", ("tools: tools with defer_loading set to true require a tool search tool "
                        "(tool_search_tool_regex or tool_search_tool_bm25) in the request")
    names = {str(t.get("name")) for t in tools}
    loaded: set[str] = set()
    for i, message in enumerate(body.get("messages") or []):
        if not isinstance(message, dict):
            continue
        for j, block in enumerate(_blocks(message.get("content"))):
            where = f"messages.{i}.content.{j}"
            for name in references(block):
                if name not in names:
                    yield where, (f"{where}: Tool reference '{name}' has no corresponding tool "
                                  "definition in `tools`")
                loaded.add(name)
            if block.get("type") == "tool_use" and str(block.get("name")) in deferred \
                    and str(block.get("name")) not in loaded:
                yield where, (f"{where}: tool_use of '{block.get('name')}', a tool with "
                              "defer_loading set to true that no tool search result has "
                              "referenced: its definition was never loaded")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower().replace("_", " ").replace("-", " "))


def _text_of(tool: dict[str, Any]) -> list[str]:
    schema = tool.get("input_schema")
    properties = schema.get("properties") if isinstance(schema, dict) else None
    params = " ".join(properties) if isinstance(properties, dict) else ""
    return _words(f"{tool.get('name', '')} {tool.get('description', '')} {params}")


def search(body: dict[str, Any], query: str, limit: int = DEFAULT_RESULTS) -> list[str]:
    """The deferred tools of ``body`` that best match ``query`` (BM25 over the name, the
    description and the parameter names), best first."""
    tools = list(deferred_tools(body).values())
    terms = set(_words(query))
    documents = [(str(t.get("name")), Counter(_text_of(t))) for t in tools]
    if not documents or not terms:
        return []
    average = sum(sum(d.values()) for _, d in documents) / len(documents)
    scored: list[tuple[float, int, str]] = []
    for index, (name, counts) in enumerate(documents):
        length = sum(counts.values())
        score = 0.0
        for term in terms:
            tf = counts.get(term, 0)
            if tf:
                df = sum(1 for _, d in documents if term in d)
                idf = math.log(1 + (len(documents) - df + 0.5) / (df + 0.5))
                score += idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * length / average))
        if score > 0:
            scored.append((score, index, name))
    scored.sort(key=lambda item: (-item[0], item[1]))
    return [name for _, _, name in scored[:limit]]


def _play_searches(reply: Reply, play: Callable[[dict[str, Any]], list[dict[str, Any]]]) -> Reply:
    """``reply`` with each scripted ``tool_search`` block replaced by the blocks ``play``
    makes of it; the same reply when it scripts no search."""
    if not any(b.get("type") == "tool_search" for b in reply.content):
        return reply
    content: list[dict[str, Any]] = []
    for block in reply.content:
        content.extend(play(block) if block.get("type") == "tool_search" else [block])
    return dataclasses.replace(reply, content=content)


def answer_searches(reply: Reply, body: dict[str, Any]) -> Reply:
    """``reply`` with each scripted ``tool_search`` block played as the API plays it: the
    search tool's ``server_tool_use`` and its ``tool_search_tool_result``."""
    searcher = search_tool(body)
    name = str(searcher.get("name")) if searcher is not None else "tool_search_tool_bm25"
    field = "pattern" if "regex" in name else "query"

    def play(block: dict[str, Any]) -> list[dict[str, Any]]:
        query = str(block.get("query", ""))
        use_id = str(block.get("id") or "srvtoolu_" + uuid.uuid4().hex[:24])
        found = search(body, query, int(block.get("max_results") or DEFAULT_RESULTS))
        return [{"type": "server_tool_use", "id": use_id, "name": name, "input": {field: query}},
                {"type": "tool_search_tool_result", "tool_use_id": use_id,
                 "content": {"type": "tool_search_tool_search_result",
                             "tool_references": [{"type": "tool_reference", "tool_name": n}
                                                 for n in found]}}]

    return _play_searches(reply, play)


# ------------------------------------------------------------------ OpenAI Responses
#
# Function tools with ``defer_loading: true`` beside a ``{"type": "tool_search"}`` tool: the
# model's ``tool_search_call`` is answered in the same response by a ``tool_search_output``
# whose ``tools`` are the loaded definitions; both items go back in the next request's input.
# Refused: deferred functions without a tool_search tool, and a ``function_call`` of a
# deferred function no earlier tool_search_output loaded.


def _responses_deferred(body: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {str(t.get("name")): t for t in _tools(body)
            if t.get("type") == "function" and t.get("defer_loading") is True}


def responses_problems(body: dict[str, Any], items: list[dict[str, Any]]) -> Iterator[Problem]:
    tools = _tools(body)
    deferred = _responses_deferred(body)
    if deferred and not any(t.get("type") == "tool_search" for t in tools):
        yield "tools", ("Invalid 'tools': functions with 'defer_loading' set to true require a "
                        "'tool_search' tool.")
    loaded: set[str] = set()
    for i, item in enumerate(items):
        if item.get("type") == "tool_search_output":
            loaded.update(str(t.get("name")) for t in _blocks(item.get("tools")))
        elif item.get("type") == "function_call" and str(item.get("name")) in deferred \
                and str(item.get("name")) not in loaded:
            yield f"input[{i}]", (f"Invalid 'input[{i}]': function '{item.get('name')}' has "
                                  "'defer_loading' set to true and no tool_search_output "
                                  "before it loaded it.")


def answer_responses_searches(reply: Reply, body: dict[str, Any]) -> Reply:
    """``reply`` with each scripted ``tool_search`` block played as the Responses API plays
    its hosted search: a ``tool_search_call`` item and its ``tool_search_output``."""
    deferred = _responses_deferred(body)
    as_anthropic = {"tools": [{"name": n, "description": t.get("description") or "",
                               "input_schema": t.get("parameters") or {},
                               "defer_loading": True} for n, t in deferred.items()]}

    def play(block: dict[str, Any]) -> list[dict[str, Any]]:
        query = str(block.get("query", ""))
        call_id = str(block.get("id") or "call_" + uuid.uuid4().hex[:24])
        found = search(as_anthropic, query, int(block.get("max_results") or DEFAULT_RESULTS))
        return [{"type": "tool_search_call", "id": "tsc_" + uuid.uuid4().hex[:24],
                 "call_id": call_id, "arguments": {"query": query},
                 "execution": "server", "status": "completed"},
                {"type": "tool_search_output", "id": "tso_" + uuid.uuid4().hex[:24],
                 "call_id": call_id, "execution": "server", "status": "completed",
                 "tools": [deferred[n] for n in found]}]

    return _play_searches(reply, play)
