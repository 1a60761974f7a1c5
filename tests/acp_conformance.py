"""Every message the sidecar sends over ACP, judged by the official schema.

The oracle is the ``agent-client-protocol`` SDK's own pydantic models, not our reading of
the protocol: a ``session/update`` is a ``SessionNotification``, a permission request a
``RequestPermissionRequest``, the answer to ``session/new`` a ``NewSessionResponse``, and so
on. ACP's extensibility rules allow more only in ``_meta`` and in methods whose names start
with ``_``; anything else the schema does not define is a violation.

Tests that drive ``serve --acp`` feed every line the agent wrote to ``Conformance.agent``
(and every line the client wrote to ``Conformance.client``, so that answers are matched to
the method they answer). The counts of the whole run are printed at its end.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from acp import schema
from acp.meta import CLIENT_METHODS
from pydantic import BaseModel, ValidationError

# The answer to each request a client sends the agent.
RESPONSES: dict[str, type[BaseModel]] = {
    "initialize": schema.InitializeResponse,
    "authenticate": schema.AuthenticateResponse,
    "session/new": schema.NewSessionResponse,
    "session/load": schema.LoadSessionResponse,
    "session/resume": schema.ResumeSessionResponse,
    "session/list": schema.ListSessionsResponse,
    "session/close": schema.CloseSessionResponse,
    "session/delete": schema.DeleteSessionResponse,
    "session/prompt": schema.PromptResponse,
    "session/set_mode": schema.SetSessionModeResponse,
    "session/set_config_option": schema.SetSessionConfigOptionResponse,
    "session/fork": schema.ForkSessionResponse,
    "logout": schema.LogoutResponse,
}
# What the agent may send the client, by method.
REQUESTS: dict[str, type[BaseModel]] = {
    "session/request_permission": schema.RequestPermissionRequest,
    "fs/read_text_file": schema.ReadTextFileRequest,
    "fs/write_text_file": schema.WriteTextFileRequest,
    "terminal/create": schema.CreateTerminalRequest,
    "terminal/output": schema.TerminalOutputRequest,
    "terminal/release": schema.ReleaseTerminalRequest,
    "terminal/wait_for_exit": schema.WaitForTerminalExitRequest,
    "terminal/kill": schema.KillTerminalRequest,
}
NOTIFICATIONS: dict[str, type[BaseModel]] = {"session/update": schema.SessionNotification}
# Draft update kinds a client may opt into (its capabilities say so): sent only then.
DRAFT_KINDS = frozenset({"compaction_update"})


class Totals:
    """The whole run's counts, for the closing line."""

    checked: Counter[str] = Counter()
    violations: list[str] = []


def _kind(message: dict[str, Any], answered: str | None) -> str:
    if "method" in message:
        method = str(message["method"])
        if method == "session/update":
            update = (message.get("params") or {}).get("update") or {}
            return f"session/update {update.get('sessionUpdate')}"
        return method
    if "error" in message:
        return f"error answer to {answered}"
    return f"answer to {answered}"


