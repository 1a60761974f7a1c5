"""The clients' mirrors of the contract, generated from its Python definitions.

    python -m sidecar.contract.mirrors            write them (after changing the contract)
    python -m sidecar.contract.mirrors --check    exit 1, naming the stale files, when the
                                                  committed ones differ

Two files, one source: ``vscode-extension/src/shared/contract.generated.ts`` (TypeScript
interfaces and unions, the method names, error codes, update kinds and protocol version)
and ``clients/nvim/lua/context_sidecar/contract.lua`` (LuaLS annotations of the same types,
and a table with the same values for the client to use at run time).

Every type is read off the contract by introspection: the TypedDicts of the results,
updates, content and outbound messages (their fields, and which are required), the params
dataclasses (wire names and ``wire(..., required=...)``), and the module-level ``Literal``
and ``Union`` aliases, which keep their names. A private class (``_ToolCall``) is mirrored
without its underscore when a public type refers to it; one that only serves as a base
(``_ToolCallRequired``) is folded into the classes built on it.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import inspect
import json
import operator
import sys
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict

from sidecar.contract import content, errors, methods, outbound, params, results, updates
from sidecar.contract.decoding import wire_name
from sidecar.contract.results import PERMISSION_MODES
from sidecar.contract.updates import UPDATE_KINDS
from sidecar.contract.version import PROTOCOL_VERSION

REPO = Path(__file__).resolve().parents[2]
TS_PATH = "vscode-extension/src/shared/contract.generated.ts"
LUA_PATH = "clients/nvim/lua/context_sidecar/contract.lua"
LUA_PREFIX = "context_sidecar."

# The modules whose types are the wire's, in the order the mirrors list them.
MODULES: tuple[types.ModuleType, ...] = (content, results, updates, outbound, params)

HEADER = ("Generated from sidecar/contract by `python -m sidecar.contract.mirrors`: "
          "do not edit by hand.")


# ----- reading the contract ------------------------------------------------------------------


@dataclass(frozen=True)
class Field:
    name: str  # as on the wire
    type: Any
    required: bool


@dataclass(frozen=True)
class Shape:
    """A TypedDict or a params dataclass: one interface / class in the mirrors."""

    name: str
    doc: str | None
    fields: tuple[Field, ...]


@dataclass(frozen=True)
class Alias:
    """A module-level ``Literal`` or ``Union`` with a name of its own."""

    name: str
    type: Any


def _is_union(tp: Any) -> bool:
    return get_origin(tp) in (Union, types.UnionType)


def _is_alias_value(value: Any) -> bool:
    return get_origin(value) is Literal or _is_union(value)


def _is_shape(value: Any) -> bool:
    return isinstance(value, type) and (is_typeddict(value) or dataclasses.is_dataclass(value))


def _doc(cls: type) -> str | None:
    doc = cls.__doc__
    # A dataclass without a docstring is given its signature as one.
    if not doc or doc.startswith(f"{cls.__name__}("):
        return None
    return inspect.cleandoc(doc).replace("``", "`")


def _fields(cls: type) -> tuple[Field, ...]:
    hints = get_type_hints(cls)
    if dataclasses.is_dataclass(cls):
        out = []
        for f in dataclasses.fields(cls):
            required = f.metadata["wire"].required
            tp = hints[f.name]
            if not required:  # absent on the wire rather than null
                tp = _without_none(tp)
            out.append(Field(wire_name(f.name), tp, required))
        return tuple(out)
    required_keys = cls.__required_keys__  # type: ignore[attr-defined]
    # The required fields first, each group in the order the class (and its bases) declare.
    fields = [Field(name, tp, name in required_keys) for name, tp in hints.items()]
    return tuple(sorted(fields, key=lambda f: not f.required))


def _without_none(tp: Any) -> Any:
    if not _is_union(tp):
        return tp
    rest = [arg for arg in get_args(tp) if arg is not type(None)]
    return functools.reduce(operator.or_, rest)


def _public_name(name: str) -> str:
    return name.lstrip("_")


@dataclass(frozen=True)
class Contract:
    aliases: tuple[Alias, ...]
    shapes: tuple[Shape, ...]
    names: dict[Any, str]  # class or alias value -> its name in the mirrors

    def name_of(self, tp: Any) -> str | None:
        if isinstance(tp, type):
            return self.names.get(tp)
        for alias in self.aliases:
            if alias.type == tp:
                return alias.name
        return None


def _referenced(tp: Any) -> list[type]:
    """The TypedDicts and dataclasses ``tp`` mentions."""
    if _is_shape(tp):
        return [tp]
    return [cls for arg in get_args(tp) for cls in _referenced(arg)]


def read_contract() -> Contract:
    """The contract's named types, in module and definition order."""
    aliases: dict[str, Any] = {}
    classes: dict[str, type] = {}
    for module in MODULES:
        for name, value in vars(module).items():
            if _is_shape(value) and value.__module__ == module.__name__:
                classes[name] = value
            elif (not name.startswith("_") and _is_alias_value(value)
                  and not any(value == known for known in aliases.values())):
                aliases[name] = value

    # Public classes, and the private ones a public type refers to, transitively.
    wanted: set[type] = {cls for name, cls in classes.items() if not name.startswith("_")}
    todo = [*wanted, *[a for v in aliases.values() for a in _referenced(v)]]
    while todo:
        cls = todo.pop()
        wanted.add(cls)
        for tp in get_type_hints(cls).values():
            todo += [c for c in _referenced(tp) if c not in wanted]

    names: dict[Any, str] = {}
    seen: dict[str, str] = {}
    for name, cls in classes.items():
        if cls in wanted:
            public = _public_name(name)
            if public in seen or public in aliases:
                raise ValueError(f"{cls.__module__}.{name} and another type are both {public}")
            seen[public] = name
            names[cls] = public
    shapes = tuple(Shape(names[cls], _doc(cls), _fields(cls))
                   for cls in classes.values() if cls in wanted)
    return Contract(tuple(Alias(n, v) for n, v in aliases.items()), shapes, names)


