"""What a request offers when tools are deferred: all of them marked deferred where the
provider searches, else the sidecar's ToolSearch and the tools its results found, read from
the conversation, appended in the order first found."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from sidecar.core.conversation.messages import ApiMessage, Message
from sidecar.core.turns.deferred_tools import (
    NO_DEFERRAL,
    TOOL_SEARCH,
    Deferral,
    DISCOVERED_KEY,
    discovered_names,
    found_names,
    prefix_tools,
    request_tools,
)


def tool(name: str) -> Any:
    return SimpleNamespace(name=name, description=f"{name} does it", input_schema={"type": "object"})


TOOLS = [tool("Read"), tool("mcp__s__a"), tool("mcp__s__b"), tool("mcp__s__c"), tool(TOOL_SEARCH)]
DEFERRAL = Deferral(frozenset({"mcp__s__a", "mcp__s__b", "mcp__s__c"}), 900)


def searched(*names: str, use: str = "u1") -> list[ApiMessage]:
    return [ApiMessage("assistant", [{"type": "tool_use", "id": use, "name": TOOL_SEARCH,
                                      "input": {"query": "x"}}]),
            ApiMessage("user", [{"type": "tool_result", "tool_use_id": use, "content": [
                {"type": "text", "text": "found"}] + [{"type": "tool_reference", "tool_name": n}
                                                       for n in names]}])]


def names(specs: Any) -> list[str]:
    return [s.name for s in specs]


def test_nothing_deferred_offers_every_tool_but_the_search() -> None:
    assert names(request_tools(TOOLS, NO_DEFERRAL, [], server_search=False)) == [
        "Read", "mcp__s__a", "mcp__s__b", "mcp__s__c"]


def test_a_server_search_gets_every_deferred_tool_marked() -> None:
    specs = request_tools(TOOLS, DEFERRAL, found_names(searched("mcp__s__b")), server_search=True)
    assert [(s.name, s.deferred) for s in specs] == [
        ("Read", False), ("mcp__s__a", True), ("mcp__s__b", True), ("mcp__s__c", True)]
    assert names(prefix_tools(TOOLS, DEFERRAL, server_search=True)) == ["Read"]


def test_the_client_search_offers_what_was_found_at_the_end_in_the_order_found() -> None:
    assert names(request_tools(TOOLS, DEFERRAL, [], server_search=False)) == ["Read", TOOL_SEARCH]
    conversation = searched("mcp__s__c", use="u1") + searched("mcp__s__a", "mcp__s__c", use="u2")
    assert found_names(conversation) == ["mcp__s__c", "mcp__s__a"]
    specs = request_tools(TOOLS, DEFERRAL, found_names(conversation), server_search=False)
    assert names(specs) == ["Read", TOOL_SEARCH, "mcp__s__c", "mcp__s__a"]
    assert not any(s.deferred for s in specs)
    # A tool found that is no longer deferred (its server went) is not offered.
    gone = Deferral(frozenset({"mcp__s__a"}), 300)
    assert names(request_tools(TOOLS, gone, found_names(conversation), server_search=False))[-1] == "mcp__s__a"


def test_the_gauge_view_names_the_search() -> None:
    assert NO_DEFERRAL.view("anthropic") is None
    assert DEFERRAL.view("anthropic") == {"count": 3, "savedTokens": 900, "search": "server"}
    assert DEFERRAL.view("openai")["search"] == "server"  # type: ignore[index]
    assert DEFERRAL.view("openai-compatible")["search"] == "client"  # type: ignore[index]


def test_what_a_compaction_carried_comes_first_then_what_was_found_since() -> None:
    def record(m: ApiMessage) -> Message:
        return Message(kind=m.role, content=m.content)

    before = [record(m) for m in searched("mcp__s__c", use="u1")]
    assert discovered_names(before) == ["mcp__s__c"]
    boundary = Message(kind="system", subtype="compact_boundary", content=[],
                       extra={"compactMetadata": {"trigger": "auto", DISCOVERED_KEY: ["mcp__s__c"]}})
    after = [*before, boundary, *[record(m) for m in searched("mcp__s__a", "mcp__s__c", use="u2")]]
    assert discovered_names(after) == ["mcp__s__c", "mcp__s__a"]
    assert discovered_names([*before, boundary]) == ["mcp__s__c"]
    cleared = Message(kind="system", subtype="compact_boundary", content=[],
                      extra={"compactMetadata": {"trigger": "clear"}})
    assert discovered_names([*after, cleared]) == []
