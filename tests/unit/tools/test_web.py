"""Which provider and model get the web tools, and the reason given either way."""

from __future__ import annotations

import dataclasses

from sidecar.core.ports import ModelDescription
from sidecar.core.settings import Settings, Tools
from sidecar.tools.web import web_offers

DEFAULT = Settings()


def offered(settings: Settings, provider: str,
            described: ModelDescription | None = None) -> list[tuple[str, bool]]:
    return [(o.tool, o.offered) for o in web_offers(settings, provider, described)]


def described(*capabilities: str) -> ModelDescription:
    return ModelDescription("claude-x", 200_000, 64_000, capabilities=frozenset(capabilities))


def test_anthropic_gets_both_unless_its_models_list_leaves_them_out() -> None:
    assert offered(DEFAULT, "anthropic") == [("web_search", True), ("web_fetch", True)]
    both = described("thinking", "server_tools", "server_tools.web_search")
    assert offered(DEFAULT, "anthropic", both) == [("web_search", True), ("web_fetch", True)]
    fetch_only = described("thinking", "server_tools")
    assert offered(DEFAULT, "anthropic", fetch_only) == [("web_search", False), ("web_fetch", True)]
    neither = described("thinking")
    [search, fetch] = web_offers(DEFAULT, "anthropic", neither)
    assert not search.offered and not fetch.offered
    assert "`server_tools.web_search`" in search.reason and "claude-x" in search.reason


def test_the_responses_api_gets_search_and_compatible_servers_nothing() -> None:
    assert offered(DEFAULT, "openai") == [("web_search", True), ("web_fetch", False)]
    assert offered(DEFAULT, "openai-compatible") == [("web_search", False), ("web_fetch", False)]
    reasons = [o.reason for o in web_offers(DEFAULT, "openai-compatible", None)]
    assert all("Chat Completions" in r for r in reasons)


def test_each_setting_turns_its_tool_off() -> None:
    no_fetch = dataclasses.replace(DEFAULT, tools=Tools(webFetch=False))
    assert offered(no_fetch, "anthropic") == [("web_search", True), ("web_fetch", False)]
    no_search = dataclasses.replace(DEFAULT, tools=Tools(webSearch=False))
    assert offered(no_search, "openai") == [("web_search", False), ("web_fetch", False)]
    [search, _] = web_offers(no_search, "openai", None)
    assert search.reason == "turned off by tools.webSearch"
