"""HTTP plumbing of the fake LLM server: a threaded stdlib server and one request/response.

HTTP/1.1 keep-alive, so SDK connection pools behave as against the real APIs. Streams use
chunked transfer encoding, which lets a scripted ``cut_stream`` fault look like a dropped
connection to the client instead of a clean end of body.
"""

from __future__ import annotations

import json
import socket
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Protocol
from urllib.parse import parse_qs, urlsplit


class ExchangeHost(Protocol):
    """What the transport needs from the server that owns it."""

    def track_connection(self, conn: socket.socket, *, add: bool) -> None: ...

    def route(self, ex: Exchange, method: str) -> None: ...


SECRET_HEADERS = ("authorization", "x-api-key", "api-key")


class DroppedConnection(Exception):
    """The client went away mid-response, or a fault dropped the connection on purpose."""


class HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    # Keep-alive connection threads sit in a blocking read; stop() closes their sockets instead.
    block_on_close = False
    host: ExchangeHost

    def handle_error(self, request: Any, client_address: Any) -> None:
        # Clients (SDK pools) drop idle keep-alive connections at any time; the reset lands
        # in the handler's read of the next request line. That is not an error worth a
        # traceback on stderr; anything else still gets one.
        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            return
        super().handle_error(request, client_address)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: HTTPServer

    def setup(self) -> None:
        super().setup()
        self.server.host.track_connection(self.connection, add=True)

    def finish(self) -> None:
        try:
            super().finish()
        finally:
            self.server.host.track_connection(self.connection, add=False)

    def log_message(self, format: str, *args: Any) -> None:
        # Silent: the sidecar's stdout is protocol-only and test output should stay readable.
        return

    def do_GET(self) -> None:
        self._dispatch("GET")

    def do_POST(self) -> None:
        self._dispatch("POST")

    def _dispatch(self, method: str) -> None:
        try:
            self.server.host.route(Exchange(self), method)
        except DroppedConnection:
            self.close_connection = True
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True


class Exchange:
    """One request/response on a connection: the read side parsed, the write side helpers."""

    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        url = urlsplit(handler.path)
        self.path = url.path.rstrip("/") or "/"
        self.query = parse_qs(url.query)
        self.headers = {k.lower(): v for k, v in handler.headers.items()}
        length = int(self.headers.get("content-length") or 0)
        self.raw = handler.rfile.read(length) if length > 0 else b""
        if len(self.raw) < length:
            # The client went away mid-request (a killed process): nothing was asked.
            raise DroppedConnection()

    def json_body(self) -> Any:
        return json.loads(self.raw.decode("utf-8")) if self.raw else {}

    def public_headers(self) -> dict[str, str]:
        return {k: v for k, v in self.headers.items() if k not in SECRET_HEADERS}

    def has_credentials(self) -> bool:
        auth = self.headers.get("authorization", "")
        bearer = auth[7:].strip() if auth.lower().startswith("bearer ") else ""
        return bool(self.headers.get("x-api-key", "").strip() or bearer)

    def send_bytes(
        self, status: int, payload: bytes, content_type: str, headers: dict[str, str] | None = None
    ) -> None:
        handler = self.handler
        handler.send_response(status)
        handler.send_header("Content-Type", content_type)
        handler.send_header("Content-Length", str(len(payload)))
        for name, value in (headers or {}).items():
            handler.send_header(name, value)
        handler.end_headers()
        handler.wfile.write(payload)
        handler.wfile.flush()

    def send_json(self, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
        self.send_bytes(status, json.dumps(body).encode("utf-8"), "application/json", headers)

    def start_stream(self, headers: dict[str, str] | None = None) -> None:
        handler = self.handler
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream; charset=utf-8")
        handler.send_header("Cache-Control", "no-cache")
        handler.send_header("Transfer-Encoding", "chunked")
        for name, value in (headers or {}).items():
            handler.send_header(name, value)
        handler.end_headers()
        handler.wfile.flush()

    def write_chunk(self, data: bytes) -> None:
        wfile = self.handler.wfile
        wfile.write(f"{len(data):x}\r\n".encode("ascii") + data + b"\r\n")
        wfile.flush()

    def end_stream(self) -> None:
        self.handler.wfile.write(b"0\r\n\r\n")
        self.handler.wfile.flush()

    def drop(self) -> None:
        """Close the connection abruptly; a stream in progress then reads as incomplete."""
        self.handler.close_connection = True
        try:
            self.handler.wfile.flush()
        except OSError:
            pass
        try:
            self.handler.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        raise DroppedConnection()
