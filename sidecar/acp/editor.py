"""The editor port over ACP: session updates, permission requests, and the client's file system.

What differs from LSP, and why:

- Strict clients refuse an update kind the ACP schema does not define, so the contract's
  own kinds (retries, hook output, MCP status, compaction progress) travel in standard
  kinds with our fields under ``_meta.sidecar`` (sidecar.acp.extensions). The draft
  ``compaction_update`` goes out as it is only to clients that opt in
  (``clientCapabilities.session.compaction``, or ``_meta.sidecar.compactionUpdates``);
  ``_sidecar/mcpStatus`` only to clients that advertise ``_meta.sidecar.mcpStatusUpdates``.
- ACP has no status bar or message window. Status goes to the log, and to
  ``_sidecar/didChangeStatus`` for clients that advertise ``_meta.sidecar.status``. Warnings
  go to ``_sidecar/showMessage`` for clients that advertise ``_meta.sidecar.showMessage``;
  otherwise they are shown as agent text in the session at hand, or held until a session
  exists, so a warning is never silently dropped.
- Edits go through ``fs/write_text_file`` (the client puts them in its buffer) when the
  client offers ``fs.writeTextFile``; otherwise the core writes the file itself.
- Buffers: ``buffer_text`` is synchronous in the port, but ``fs/read_text_file`` is a
  request to the client, and the port is called on the event loop that must carry the
  answer, so it cannot wait for it. The transport therefore keeps a cache of the text it
  knows to be in the client's buffers: documents the client pushes with the (unstable)
  ``document/didOpen|didChange|didClose`` notifications, texts it wrote with
  ``fs/write_text_file``, and answers to ``fs/read_text_file``. ``read_buffer`` is the
  asynchronous path that asks the client and refreshes the cache; tools use it once the
  core's tool context prefers it (see docs/acp.md). Everything else (compaction's re-read of
  recent files) uses the cache and falls back to the disk.

Requests to the client need a ``sessionId`` that the port's ``apply_edit`` and
``buffer_text`` do not carry, so each request handler records its session in
``current_session``; tasks the turn spawns inherit it.
"""

from __future__ import annotations

import logging
from contextvars import ContextVar
from pathlib import Path
from typing import Any, Mapping

from sidecar.acp import payloads
from sidecar.acp.extensions import AcpForms
from sidecar.acp.rpc import JsonRpcPeer, OutgoingCancelled, PeerClosed, RemoteError
from sidecar.contract import methods as m
from sidecar.contract.outbound import (
    permission_params,
    status_params,
)
from sidecar.contract.updates import agent_message_chunk
from sidecar.core.commands import input_hint
from sidecar.core.conversation.messages import json_object, new_uuid
from sidecar.core.permissions.choice import PermissionChoice, read_permission_result

log = logging.getLogger(__name__)

current_session: ContextVar[str | None] = ContextVar("acp_current_session", default=None)


class HeldUpdates:
    """A request's session updates, held until its answer is sent (see AcpServer._deferred).
    Once released, updates pass straight through: tasks the request started (its
    SessionStart hooks, say) keep its context, and must not feed a list sent already."""

    def __init__(self) -> None:
        self.items: list[tuple[str, Mapping[str, Any]]] = []
        self.released = False


# Set by a request whose updates must follow its answer.
_deferred: ContextVar[HeldUpdates | None] = ContextVar("acp_deferred", default=None)

# What a ``session/resume`` leaves out: the transcript replay, not the gauge or commands.
REPLAY_KINDS = frozenset({"user_message_chunk", "agent_message_chunk", "agent_thought_chunk",
                          "tool_call", "tool_call_update"})
_LOG_LEVELS = {"error": logging.ERROR, "warning": logging.WARNING}


