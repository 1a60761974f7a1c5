"""What the LSP protocol object writes for answers pygls would have dropped or logged at length."""

from __future__ import annotations

import asyncio
import json
import logging
from concurrent.futures import Future
from typing import Any

import pytest

from sidecar.contract.errors import SessionNotFound
from sidecar.lsp.server import build_server


class Wire:
    def __init__(self) -> None:
        self.chunks: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.chunks.append(data)

    def close(self) -> None:
        pass

    def messages(self) -> list[dict[str, Any]]:
        out = []
        for chunk in self.chunks:
            header, _, body = chunk.partition(b"\r\n\r\n")
            assert int(header.split(b"\r\n")[0].split(b":")[1]) == len(body)
            out.append(json.loads(body))
        return out


@pytest.fixture()
def lsp() -> Any:
    server = build_server()
    wire = Wire()
    server.protocol.set_writer(wire)
    return server.protocol, wire


def test_an_answer_that_is_not_json_still_answers(lsp: Any) -> None:
    protocol, wire = lsp
    protocol._send_response(5, result={"tokens": {1, 2}})
    [answer] = wire.messages()
    assert answer["id"] == 5 and answer["error"]["code"] == -32603


def test_a_notification_that_is_not_json_is_dropped(lsp: Any) -> None:
    protocol, wire = lsp
    protocol.notify("session/update", {"x": {1}})
    assert wire.messages() == []


def test_non_ascii_is_framed_by_its_bytes(lsp: Any) -> None:
    protocol, wire = lsp
    protocol.notify("session/update", {"text": "héllo ✓"})
    assert wire.messages()[0]["params"]["text"] == "héllo ✓"


def test_an_error_answer_logs_one_short_line(lsp: Any, caplog: pytest.LogCaptureFixture) -> None:
    from pygls.exceptions import JsonRpcException

    protocol, wire = lsp
    future: Future[Any] = Future()
    error = SessionNotFound("Unknown session " + "z" * 10_000)
    future.set_exception(JsonRpcException(message=error.message, code=error.code))
    with caplog.at_level(logging.INFO):
        protocol._send_handler_result(future, msg_id=7)
    [answer] = wire.messages()
    assert answer["error"]["code"] == -33001
    assert all(r.exc_info is None and len(r.getMessage()) < 300 for r in caplog.records)


def test_a_handler_bug_answers_internal_error_once(lsp: Any) -> None:
    protocol, wire = lsp

    async def run() -> None:
        async def broken() -> None:
            raise KeyError("boom")

        task = asyncio.ensure_future(broken())
        await asyncio.gather(task, return_exceptions=True)
        protocol._send_handler_result(task, msg_id="a")

    asyncio.run(run())
    [answer] = wire.messages()
    assert answer["id"] == "a" and answer["error"]["code"] == -32603 and "KeyError" in answer["error"]["message"]
