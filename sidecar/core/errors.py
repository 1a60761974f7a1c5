"""Errors the session service raises; each carries its wire code and a data payload.

The sidecar's own codes sit outside the range JSON-RPC reserves (-32768..-32000, which also
holds LSP's codes): at -32001 and -32002 they read as LSP's UnknownErrorCode and
ServerNotInitialized. Protocol version 2 moved them to -33001..-33006.
"""

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
    code = -33001


class ProviderNotConfigured(SidecarError):
    code = -33002


class ContextWindowExceeded(SidecarError):
    code = -33003


class ProviderFailed(SidecarError):
    code = -33004


class CompactionFailed(SidecarError):
    code = -33005


class SessionBusy(SidecarError):
    code = -33006


def params_object(params: Any) -> dict[str, Any]:
    """A request's params as a dict: absent is empty, anything but an object is -32602."""
    if params is None:
        return {}
    if not isinstance(params, dict):
        raise InvalidParams("params must be an object")
    return params