class AcpEditor:
    def __init__(self, peer: JsonRpcPeer) -> None:
        self._peer = peer
        self.can_read = False
        self.can_write = False
        self.forms = AcpForms()
        self.status_notifications = False
        self.message_notifications = False
        self.buffers: dict[Path, str] = {}
        self.pushed: set[Path] = set()  # documents the client keeps us informed about
        self.muted: set[str] = set()
        self.held_messages: list[str] = []

    def configure(self, client_capabilities: Any) -> None:
        caps = json_object(client_capabilities)
        fs = json_object(caps.get("fs"))
        self.can_read = bool(fs.get("readTextFile"))
        self.can_write = bool(fs.get("writeTextFile"))
        ours = json_object(json_object(caps.get("_meta")).get("sidecar"))
        session = json_object(caps.get("session"))
        self.forms.compaction_draft = bool(ours.get("compactionUpdates")) or isinstance(
            session.get("compaction"), dict)
        self.forms.mcp_notifications = bool(ours.get("mcpStatusUpdates"))
        self.status_notifications = bool(ours.get("status"))
        self.message_notifications = bool(ours.get("showMessage"))

    # ----- notifications ------------------------------------------------------------

    def session_update(self, session_id: str, update: Mapping[str, Any]) -> None:
        kind = update.get("sessionUpdate")
        if session_id in self.muted and (kind in REPLAY_KINDS or update.get("replay")):
            return
        if kind == "available_commands_update":
            update = {**update, "availableCommands": [_command(c) for c in update.get("availableCommands") or []]}
        held = _deferred.get()
        if held is not None and not held.released:
            held.items.append((session_id, update))
            return
        self.send_now(session_id, update)

    def send_now(self, session_id: str, update: Mapping[str, Any]) -> None:
        """The update in the forms the ACP schema defines (see sidecar.acp.extensions)."""
        for method, params in self.forms.outgoing(session_id, update):
            self._peer.notify(method, params)

    def defer(self, buffer: HeldUpdates) -> None:
        """Hold this task's session updates in ``buffer`` (the caller sends them later)."""
        _deferred.set(buffer)

    def status(self, kind: str, busy: bool, message: str) -> None:
        log.log(logging.WARNING if kind in ("warning", "error") else logging.DEBUG, "status %s: %s", kind, message)
        if self.status_notifications:
            self._peer.notify(payloads.STATUS_NOTIFICATION, status_params(kind, busy, message))

    def show_message(self, level: str, text: str) -> None:
        log.log(_LOG_LEVELS.get(level, logging.INFO), "%s", text)
        if self.message_notifications:
            self._peer.notify(payloads.SHOW_MESSAGE_NOTIFICATION, {"level": level, "message": text})
            return
        if level not in _LOG_LEVELS:
            return
        session_id = current_session.get()
        if session_id is None:
            self.held_messages.append(text)
            return
        self._say(session_id, text)

    def flush_held_messages(self, session_id: str) -> None:
        """Warnings raised before any session existed (settings) go to the first one."""
        held, self.held_messages = self.held_messages, []
        for text in held:
            self._say(session_id, text)

    def _say(self, session_id: str, text: str) -> None:
        self.session_update(session_id, agent_message_chunk(f"\u26a0 {text}\n\n", new_uuid()))

    async def progress(self, token: str | None, kind: str, title: str, message: str = "",
                       percentage: int | None = None) -> str | None:
        return None  # ACP has no work-done progress; compaction_update and usage_update say it

    # ----- requests to the client ---------------------------------------------------

    async def request_permission(
        self, session_id: str, tool_call: dict[str, Any], options: list[dict[str, str]]
    ) -> PermissionChoice:
        try:
            result = await self._peer.request(
                m.SESSION_REQUEST_PERMISSION, permission_params(session_id, tool_call, options),
                tag=session_id)
        except OutgoingCancelled:
            return PermissionChoice("cancelled")
        except (RemoteError, PeerClosed) as exc:
            log.warning("permission request failed: %s", exc)
            return PermissionChoice("reject_once")
        return read_permission_result(result, options)

    async def apply_edit(self, path: Path, new_text: str, label: str, exists: bool) -> bool | None:
        session_id = current_session.get()
        if not self.can_write or session_id is None:
            return None
        try:
            await self._peer.request("fs/write_text_file",
                                     {"sessionId": session_id, "path": str(path), "content": new_text},
                                     tag=session_id)
        except (RemoteError, PeerClosed, OutgoingCancelled) as exc:
            log.warning("fs/write_text_file %s failed: %s", path, exc)
            return False
        self.buffers[path] = new_text
        return True

    def buffer_text(self, path: Path) -> str | None:
        return self.buffers.get(path)

    async def read_buffer(self, path: Path) -> str | None:
        """The client's current text of ``path`` (its buffer, else its disk), when it reads files."""
        session_id = current_session.get()
        if path in self.pushed or not self.can_read or session_id is None:
            return self.buffers.get(path)
        try:
            result = await self._peer.request("fs/read_text_file",
                                              {"sessionId": session_id, "path": str(path)}, tag=session_id)
        except (RemoteError, PeerClosed, OutgoingCancelled) as exc:
            # A missing file answers an error; the tool then reads the disk and says so.
            log.info("fs/read_text_file %s: %s", path, exc)
            self.buffers.pop(path, None)
            return None
        content = result.get("content") if isinstance(result, dict) else None
        if not isinstance(content, str):
            return None
        self.buffers[path] = content
        return content

    # ----- documents the client pushes ----------------------------------------------

    def document_opened(self, path: Path, text: str) -> None:
        self.pushed.add(path)
        self.buffers[path] = text

    def document_closed(self, path: Path) -> None:
        self.pushed.discard(path)
        self.buffers.pop(path, None)


def _command(command: dict[str, Any]) -> dict[str, Any]:
    out = {"name": command["name"], "description": command.get("description", "")}
    hint = input_hint(command["name"])
    if hint:
        out["input"] = {"hint": hint}
    return out
