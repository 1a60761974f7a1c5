"""What the sidecar sends the client besides answers: notifications and its own requests."""


from typing import Any, Literal, TypedDict, Union, cast

from sidecar.contract.updates import SessionUpdate

StatusKind = Literal["normal", "warning", "error", "inactive"]
PermissionKind = Literal["allow_once", "allow_always", "reject_once", "reject_always"]


class SessionUpdateParams(TypedDict):
    """``session/update``."""

    sessionId: str
    update: SessionUpdate


class StatusParams(TypedDict):
    """``sidecar/didChangeStatus``: global state for a status bar."""

    kind: StatusKind
    busy: bool
    message: str


class PermissionOption(TypedDict):
    optionId: str
    name: str
    kind: PermissionKind


class PermissionParams(TypedDict):
    """``session/request_permission``, server to client."""

    sessionId: str
    toolCall: dict[str, Any]
    options: list[PermissionOption]


class _AnswerMeta(TypedDict, total=False):
    reason: str  # with a rejection: what the user said about why, passed on to the model


class _SelectedMeta(TypedDict, total=False):
    sidecar: _AnswerMeta


class _SelectedRequired(TypedDict):
    outcome: Literal["selected"]
    optionId: str


# ``_meta`` is optional through ``total=False`` rather than ``NotRequired``: under postponed
# annotations Python 3.11 counts a ``NotRequired`` key as required, and so would the mirrors.
class _Selected(_SelectedRequired, total=False):
    _meta: _SelectedMeta


class _Cancelled(TypedDict):
    outcome: Literal["cancelled"]


class PermissionResult(TypedDict):
    outcome: Union[_Selected, _Cancelled]


def session_update_params(session_id: str, update: SessionUpdate) -> SessionUpdateParams:
    return {"sessionId": session_id, "update": update}


# The editor port carries kinds and options as plain strings; these are the wire's spellings.
def status_params(kind: str, busy: bool, message: str) -> StatusParams:
    return {"kind": cast(StatusKind, kind), "busy": busy, "message": message}


def permission_params(session_id: str, tool_call: dict[str, Any],
                      options: list[dict[str, str]]) -> PermissionParams:
    return {"sessionId": session_id, "toolCall": tool_call,
            "options": cast(list[PermissionOption], options)}
