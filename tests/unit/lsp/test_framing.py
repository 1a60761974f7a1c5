"""The Content-Length decoder and the ACP line decoder, as pure functions of their input."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from sidecar.acp.lines import Line, LineDecoder, Overlong
from sidecar.jsonrpc import PEEK_BYTES
from sidecar.lsp.framing import HEADER_LIMIT, Frame, FrameDecoder, Misframed

LIMIT = 4096
values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.text(max_size=20),
    lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=6), c, max_size=4),
    max_leaves=10,
)
messages = st.dictionaries(st.text(max_size=6), values, max_size=4)


def frame(body: bytes, length: Any = None, name: bytes = b"Content-Length", eol: bytes = b"\r\n") -> bytes:
    return name + b": " + str(len(body) if length is None else length).encode() + eol + eol + body


def feed(decoder: Any, data: bytes, sizes: list[int]) -> list[Any]:
    out: list[Any] = []
    i = 0
    for size in sizes or [len(data)]:
        out += decoder.feed(data[i:i + size])
        i += size
    out += decoder.feed(data[i:])
    return out


@settings(max_examples=200, deadline=None)
@given(st.lists(messages, min_size=1, max_size=6), st.lists(st.integers(1, 64), max_size=30),
       st.sampled_from([b"Content-Length", b"content-length"]), st.sampled_from([b"\r\n", b"\n"]))
def test_well_framed_messages_come_out_whole_however_the_bytes_are_split(
        sent: list[dict[str, Any]], sizes: list[int], name: bytes, eol: bytes) -> None:
    data = b"".join(frame(json.dumps(m).encode(), name=name, eol=eol) for m in sent)
    events = feed(FrameDecoder(lambda: 1 << 20), data, sizes)
    assert events == [Frame(m, len(json.dumps(m).encode())) for m in sent]


faults = st.one_of(
    st.binary(max_size=300),
    st.builds(lambda b, d: frame(b, len(b) + d), st.binary(max_size=100), st.integers(-200, 5000)),
    st.builds(lambda b, v: frame(b, v), st.binary(max_size=100), st.text(max_size=12).filter(lambda t: "\n" not in t)),
    st.builds(lambda b: frame(b, 10**30), st.binary(max_size=100)),
    st.builds(lambda m, cut: frame(json.dumps(m).encode())[:cut], messages, st.integers(0, 60)),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(faults, max_size=4), messages, st.lists(st.integers(1, 97), max_size=20))
def test_after_any_bytes_the_next_valid_message_is_read(junk: list[bytes], last: dict[str, Any],
                                                        sizes: list[int]) -> None:
    decoder = FrameDecoder(lambda: LIMIT)
    body = json.dumps(last).encode()
    events = feed(decoder, b"".join(junk) + frame(body), sizes) + decoder.eof()
    frames = [e for e in events if isinstance(e, Frame) and e.error is None]
    assert frames and frames[-1].value == last
    assert all(isinstance(e, (Frame, Misframed)) for e in events)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=20_000), st.lists(st.integers(1, 3000), max_size=20))
def test_arbitrary_bytes_never_raise_and_never_pile_up(data: bytes, sizes: list[int]) -> None:
    decoder = FrameDecoder(lambda: LIMIT)
    i = 0
    for size in sizes + [len(data)]:
        decoder.feed(data[i:i + size])
        i += size
        held = len(decoder._buf) + len(decoder._suspect)
        assert held <= max(LIMIT, PEEK_BYTES) + HEADER_LIMIT + size + 64
        decoder.idle()
    decoder.eof()


def test_a_header_cut_short_does_not_take_the_next_message_with_it() -> None:
    decoder = FrameDecoder(lambda: LIMIT)
    events = decoder.feed(b"Content-Length: 12\r\n" + frame(b"{}")) + decoder.eof()
    assert events == [Misframed(b"Content-Length: 12\r\n", 20, "a header block cut short", True), Frame({}, 2)]


def test_a_huge_length_is_never_allocated() -> None:
    decoder = FrameDecoder(lambda: LIMIT)
    events = decoder.feed(frame(b'{"jsonrpc":"2.0","id":1,"method":"m"}', 10**12) + frame(b"{}"))
    assert isinstance(events[0], Misframed) and "exceeds transport.maxMessageBytes" in events[0].reason
    assert events[0].head == b'{"jsonrpc":"2.0","id":1,"method":"m"}' and events[-1] == Frame({}, 2)


def test_a_lone_body_shorter_than_its_length_settles_on_silence() -> None:
    decoder = FrameDecoder(lambda: LIMIT)
    assert decoder.feed(frame(b'{"id": 1}', 50)) == []
    assert decoder.pending
    [event] = decoder.idle()
    assert isinstance(event, Misframed) and event.head == b'{"id": 1}' and "larger" in event.reason
    assert decoder.feed(frame(b"[]")) == [Frame([], 2)]


def test_a_body_still_arriving_is_not_settled_by_silence() -> None:
    decoder = FrameDecoder(lambda: LIMIT)
    decoder.feed(frame(b'{"id": 1, "method": "m"}', 24)[:-5])
    assert decoder.idle() == []
    assert decoder.feed(b' "m"}') == [Frame({"id": 1, "method": "m"}, 24)]


@settings(max_examples=200, deadline=None)
@given(st.lists(messages, min_size=1, max_size=6), st.lists(st.integers(1, 64), max_size=30))
def test_lines_come_out_whole_and_an_overlong_one_is_skipped_to_its_end(
        sent: list[dict[str, Any]], sizes: list[int]) -> None:
    long_line = b'{"x": "' + b"y" * (LIMIT + 10) + b'"}\n'
    data = long_line + b"".join(json.dumps(m).encode() + b"\r\n" for m in sent) + b"\n  \n"
    decoder = LineDecoder(lambda: LIMIT)
    events = feed(decoder, data, sizes) + decoder.eof()
    assert isinstance(events[0], Overlong) and events[0].size == len(long_line) - 1
    assert events[1:] == [Line(json.dumps(m).encode()) for m in sent]
