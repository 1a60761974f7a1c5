"""Reading what the official SDKs hand back: fields of their models (or of plain dicts, as
a proxy's extra fields arrive), and the JSON of a streamed tool call's input."""

from __future__ import annotations

import json
from typing import Any

from sidecar.core.ports import ProviderError


def sdk_field(obj: Any, name: str) -> Any:
    """An attribute of an SDK model or a dict, also when it arrived as an undeclared extra."""
    if obj is None:
        return None
    if isinstance(obj, dict):
        return obj.get(name)
    value = getattr(obj, name, None)
    if value is None:
        extra = getattr(obj, "model_extra", None) or {}
        value = extra.get(name)
    return value


def sdk_dict(obj: Any) -> dict[str, Any]:
    """An SDK model (or a dict) as a new plain dict without its unset fields; {} otherwise."""
    if isinstance(obj, dict):
        return dict(obj)
    dump = getattr(obj, "model_dump", None)
    return dict(dump(exclude_none=True)) if callable(dump) else {}


def tool_input(raw: str, what: str) -> dict[str, Any]:
    """A streamed tool call's input from its joined JSON pieces: nothing is ``{}``, a value
    that is no object is kept under ``value``, and broken JSON is a retryable stream fault."""
    if not raw.strip():
        return {}
    try:
        parsed = json.loads(raw)
    except json.JSONDecodeError as err:
        raise ProviderError(f"{what} are not valid JSON: {err}", type="malformed_event",
                            retryable=True) from err
    return parsed if isinstance(parsed, dict) else {"value": parsed}
