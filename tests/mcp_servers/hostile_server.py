"""A hostile MCP server over stdio, JSON-RPC by hand (no SDK: it starts in milliseconds and
misbehaves exactly as told): thousands of tools, a result of any size, a line that never
ends, and a process that ignores its stdin's end and SIGTERM.

    python -m tests.mcp_servers.hostile_server [--tools N] [--description-chars C]
        [--ignore-stdin] [--trap-term] [--pidfile PATH]

Tools: ``echo {text}``; ``flood {bytes, newline}``: a result whose text is ``bytes`` long,
written in chunks; with ``newline`` false the line never ends (the process then sleeps);
``tool_NNNN`` (``--tools`` of them, each with a description of ``--description-chars``).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
from typing import Any

CHUNK = 1 << 20


def send(message: dict[str, Any]) -> None:
    sys.stdout.buffer.write(json.dumps(message).encode() + b"\n")
    sys.stdout.buffer.flush()


def tool(name: str, description: str, properties: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "description": description,
            "inputSchema": {"type": "object", "properties": properties}}


def tools_of(count: int, chars: int) -> list[dict[str, Any]]:
    out = [tool("echo", "Echo the text back.", {"text": {"type": "string"}}),
           tool("flood", "A result of this many bytes.",
                {"bytes": {"type": "integer"}, "newline": {"type": "boolean"}})]
    for i in range(count):
        words = (f"Tool {i} of the hostile server does a thing with its input. " * (chars // 50 + 1))
        out.append(tool(f"tool_{i:04d}", words[:chars], {
            "query": {"type": "string", "description": f"What tool {i} looks for."},
            "limit": {"type": "integer", "description": "At most this many."}}))
    return out


def flood(ident: Any, size: int, newline: bool) -> None:
    head = json.dumps({"jsonrpc": "2.0", "id": ident,
                       "result": {"content": [{"type": "text", "text": "@"}]}}).encode()
    before, after = head.split(b"@")
    out = sys.stdout.buffer
    try:
        out.write(before)
        left = size
        block = b"x" * CHUNK
        while left > 0:
            out.write(block[:min(left, CHUNK)])
            left -= CHUNK
        if newline:
            out.write(after + b"\n")
        out.flush()
    except BrokenPipeError:
        os._exit(1)
    if not newline:
        time.sleep(3600)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tools", type=int, default=0)
    parser.add_argument("--description-chars", type=int, default=500)
    parser.add_argument("--ignore-stdin", action="store_true")
    parser.add_argument("--trap-term", action="store_true")
    parser.add_argument("--pidfile", default=None)
    args = parser.parse_args()
    if args.trap_term:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if args.pidfile:
        with open(args.pidfile, "w") as handle:
            handle.write(str(os.getpid()))
    listed = tools_of(args.tools, args.description_chars)
    for raw in sys.stdin.buffer:
        if not raw.strip():
            continue
        message = json.loads(raw)
        method, ident = message.get("method"), message.get("id")
        if ident is None:
            continue  # a notification
        if method == "initialize":
            send({"jsonrpc": "2.0", "id": ident, "result": {
                "protocolVersion": message["params"]["protocolVersion"],
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "hostile", "version": "1"}}})
        elif method == "tools/list":
            send({"jsonrpc": "2.0", "id": ident, "result": {"tools": listed}})
        elif method == "tools/call":
            params = message["params"]
            arguments = params.get("arguments") or {}
            if params["name"] == "flood":
                flood(ident, int(arguments.get("bytes", 0)), bool(arguments.get("newline", True)))
                continue
            text = f"echo: {arguments.get('text')}" if params["name"] == "echo" else \
                f"{params['name']} ran"
            send({"jsonrpc": "2.0", "id": ident,
                  "result": {"content": [{"type": "text", "text": text}]}})
        elif method == "ping":
            send({"jsonrpc": "2.0", "id": ident, "result": {}})
        else:
            send({"jsonrpc": "2.0", "id": ident,
                  "error": {"code": -32601, "message": f"no method {method}"}})
    if args.ignore_stdin:
        while True:
            time.sleep(3600)


if __name__ == "__main__":
    main()
