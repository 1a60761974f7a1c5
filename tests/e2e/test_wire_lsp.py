"""Malformed and hostile input on the LSP transport, as raw bytes through the real process.

Each fault is followed by a valid request: the process must stay up, answer that request,
and answer the faulty one (when it has an id) exactly once with the JSON-RPC code it earned.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from tests.e2e.raw_wire import RawPeer, frame, notification, request

PARSE, INVALID, NOT_FOUND, BAD_PARAMS, NOT_INITIALIZED = -32700, -32600, -32601, -32602, -32002


@pytest.fixture()
def lsp(tmp_path: Path) -> Iterator[RawPeer]:
    peer = RawPeer(tmp_path / "lsp")
    yield peer
    peer.close()


def probe(peer: RawPeer, rid: Any, within: float = 3.0) -> None:
    """A valid request right after a fault is answered, and soon."""
    started = time.monotonic()
    answer = peer.call(rid, "session/list", {}, timeout=within + 5)
    assert "result" in answer, answer
    assert time.monotonic() - started < within, f"probe took {time.monotonic() - started:.1f}s"
    assert peer.alive()


def only_answer(peer: RawPeer, rid: Any) -> dict[str, Any]:
    time.sleep(0.2)  # a second answer would have come by now
    answers = peer.answers(rid)
    assert len(answers) == 1, answers
    return answers[0]


def null_errors(peer: RawPeer) -> list[int]:
    return [m["error"]["code"] for m in peer.received if "method" not in m and m.get("id") is None]


# ----- framing: the Content-Length header ------------------------------------------------


@pytest.mark.parametrize("length", [str(10**12), str(10**30), "9" * 6000], ids=["1e12", "1e30", "6000-digits"])
def test_a_huge_content_length_neither_allocates_nor_ends_the_server(lsp: RawPeer, length: str) -> None:
    lsp.initialize()
    lsp.write(frame(request(7, "session/list", {}), length=length))
    probe(lsp, 8)
    error = only_answer(lsp, 7)["error"]
    assert error["code"] in (INVALID, PARSE)
    assert "exceeds transport.maxMessageBytes" in error["message"] or "header" in error["message"]


def test_a_body_over_max_message_bytes_is_refused_with_its_id(lsp: RawPeer, tmp_path: Path) -> None:
    lsp.initialize({"storageDir": str(tmp_path / "store"), "transport": {"maxMessageBytes": 4096}})
    lsp.send(request(9, "session/list", {"cwd": "/" + "x" * 20_000}))
    probe(lsp, 10)
    error = only_answer(lsp, 9)["error"]
    assert error["code"] == PARSE and "exceeds transport.maxMessageBytes (4096)" in error["message"]


WRONG_LENGTHS = {
    "too-large-by-3": lambda n: n + 3,
    "too-large-by-500": lambda n: n + 500,
    "too-small-by-1": lambda n: n - 1,
    "too-small-by-20": lambda n: n - 20,
    "negative": lambda n: -n,
    "non-numeric": lambda n: "twelve",
    "empty": lambda n: "",
    "float": lambda n: f"{n}.0",
}


@pytest.mark.parametrize("kind", WRONG_LENGTHS)
def test_a_wrong_content_length_costs_only_that_message(lsp: RawPeer, kind: str) -> None:
    lsp.initialize()
    body = json.dumps(request(11, "session/list", {})).encode()
    lsp.write(frame(body, length=WRONG_LENGTHS[kind](len(body))))
    probe(lsp, 12)
    probe(lsp, 13)
    assert only_answer(lsp, 11)["error"]["code"] in (INVALID, PARSE)


def test_a_content_length_too_large_for_a_lone_message_is_answered_after_a_pause(lsp: RawPeer) -> None:
    lsp.initialize()
    body = json.dumps(request(14, "session/list", {})).encode()
    lsp.write(frame(body, length=len(body) + 40))
    started = time.monotonic()
    answer = lsp.answer(14, timeout=5)
    assert answer["error"]["code"] == INVALID and "larger than the message" in answer["error"]["message"]
    assert time.monotonic() - started < 3
    probe(lsp, 15)


@pytest.mark.parametrize("header,eol", [(b"content-length", b"\r\n"), (b"CONTENT-LENGTH", b"\r\n"),
                                        (b"Content-Length", b"\n")], ids=["lower", "upper", "lf-only"])
def test_header_case_and_bare_line_feeds_are_read_as_http_reads_them(lsp: RawPeer, header: bytes,
                                                                     eol: bytes) -> None:
    lsp.initialize()
    lsp.write(frame(request(16, "session/list", {}), header=header, eol=eol))
    assert "result" in lsp.answer(16)
    probe(lsp, 17)


def test_garbage_between_messages_is_skipped(lsp: RawPeer) -> None:
    lsp.initialize()
    lsp.write(b"\x00\xff not a header at all\r\n\r\nContent-Type: text/plain\r\n\r\n")
    lsp.write(b"tail-without-newline")
    probe(lsp, 18)
    lsp.write(b"X" * 50_000)  # no line break for longer than any header block
    probe(lsp, 19)
    assert PARSE in null_errors(lsp)


def test_a_truncated_body_is_answered_with_its_id(lsp: RawPeer) -> None:
    lsp.initialize()
    whole = frame(request(20, "session/list", {"cwd": "/tmp"}))
    lsp.write(whole[:-8])
    probe(lsp, 21)
    assert only_answer(lsp, 20)["error"]["code"] == PARSE


# ----- JSON-RPC envelopes ----------------------------------------------------------------


def test_a_request_without_params_is_answered(lsp: RawPeer) -> None:
    lsp.initialize()
    assert "sessions" in lsp.call(30, "session/list")["result"]
    assert lsp.call(31, "sidecar/history/undo")["result"] == {"removed": None}
    error = lsp.call(32, "sidecar/gauge")["error"]
    assert error["code"] == BAD_PARAMS and "sessionId" in error["message"]
    assert lsp.call(33, "shutdown")["result"] is None
    assert "Internal Error" not in lsp.log_text()


def test_json_rpc_error_codes(lsp: RawPeer) -> None:
    lsp.initialize()
    lsp.write(frame(b'{"jsonrpc": "2.0", "id": 40, "method": "session/list", "params": {"cwd": '))
    lsp.write(frame(b"\xff\xfe not utf-8"))
    lsp.write(frame(b"[]"))
    lsp.write(frame(b"[1, 2]"))
    lsp.write(frame(b"5"))
    lsp.write(frame(b"null"))
    lsp.write(frame(b'{"jsonrpc": "2.0", "id": 41, "method": "session/list", "params": NaN}'))
    probe(lsp, 42)
    assert lsp.answers(40)[0]["error"]["code"] == PARSE  # its id could still be read
    assert lsp.answers(41)[0]["error"]["code"] == PARSE  # NaN is not JSON
    assert null_errors(lsp).count(PARSE) == 1  # not UTF-8
    assert null_errors(lsp).count(INVALID) == 4
    cases: list[tuple[dict[str, Any], int]] = [
        (request(43, "no/such/method", {}), NOT_FOUND),
        (request(44, "sidecar/gauge", [1, 2]), BAD_PARAMS),
        (request(45, "session/new", {"cwd": 42}), BAD_PARAMS),
        (request(46, "session/list", "a string"), INVALID),
        ({"jsonrpc": "1.0", "id": 47, "method": "session/list"}, INVALID),
        ({"jsonrpc": "2.0", "id": 48, "method": 7}, INVALID),
        (request(49, "initialize", {"capabilities": {}}), INVALID),  # only once
        (request(50, "textDocument/hover", {"nonsense": True}), NOT_FOUND),
        (request(52, "exit"), INVALID),  # a notification; sent as a request it ends nothing
    ]
    for message, code in cases:
        lsp.send(message)
        assert lsp.answer(message["id"])["error"]["code"] == code, message
    for bad_id in (1.5, True, None, {"a": 1}, [1]):
        lsp.send(request(bad_id, "session/list", {}))
    probe(lsp, 51)
    assert null_errors(lsp).count(INVALID) == 4 + 5


@pytest.mark.parametrize("depth", [65, 1_000, 100_000])
def test_deep_nesting_is_refused_with_the_requests_id(lsp: RawPeer, depth: int) -> None:
    lsp.initialize()
    nested = "[" * depth + "]" * depth
    lsp.write(frame(f'{{"jsonrpc": "2.0", "id": 60, "method": "session/list", "params": {{"x": {nested}}}}}'
                    .encode()))
    probe(lsp, 61)
    error = only_answer(lsp, 60)["error"]
    assert error["code"] == PARSE and "nested deeper" in error["message"]


# ----- the LSP lifecycle -----------------------------------------------------------------


def test_requests_before_initialize_are_refused_and_notifications_dropped(lsp: RawPeer) -> None:
    lsp.send(request(70, "session/list", {}))
    assert lsp.answer(70)["error"]["code"] == NOT_INITIALIZED
    lsp.send(notification("session/cancel", {"sessionId": "x"}))
    lsp.send(request(71, "shutdown"))
    assert lsp.answer(71)["error"]["code"] == NOT_INITIALIZED
    lsp.initialize()
    probe(lsp, 72)
    assert [m for m in lsp.received if "id" not in m and "error" in m] == []


def test_after_shutdown_requests_are_invalid_and_exit_ends_the_process(lsp: RawPeer) -> None:
    lsp.initialize()
    assert lsp.call(80, "shutdown")["result"] is None
    assert lsp.call(81, "session/list", {})["error"]["code"] == INVALID
    lsp.send(notification("exit"))
    assert lsp.proc.wait(10) == 0


def test_exit_without_shutdown_ends_the_process_with_1(lsp: RawPeer) -> None:
    lsp.initialize()
    lsp.send(notification("exit"))
    assert lsp.proc.wait(10) == 1


def test_bad_messages_log_one_short_line_each(lsp: RawPeer) -> None:
    lsp.initialize()
    marker = "PARAMS-THAT-MUST-NOT-BE-LOGGED-" * 300
    messages = [
        request(1000 + i, ("sidecar/gauge", "no/such/method", "session/new")[i % 3], {"sessionId": marker, "cwd": 5})
        for i in range(1_500)
    ]
    lsp.write(b"".join(frame(m) for m in messages) + b"".join(frame(b"{broken " + marker.encode())
                                                              for _ in range(500)))
    probe(lsp, 3000, within=30)
    assert all(len(lsp.answers(m["id"])) == 1 for m in messages)
    text = lsp.log_text()
    assert marker not in text
    longest = max(text.splitlines(), key=len)
    assert len(longest) < 400, longest[:500]
    logged = (lsp.tmp / "sidecar.log").stat().st_size  # stderr carries the same lines again
    assert logged < 2_000 * 300, f"{logged} bytes of log for 2,000 bad messages"


def test_a_megabyte_in_a_field_is_not_a_megabyte_of_log(lsp: RawPeer) -> None:
    lsp.initialize()
    lsp.send(notification("$/cancelRequest", {"id": "x" * 1_000_000}))
    lsp.send(request(90, "sidecar/gauge", {"sessionId": "y" * 1_000_000}))
    assert lsp.answer(90)["error"]["code"] == -33001
    probe(lsp, 91)
    size = len(lsp.log_text().encode())
    assert size < 40_000, f"{size} bytes of log"
