"""The HTTP client of a streamable HTTP MCP server, its responses bounded.

The SDK reads a JSON response whole (``response.aread()``), however large; an event stream's
events it bounds itself (``max_sse_event_size``). Here a response that is not an event
stream ends with an error once it passed the limit, which the SDK turns into the failure of
the request it answered.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx2


class ResponseTooLarge(httpx2.StreamError):
    pass


def too_large_message(limit: int) -> str:
    return f"the response is larger than {limit:,} bytes (setting mcp.maxMessageBytes)"


class _Capped(httpx2.AsyncByteStream):
    def __init__(self, inner: Any, limit: int) -> None:
        self._inner = inner
        self._limit = limit

    async def __aiter__(self) -> AsyncIterator[bytes]:
        seen = 0
        async for chunk in self._inner:
            seen += len(chunk)
            if seen > self._limit:
                raise ResponseTooLarge(too_large_message(self._limit))
            yield chunk

    async def aclose(self) -> None:
        await self._inner.aclose()


def bounded_http_client(headers: dict[str, str], limit: int) -> httpx2.AsyncClient:
    """The SDK's client (its timeouts, the environment's proxies), its responses past
    ``limit`` bytes refused."""
    from mcp.shared._httpx_utils import create_mcp_http_client

    async def cap(response: httpx2.Response) -> None:
        kind = response.headers.get("content-type", "").lower()
        if not kind.startswith("text/event-stream"):  # events: max_sse_event_size
            response.stream = _Capped(response.stream, limit)

    client = create_mcp_http_client(headers=headers)
    client.event_hooks["response"].append(cap)
    return client
