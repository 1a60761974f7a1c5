"""JSON-RPC envelopes: parsing limits, classification, and reading an id from a broken message."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sidecar.contract.errors import INVALID_REQUEST, PARSE_ERROR
from sidecar.jsonrpc import (
    Invalid,
    Notification,
    Request,
    Response,
    TooDeep,
    classify,
    judge_unreadable,
    parse,
    peek_request,
)

values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=6), c, max_size=4),
    max_leaves=12,
)
ids = st.integers(-(2**31), 2**31) | st.text(max_size=10)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=2000))
def test_parse_raises_only_value_errors(data: bytes) -> None:
    try:
        parse(data)
    except ValueError:
        pass


@settings(max_examples=300, deadline=None)
@given(values)
def test_classify_takes_any_json_value(value: Any) -> None:
    assert isinstance(classify(value), (Request, Notification, Response, Invalid))


@pytest.mark.parametrize("text", ["NaN", "[Infinity]", "1" * 5000, '"\\ud800', "\xff"])
def test_what_is_not_json_here(text: str) -> None:
    with pytest.raises(ValueError):
        parse(text.encode("utf-8", "surrogatepass") if text != "\xff" else b"\xff")


@pytest.mark.parametrize("depth", [65, 1_000, 100_000])
def test_nesting_past_the_limit(depth: int) -> None:
    with pytest.raises(TooDeep):
        parse(b"[" * depth + b"]" * depth)
    assert parse(b"[" * 64 + b"]" * 64) is not None


def test_classification() -> None:
    assert classify({"jsonrpc": "2.0", "id": 1, "method": "m"}) == Request(1, "m", None)
    assert classify({"jsonrpc": "2.0", "method": "m", "params": []}) == Notification("m", [])
    assert classify({"jsonrpc": "2.0", "id": "a", "result": None}) == Response("a", result=None)
    assert classify({"jsonrpc": "2.0", "id": 1, "method": "m", "params": 5}) == Invalid(
        "params must be an object or an array", 1)
    assert classify({"jsonrpc": "2.0", "id": 1.5, "method": "m"}).answer_id is None
    assert classify({"jsonrpc": "2.0", "id": True, "method": "m"}).answer_id is None
    broken = classify({"jsonrpc": "2.0", "id": 3, "error": {"code": "x", "message": "m"}})
    assert isinstance(broken, Invalid) and broken.response_id == 3 and not broken.answer
    neither = classify({"jsonrpc": "2.0", "id": 3})
    assert isinstance(neither, Invalid) and neither.answer and neither.answer_id is None


@settings(max_examples=300, deadline=None)
@given(ids, st.text(max_size=20), values, st.permutations(["jsonrpc", "id", "method", "params"]),
       st.integers(0, 100))
def test_peek_reads_id_and_method_of_a_cut_request(rid: Any, method: str, params: Any, order: list[str],
                                                   extra: int) -> None:
    message = {"jsonrpc": "2.0", "id": rid, "method": method, "params": params}
    text, ends = "{", {}
    for k in order:
        text += ("," if len(text) > 1 else "") + f"{json.dumps(k)}:{json.dumps(message[k])}"
        ends[k] = len(text)
    text += "}"
    assert peek_request(text.encode()) == (rid, method)
    # Cut anywhere past both (one character past, so a number is known to be whole).
    cut = min(len(text), max(ends["id"], ends["method"]) + 1 + extra)
    assert peek_request(text[:cut].encode()) == (rid, method)


def test_peek_does_not_take_a_number_cut_short() -> None:
    assert peek_request(b'{"method": "m", "id": 12') == (None, "m")
    assert peek_request(b'{"method": "m", "id": 12,') == (12, "m")


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=3000), st.booleans(), st.text(max_size=30))
def test_judging_any_bytes_never_raises(data: bytes, whole: bool, reason: str) -> None:
    verdict = judge_unreadable(data, whole, reason)
    if verdict.answer is not None:
        assert verdict.answer["error"]["code"] in (PARSE_ERROR, INVALID_REQUEST)


def test_judging_a_whole_misframed_request_answers_its_id() -> None:
    body = json.dumps({"jsonrpc": "2.0", "id": 7, "method": "m"}).encode()
    assert judge_unreadable(body, True, "wrong length").answer["id"] == 7
    assert judge_unreadable(body, True, "wrong length").answer["error"]["code"] == INVALID_REQUEST
    assert judge_unreadable(body[:-1], True, "cut").answer["error"]["code"] == PARSE_ERROR
    assert judge_unreadable(body[:-1], True, "cut").answer["id"] == 7
    assert judge_unreadable(b"  \r\n", True, "blank").answer is None