def method_names() -> dict[str, str]:
    """``methods``' constants that name a method, by their Python names."""
    return {name: value for name, value in vars(methods).items()
            if name.isupper() and isinstance(value, str) and not value.endswith("/")}


def method_prefixes() -> dict[str, str]:
    return {name: value for name, value in vars(methods).items()
            if name.isupper() and isinstance(value, str) and value.endswith("/")}


def _camel(constant: str) -> str:
    return wire_name(constant.lower())


def _lower_first(name: str) -> str:
    return name[:1].lower() + name[1:]


# ----- TypeScript ----------------------------------------------------------------------------


class _Mirror:
    """One language's spelling of the contract's types: the primitives, and how a union, a
    list and a map are written."""

    PRIMITIVES: dict[Any, str]
    NAME_PREFIX = ""
    UNION = " | "
    MAP = "Record<{key}, {value}>"

    def __init__(self, contract: Contract) -> None:
        self.contract = contract

    def type(self, tp: Any, *, top: bool = False) -> str:
        if not top:
            named = self.contract.name_of(tp)
            if named:
                return self.NAME_PREFIX + named
        if tp is None:
            tp = type(None)
        if tp in self.PRIMITIVES:
            return self.PRIMITIVES[tp]
        origin = get_origin(tp)
        if origin is Literal:
            return self.UNION.join(json.dumps(arg) for arg in get_args(tp))
        if _is_union(tp):
            return self.UNION.join(self.type(arg) for arg in get_args(tp))
        if origin is list:
            (item,) = get_args(tp)
            inner = self.type(item)
            return f"({inner})[]" if self.UNION.strip() in inner else f"{inner}[]"
        if origin is dict:
            key, value = get_args(tp)
            return self.MAP.format(key=self.type(key), value=self.type(value))
        raise TypeError(f"no {type(self).__name__.strip('_')} type for {tp!r}")


class _TypeScript(_Mirror):
    PRIMITIVES = {str: "string", int: "number", float: "number", bool: "boolean",
                  type(None): "null", Any: "unknown"}

    def render(self) -> str:
        out = [f"// {HEADER}", "// The wire contract (docs/protocol.md) as the sidecar defines it.", ""]
        out.append(f"export const PROTOCOL_VERSION = {PROTOCOL_VERSION};")
        out.append("")
        out.append("/** Every method name, client to server and server to client. */")
        out.append("export const Methods = {")
        out += [f"  {_camel(name)}: {json.dumps(value)}," for name, value in method_names().items()]
        out.append("} as const;")
        for name, value in method_prefixes().items():
            out.append(f"export const {name} = {json.dumps(value)};")
        out.append("")
        out.append("/** Every error code a client can be answered with, by the protocol's name. */")
        out.append("export const ErrorCodes = {")
        out += [f"  {_lower_first(name)}: {code}," for name, code in errors.CODES.items()]
        out.append("} as const;")
        out.append("")
        for alias in self.contract.aliases:
            out.append(f"export type {alias.name} = {self.type(alias.type, top=True)};")
        out.append("")
        for shape in self.contract.shapes:
            if shape.doc:
                out += _block_comment(shape.doc, "")
            if not shape.fields:
                out.append(f"export type {shape.name} = Record<string, never>;")
            else:
                out.append(f"export interface {shape.name} {{")
                for f in shape.fields:
                    mark = "" if f.required else "?"
                    out.append(f"  {f.name}{mark}: {self.type(f.type)};")
                out.append("}")
            out.append("")
        out.append("/** Every `session/update` kind; the compiler holds the list to SessionUpdate's. */")
        out.append("export const SessionUpdateKinds = {")
        out += [f"  {kind}: true," for kind in UPDATE_KINDS]
        out.append('} as const satisfies Record<SessionUpdate["sessionUpdate"], true>;')
        out.append("")
        out.append("/** The permission modes every session offers, as the sidecar names them. */")
        out.append("export const PERMISSION_MODES: readonly SessionMode[] = [")
        out += [f"  {json.dumps(dict(mode))}," for mode in PERMISSION_MODES]
        out.append("];")
        return "\n".join(out) + "\n"


