"""Web search and web fetch: the provider's own server tools, run by the provider within a
response (the sidecar never fetches anything itself).

Which provider gets which, and why:

- ``anthropic``: ``web_search_20260318`` when the models endpoint lists
  ``server_tools.web_search`` for the model, ``web_fetch_20260318`` when it lists
  ``server_tools`` (its capabilities name no fetch of its own). Both are generally
  available: no beta header. An endpoint that said nothing (not reached yet) leaves the
  decision to the API.
- ``openai`` (the Responses API): its ``web_search`` tool; it has no fetch tool, and its
  models endpoint lists no capabilities.
- ``openai-compatible`` (Chat Completions): neither; the API has no server tools.

Each is also off when its setting (``tools.webSearch``, ``tools.webFetch``) is false. The
answer carries the reason either way, for ``/context``.
"""

from __future__ import annotations

from sidecar.core.server_tool_offers import Described, ServerToolOffer
from sidecar.core.settings import Settings

WEB_SEARCH = "web_search"
WEB_FETCH = "web_fetch"
# The tool definitions as each API takes them.
ANTHROPIC_DEFINITIONS = {
    WEB_SEARCH: {"type": "web_search_20260318", "name": WEB_SEARCH},
    WEB_FETCH: {"type": "web_fetch_20260318", "name": WEB_FETCH},
}
RESPONSES_DEFINITIONS = {WEB_SEARCH: {"type": "web_search"}}
# The Responses API lists a search's sources only when asked for them.
RESPONSES_SOURCES = "web_search_call.action.sources"
# What the Anthropic models endpoint lists for each tool.
ANTHROPIC_CAPABILITIES = {WEB_SEARCH: "server_tools.web_search", WEB_FETCH: "server_tools"}


def _enabled(settings: Settings, tool: str) -> bool:
    return settings.tools.webSearch if tool == WEB_SEARCH else settings.tools.webFetch


def _setting(tool: str) -> str:
    return "tools.webSearch" if tool == WEB_SEARCH else "tools.webFetch"


def web_offers(settings: Settings, provider: str,
               described: Described | None) -> list[ServerToolOffer]:
    """Whether each web tool goes to the model, and why."""
    offers: list[ServerToolOffer] = []
    for tool in (WEB_SEARCH, WEB_FETCH):
        if not _enabled(settings, tool):
            offers.append(ServerToolOffer(tool, False, f"turned off by {_setting(tool)}"))
        elif provider == "anthropic":
            capability = ANTHROPIC_CAPABILITIES[tool]
            listed = described is not None and bool(described.capabilities)
            if listed and described is not None and capability not in described.capabilities:
                offers.append(ServerToolOffer(tool, False, f"the models list does not give "
                                                    f"{described.model} `{capability}`"))
            else:
                offers.append(ServerToolOffer(tool, True, "Anthropic's "
                                       f"{ANTHROPIC_DEFINITIONS[tool]['type']} server tool"))
        elif provider == "openai" and tool in RESPONSES_DEFINITIONS:
            offers.append(ServerToolOffer(tool, True, "the Responses API's web_search tool"))
        elif provider == "openai":
            offers.append(ServerToolOffer(tool, False, "the Responses API has no web fetch tool"))
        else:
            offers.append(ServerToolOffer(tool, False, f"provider {provider} (Chat Completions) has "
                                                "no server tools"))
    return offers

