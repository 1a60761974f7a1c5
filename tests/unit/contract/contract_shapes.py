"""Whether a JSON value has the shape a contract type describes (TypedDicts, Literals, unions)."""

from __future__ import annotations

import types
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict


def mismatches(value: Any, tp: Any, where: str = "$", *, complete: bool = False) -> list[str]:
    """Where ``value`` departs from ``tp``; empty when it fits. ``complete`` also asks for every
    optional field of a TypedDict (an example meant to show them all)."""
    if tp is Any:
        return []
    origin = get_origin(tp)
    if is_typeddict(tp):
        if not isinstance(value, dict):
            return [f"{where}: {type(value).__name__}, not an object"]
        hints = get_type_hints(tp)
        wanted = set(hints) if complete else set(tp.__required_keys__)
        out = [f"{where}.{key}: missing" for key in sorted(wanted - value.keys())]
        out += [f"{where}.{key}: not in {tp.__name__}" for key in sorted(value.keys() - hints.keys())]
        for key in sorted(value.keys() & hints.keys()):
            out += mismatches(value[key], hints[key], f"{where}.{key}", complete=complete)
        return out
    if origin in (Union, types.UnionType):
        fits = [mismatches(value, arg, where, complete=complete) for arg in get_args(tp)]
        if any(not found for found in fits):
            return []
        return min(fits, key=len)
    if origin is Literal:
        return [] if value in get_args(tp) else [f"{where}: {value!r} is none of {get_args(tp)}"]
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: not an array"]
        (item,) = get_args(tp)
        return [m for i, v in enumerate(value) for m in mismatches(v, item, f"{where}[{i}]", complete=complete)]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{where}: not an object"]
        _, item = get_args(tp)
        return [m for k, v in value.items() for m in mismatches(v, item, f"{where}.{k}", complete=complete)]
    if tp is type(None):
        return [] if value is None else [f"{where}: {value!r}, not null"]
    if tp is float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        return [] if ok else [f"{where}: {value!r}, not a number"]
    if tp is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
        return [] if ok else [f"{where}: {value!r}, not an integer"]
    if tp in (str, bool):
        return [] if isinstance(value, tp) else [f"{where}: {value!r}, not {tp.__name__}"]
    raise TypeError(f"{where}: no rule for {tp!r}")
