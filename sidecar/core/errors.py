"""Errors the session service raises; each carries its wire code and a data payload."""

from __future__ import annotations

from typing import Any


class SidecarError(Exception):
    code = -32603

    def __init__(self, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.message = message
        self.data = data


class InvalidParams(SidecarError):
    code = -32602


class RequestCancelled(SidecarError):
    code = -32800


class SessionNotFound(SidecarError):
    code = -32001


class ProviderNotConfigured(SidecarError):
    code = -32002


class ContextWindowExceeded(SidecarError):
    code = -32003


class ProviderFailed(SidecarError):
    code = -32004


class CompactionFailed(SidecarError):
    code = -32005


class SessionBusy(SidecarError):
    code = -32006


def params_object(params: Any) -> dict[str, Any]:
    """A request's params as a dict: absent is empty, anything but an object is -32602."""
    if params is None:
        return {}
    if not isinstance(params, dict):
        raise InvalidParams("params must be an object")
    return params
