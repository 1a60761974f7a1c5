"""The tools' common base: input validation, failures as outcomes, keys redacted.

Tool names and input shapes follow Claude Code so a recorded Claude Code session can be
continued here and the model's habits carry over. ``Tool.run`` never raises for bad input
or a failing file system: every failure becomes an ``is_error`` outcome the model reads.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Sequence
from pathlib import Path
from typing import Any, ClassVar

from sidecar.core.conversation.messages import Block
from sidecar.core.ports import ToolContext, ToolKind, ToolOutcome
from sidecar.core.secrets.redaction import redact_api_keys, redact_value

log = logging.getLogger(__name__)

class ToolError(Exception):
    """A failure the model should read as the tool's result."""


class BaseTool:
    """The tools' common base: subclasses set the class attributes and implement ``invoke``."""

    name: ClassVar[str]
    description: ClassVar[str]
    input_schema: ClassVar[dict[str, Any]]
    kind: ClassVar[ToolKind] = "other"
    # Whether old results of this tool may be cleared by microcompact.
    compactable: ClassVar[bool] = True

    def title(self, input: dict[str, Any], roots: Sequence[Path] = ()) -> str:
        return self.name

    def locations(self, input: dict[str, Any], roots: Sequence[Path] = ()) -> list[dict[str, Any]]:
        return []

    async def invoke(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        raise NotImplementedError

    async def run(self, input: dict[str, Any], ctx: ToolContext) -> ToolOutcome:
        try:
            args = validate_input(self.input_schema, input)
        except ToolError as exc:
            return ToolOutcome.error(str(exc))
        return await self.guarded(self.invoke(args, ctx))

    async def guarded(self, work: Awaitable[ToolOutcome]) -> ToolOutcome:
        """``work``'s outcome, with every failure turned into an error outcome and every
        key the sidecar holds taken out (a file or a command can print one)."""
        return redact_outcome(await self._guarded(work))

    async def _guarded(self, work: Awaitable[ToolOutcome]) -> ToolOutcome:
        try:
            return await work
        except ToolError as exc:
            return ToolOutcome.error(str(exc))
        except OSError as exc:
            return ToolOutcome.error(
                f"{exc.strerror or exc}" + (f": {exc.filename}" if exc.filename else "")
            )
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a bug must not end the turn; the model sees it and moves on
            log.exception("tool %s failed", self.name)
            return ToolOutcome.error(f"{self.name} failed: {type(exc).__name__}: {exc}")


def redact_outcome(outcome: ToolOutcome) -> ToolOutcome:
    """``outcome`` without held keys. Image data is left alone: base64 is no leak, and a
    short key would match inside it by chance and corrupt the picture."""
    if isinstance(outcome.content, str):
        content: str | list[Block] = redact_api_keys(outcome.content)
    else:
        content = [b if b.get("type") == "image" else redact_value(b) for b in outcome.content]
    return ToolOutcome(
        content,
        is_error=outcome.is_error,
        raw_output=redact_value(outcome.raw_output),
        display=redact_value(outcome.display),
        updates=[redact_value(u) for u in outcome.updates],
    )


_TYPE_NAMES = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "a boolean",
    "array": "an array",
    "object": "an object",
}


def _coerce(name: str, spec: dict[str, Any], value: Any) -> Any:
    kind = spec.get("type")
    # Models sometimes quote numbers and booleans; accept the unambiguous spellings.
    if kind == "integer":
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            value = int(value.strip())
        elif isinstance(value, float) and value.is_integer():
            value = int(value)
        if not isinstance(value, int) or isinstance(value, bool):
            raise ToolError(f"Invalid input: `{name}` must be {_TYPE_NAMES[kind]}, got {value!r}")
        if "minimum" in spec and value < spec["minimum"]:
            raise ToolError(
                f"Invalid input: `{name}` must be at least {spec['minimum']}, got {value}"
            )
    elif kind == "number":
        if isinstance(value, str):
            try:
                value = float(value)
            except ValueError:
                pass
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise ToolError(f"Invalid input: `{name}` must be {_TYPE_NAMES[kind]}, got {value!r}")
        if "minimum" in spec and value < spec["minimum"]:
            raise ToolError(
                f"Invalid input: `{name}` must be at least {spec['minimum']}, got {value}"
            )
    elif kind == "boolean":
        if value in ("true", "false"):
            value = value == "true"
        if not isinstance(value, bool):
            raise ToolError(f"Invalid input: `{name}` must be {_TYPE_NAMES[kind]}, got {value!r}")
    elif kind == "string":
        if not isinstance(value, str):
            raise ToolError(f"Invalid input: `{name}` must be {_TYPE_NAMES[kind]}, got {value!r}")
    elif kind == "array":
        item_kind = spec.get("items", {}).get("type")
        if not isinstance(value, list) or (
            item_kind == "string" and not all(isinstance(v, str) for v in value)
        ):
            what = "an array of strings" if item_kind == "string" else _TYPE_NAMES[kind]
            raise ToolError(f"Invalid input: `{name}` must be {what}, got {value!r}")
    if "enum" in spec and value not in spec["enum"]:
        allowed = ", ".join(repr(v) for v in spec["enum"])
        raise ToolError(f"Invalid input: `{name}` must be one of {allowed}, got {value!r}")
    return value


def validate_input(schema: dict[str, Any], input: Any) -> dict[str, Any]:
    """Check ``input`` against the small JSON-schema subset tools use; unknown keys are
    dropped (models add harmless extras), and errors name the field."""
    if not isinstance(input, dict):
        raise ToolError(f"Invalid input: expected an object, got {type(input).__name__}")
    props: dict[str, Any] = schema.get("properties", {})
    for name in schema.get("required", []):
        if input.get(name) is None:
            raise ToolError(f"Invalid input: `{name}` is required")
    out: dict[str, Any] = {}
    for name, spec in props.items():
        if name in input and input[name] is not None:
            out[name] = _coerce(name, spec, input[name])
    return out
