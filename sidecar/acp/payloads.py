"""ACP shapes of what the session service answers: standard fields at the root, ours under ``_meta.sidecar``."""

from __future__ import annotations

from typing import Any

from sidecar import PROTOCOL_VERSION, __version__

ACP_PROTOCOL_VERSION = 1
LIST_PAGE_SIZE = 100
EXTRA_METHODS = ["_sidecar/gauge", "_sidecar/compact", "_sidecar/context", "_sidecar/history/list",
                 "_sidecar/history/undo", "_sidecar/set_model"]


def initialize_result(providers: list[str]) -> dict[str, Any]:
    return {
        "protocolVersion": ACP_PROTOCOL_VERSION,
        "agentCapabilities": {
            "loadSession": True,
            # Images go to the model as image blocks; whether the model reads them is its
            # business. Audio has no place in the transcript schema.
            "promptCapabilities": {"image": True, "audio": False, "embeddedContext": True},
            "mcpCapabilities": {"http": False, "sse": False},
            "sessionCapabilities": {"list": {}, "resume": {}, "close": {}, "delete": {}},
            "_meta": {"sidecar": {"protocolVersion": PROTOCOL_VERSION, "providers": providers,
                                  "methods": EXTRA_METHODS, "compactionUpdates": True}},
        },
        "authMethods": [],
        "agentInfo": {"name": "context-sidecar", "title": "Context Sidecar", "version": __version__},
    }


def session_opened(answer: dict[str, Any], *, with_id: bool) -> dict[str, Any]:
    """``session/new`` carries ``sessionId`` at the root; load and resume only in ``_meta``."""
    meta = {"sidecar": {"sessionId": answer["sessionId"], "model": answer["model"],
                        "provider": answer["provider"], "gauge": answer["gauge"]}}
    result: dict[str, Any] = {"_meta": meta}
    if with_id:
        result["sessionId"] = answer["sessionId"]
    return result


def session_list(sessions: list[dict[str, Any]], cursor: Any) -> dict[str, Any]:
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


def _session_info(summary: dict[str, Any]) -> dict[str, Any]:
    info: dict[str, Any] = {"sessionId": summary["sessionId"], "cwd": summary["cwd"]}
    if summary.get("title"):
        info["title"] = summary["title"]
    if summary.get("updatedAt"):
        info["updatedAt"] = summary["updatedAt"]
    info["_meta"] = {"sidecar": {k: summary.get(k) for k in ("model", "provider", "createdAt", "used", "size")}}
    return info


def prompt_result(answer: dict[str, Any]) -> dict[str, Any]:
    return {"stopReason": answer["stopReason"], "_meta": {"sidecar": {"gauge": answer["gauge"]}}}
