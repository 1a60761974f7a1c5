"""The contract's updates that ACP has no kind for, in forms every ACP client shows.

ACP clients deserialize ``session/update`` against the schema's union of kinds, and a strict
one (the TypeScript SDK, Zed's Rust client) refuses a kind it does not know with -32602.
So, as ACP's extensibility rules ask, what the schema lacks travels in its standard kinds
with the sidecar's own fields under ``_meta.sidecar``, or in ``_sidecar/...`` notifications
for clients that ask for them:

- ``retry_update`` -> an ``agent_thought_chunk`` saying what is retried and when
  (``_meta.sidecar.retry``: the contract's fields);
- ``hook_result`` -> a finished ``tool_call`` of kind ``execute`` with what the hook printed
  (``_meta.sidecar.hookResult``);
- ``mcp_status_update`` -> an ``agent_thought_chunk`` when a server connects or fails, and
  the whole list as ``_sidecar/mcpStatus`` to clients that advertise
  ``_meta.sidecar.mcpStatusUpdates``;
- ``compaction_update`` -> a ``tool_call`` of kind ``think`` ("Compacting the
  conversation") and its ``tool_call_update``s, unless the client opted into the draft
  session-compaction updates, which then go out as they are.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sidecar.acp.config_options import Choices, config_option_update
from sidecar.core.conversation.messages import new_uuid

# The update kinds of the ACP schema the sidecar sends as they are.
STANDARD_KINDS = frozenset({
    "user_message_chunk", "agent_message_chunk", "agent_thought_chunk", "tool_call",
    "tool_call_update", "plan", "available_commands_update", "current_mode_update",
    "config_option_update", "session_info_update", "usage_update",
})
MCP_STATUS_NOTIFICATION = "_sidecar/mcpStatus"
SESSION_UPDATE = "session/update"

Outgoing = tuple[str, dict[str, Any]]  # a notification's method and its params


def _text(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def _with_meta(update: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    meta = dict(update.get("_meta") or {})
    meta["sidecar"] = {**dict(meta.get("sidecar") or {}), key: value}
    return {**update, "_meta": meta}


def _fields(update: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in update.items() if k not in ("sessionUpdate", "_meta")}


# The contract's fields on standard kinds that the ACP schema does not have: they go
# under ``_meta.sidecar``.
OWN_FIELDS = ("replay", "permission")


def _standard(update: Mapping[str, Any]) -> dict[str, Any]:
    """A standard kind as ACP spells it: the contract's own fields under ``_meta.sidecar``."""
    out = {k: v for k, v in update.items() if k not in OWN_FIELDS}
    for key in OWN_FIELDS:
        if key in update:
            out = _with_meta(out, key, update[key])
    return out


def retry_text(update: Mapping[str, Any]) -> str:
    attempt = update.get("attempt")
    if update.get("done"):
        return f"The model call went through after {attempt} {'retry' if attempt == 1 else 'retries'}."
    status = update.get("status")
    why = str(update.get("reason") or "the provider did not answer")
    if status and str(status) not in why:
        why += f" ({status})"
    delay = int(update.get("delayMs") or 0)
    wait = f"{delay} ms" if delay < 1000 else f"{delay / 1000:.1f} s"
    return (f"Retrying the model call in {wait} (attempt {attempt} of "
            f"{update.get('maxRetries')}): {why.rstrip('.')}.")


