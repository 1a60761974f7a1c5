"""``Content-Length`` framing (the LSP base protocol), read so that no byte stream stops it.

pygls' reader trusts the header: it allocates the declared length up front (10^12 ends the
process) and a wrong length shifts every later message. This decoder is sans-I/O: feed it
bytes, get events. It never holds more than ``maxMessageBytes`` of one message, and after
anything wrong it finds the next real header. That search is safe because a valid JSON body
never contains ``Content-Length: <digits>`` followed by a raw line break: line breaks can
only stand between JSON tokens, and letters outside strings are not JSON.

Header names are matched in any case and lines may end in LF alone (both as in HTTP).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable

from sidecar.jsonrpc import PEEK_BYTES, TooDeep, parse

HEADER_LIMIT = 8 * 1024
# A header block that never ends and a body that never arrives are told apart from a slow
# writer by silence: after this long without a byte, what is buffered is settled.
IDLE_SECONDS = 1.0

_CONTENT_LENGTH = re.compile(rb"content-length", re.IGNORECASE)
_NEXT_HEADER = re.compile(rb"content-length[ \t]*:[ \t]*\d+[ \t]*\r?\n", re.IGNORECASE)
_HEADER_LINE = re.compile(rb"([!#$%&'*+.^_`|~0-9A-Za-z-]+)[ \t]*:[ \t]*(.*?)[ \t]*")
_DIGITS = re.compile(rb"\d+")
_CONTENT = re.compile(rb"[^ \t\r\n]")
_MAX_DIGITS = 19  # longer than any size worth converting; int() refuses past 4,300 digits


@dataclass(frozen=True)
class Frame:
    """A well-framed body: ``value`` is its JSON, or ``error`` says why it was refused."""

    value: Any
    size: int
    error: str | None = None
    head: bytes = b""  # the body's start, to read an id from when ``error`` is set


@dataclass(frozen=True)
class Misframed:
    """Bytes that were not one well-framed message."""

    head: bytes  # the whole region, or its first PEEK_BYTES when ``whole`` is False
    size: int
    reason: str
    whole: bool


Event = Frame | Misframed

_HEADERS, _BODY, _RESYNC = "headers", "body", "resync"


class FrameDecoder:
    def __init__(self, max_bytes: Callable[[], int]) -> None:
        self._max_bytes = max_bytes
        # Always starts at the current item: a header block, a body, or unsearched bytes.
        self._buf = bytearray()
        self._state = _HEADERS
        self._length = 0
        self._scanned = 0
        self._search_from = 0
        self._suspect = bytearray()
        self._suspect_size = 0
        self._suspect_whole = True
        self._reason = ""

    @property
    def pending(self) -> bool:
        """Bytes are waiting (an incomplete message or bytes not yet settled)."""
        return _CONTENT.search(self._buf) is not None or self._suspect_size > 0

    def feed(self, data: bytes) -> list[Event]:
        self._buf += data
        out: list[Event] = []
        while self._step(out):
            pass
        return out

    def idle(self) -> list[Event]:
        """No bytes for IDLE_SECONDS: settle what can no longer be a message in progress."""
        out: list[Event] = []
        if self._state == _BODY and _CONTENT.search(self._buf):
            # A body shorter than its Content-Length: if what came is a whole JSON value,
            # nothing more can belong to it.
            try:
                parse(self._buf)
            except TooDeep:
                pass
            except ValueError:
                return out
            self._misframed(out, len(self._buf), f"Content-Length {self._length} is larger than the message")
            self._state = _HEADERS
        elif self._state == _RESYNC and (self._suspect_size or _CONTENT.search(self._buf)):
            self._take(len(self._buf))
            self._settle(out)
            self._reason = "bytes outside any message"
        while self._step(out):
            pass
        return out

    def eof(self) -> list[Event]:
        out: list[Event] = []
        if self._state == _RESYNC:
            self._take(len(self._buf))
            self._settle(out)
        elif _CONTENT.search(self._buf):
            where = "a message" if self._state == _BODY else "a header"
            self._misframed(out, len(self._buf), f"the input ended inside {where}")
        self._buf.clear()
        return out

    # ----- states -----------------------------------------------------------------------

    def _step(self, out: list[Event]) -> bool:
        if self._state == _HEADERS:
            return self._headers(out)
        if self._state == _BODY:
            return self._body(out)
        return self._resync(out)

    def _headers(self, out: list[Event]) -> bool:
        buf = self._buf
        first = _CONTENT.search(buf)
        if first is None:
            buf.clear()
            return False
        if first.start():
            del buf[:first.start()]
        lengths: list[bytes] = []
        start = 0
        while True:
            nl = buf.find(b"\n", start, HEADER_LIMIT + 1)
            if nl < 0:
                if len(buf) > HEADER_LIMIT:
                    return self._garbage(1, "a header block longer than 8 KiB")
                return False
            line = bytes(buf[start:nl])
            if line.endswith(b"\r"):
                line = line[:-1]
            if not line.strip():
                return self._end_of_headers(out, lengths, nl + 1)
            # A header name anywhere but at the line's start: what came before was noise
            # (the tail of a misframed body, or bytes with no line break before the header).
            inner = _CONTENT_LENGTH.search(line, 1)
            if inner is not None:
                return self._garbage(start + inner.start(), "bytes that are not a header")
            match = _HEADER_LINE.fullmatch(line)
            if match is None:
                return self._garbage(nl + 1, "bytes that are not a header")
            if match.group(1).lower() == b"content-length":
                if lengths:
                    # A second length in one block: the first belonged to a header cut short
                    # (a client never sends two); the message starts at this one.
                    return self._garbage(start, "a header block cut short")
                lengths.append(match.group(2))
            start = nl + 1

    def _end_of_headers(self, out: list[Event], lengths: list[bytes], body_start: int) -> bool:
        del self._buf[:body_start]
        limit = self._max_bytes()
        problem: str | None = None
        if not lengths:
            problem = "a header block without Content-Length"
        elif not _DIGITS.fullmatch(lengths[0]):
            problem = f"invalid Content-Length {lengths[0][:40].decode('latin-1')!r}"
        elif len(lengths[0].lstrip(b"0")) > _MAX_DIGITS or int(lengths[0]) > limit:
            shown = lengths[0][:40].decode("latin-1") + ("…" if len(lengths[0]) > 40 else "")
            problem = f"Content-Length {shown} exceeds transport.maxMessageBytes ({limit})"
        if problem is not None:
            # The body's length is unknown: it is whatever comes before the next header.
            self._enter_resync(0, problem)
            return True
        self._length = int(lengths[0])
        self._scanned = 0
        self._state = _BODY
        return True

    def _body(self, out: list[Event]) -> bool:
        buf, length = self._buf, self._length
        if len(buf) >= length:
            body = bytes(buf[:length])
            try:
                value = parse(body)
            except TooDeep as exc:
                out.append(Frame(None, length, str(exc), body[:PEEK_BYTES]))
            except ValueError:
                # Invalid JSON, or a Content-Length that is wrong: search the body itself
                # for the next header (a length too small leaves the next one inside).
                self._enter_resync(0, f"the {length}-byte body is not one JSON value "
                                      "(invalid JSON or a wrong Content-Length)")
                return True
            else:
                out.append(Frame(value, length))
            del buf[:length]
            self._state = _HEADERS
            return True
        # Still waiting: a header inside what arrived means the length was too large.
        found = _NEXT_HEADER.search(buf, max(0, self._scanned - 64))
        self._scanned = len(buf)
        if found is None:
            return False
        self._misframed(out, found.start(), f"Content-Length {length} runs past the next message's header")
        self._state = _HEADERS
        return True

    def _resync(self, out: list[Event]) -> bool:
        buf = self._buf
        found = _CONTENT_LENGTH.search(buf, self._search_from)
        if found is None:
            # Keep a tail that may be the start of a header split across reads.
            cut = max(self._search_from, len(buf) - (len(b"content-length") - 1))
            self._take(cut)
            self._search_from = 0
            return False
        self._take(found.start())
        self._search_from = 0
        self._settle(out)
        self._state = _HEADERS
        return True

    # ----- helpers ----------------------------------------------------------------------

    def _garbage(self, search_from: int, reason: str) -> bool:
        self._enter_resync(search_from, reason)
        return True

    def _enter_resync(self, search_from: int, reason: str) -> None:
        self._state = _RESYNC
        self._search_from = search_from
        self._suspect = bytearray()
        self._suspect_size = 0
        self._suspect_whole = True
        self._reason = reason

    def _take(self, count: int) -> None:
        """Move ``count`` bytes from the buffer into the region being skipped."""
        if count <= 0:
            return
        chunk = self._buf[:count]
        del self._buf[:count]
        self._suspect_size += count
        if self._suspect_whole:
            self._suspect += chunk
            if len(self._suspect) > self._max_bytes():
                # Too long to be answered whole: keep its start to read an id from.
                del self._suspect[PEEK_BYTES:]
                self._suspect_whole = False

    def _settle(self, out: list[Event]) -> None:
        out.append(Misframed(bytes(self._suspect), self._suspect_size, self._reason, self._suspect_whole))
        self._suspect = bytearray()
        self._suspect_size = 0
        self._suspect_whole = True

    def _misframed(self, out: list[Event], count: int, reason: str) -> None:
        region = bytes(self._buf[:count])
        del self._buf[:count]
        out.append(Misframed(region, count, reason, True))
