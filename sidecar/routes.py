"""Which session service call serves which method of the contract: the one table both
transports dispatch by.

A transport finds a route by the contract's method name (ACP adds its ``_sidecar/`` prefix
to the sidecar's own methods), restates its wire's params in the contract's spelling where
they differ, decodes them into the route's params dataclass and makes the call; then it
frames the answer its way. What a method does is decided here and in the service, once.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any, Callable, Generic, TypeVar

from sidecar.contract import methods as m
from sidecar.contract.decoding import decode
from sidecar.contract.errors import InvalidParams
from sidecar.contract.params import (
    CompactParams,
    DocumentChangeParams,
    DocumentCloseParams,
    DocumentOpenParams,
    FilesChangedParams,
    ForkParams,
    HistoryListParams,
    ListSessionsParams,
    LoadSessionParams,
    McpActionParams,
    NewSessionParams,
    NoParams,
    PromptParams,
    RewindParams,
    SessionParams,
    SetModelParams,
    SetModeParams,
    SetTitleParams,
    TrustWorkspaceParams,
)
from sidecar.contract.results import (
    CheckpointList,
    ContextView,
    HistoryList,
    HistoryUndone,
    McpActionDone,
    ModelList,
    ModelSet,
    Rewound,
    SessionOpened,
    WorkspaceTrusted,
)
from sidecar.core.service import SessionService
from sidecar.core.workspace.prefix import read_ahead
from sidecar.core.workspace.trust import trust_folder

P = TypeVar("P")


@dataclass(frozen=True)
class Route(Generic[P]):
    method: str
    params: type[P]
    # The service's method, unbound, or a function of the service reaching one of its
    # rooms: it returns the result, or an awaitable of it.
    call: Callable[[SessionService, P], Any]

    def decode(self, params: Any) -> P:
        """The params as the service takes them; InvalidParams when they do not fit."""
        return decode(self.params, params)

    def invoke(self, service: SessionService, params: P) -> Any:
        """The call's result, or its awaitable (see ``settle``)."""
        return self.call(service, params)

    async def serve(self, service: SessionService, raw: Any) -> Any:
        """Decode ``raw`` params, make the call and wait for its result."""
        return await settle(self.invoke(service, self.decode(raw)))


async def settle(value: Any) -> Any:
    """``value``, awaited when the service method was a coroutine."""
    if inspect.isawaitable(value):
        return await value
    return value


async def new_session(service: SessionService, p: NewSessionParams) -> SessionOpened:
    """``session/new``, the workspace's prefix read off the event loop first."""
    await read_ahead(service.adapters.prefix, p.cwd, service.settings)
    return service.new_session(p)


async def trust_workspace(service: SessionService, p: TrustWorkspaceParams) -> WorkspaceTrusted:
    """``sidecar/trustWorkspace``: the trust itself is kept apart from the sessions."""
    return await trust_folder(service.trust, p.cwd)


async def mcp_action(service: SessionService, p: McpActionParams) -> McpActionDone:
    """``sidecar/mcpAction``: approve, reject or retry one of the session's servers."""
    session = service.get(p.session_id)
    try:
        done, message = await service.mcp.act(session, p.server, p.action)
    except KeyError:
        raise InvalidParams(f"No MCP server named {p.server!r} in this session's workspace",
                            data={"field": "server"}) from None
    return {"done": done, "message": message, "servers": service.mcp.statuses(session)}


# The calls the service's rooms answer (see ``sidecar.core.service``).


def set_model(service: SessionService, p: SetModelParams) -> ModelSet:
    return service.models.set_model(p)


async def list_models(service: SessionService, p: SessionParams) -> ModelList:
    return await service.models.list_models(p)


async def context_view(service: SessionService, p: SessionParams) -> ContextView:
    return await service.report.context_view(p)


async def history_list(service: SessionService, p: HistoryListParams) -> HistoryList:
    return await service.prompt_history.history_list(p)


async def history_undo(service: SessionService, p: NoParams) -> HistoryUndone:
    return await service.prompt_history.history_undo(p)


def checkpoints(service: SessionService, p: SessionParams) -> CheckpointList:
    return service.checkpoints.checkpoints(p)


async def rewind(service: SessionService, p: RewindParams) -> Rewound:
    return await service.checkpoints.rewind(p)


async def fork(service: SessionService, p: ForkParams) -> SessionOpened:
    return await service.checkpoints.fork(p)


def document_opened(service: SessionService, p: DocumentOpenParams) -> None:
    service.documents.document_opened(p)


def document_changed(service: SessionService, p: DocumentChangeParams) -> None:
    service.documents.document_changed(p)


def document_closed(service: SessionService, p: DocumentCloseParams) -> None:
    service.documents.document_closed(p)


def files_changed(service: SessionService, p: FilesChangedParams) -> None:
    service.documents.files_changed(p)


REQUESTS: tuple[Route[Any], ...] = (
    Route(m.SESSION_NEW, NewSessionParams, new_session),
    Route(m.SESSION_LOAD, LoadSessionParams, SessionService.load_session),
    Route(m.SESSION_LIST, ListSessionsParams, SessionService.list_sessions),
    Route(m.SESSION_CLOSE, SessionParams, SessionService.close_session),
    Route(m.SESSION_DELETE, SessionParams, SessionService.delete_session),
    Route(m.SESSION_PROMPT, PromptParams, SessionService.prompt),
    Route(m.SESSION_SET_MODEL, SetModelParams, set_model),
    Route(m.SESSION_SET_MODE, SetModeParams, SessionService.set_mode),
    Route(m.SESSION_SET_TITLE, SetTitleParams, SessionService.set_title),
    Route(m.GAUGE, SessionParams, SessionService.gauge),
    Route(m.MODELS, SessionParams, list_models),
    Route(m.COMPACT, CompactParams, SessionService.compact),
    Route(m.CONTEXT, SessionParams, context_view),
    Route(m.HISTORY_LIST, HistoryListParams, history_list),
    Route(m.HISTORY_UNDO, NoParams, history_undo),
    Route(m.TRUST_WORKSPACE, TrustWorkspaceParams, trust_workspace),
    Route(m.MCP_ACTION, McpActionParams, mcp_action),
    Route(m.CHECKPOINTS, SessionParams, checkpoints),
    Route(m.REWIND, RewindParams, rewind),
    Route(m.FORK, ForkParams, fork),
)

NOTIFICATIONS: tuple[Route[Any], ...] = (
    Route(m.SESSION_CANCEL, SessionParams, SessionService.cancel),
    Route(m.DOCUMENT_DID_OPEN, DocumentOpenParams, document_opened),
    Route(m.DOCUMENT_DID_CHANGE, DocumentChangeParams, document_changed),
    Route(m.DOCUMENT_DID_CLOSE, DocumentCloseParams, document_closed),
    Route(m.FILES_DID_CHANGE, FilesChangedParams, files_changed),
)

ROUTES: dict[str, Route[Any]] = {route.method: route for route in REQUESTS + NOTIFICATIONS}