class Conformance:
    """One connection's check: which requests the client sent, and what the agent sent back."""

    def __init__(self, drafts: frozenset[str] = frozenset()) -> None:
        self.pending: dict[Any, str] = {}  # id of a client request -> its method
        self.drafts = drafts & DRAFT_KINDS  # the draft kinds this client opted into
        self.violations: list[str] = []
        self.checked = 0

    def client(self, message: Any) -> None:
        """A message the client sent: its requests' ids, to match their answers."""
        if isinstance(message, dict) and "method" in message and "id" in message:
            self.pending[_id_key(message["id"])] = str(message["method"])

    def agent(self, message: Any) -> None:
        """A message the agent sent: judged, counted, and any violation kept."""
        answered: str | None = None
        if isinstance(message, dict) and "method" not in message and "id" in message:
            answered = self.pending.pop(_id_key(message["id"]), None)
        why = self._judge(message, answered)
        kind = _kind(message, answered) if isinstance(message, dict) else "not an object"
        self.checked += 1
        Totals.checked[kind] += 1
        if why is not None:
            text = f"{kind}: {why}\n  message: {str(message)[:600]}"
            self.violations.append(text)
            Totals.violations.append(text)

    def _judge(self, message: Any, answered: str | None) -> str | None:
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            return "not a JSON-RPC 2.0 object"
        if "method" in message:
            method = str(message["method"])
            if method.startswith("_"):
                return None  # an extension, as ACP's extensibility rules allow
            model = REQUESTS.get(method) if "id" in message else NOTIFICATIONS.get(method)
            if model is None:
                known = set(CLIENT_METHODS.values())
                return (f"{'request' if 'id' in message else 'notification'} {method!r} is not "
                        f"one the schema lets an agent send" + ("" if method in known else
                                                                 " (no such method)"))
            params = message.get("params")
            if method == "session/update" and isinstance(params, dict):
                kind = (params.get("update") or {}).get("sessionUpdate")
                if kind in self.drafts:
                    return None
                why = _validate(model, params)
                return why if why is not None else _extra_fields(params.get("update"))
            return _validate(model, params)
        if "error" in message:
            error = message["error"]
            if not (isinstance(error, dict) and isinstance(error.get("code"), int)
                    and isinstance(error.get("message"), str)):
                return "an error without an integer code and a message"
            return None
        if "result" not in message:
            return "neither a request, a notification, a result nor an error"
        if answered is None:
            return None  # an answer to a request this check did not see (a raw test's id)
        if answered.startswith("_"):
            return None
        model = RESPONSES.get(answered)
        if model is None:
            # A method the schema lacks (a client calling an older draft's session/set_model,
            # say) is the client's choice; the answer carries no name of ours.
            return None
        return _validate(model, message["result"])


def _update_models() -> dict[str, type[BaseModel]]:
    """Each ``sessionUpdate`` kind's model, read off the schema's union."""
    from typing import get_args

    union = schema.SessionNotification.model_fields["update"].annotation
    out: dict[str, type[BaseModel]] = {}
    for model in get_args(union):
        field = model.model_fields.get("session_update")
        for kind in get_args(field.annotation) if field is not None else ():
            out[kind] = model
    return out


UPDATE_MODELS = _update_models()


def _extra_fields(update: Any) -> str | None:
    """Fields the update's kind does not define: ACP puts extra data in ``_meta`` only (a
    client may drop or refuse the rest)."""
    model = UPDATE_MODELS.get(update.get("sessionUpdate")) if isinstance(update, dict) else None
    if model is None:
        return None
    known = {f.alias or name for name, f in model.model_fields.items()}
    extra = sorted(set(update) - known - {"sessionUpdate", "_meta"})
    return f"fields the schema does not define: {', '.join(extra)} (extra data goes in _meta)" if extra else None


def _id_key(value: Any) -> str:
    return f"{type(value).__name__}:{value}"


def _validate(model: type[BaseModel], value: Any) -> str | None:
    try:
        model.model_validate(value)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        return f"{model.__name__} refuses it at {where or 'the top'}: {first.get('msg')}"
    return None


def summary_line(checked: Counter[str], violations: int) -> str | None:
    """The run's closing line: how many messages of which kinds were judged."""
    total = sum(checked.values())
    if not total:
        return None
    kinds = ", ".join(f"{k} {n}" for k, n in checked.most_common(25))
    more = len(checked) - 25
    return (f"ACP wire: {total:,} messages from the agent validated against the official "
            f"schema (agent-client-protocol {_sdk_version()}), {violations} violations; "
            f"by kind: {kinds}{f' and {more} more kinds' if more > 0 else ''}")


def _sdk_version() -> str:
    from importlib.metadata import version

    return version("agent-client-protocol")
