"""ToolSearch: the sidecar's search of the deferred tool definitions, for the providers
without a tool search of their own (sidecar.core.turns.deferred_tools says when).

The query is matched against each deferred tool's name, description and parameter names
with BM25 (k1 1.2, b 0.75); a query naming a tool exactly finds that tool first. The result
names the tools found with the first line of their description, as text, and as one
``tool_reference`` block each: the requests that follow offer those tools' definitions.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from sidecar.core.ports import Tool, ToolContext, ToolKind, ToolOutcome
from sidecar.core.turns.deferred_tools import TOOL_SEARCH
from sidecar.tools.base import BaseTool

DEFAULT_RESULTS = 5
MAX_RESULTS = 20
DESCRIPTION_CHARS = 200
_K1 = 1.2
_B = 0.75
_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


def words(text: str) -> list[str]:
    """Lower-case words of ``text``; ``create_invoice``, ``createInvoice`` and
    ``mcp__billing__create-invoice`` split into their parts."""
    return [w.lower() for w in _WORD.findall(text)]


def _document(tool: Tool) -> list[str]:
    schema = tool.input_schema if isinstance(tool.input_schema, dict) else {}
    properties = schema.get("properties")
    params = " ".join(properties) if isinstance(properties, dict) else ""
    # The name counts twice: it says best what the tool does.
    return words(tool.name) * 2 + words(tool.description) + words(params)


def search(query: str, tools: Sequence[Tool], limit: int = DEFAULT_RESULTS) -> list[Tool]:
    """The tools that best match ``query``, best first; none when no word matches."""
    exact = [t for t in tools if t.name == query.strip()]
    terms = set(words(query))
    documents = [(t, Counter(_document(t))) for t in tools]
    if not documents or not terms:
        return exact[:limit]
    average = sum(sum(d.values()) for _, d in documents) / len(documents)
    frequency = {term: sum(1 for _, d in documents if term in d) for term in terms}
    scored: list[tuple[float, int, Tool]] = []
    for index, (tool, counts) in enumerate(documents):
        length = sum(counts.values())
        score = 0.0
        for term in terms:
            tf = counts.get(term, 0)
            if not tf:
                continue
            idf = math.log(1 + (len(documents) - frequency[term] + 0.5) / (frequency[term] + 0.5))
            score += idf * tf * (_K1 + 1) / (tf + _K1 * (1 - _B + _B * length / (average or 1)))
        if score > 0:
            scored.append((score, index, tool))
    scored.sort(key=lambda item: (-item[0], item[1]))
    ranked = exact + [t for _, _, t in scored if t not in exact]
    return ranked[:limit]


def _first_line(text: str) -> str:
    stripped = text.strip()
    return stripped.splitlines()[0][:DESCRIPTION_CHARS] if stripped else ""


class ToolSearchTool(BaseTool):
    name: ClassVar[str] = TOOL_SEARCH
    description: ClassVar[str] = (
        "Search the tools that are available but not yet loaded (their definitions are "
        "deferred to keep the context small). Give a few keywords of what you want to do; "
        "the tools found are listed by name and description and can be called from the next "
        "step on. Search before saying a tool you need does not exist.")
    input_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            "query": {"type": "string",
                      "description": "Keywords of the task, or a tool's exact name"},
            "max_results": {"type": "integer", "minimum": 1, "maximum": MAX_RESULTS,
                            "description": f"How many tools to return (default {DEFAULT_RESULTS})"},
        },
        "required": ["query"],
        "additionalProperties": False,
    }
    kind: ClassVar[ToolKind] = "search"
    compactable: ClassVar[bool] = False

    def __init__(self, deferred: Callable[[], Sequence[Tool]]) -> None:
        # The deferred tools as they stand at each call (servers come and go).
        self._deferred = deferred

    async def invoke(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        query = str(args["query"])
        limit = int(args.get("max_results") or DEFAULT_RESULTS)
        found = search(query, self._deferred(), limit)
        if not found:
            return ToolOutcome(f"No deferred tool matches {query!r}. Try other words.",
                               raw_output={"query": query, "found": []})
        lines = [f"Found {len(found)} tool{'s' if len(found) != 1 else ''}; "
                 "they can be called from now on:"]
        lines += [f"- {t.name}: {_first_line(t.description)}" for t in found]
        blocks: list[dict[str, Any]] = [{"type": "text", "text": "\n".join(lines)}]
        blocks += [{"type": "tool_reference", "tool_name": t.name} for t in found]
        return ToolOutcome(blocks, raw_output={"query": query, "found": [t.name for t in found]})
