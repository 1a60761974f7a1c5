"""Request bodies judged by the official SDKs' own request types.

The SDKs' ``*CreateParams`` TypedDicts are generated from the same API specifications the
real servers validate against, so they are the closest public stand-in for "what the API
accepts". Pydantic validates them almost as the servers do, with three gaps that this
module closes on a copy of the core schema:

- TypedDicts ignore unknown keys; the APIs refuse them ("Extra inputs are not permitted").
  Every typed dict is switched to ``extra_behavior="forbid"``.
- ``Iterable[...]`` fields become lazy generators that validate nothing until consumed;
  they are turned into lists, so every nested block is checked.
- The anthropic SDK also lets a caller pass its *response* models back (``BetaContentBlock``),
  which allow any extra key. A wire body is JSON, never a model: those choices are dropped
  from unions that have a plain-dict alternative.

Unions of typed dicts told apart by a literal field (``type`` for blocks, ``role`` for
messages) become tagged unions, which is how the Messages API reports a bad block: "Input
tag 'cache_edits' found using 'type' does not match any of the expected tags". The
Responses API's input items are told apart the same way although some leave ``type`` out
(a message may be ``{"role": ..., "content": ...}``) and some share one (three kinds of
``message``): there the tag is read by a function, a missing one chooses among the items
that may omit it, and a shared one among the items that share it. Without that, a bad
message item is reported as whichever of some thirty item types failed deepest.

Building a validator imports the SDK and walks a large schema (about a second), so each is
built once per process, on first use. Not in a background thread: two threads importing
the anthropic SDK's types at once can meet a partially initialized module.
"""

from __future__ import annotations

import copy
import re
import threading
from dataclasses import dataclass
from typing import Any, Callable

from pydantic_core import SchemaValidator, ValidationError

_TAG_FIELDS = ("type", "role")
_CLASS_NAME = re.compile(r"^[A-Z][A-Za-z0-9]*$")
_lock = threading.Lock()
_validators: dict[str, SchemaValidator] = {}


@dataclass(frozen=True)
class SchemaProblem:
    """The first thing wrong with a body: a dotted location and the API-style message."""

    location: str
    message: str

    def text(self) -> str:
        return f"{self.location}: {self.message}" if self.location else self.message


def _anthropic_messages_streaming() -> Any:
    from anthropic.types.beta.message_create_params import MessageCreateParamsStreaming

    return MessageCreateParamsStreaming


def _anthropic_messages() -> Any:
    from anthropic.types.beta.message_create_params import MessageCreateParamsNonStreaming

    return MessageCreateParamsNonStreaming


def _anthropic_count_tokens() -> Any:
    from anthropic.types.beta.message_count_tokens_params import MessageCountTokensParams

    return MessageCountTokensParams


def _openai_chat_streaming() -> Any:
    from openai.types.chat.completion_create_params import CompletionCreateParamsStreaming

    return CompletionCreateParamsStreaming


def _openai_chat() -> Any:
    from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming

    return CompletionCreateParamsNonStreaming


def _openai_responses_streaming() -> Any:
    from openai.types.responses.response_create_params import ResponseCreateParamsStreaming

    return ResponseCreateParamsStreaming


def _openai_responses() -> Any:
    from openai.types.responses.response_create_params import ResponseCreateParamsNonStreaming

    return ResponseCreateParamsNonStreaming


def _openai_responses_compact() -> Any:
    from openai.types.responses.response_compact_params import ResponseCompactParams

    return ResponseCompactParams


def _openai_responses_input_tokens() -> Any:
    from openai.types.responses.input_token_count_params import InputTokenCountParams

    return InputTokenCountParams


_SOURCES: dict[str, Callable[[], Any]] = {
    "anthropic.messages.stream": _anthropic_messages_streaming,
    "anthropic.messages": _anthropic_messages,
    "anthropic.count_tokens": _anthropic_count_tokens,
    "openai.chat.stream": _openai_chat_streaming,
    "openai.chat": _openai_chat,
    "openai.responses.stream": _openai_responses_streaming,
    "openai.responses": _openai_responses,
    "openai.responses.compact": _openai_responses_compact,
    "openai.responses.input_tokens": _openai_responses_input_tokens,
}
# Validators whose unions may be tagged by a field some of their choices leave out.
_LOOSE_TAGS = frozenset(name for name in _SOURCES if name.startswith("openai.responses"))
_MISSING_TAG = "(none)"

# Keys the SDK's params carry that are not body fields: they travel as headers or query.
_NOT_BODY = {"betas", "workspace_id", "user_profile_id"}


