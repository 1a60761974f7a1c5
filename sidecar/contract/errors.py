"""The wire's error codes, and the errors the session service raises with them.

The sidecar's own codes sit outside the range JSON-RPC reserves (-32768..-32000, which also
holds LSP's codes): at -32001 and -32002 they read as LSP's UnknownErrorCode and
ServerNotInitialized. Protocol version 2 moved them to -33001..-33006.
"""

from __future__ import annotations

from typing import Any

# JSON-RPC 2.0
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
# LSP 3.17
SERVER_NOT_INITIALIZED = -32002
REQUEST_CANCELLED = -32800


class SidecarError(Exception):
    code = INTERNAL_ERROR

    def __init__(self, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.message = message
        self.data = data


class InvalidParams(SidecarError):
    code = INVALID_PARAMS


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


# The protocol's names (docs/protocol.md, Errors), in its order. ProviderFailed answers as
# ProviderError: the Python name is taken by the provider layer's own exception.
ERRORS: dict[str, type[SidecarError]] = {
    "InvalidParams": InvalidParams,
    "SessionNotFound": SessionNotFound,
    "ProviderNotConfigured": ProviderNotConfigured,
    "ContextWindowExceeded": ContextWindowExceeded,
    "ProviderError": ProviderFailed,
    "CompactionFailed": CompactionFailed,
    "SessionBusy": SessionBusy,
}

# Every code a client can be answered with: the errors above, the JSON-RPC and LSP codes for
# messages that are not valid requests (docs/protocol.md, "Reading the wire"), and LSP's
# answer to a request the client cancelled (the transports send it; nothing raises it).
CODES: dict[str, int] = {
    "ParseError": PARSE_ERROR,
    "InvalidRequest": INVALID_REQUEST,
    "MethodNotFound": METHOD_NOT_FOUND,
    "InternalError": INTERNAL_ERROR,
    "ServerNotInitialized": SERVER_NOT_INITIALIZED,
    "InvalidParams": INVALID_PARAMS,
    "RequestCancelled": REQUEST_CANCELLED,
    **{name: cls.code for name, cls in ERRORS.items()},
}
