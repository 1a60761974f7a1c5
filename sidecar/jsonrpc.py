"""JSON-RPC 2.0 envelopes for both transports: parsing and validation.

Everything here is pure (no I/O, no pygls), so the LSP and ACP readers classify a message
the same way and answer the same code. A message that cannot be read whole (invalid JSON,
too deep, too long, cut short) is -32700; a JSON value that is not a valid message is
-32600. Either answer carries the request's id when one can be read, else ``null``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from sidecar.contract.errors import INVALID_REQUEST, PARSE_ERROR

# Deeper than any payload of either protocol (ACP and LSP stay under 12 levels), and far
# enough from the interpreter's recursion limit that no handler or encoder recurses out.
MAX_DEPTH = 64
# How much of a message's start is searched for its id when it cannot be parsed whole.
PEEK_BYTES = 64 * 1024
LOG_CHARS = 160


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


class TooDeep(ValueError):
    pass


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse(body: bytes | bytearray) -> Any:
    """One JSON value from ``body``; ``ValueError`` for anything else, ``TooDeep`` past the limit.

    The standard library takes NaN and Infinity, and raises ValueError (not a decode error)
    for integers longer than 4,300 digits; both count as invalid here.
    """
    try:
        text = bytes(body).decode("utf-8")
        value = json.loads(text, parse_constant=_reject_constant)
    except RecursionError as exc:
        raise TooDeep(f"nested deeper than {MAX_DEPTH} levels") from exc
    except (UnicodeDecodeError, ValueError) as exc:
        raise ValueError(short(str(exc))) from exc
    if depth_exceeds(value, MAX_DEPTH):
        raise TooDeep(f"nested deeper than {MAX_DEPTH} levels")
    return value


def depth_exceeds(value: Any, limit: int) -> bool:
    """True when ``value`` nests deeper than ``limit``; iterative, so any depth is safe."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False


def valid_id(value: Any) -> bool:
    # LSP allows integer | string; JSON-RPC's null and fractions are refused.
    return (isinstance(value, int) and not isinstance(value, bool)) or isinstance(value, str)


@dataclass(frozen=True)
class Request:
    id: int | str
    method: str
    params: Any  # dict, list, or None when absent


@dataclass(frozen=True)
class Notification:
    method: str
    params: Any


@dataclass(frozen=True)
class Response:
    id: int | str
    result: Any = None
    error: dict[str, Any] | None = None  # {"code": int, "message": str, "data"?}


@dataclass(frozen=True)
class Invalid:
    """Not a valid message; ``answer_id`` is what the -32600 answer carries (None: null)."""

    reason: str
    answer_id: int | str | None = None
    # A malformed answer to one of our own requests: fail that request instead of waiting.
    response_id: int | str | None = None
    # Answers are never answered, even malformed ones; anything else gets -32600.
    answer: bool = True


Message = Request | Notification | Response | Invalid


def classify(value: Any) -> Message:
    if not isinstance(value, dict):
        what = "a batch (array)" if isinstance(value, list) else f"a JSON {_kind(value)}"
        return Invalid(f"expected a JSON-RPC message object, got {what}")
    raw_id = value.get("id", MISSING)
    has_id = raw_id is not MISSING
    if "method" in value:
        # Request-like: answer with its id when the id itself is usable.
        answer_id = raw_id if has_id and valid_id(raw_id) else None
        if value.get("jsonrpc") != "2.0":
            return Invalid('"jsonrpc" must be "2.0"', answer_id)
        if has_id and not valid_id(raw_id):
            return Invalid("id must be an integer or a string")
        method = value["method"]
        if not isinstance(method, str):
            return Invalid("method must be a string", answer_id)
        params = value.get("params")
        if params is not None and not isinstance(params, (dict, list)):
            return Invalid("params must be an object or an array", answer_id)
        if has_id:
            return Request(raw_id, method, params)
        return Notification(method, params)
    response_id = raw_id if has_id and valid_id(raw_id) else None
    if response_id is not None and ("result" in value) != ("error" in value):
        if value.get("jsonrpc") != "2.0":
            return Invalid('"jsonrpc" must be "2.0"', response_id=response_id, answer=False)
        if "error" in value:
            error = value["error"]
            if not (isinstance(error, dict) and valid_code(error.get("code"))
                    and isinstance(error.get("message"), str)):
                return Invalid("error must be an object with an integer code and a string message",
                               response_id=response_id, answer=False)
            return Response(response_id, error=error)
        return Response(response_id, result=value["result"])
    # Never answered with the id: an id without a method belongs to the other side's
    # requests, and an error carrying it would settle one of the client's own requests.
    return Invalid("neither a request, a notification nor a response", response_id=response_id)


