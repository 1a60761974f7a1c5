"""Tool definitions deferred to a tool search, and the tools a request then offers.

A large MCP tool set (``mcp.toolSearch``, past ``mcp.maxToolDefinitionPercent`` of the
window; sidecar.mcp.announce decides) is not sent whole in every request. Its definitions
are deferred, and the model finds the tools it needs by searching them:

- where the provider searches itself (Anthropic's ``tool_search_tool_bm25``, the Responses
  API's hosted ``tool_search``), every deferred tool goes in the request marked
  ``deferred`` (``defer_loading`` on the wire): the API keeps those definitions out of the
  context until its search loads them, and the search's blocks (Anthropic's
  ``server_tool_use`` and ``tool_search_tool_result``, the Responses API's
  ``tool_search_call`` and ``tool_search_output``) stay in the assistant's message, sent
  back as they came; the tools array never changes;
- elsewhere (Chat Completions and the servers that speak it) the sidecar's ``ToolSearch`` tool (sidecar.tools.tool_search) searches the
  deferred definitions and answers with the names it found, as text and as
  ``tool_reference`` blocks in its result. The found tools' definitions are offered from
  then on, after every other tool, in the order they were first found: the list only grows
  at its end, so the cached prefix before it holds. They are read from the conversation, so
  a resumed session offers the same set; a compaction's boundary names them
  (``DISCOVERED_KEY``), so they stay offered after it in the same order.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sidecar.contract.results import DeferredTools

from sidecar.core.conversation.messages import ApiMessage, Message, is_compact_boundary
from sidecar.core.ports import Tool, ToolSpec, tool_specs

# The sidecar's own search tool, offered where the provider has none.
TOOL_SEARCH = "ToolSearch"
# The compact boundary's record of the tools found before it (Claude Code's name).
DISCOVERED_KEY = "preCompactDiscoveredTools"
# The providers whose API searches the deferred tools itself, by the name the session's
# settings give; their adapter sends the deferred tools with the search tool.
SERVER_SEARCH_PROVIDERS = frozenset({"anthropic", "openai"})


@dataclass(frozen=True)
class Deferral:
    """The session's deferred tools, and what their definitions would have taken."""

    names: frozenset[str] = frozenset()
    # Tokens of the deferred definitions, counted as the gauge counts the prefix.
    tokens: int = 0

    @property
    def count(self) -> int:
        return len(self.names)

    def view(self, provider: str) -> DeferredTools | None:
        """The gauge's ``deferredTools`` (docs/protocol.md, Tool search)."""
        if not self.names:
            return None
        return {"count": self.count, "savedTokens": self.tokens,
                "search": "server" if provider in SERVER_SEARCH_PROVIDERS else "client"}


NO_DEFERRAL = Deferral()


def found_names(messages: Iterable[ApiMessage | Message]) -> list[str]:
    """The tools the sidecar's searches have found in ``messages``, in the order first
    found: the ``tool_reference`` blocks of the tool results."""
    found: dict[str, None] = {}
    for message in messages:
        if message.role != "user":
            continue
        for block in message.content:
            content = block.get("content") if block.get("type") == "tool_result" else None
            for part in content if isinstance(content, list) else []:
                if isinstance(part, dict) and part.get("type") == "tool_reference":
                    found.setdefault(str(part.get("tool_name", "")), None)
    return list(found)


def discovered_names(records: Sequence[Message]) -> list[str]:
    """The tools found so far in the model's view: those the last compaction carried over
    (its boundary's ``DISCOVERED_KEY``, as Claude Code's boundary names them), then those
    the searches since found. A compaction takes the searches' results away, not what they
    found: the model need not search again, and the tools array keeps its order."""
    carried: list[str] = []
    start = 0
    for i in range(len(records) - 1, -1, -1):
        if is_compact_boundary(records[i]):
            meta = records[i].extra.get("compactMetadata")
            names = meta.get(DISCOVERED_KEY) if isinstance(meta, dict) else None
            carried = [str(n) for n in names] if isinstance(names, list) else []
            start = i + 1
            break
    return list(dict.fromkeys([*carried, *found_names(records[start:])]))


def request_tools(offered: Sequence[Tool], deferral: Deferral, found: Sequence[str],
                  server_search: bool) -> list[ToolSpec]:
    """The tool definitions a request carries (see the module's rule)."""
    if not deferral.names:
        return tool_specs([t for t in offered if t.name != TOOL_SEARCH])
    plain = [t for t in offered if t.name not in deferral.names and t.name != TOOL_SEARCH]
    deferred = [t for t in offered if t.name in deferral.names]
    if server_search:
        return tool_specs(plain) + [dataclasses.replace(s, deferred=True)
                                    for s in tool_specs(deferred)]
    search = [t for t in offered if t.name == TOOL_SEARCH]
    by_name = {t.name: t for t in deferred}
    loaded = [by_name[name] for name in found if name in by_name]
    return tool_specs(plain + search + loaded)


def prefix_tools(offered: Sequence[Tool], deferral: Deferral, server_search: bool) -> list[ToolSpec]:
    """The definitions that take room in every request: all but the deferred (and, on
    the client side, before any search found one)."""
    return [s for s in request_tools(offered, deferral, (), server_search) if not s.deferred]