def _definitions(schema: Any) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}

    def collect(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("type") == "definitions":
                for d in node.get("definitions", []):
                    if isinstance(d, dict) and "ref" in d:
                        out[d["ref"]] = d
            for value in node.values():
                collect(value)
        elif isinstance(node, list):
            for value in node:
                collect(value)

    collect(schema)
    return out


def _resolve(node: dict[str, Any], defs: dict[str, dict[str, Any]]) -> dict[str, Any]:
    seen = 0
    while node.get("type") == "definition-ref" and seen < 20:
        node = defs.get(node.get("schema_ref", ""), node)
        seen += 1
    return node


def _choice_schema(choice: Any) -> dict[str, Any]:
    return choice[0] if isinstance(choice, (list, tuple)) else choice


def _literal_tag(node: dict[str, Any], field: str) -> str | None:
    """The single literal value a required field of a typed dict holds, if it is one."""
    if node.get("type") != "typed-dict":
        return None
    spec = node.get("fields", {}).get(field)
    if not isinstance(spec, dict) or spec.get("required") is False:
        return None
    inner = spec.get("schema", {})
    if inner.get("type") == "literal" and len(inner.get("expected", [])) == 1:
        value = inner["expected"][0]
        return value if isinstance(value, str) else None
    return None


def _literal_tags(node: dict[str, Any], field: str) -> tuple[list[str], bool] | None:
    """The literal values a typed dict's field may hold, and whether the field is required;
    None when the field is not a literal of strings."""
    if node.get("type") != "typed-dict":
        return None
    spec = node.get("fields", {}).get(field)
    if not isinstance(spec, dict):
        return None
    inner = spec.get("schema", {})
    while inner.get("type") in ("nullable", "default"):
        inner = inner.get("schema", {})
    values = inner.get("expected", []) if inner.get("type") == "literal" else []
    if not values or not all(isinstance(v, str) for v in values):
        return None
    return list(values), spec.get("required") is not False


class _TagReader:
    """Reads a union's tag field; a missing field reads as ``_MISSING_TAG``. Named after the
    field so pydantic's message reads "found using 'type'"."""

    def __init__(self, field: str) -> None:
        self.field = field
        self.__name__ = repr(field)

    def __call__(self, value: Any) -> str | None:
        return value.get(self.field, _MISSING_TAG) if isinstance(value, dict) else None


def _loosely_tagged(choices: list[Any], defs: dict[str, dict[str, Any]]) -> dict[str, Any] | None:
    for field in _TAG_FIELDS:
        groups: dict[str, list[Any]] = {}
        for choice in choices:
            found = _literal_tags(_resolve(choice, defs), field)
            if found is None:
                break
            values, required = found
            for value in values + ([] if required else [_MISSING_TAG]):
                groups.setdefault(value, []).append(choice)
        else:
            if len(groups) >= 2:
                mapping = {tag: group[0] if len(group) == 1 else {"type": "union", "choices": group}
                           for tag, group in groups.items()}
                return {"type": "tagged-union", "choices": mapping,
                        "discriminator": _TagReader(field)}
    return None


def _strict_union(node: dict[str, Any], defs: dict[str, dict[str, Any]],
                  loose: bool = False) -> dict[str, Any]:
    choices: list[dict[str, Any]] = []
    for choice in (_choice_schema(c) for c in node.get("choices", [])):
        inner = _resolve(choice, defs)
        if inner.get("type") == "union":  # a union of unions is one union
            choices.extend(_choice_schema(c) for c in inner.get("choices", []))
        else:
            choices.append(choice)
    plain = [c for c in choices if _resolve(c, defs).get("type") not in ("model", "is-instance")]
    if plain and len(plain) < len(choices):
        choices = plain
    for field in _TAG_FIELDS:
        tags: dict[str, dict[str, Any]] = {}
        for choice in choices:
            tag = _literal_tag(_resolve(choice, defs), field)
            if tag is None or tag in tags:
                break
            tags[tag] = choice
        else:
            if len(tags) >= 2:
                return {"type": "tagged-union", "choices": tags, "discriminator": field}
    if len(choices) == 1:
        return choices[0]
    if loose:
        tagged = _loosely_tagged(choices, defs)
        if tagged is not None:
            return tagged
    return {**node, "choices": choices}


def _tighten(node: Any, defs: dict[str, dict[str, Any]], loose: bool = False) -> Any:
    if isinstance(node, list):
        return [_tighten(v, defs, loose) for v in node]
    if not isinstance(node, dict):
        return node
    kind = node.get("type")
    if kind == "typed-dict":
        fields = node.get("fields", {})
        out = {**node, "fields": {k: _tighten(v, defs, loose) for k, v in fields.items()}}
        if "extras_schema" not in out:
            out["extra_behavior"] = "forbid"
        return out
    out = {k: _tighten(v, defs, loose) for k, v in node.items()}
    if kind == "generator":
        out["type"] = "list"
    if kind == "union":
        return _strict_union(out, defs, loose)
    return out


def _build(name: str) -> SchemaValidator:
    from pydantic import TypeAdapter

    params = _SOURCES[name]()
    schema = copy.deepcopy(TypeAdapter(params).core_schema)
    defs = _definitions(schema)
    return SchemaValidator(_tighten(schema, defs, name in _LOOSE_TAGS))


def validator(name: str) -> SchemaValidator:
    with _lock:
        found = _validators.get(name)
        if found is None:
            found = _validators[name] = _build(name)
        return found


def _location(loc: tuple[Any, ...]) -> str:
    parts: list[str] = []
    for part in loc:
        text = str(part)
        # Union-branch labels that pydantic adds ("str", "list[...]", "function-wrap[...]",
        # a typed dict's class name), and the tag of an item that left its tag out.
        if "[" in text or text in ("str", "list", "dict", "int", "float", "bool", "none",
                                   _MISSING_TAG) or _CLASS_NAME.match(text):
            continue
        parts.append(text)
    return ".".join(parts)


def check(name: str, body: dict[str, Any]) -> SchemaProblem | None:
    """The first schema problem of ``body`` against the named SDK params type, or None."""
    data = {k: v for k, v in body.items() if k not in _NOT_BODY}
    try:
        validator(name).validate_python(data)
    except ValidationError as err:
        errors = err.errors(include_url=False)
        # The deepest error names the field that is wrong, not the union that could not
        # choose (a list of blocks is also tried as a plain string, for instance).
        best = max(errors, key=lambda e: len(_location(tuple(e["loc"]))))
        # A tag read by _TagReader is reported as a call ("'type'()"); say it as a field.
        message = str(best["msg"]).replace("'()", "'")
        return SchemaProblem(_location(tuple(best["loc"])), message)
    return None
