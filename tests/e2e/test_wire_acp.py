"""Malformed and hostile input on the ACP transport (``serve --acp``), as raw lines.

Each fault is followed by a valid request: the process must stay up, answer it, and
answer the faulty request (when it has an id) exactly once with the JSON-RPC code it earned.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from sidecar.fake_llm import Reply
from tests.e2e.raw_wire import RawPeer, request, sidecar_env

PARSE, INVALID, NOT_FOUND, BAD_PARAMS = -32700, -32600, -32601, -32602
KEY_ENV = "FAKE_LLM_KEY"


def acp_peer(tmp: Path, **settings: Any) -> RawPeer:
    env = sidecar_env(tmp, **{KEY_ENV: "test", "CONTEXT_SIDECAR_SETTINGS": json.dumps(
        {"storageDir": str(tmp / "store"), "apiKeyEnv": KEY_ENV, **settings})})
    return RawPeer(tmp, acp=True, env=env)


@pytest.fixture()
def acp(tmp_path: Path) -> Iterator[RawPeer]:
    peer = acp_peer(tmp_path / "acp")
    yield peer
    peer.close()


def probe(peer: RawPeer, rid: Any) -> None:
    started = time.monotonic()
    answer = peer.call(rid, "session/list", {}, timeout=10)
    assert "result" in answer, answer
    assert time.monotonic() - started < 3
    assert peer.alive()


def only_answer(peer: RawPeer, rid: Any) -> dict[str, Any]:
    time.sleep(0.2)
    answers = peer.answers(rid)
    assert len(answers) == 1, answers
    return answers[0]


def null_errors(peer: RawPeer) -> list[int]:
    return [m["error"]["code"] for m in peer.received if "method" not in m and m.get("id") is None]


@pytest.mark.parametrize("depth", [65, 1_000, 200_000])
def test_deep_nesting_neither_ends_the_server_nor_goes_unanswered(acp: RawPeer, depth: int) -> None:
    acp.initialize()
    nested = "[" * depth + "]" * depth
    acp.write(f'{{"jsonrpc":"2.0","id":1,"method":"session/list","params":{{"x":{nested}}}}}\n'.encode())
    probe(acp, 2)
    error = only_answer(acp, 1)["error"]
    assert error["code"] == PARSE and "nested deeper" in error["message"]


def test_a_line_over_max_message_bytes_is_refused_and_the_next_one_read(tmp_path: Path) -> None:
    peer = acp_peer(tmp_path / "acp", transport={"maxMessageBytes": 4096})
    try:
        peer.initialize()
        peer.send(request(3, "session/list", {"cwd": "/" + "x" * 50_000}))
        probe(peer, 4)
        error = only_answer(peer, 3)["error"]
        assert error["code"] == PARSE and "exceeds transport.maxMessageBytes (4096)" in error["message"]
        # The tail of the long line is not taken for a message of its own.
        assert null_errors(peer) == []
    finally:
        peer.close()


def test_json_rpc_error_codes(acp: RawPeer) -> None:
    acp.initialize()
    acp.write(b'{"jsonrpc":"2.0","id":10,"method":"session/list","params":{"cwd":\n')
    acp.write(b"\xff\xfe not utf-8\n")
    acp.write(b'{"jsonrpc":"2.0","id":11,"method":"session/list","params":{"n":' + b"7" * 5000 + b"}}\n")
    acp.write(b"[]\n[1,2]\n5\nnull\n")
    probe(acp, 12)
    assert only_answer(acp, 10)["error"]["code"] == PARSE
    assert only_answer(acp, 11)["error"]["code"] == PARSE  # past the interpreter's digit limit
    assert null_errors(acp).count(PARSE) == 1 and null_errors(acp).count(INVALID) == 4
    cases: list[tuple[dict[str, Any], int]] = [
        (request(13, "no/such/method", {}), NOT_FOUND),
        (request(14, "_sidecar/gauge", [1, 2]), BAD_PARAMS),
        (request(15, "session/new", {"cwd": 42}), BAD_PARAMS),
        (request(16, "session/list", "a string"), INVALID),
        ({"jsonrpc": "1.0", "id": 17, "method": "session/list"}, INVALID),
        ({"jsonrpc": "2.0", "id": 18, "method": 7}, INVALID),
    ]
    for message, code in cases:
        acp.send(message)
        assert acp.answer(message["id"])["error"]["code"] == code, message
    assert "sessions" in acp.call(19, "session/list")["result"]  # params may be omitted
    odd_init = {"protocolVersion": 1, "clientCapabilities": [], "clientInfo": "not an object"}
    assert "agentCapabilities" in acp.call(21, "initialize", odd_init)["result"]
    probe(acp, 20)


@pytest.mark.parametrize("answer", [
    {"error": {"code": "not-a-number", "message": "x"}},
    {"error": {"code": 1.5, "message": None}},
    {"error": "denied"},
    {"error": None},
    {"result": {}, "error": {"code": 1, "message": "both"}},
    {},
], ids=["string-code", "float-code", "error-string", "error-null", "result-and-error", "neither"])
def test_a_malformed_answer_to_a_permission_request_rejects_the_tool(
        tmp_path: Path, fake_llm: Any, workspace: Path, answer: dict[str, Any]) -> None:
    fake_llm.reset()
    peer = acp_peer(tmp_path / "acp", provider="anthropic", model="claude-sonnet-5-5",
                    baseUrl=fake_llm.url, retry={"maxRetries": 1, "baseDelayMs": 10, "maxDelayMs": 50})
    try:
        peer.initialize()
        sid = peer.call(30, "session/new", {"cwd": str(workspace), "mcpServers": []})["result"]["sessionId"]
        marker = workspace / "ran.txt"
        fake_llm.queue(Reply(content=[{"type": "tool_use", "id": "t1", "name": "Bash",
                                       "input": {"command": f"touch {marker}"}}]))
        fake_llm.queue(Reply.text("done"))
        peer.send(request(31, "session/prompt", {"sessionId": sid, "prompt": [{"type": "text", "text": "go"}]}))
        [asked] = peer.wait_for(lambda msgs: [m for m in msgs if m.get("method") == "session/request_permission"])
        peer.send({"jsonrpc": "2.0", "id": asked["id"], **answer})
        result = peer.answer(31, timeout=20)
        assert result["result"]["stopReason"] == "end_turn"
        assert not marker.exists()
        probe(peer, 32)
    finally:
        peer.close()
