"""ACP's spelling of the contract: method names, params and answers (standard fields at the
root, ours under ``_meta.sidecar``)."""

from __future__ import annotations

from typing import Any

from sidecar import __version__
from sidecar.acp.config_options import config_options
from sidecar.contract import methods as m
from sidecar.contract.results import ModelList, PromptResult, SessionOpened, SessionSummary
from sidecar.contract.version import PROTOCOL_VERSION
from sidecar.routes import REQUESTS

ACP_PROTOCOL_VERSION = 1
LIST_PAGE_SIZE = 100


def acp_method(method: str) -> str:
    """The sidecar's own methods are ACP extensions, which start with an underscore."""
    return "_" + method if method.startswith(m.OWN_PREFIX) else method


# ACP's session/set_model names the model ``modelId``; this one takes the contract's params.
SET_MODEL_EXTENSION = "_sidecar/set_model"
# ACP has no way to rename a session; session/set_title is served under this name too, as
# ACP spells extensions.
SET_TITLE_EXTENSION = "_sidecar/set_title"
# ACP's own fork (an unstable method of its schema), served by the contract's.
SESSION_FORK = "session/fork"
EXTRA_METHODS = [acp_method(r.method) for r in REQUESTS if r.method.startswith(m.OWN_PREFIX)] + [
    SET_MODEL_EXTENSION, SET_TITLE_EXTENSION]
# What ACP clients may notify; ACP has no watched-files notification.
NOTIFICATIONS = (m.SESSION_CANCEL, m.DOCUMENT_DID_OPEN, m.DOCUMENT_DID_CHANGE, m.DOCUMENT_DID_CLOSE)
STATUS_NOTIFICATION = acp_method(m.DID_CHANGE_STATUS)
SHOW_MESSAGE_NOTIFICATION = "_sidecar/showMessage"


def sidecar_meta(p: dict[str, Any]) -> dict[str, Any]:
    meta = p.get("_meta")
    ours = meta.get("sidecar") if isinstance(meta, dict) else None
    return ours if isinstance(ours, dict) else {}


def new_session_params(p: dict[str, Any]) -> dict[str, Any]:
    """``session/new``: ``cwd`` at the root (``mcpServers`` is ignored), ours in ``_meta``."""
    extra = sidecar_meta(p)
    return {"cwd": p.get("cwd"), "model": extra.get("model"), "provider": extra.get("provider"),
            "title": extra.get("title")}


def set_model_params(p: dict[str, Any]) -> dict[str, Any]:
    """ACP's ``session/set_model`` sends ``modelId``; ``model`` wins where both are sent."""
    return p if "model" in p else {**p, "model": p.get("modelId")}


def initialize_result(providers: list[str]) -> dict[str, Any]:
    return {
        "protocolVersion": ACP_PROTOCOL_VERSION,
        "agentCapabilities": {
            "loadSession": True,
            # Images go to the model as image blocks; whether the model reads them is its
            # business. Audio has no place in the transcript schema.
            "promptCapabilities": {"image": True, "audio": False, "embeddedContext": True},
            "mcpCapabilities": {"http": False, "sse": False},
            "sessionCapabilities": {"list": {}, "resume": {}, "close": {}, "delete": {},
                                    "fork": {}},
            "_meta": {"sidecar": {"protocolVersion": PROTOCOL_VERSION, "providers": providers,
                                  "methods": EXTRA_METHODS, "compactionUpdates": True}},
        },
        "authMethods": [],
        "agentInfo": {"name": "context-sidecar", "title": "Context Sidecar", "version": __version__},
    }


def session_opened(answer: SessionOpened, *, with_id: bool,
                   listing: ModelList | None = None) -> dict[str, Any]:
    """``session/new`` carries ``sessionId`` at the root; load and resume only in ``_meta``.
    ``modes`` (ACP's session mode state) and ``configOptions`` (the model) are at the root
    of all three."""
    meta = {"sidecar": {"sessionId": answer["sessionId"], "model": answer["model"],
                        "provider": answer["provider"], "gauge": answer["gauge"]}}
    result: dict[str, Any] = {"_meta": meta, "modes": answer["modes"],
                              "configOptions": config_options(answer["provider"], answer["model"], listing)}
    if with_id:
        result["sessionId"] = answer["sessionId"]
    return result


def session_list(sessions: list[SessionSummary], cursor: Any) -> dict[str, Any]:
    """ACP ``SessionInfo`` entries, paged by an opaque offset cursor."""
    start = 0
    if isinstance(cursor, str) and cursor.isdigit():
        start = int(cursor)
    usable = [s for s in sessions if isinstance(s.get("cwd"), str) and s.get("cwd")]
    page = usable[start:start + LIST_PAGE_SIZE]
    out: dict[str, Any] = {"sessions": [_session_info(s) for s in page]}
    if start + LIST_PAGE_SIZE < len(usable):
        out["nextCursor"] = str(start + LIST_PAGE_SIZE)
    return out


def _session_info(summary: SessionSummary) -> dict[str, Any]:
    info: dict[str, Any] = {"sessionId": summary["sessionId"], "cwd": summary["cwd"]}
    if summary.get("title"):
        info["title"] = summary["title"]
    if summary.get("updatedAt"):
        info["updatedAt"] = summary["updatedAt"]
    info["_meta"] = {"sidecar": {"model": summary.get("model"), "provider": summary.get("provider"),
                                 "createdAt": summary.get("createdAt"), "used": summary.get("used"),
                                 "size": summary.get("size")}}
    return info


def prompt_result(answer: PromptResult) -> dict[str, Any]:
    sidecar: dict[str, Any] = {"gauge": answer["gauge"]}
    if "checkpointId" in answer:
        sidecar["checkpointId"] = answer["checkpointId"]
    return {"stopReason": answer["stopReason"], "_meta": {"sidecar": sidecar}}


def fork_params(raw: dict[str, Any]) -> dict[str, Any]:
    """ACP's ``session/fork {sessionId, cwd, mcpServers?, _meta?}`` as the contract's fork:
    the checkpoint, when one is named, in ``_meta.sidecar.checkpointId``."""
    meta = raw.get("_meta")
    sidecar = meta.get("sidecar") if isinstance(meta, dict) else None
    out: dict[str, Any] = {"sessionId": raw.get("sessionId")}
    for source in (raw, sidecar if isinstance(sidecar, dict) else {}):
        for key in ("checkpointId", "title"):
            if key in source:
                out[key] = source[key]
    return out