class AcpForms:
    """One connection's translation; it remembers what it started (compactions, servers)."""

    def __init__(self) -> None:
        self.compaction_draft = False  # the client opted into the draft kind
        self.mcp_notifications = False  # the client asked for _sidecar/mcpStatus
        self._compactions: set[str] = set()
        self._servers: dict[tuple[str, str], str] = {}  # (session, server) -> last status
        self._models: dict[str, tuple[str, str]] = {}  # session -> (provider, model) last said
        self.choices: Choices = lambda session_id: None  # what the model option offers

    def outgoing(self, session_id: str, update: Mapping[str, Any]) -> list[Outgoing]:
        kind = update.get("sessionUpdate")
        if kind in STANDARD_KINDS:
            out = [self._update(session_id, _standard(update))]
            if kind == "usage_update":
                out += self._model_change(session_id, update)
            return out
        if kind == "retry_update":
            thought = {"sessionUpdate": "agent_thought_chunk", "content": _text(retry_text(update)),
                       "messageId": new_uuid()}
            return [self._update(session_id, _with_meta(thought, "retry", _fields(update)))]
        if kind == "hook_result":
            return [self._update(session_id, self._hook(update))]
        if kind == "mcp_status_update":
            return self._mcp(session_id, update)
        if kind == "compaction_update":
            if self.compaction_draft:
                return [self._update(session_id, dict(update))]
            return [self._update(session_id, self._compaction(update))]
        return []  # a kind neither ACP nor this translation knows is not sent

    def _model_change(self, session_id: str, update: Mapping[str, Any]) -> list[Outgoing]:
        """A ``config_option_update`` when the gauge names another model than before (a
        ``/model``); the first gauge of a session only sets what its answer said."""
        gauge = ((update.get("_meta") or {}).get("sidecar") or {})
        now = (str(gauge.get("provider")), str(gauge.get("model")))
        if not gauge.get("model") or self._models.get(session_id) == now:
            return []
        before = self._models.get(session_id)
        self._models[session_id] = now
        if before is None:
            return []
        return [self._update(session_id, config_option_update(*now, self.choices(session_id)))]

    @staticmethod
    def _update(session_id: str, update: dict[str, Any]) -> Outgoing:
        return SESSION_UPDATE, {"sessionId": session_id, "update": update}

    @staticmethod
    def _hook(update: Mapping[str, Any]) -> dict[str, Any]:
        code = update.get("exitCode")
        output = str(update.get("output") or "")
        call: dict[str, Any] = {
            "sessionUpdate": "tool_call", "toolCallId": f"hook-{new_uuid()}",
            "title": f"{update.get('event')} hook: {update.get('command')}", "kind": "execute",
            "status": "completed" if code == 0 else "failed",
            "rawInput": {"command": update.get("command")},
            "content": [{"type": "content", "content": _text(
                output or ("(no output)" if code == 0 else f"exit code {code}"))}],
        }
        return _with_meta(call, "hookResult", _fields(update))

    def _mcp(self, session_id: str, update: Mapping[str, Any]) -> list[Outgoing]:
        out: list[Outgoing] = []
        servers = update.get("servers") or []
        if self.mcp_notifications:
            out.append((MCP_STATUS_NOTIFICATION, {"sessionId": session_id, "servers": servers}))
        lines = []
        for server in servers:
            name, status = str(server.get("name")), str(server.get("status"))
            if self._servers.get((session_id, name)) == status:
                continue
            self._servers[(session_id, name)] = status
            if status == "connected":
                lines.append(f"MCP server '{name}' connected ({len(server.get('tools') or [])} tools).")
            elif status == "failed":
                lines.append(f"MCP server '{name}' is not available: {server.get('error') or 'failed'}.")
        if lines:
            thought = {"sessionUpdate": "agent_thought_chunk", "content": _text("\n".join(lines)),
                       "messageId": new_uuid()}
            out.append(self._update(session_id, _with_meta(thought, "mcpServers", servers)))
        return out

    def _compaction(self, update: Mapping[str, Any]) -> dict[str, Any]:
        cid = str(update.get("compactionId"))
        status = update.get("status")
        state = {"in_progress": "in_progress", "completed": "completed"}.get(str(status), "failed")
        before, after = update.get("tokensBefore"), update.get("tokensAfter")
        if status == "completed" and before is not None and after is not None:
            text = f"Context compacted ({update.get('tier')}): {before:,} -> {after:,} tokens."
        elif status == "in_progress":
            text = f"Compacting the conversation ({update.get('trigger')})..."
        elif status == "cancelled":
            text = "Compaction cancelled."
        else:
            text = f"Compaction failed: {update.get('error') or 'unknown error'}"
        body: dict[str, Any] = {"toolCallId": f"compaction-{cid}", "status": state,
                                "content": [{"type": "content", "content": _text(text)}]}
        if cid in self._compactions:
            body = {"sessionUpdate": "tool_call_update", **body}
        else:
            self._compactions.add(cid)
            body = {"sessionUpdate": "tool_call", **body, "kind": "think",
                    "title": f"Compacting the conversation ({update.get('trigger')})"}
        if state != "in_progress":
            self._compactions.discard(cid)
        return _with_meta(body, "compaction", _fields(update))
