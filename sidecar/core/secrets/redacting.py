"""Errors that leave the engine's entry points do so with held keys redacted."""

from __future__ import annotations

import functools
import inspect
from typing import Any, Callable, TypeVar

from sidecar.core.secrets.redaction import redact_exception

C = TypeVar("C", bound=type)


def redacting_errors(cls: C) -> C:
    """Every public method's errors leave with held keys redacted: a provider's error text
    can echo a credential, and the transports turn these errors into replies as they are."""

    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        if inspect.iscoroutinefunction(fn):
            @functools.wraps(fn)
            async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
                try:
                    return await fn(*args, **kwargs)
                except Exception as exc:
                    raise redact_exception(exc)

            return async_wrapper

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            try:
                return fn(*args, **kwargs)
            except Exception as exc:
                raise redact_exception(exc)

        return wrapper

    for name, value in list(vars(cls).items()):
        if not name.startswith("_") and inspect.isfunction(value):
            setattr(cls, name, wrap(value))
    return cls
