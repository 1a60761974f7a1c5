"""Params from the wire into the contract's dataclasses, and back.

Each dataclass field declares its wire kind with ``wire(...)``; its wire name is the field's
name in camelCase. ``decode`` reads a request's params (absent is ``{}``, ``null`` is
absent) and raises InvalidParams naming the first field that does not fit, in the message
and as ``data.field``:

- a required field that is missing, null or does not fit: "<field> is required and must be
  <kind>"
- an optional field that does not fit: "<field> must be <kind>"

unless the kind has a message of its own that says more (which block of a prompt, say).
"""

from __future__ import annotations

import dataclasses
import os
from typing import Any, Callable, Generic, TypeVar

from sidecar.contract.errors import InvalidParams

T = TypeVar("T")
P = TypeVar("P")


class Refused(ValueError):
    """A value that does not fit its kind; ``message``, when given, replaces the default."""

    def __init__(self, message: str | None = None) -> None:
        super().__init__(message or "")
        self.message = message


@dataclasses.dataclass(frozen=True)
class Kind(Generic[T]):
    """What a field accepts: ``description`` completes "must be ...", ``read`` checks a
    value (never None) and returns it as the dataclass holds it, or raises Refused."""

    description: str
    read: Callable[[Any], T]


@dataclasses.dataclass(frozen=True)
class WireField:
    kind: Kind[Any]
    required: bool


def wire(kind: Kind[Any], *, required: bool = False) -> Any:
    """A dataclass field read from the wire as ``kind``; optional fields default to None."""
    meta = {"wire": WireField(kind, required)}
    if required:
        return dataclasses.field(metadata=meta)
    return dataclasses.field(default=None, metadata=meta)


def wire_name(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def params_object(params: Any) -> dict[str, Any]:
    """A request's params as a dict: absent is empty, anything but an object is -32602."""
    if params is None:
        return {}
    if not isinstance(params, dict):
        raise InvalidParams("params must be an object")
    return params


def decode(cls: type[P], params: Any) -> P:
    """``params`` as an instance of the dataclass ``cls``, or InvalidParams."""
    raw = params_object(params)
    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        spec: WireField = f.metadata["wire"]
        name = wire_name(f.name)
        value = raw.get(name)
        if value is None:
            if spec.required:
                raise InvalidParams(f"{name} is required and must be {spec.kind.description}",
                                    data={"field": name})
            continue
        try:
            values[f.name] = spec.kind.read(value)
        except Refused as refused:
            must = "is required and must" if spec.required else "must"
            raise InvalidParams(refused.message or f"{name} {must} be {spec.kind.description}",
                                data={"field": name}) from None
    return cls(**values)


def encode(params: Any) -> dict[str, Any]:
    """The wire form of a params dataclass: camelCase keys, absent fields left out."""
    return {wire_name(f.name): getattr(params, f.name) for f in dataclasses.fields(params)
            if getattr(params, f.name) is not None}


# ----- kinds ---------------------------------------------------------------------------------


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise Refused()
    return value


def _nonempty_text(value: Any) -> str:
    if not _text(value):
        raise Refused()
    return value  # type: ignore[no-any-return]


def _absolute_path(value: Any) -> str:
    # A NUL cannot be in a path; a relative one would resolve against wherever the sidecar
    # was started, which the client neither knows nor chose.
    if not isinstance(value, str) or not os.path.isabs(value) or "\x00" in value:
        raise Refused()
    return value


def _integer(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise Refused()
    return value


def _positive_integer(value: Any) -> int:
    if _integer(value) < 1:
        raise Refused()
    return value  # type: ignore[no-any-return]


def _progress_token(value: Any) -> str | int:
    if isinstance(value, str):
        return value
    return _integer(value)


def _array(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise Refused()
    return value


def _file_events(value: Any) -> list[dict[str, Any]]:
    if not isinstance(value, list) or not all(
            isinstance(v, dict) and isinstance(v.get("uri"), str) for v in value):
        raise Refused()
    return value


def _mcp_action(value: Any) -> str:
    if value not in ("approve", "reject", "retry"):
        raise Refused()
    return value  # type: ignore[no-any-return]


def _restore(value: Any) -> str:
    if value not in ("both", "conversation", "code"):
        raise Refused()
    return value  # type: ignore[no-any-return]


def _boolean(value: Any) -> bool:
    if not isinstance(value, bool):
        raise Refused()
    return value


TEXT: Kind[str] = Kind("a string", _text)
# Ids and names: an empty one names nothing.
NONEMPTY_TEXT: Kind[str] = Kind("a string", _nonempty_text)
ABSOLUTE_PATH: Kind[str] = Kind("an absolute path string", _absolute_path)
INTEGER: Kind[int] = Kind("an integer", _integer)
POSITIVE_INTEGER: Kind[int] = Kind("a positive integer", _positive_integer)
PROGRESS_TOKEN: Kind[str | int] = Kind("a string or an integer", _progress_token)
ARRAY: Kind[list[Any]] = Kind("an array", _array)
MCP_ACTION: Kind[str] = Kind('"approve", "reject" or "retry"', _mcp_action)
FILE_EVENTS: Kind[list[dict[str, Any]]] = Kind("an array of file events with a uri", _file_events)
RESTORE: Kind[str] = Kind('"both", "conversation" or "code"', _restore)
BOOLEAN: Kind[bool] = Kind("a boolean", _boolean)