def _block_comment(doc: str, indent: str) -> list[str]:
    lines = doc.replace("*/", "*\\/").splitlines()
    if len(lines) == 1:
        return [f"{indent}/** {lines[0]} */"]
    return [f"{indent}/**", *[f"{indent} * {line}".rstrip() for line in lines], f"{indent} */"]


# ----- Lua -----------------------------------------------------------------------------------


class _Lua(_Mirror):
    PRIMITIVES = {str: "string", int: "integer", float: "number", bool: "boolean",
                  type(None): "nil", Any: "any"}
    NAME_PREFIX = LUA_PREFIX
    UNION = "|"
    MAP = "table<{key}, {value}>"

    def render(self) -> str:
        out = [f"---{HEADER}",
               "---The wire contract (docs/protocol.md) as the sidecar defines it: LuaLS annotations of",
               "---its types, and the protocol version, method names, error codes and update kinds.",
               ""]
        for alias in self.contract.aliases:
            out.append(f"---@alias {LUA_PREFIX}{alias.name} {self.type(alias.type, top=True)}")
        out.append("")
        for shape in self.contract.shapes:
            if shape.doc:
                out += [f"---{line}".rstrip() for line in shape.doc.splitlines()]
            out.append(f"---@class {LUA_PREFIX}{shape.name}")
            for f in shape.fields:
                mark = "" if f.required else "?"
                out.append(f"---@field {_lua_key(f.name)}{mark} {self.type(f.type)}")
            out.append("")
        out.append("return {")
        out.append(f"  PROTOCOL_VERSION = {PROTOCOL_VERSION},")
        for name, value in method_prefixes().items():
            out.append(f"  {name} = {json.dumps(value)},")
        out.append("  ---Every method name, by the contract's name for it.")
        out.append("  methods = {")
        out += [f"    {name} = {json.dumps(value)}," for name, value in method_names().items()]
        out.append("  },")
        out.append("  ---Every error code a client can be answered with, by the protocol's name.")
        out.append("  errors = {")
        out += [f"    {name} = {code}," for name, code in errors.CODES.items()]
        out.append("  },")
        out.append("  ---Every `session/update` kind, in the protocol's order.")
        out.append("  update_kinds = {")
        out += [f"    {json.dumps(kind)}," for kind in UPDATE_KINDS]
        out.append("  },")
        out.append("  ---The permission modes every session offers, as the sidecar names them.")
        out.append("  ---@type context_sidecar.SessionMode[]")
        out.append("  permission_modes = {")
        out += ["    { " + ", ".join(f"{k} = {json.dumps(v)}" for k, v in mode.items()) + " },"
                for mode in PERMISSION_MODES]
        out.append("  },")
        out.append("}")
        return "\n".join(out) + "\n"


_LUA_KEYWORDS = frozenset({
    "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if",
    "in", "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
})


def _lua_key(name: str) -> str:
    return f'["{name}"]' if name in _LUA_KEYWORDS else name


# ----- writing and checking ------------------------------------------------------------------


def generate() -> dict[str, str]:
    """Each mirror's text by its path under the repository."""
    contract = read_contract()
    return {TS_PATH: _TypeScript(contract).render(), LUA_PATH: _Lua(contract).render()}


def stale(root: Path = REPO) -> list[str]:
    """The mirrors under ``root`` that are missing or differ from the generated ones."""
    out = []
    for path, text in generate().items():
        file = root / path
        if not file.is_file():
            out.append(f"missing: {path}")
        elif file.read_text(encoding="utf-8") != text:
            out.append(f"differs: {path}")
    return out


def write(root: Path = REPO) -> None:
    for path, text in generate().items():
        file = root / path
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sidecar.contract.mirrors",
                                     description="Write or check the clients' mirrors of the contract.")
    parser.add_argument("--root", type=Path, default=REPO, help="the repository (default: this one)")
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 on a difference")
    args = parser.parse_args(argv)
    if args.check:
        # A report on stderr, as the sidecar's own modules never write to stdout (the wire).
        found = stale(args.root)
        if found:
            sys.stderr.write("\n".join([*found, "run: python -m sidecar.contract.mirrors", ""]))
        return 1 if found else 0
    write(args.root)
    return 0


if __name__ == "__main__":
    sys.exit(main())
