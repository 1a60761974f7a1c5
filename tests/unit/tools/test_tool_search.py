"""ToolSearch: BM25 over the deferred tools' names, descriptions and parameter names, an
exact name first, and a result the requests that follow read the found tools from."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from sidecar.tools.tool_search import ToolSearchTool, search, words
from tests.mcp_servers.saas_server import all_tools


def as_tool(listed: Any) -> Any:
    return SimpleNamespace(name=f"mcp__saas__{listed.name}", description=listed.description,
                           input_schema=listed.input_schema)


SAAS = [as_tool(t) for t in all_tools()]


def test_words_split_names_of_every_style() -> None:
    assert words("mcp__billing__create-invoice") == ["mcp", "billing", "create", "invoice"]
    assert words("createInvoice HTTPServer v2") == ["create", "invoice", "http", "server", "v", "2"]


def test_the_search_ranks_the_tool_the_words_describe_first() -> None:
    assert search("create invoice", SAAS)[0].name == "mcp__saas__create_invoice"
    assert search("refund a payment", SAAS)[0].name.endswith("_refund")
    assert search("tracking number carrier", SAAS)[0].name.endswith("shipment") or \
        search("tracking number carrier", SAAS)[0].name.endswith("shipments")
    # An exact name comes first whatever the words score.
    assert search("mcp__saas__count_tasks", SAAS)[0].name == "mcp__saas__count_tasks"
    assert len(search("customer", SAAS, limit=3)) == 3
    assert search("zzz qqq", SAAS) == []


async def test_the_result_lists_the_tools_and_references_them(ctx: Any) -> None:
    tool = ToolSearchTool(lambda: SAAS)
    outcome = await tool.run({"query": "create invoice", "max_results": 2}, ctx)
    assert not outcome.is_error and isinstance(outcome.content, list)
    text, *refs = outcome.content
    assert text["text"].startswith("Found 2 tools") and "mcp__saas__create_invoice: " in text["text"]
    assert refs[0] == {"type": "tool_reference", "tool_name": "mcp__saas__create_invoice"}
    assert len(refs) == 2
    none = await tool.run({"query": "zzz"}, ctx)
    assert "No deferred tool matches" in none.text() and not none.is_error
    assert (await tool.run({}, ctx)).is_error  # the query is required
