"""An MCP server for the tests, written with the SDK's MCPServer, over stdio or streamable
HTTP: tools that answer, crash the process mid-call, never answer, add a tool at run time
(announced with ``notifications/tools/list_changed``), and show its environment and the
request's headers.

    python -m tests.mcp_servers.probe_server [--http PORT] [--instructions TEXT]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import zlib

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.utilities.types import Image


def tiny_png() -> bytes:
    """A 1x1 red PNG, built here."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return len(data).to_bytes(4, "big") + body + zlib.crc32(body).to_bytes(4, "big")

    header = chunk(b"IHDR", (1).to_bytes(4, "big") * 2 + bytes([8, 2, 0, 0, 0]))
    pixels = chunk(b"IDAT", zlib.compress(b"\x00\xff\x00\x00"))
    return b"\x89PNG\r\n\x1a\n" + header + pixels + chunk(b"IEND", b"")


def build(instructions: str | None) -> MCPServer:
    server = MCPServer("probe", instructions=instructions)

    @server.tool()
    def echo(text: str) -> str:
        """Echo the text back, prefixed with 'echo: '."""
        return f"echo: {text}"

    @server.tool()
    def env_value(name: str) -> str:
        """The value of an environment variable of the server process."""
        return os.environ.get(name, "<unset>")

    @server.tool()
    def request_header(name: str, ctx: Context) -> str:
        """The value of a header of the HTTP request that carried this call."""
        headers = ctx.headers or {}
        return next((v for k, v in headers.items() if k.lower() == name.lower()), "<absent>")

    @server.tool()
    def crash() -> str:
        """Exit the server process in the middle of the call."""
        sys.stderr.write("probe: crashing on purpose\n")
        sys.stderr.flush()
        os._exit(3)

    @server.tool()
    async def hang() -> str:
        """Never answer."""
        await asyncio.sleep(3600)
        return "unreachable"

    @server.tool()
    def picture() -> Image:
        """A tiny image."""
        return Image(data=tiny_png(), format="png")

    @server.tool()
    def big(chars: int) -> str:
        """A text of this many characters."""
        return ("0123456789" * (chars // 10 + 1))[:chars]

    @server.tool()
    async def add_tool(name: str, ctx: Context) -> str:
        """Add a tool with this name at run time (it answers 'NAME works')."""
        def added() -> str:
            return f"{name} works"

        server.add_tool(added, name=name, description=f"The tool {name}, added at run time.")
        await ctx.session.send_tool_list_changed()
        return f"added {name}"

    return server


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--http", type=int, default=None)
    parser.add_argument("--instructions", default=None)
    parser.add_argument("--exit-at-start", action="store_true")
    parser.add_argument("--sleep-at-start", type=float, default=0.0)
    parser.add_argument("--json-response", action="store_true",
                        help="answer over HTTP with JSON bodies instead of event streams")
    args = parser.parse_args()
    if args.sleep_at_start:
        import time

        time.sleep(args.sleep_at_start)
    if args.exit_at_start:
        sys.stderr.write("probe: refusing to start\n")
        sys.exit(2)
    server = build(args.instructions)
    if args.http is not None:
        server.run("streamable-http", host="127.0.0.1", port=args.http,
                   json_response=args.json_response)
    else:
        server.run()


if __name__ == "__main__":
    main()