def valid_code(code: Any) -> bool:
    return isinstance(code, int) and not isinstance(code, bool)


def error_message(rid: int | str | None, code: int, message: str, data: Any = None) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return {"jsonrpc": "2.0", "id": rid, "error": error}


# ----- reading what a broken message was --------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """What to do about bytes that did not arrive as one readable message."""

    log: str
    answer: dict[str, Any] | None = None
    # A whole answer to one of our own requests came misframed: fail that request.
    response_id: int | str | None = None


def judge_unreadable(head: bytes, whole: bool, reason: str) -> Verdict:
    """``head`` is the region (or its start when not ``whole``); ``reason`` says what was wrong.

    A region that parses whole is a message with bad framing: -32600 to a request's id. One
    that does not parse is -32700, with the id when its start names a request's id and method.
    """
    if whole:
        try:
            value = parse(head)
        except ValueError:
            pass
        else:
            message = classify(value)
            if isinstance(message, Request):
                return Verdict(f"{reason}; {describe(message.id, message.method)} refused",
                               error_message(message.id, INVALID_REQUEST, reason))
            if isinstance(message, Notification):
                return Verdict(f"{reason}; notification {describe(method=message.method)} dropped")
            if isinstance(message, Response):
                return Verdict(f"{reason}; answer to {describe(message.id)} refused",
                               response_id=message.id)
            answer = error_message(message.answer_id, INVALID_REQUEST, reason) if message.answer else None
            return Verdict(f"{reason}; {message.reason}", answer, message.response_id)
    if not head.strip():
        return Verdict(reason)
    rid, method = peek_request(head)
    if rid is not None and method is not None:
        return Verdict(f"{reason}; {describe(rid, method)} refused",
                       error_message(rid, PARSE_ERROR, reason))
    return Verdict(f"{reason} ({len(head)} bytes)", error_message(None, PARSE_ERROR, reason))

def peek_request(raw: bytes | bytearray, limit: int = PEEK_BYTES) -> tuple[int | str | None, str | None]:
    """The top-level ``id`` and ``method`` of a message that cannot be parsed whole.

    Reads at most ``limit`` bytes of its start, key by key, skipping nested values without
    recursion; a message cut short still yields what came before the cut.
    """
    data = bytes(raw[:limit])
    decoder = json.JSONDecoder()
    text = data.decode("utf-8", "replace")
    found: dict[str, Any] = {}
    i = _skip_ws(text, 0)
    if i >= len(text) or text[i] != "{":
        return None, None
    i += 1
    while i < len(text):
        i = _skip_ws(text, i)
        if i < len(text) and text[i] == ",":
            i = _skip_ws(text, i + 1)
        if i >= len(text) or text[i] != '"':
            break
        try:
            key, i = decoder.raw_decode(text, i)
        except ValueError:
            break
        i = _skip_ws(text, i)
        if i >= len(text) or text[i] != ":":
            break
        i = _skip_ws(text, i + 1)
        if i >= len(text):
            break
        if text[i] in "{[":
            end = _skip_nested(text, i)
            if end is None:
                break
            i = end
            continue
        try:
            value, i = decoder.raw_decode(text, i)
        except (ValueError, RecursionError):
            break
        if i >= len(text) and not isinstance(value, str):
            break  # a number at the cut may have lost digits: id 12 cut to 1 is another id
        if key in ("id", "method") and key not in found:
            found[key] = value
    rid = found.get("id")
    method = found.get("method")
    return (rid if valid_id(rid) else None), (method if isinstance(method, str) else None)


def _skip_ws(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t\r\n":
        i += 1
    return i


_TEXT_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


def _skip_nested(text: str, start: int) -> int | None:
    depth = 0
    for match in _TEXT_TOKEN.finditer(text, start):
        token = match.group()
        if token in "[{":
            depth += 1
        elif token in "]}":
            depth -= 1
            if depth == 0:
                return match.end()
    return None


# ----- short log lines --------------------------------------------------------------------


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return type(value).__name__


def short(text: str, limit: int = LOG_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def describe(rid: Any = None, method: Any = None) -> str:
    """``id 7 session/new`` for a log line, capped; never the params."""
    parts = []
    if rid is not None:
        parts.append(f"id {short(json.dumps(rid), 40)}")
    if isinstance(method, str):
        parts.append(short(method, 60))
    return " ".join(parts) or "no id"
