"""The editor port over LSP: notifications, permission prompts, edits, progress."""

from __future__ import annotations

import asyncio
import logging
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from sidecar.contract import methods as m
from sidecar.contract.outbound import (
    permission_params,
    session_update_params,
    status_params,
)
from sidecar.contract.updates import SessionUpdate
from sidecar.contract.uris import uri_to_path
from sidecar.core.permissions.choice import PermissionChoice, read_permission_result
from sidecar.lsp.saved_edits import Before, disk_text, land

if TYPE_CHECKING:
    from pygls.lsp.server import LanguageServer

log = logging.getLogger(__name__)
_LEVELS = {"error": types.MessageType.Error, "warning": types.MessageType.Warning,
           "info": types.MessageType.Info}


class LspEditor:
    def __init__(self, server: LanguageServer) -> None:
        self._server = server
        self.permission_requests = False
        self.supports_configuration = False
        self.supports_apply_edit = False
        self.supports_progress = False
        self.supports_show_message_request = False

    def configure(self, caps: types.ClientCapabilities, sidecar_caps: dict[str, Any]) -> None:
        self.permission_requests = bool(sidecar_caps.get("permissionRequests"))
        ws = caps.workspace
        self.supports_configuration = bool(ws and ws.configuration)
        self.supports_apply_edit = bool(ws and ws.apply_edit)
        win = caps.window
        self.supports_progress = bool(win and win.work_done_progress)
        self.supports_show_message_request = bool(win and win.show_message)

    def session_update(self, session_id: str, update: SessionUpdate) -> None:
        self._server.protocol.notify(m.SESSION_UPDATE, session_update_params(session_id, update))

    def status(self, kind: str, busy: bool, message: str) -> None:
        self._server.protocol.notify(m.DID_CHANGE_STATUS, status_params(kind, busy, message))

    def show_message(self, level: str, text: str) -> None:
        log.log(logging.WARNING if level != "info" else logging.INFO, "%s", text)
        self._server.window_show_message(
            types.ShowMessageParams(type=_LEVELS.get(level, types.MessageType.Info), message=text)
        )

    async def request_permission(
        self, session_id: str, tool_call: dict[str, Any], options: list[dict[str, str]]
    ) -> PermissionChoice:
        if self.permission_requests:
            try:
                result = await self._server.protocol.send_request_async(
                    m.SESSION_REQUEST_PERMISSION, permission_params(session_id, tool_call, options))
            except Exception as exc:
                log.warning("permission request failed: %s", exc)
                return PermissionChoice("reject_once")
            return read_permission_result(result, options)
        return PermissionChoice(await self._ask_in_a_message(tool_call, options))

    async def _ask_in_a_message(self, tool_call: dict[str, Any], options: list[dict[str, str]]) -> str:
        """Without permission requests: ``window/showMessageRequest``, one action an option."""
        if self.supports_show_message_request:
            try:
                answer = await self._server.window_show_message_request_async(
                    types.ShowMessageRequestParams(
                        type=types.MessageType.Warning,
                        message=f"Allow {tool_call.get('title')}?",
                        actions=[types.MessageActionItem(title=o["name"]) for o in options],
                    )
                )
            except Exception as exc:
                log.warning("showMessageRequest failed: %s", exc)
                return "reject_once"
            if answer is None:
                return "cancelled"
            title = getattr(answer, "title", None) or (answer.get("title") if isinstance(answer, dict) else None)
            for option in options:
                if option["name"] == title:
                    return option["optionId"]
            return "reject_once"
        return "reject_once"

    async def apply_edit(self, path: Path, new_text: str, label: str, exists: bool) -> bool | None:
        """Apply the change with ``workspace/applyEdit``; an accepted change the editor left
        unsaved is then written to the disk (``sidecar.lsp.saved_edits``)."""
        if not self.supports_apply_edit:
            return None
        before = Before(await asyncio.to_thread(disk_text, path), self.buffer_text(path))
        applied = await self._apply_edit(path, new_text, label, exists)
        if applied:
            await land(path, before, new_text, lambda: self.buffer_text(path))
        return applied

    async def _apply_edit(self, path: Path, new_text: str, label: str, exists: bool) -> bool:
        uri = path.as_uri()
        changes: list[Any] = []
        if not exists:
            changes.append(types.CreateFile(kind="create", uri=uri,
                                            options=types.CreateFileOptions(overwrite=False, ignore_if_exists=True)))
        end = types.Position(line=10**7, character=0)
        changes.append(types.TextDocumentEdit(
            text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=None),
            edits=[types.TextEdit(range=types.Range(start=types.Position(line=0, character=0), end=end),
                                  new_text=new_text)],
        ))
        try:
            result = await self._server.workspace_apply_edit_async(
                types.ApplyWorkspaceEditParams(edit=types.WorkspaceEdit(document_changes=changes), label=label)
            )
        except Exception as exc:
            log.warning("workspace/applyEdit failed: %s", exc)
            return False
        applied = getattr(result, "applied", None)
        if applied is None and isinstance(result, dict):
            applied = result.get("applied")
        return bool(applied)

    def buffer_text(self, path: Path) -> str | None:
        try:
            workspace = self._server.workspace
        except RuntimeError:
            return None
        uri = path.as_uri()
        docs = workspace.text_documents
        if uri in docs:
            return docs[uri].source
        for key, doc in docs.items():  # editors differ in how they escape URIs
            if uri_to_path(key) == path:
                return doc.source
        return None

    async def progress(self, token: str | None, kind: str, title: str, message: str = "",
                       percentage: int | None = None) -> str | None:
        if not self.supports_progress and token is None:
            return None
        try:
            if kind == "begin":
                if token is None:
                    token = f"sidecar-{uuid.uuid4().hex[:8]}"
                    await self._server.work_done_progress.create_async(token)
                self._server.work_done_progress.begin(
                    token, types.WorkDoneProgressBegin(title=title, message=message or None,
                                                       percentage=percentage, cancellable=True))
            elif token is not None and kind == "report":
                self._server.work_done_progress.report(
                    token, types.WorkDoneProgressReport(message=message or None, percentage=percentage))
            elif token is not None and kind == "end":
                self._server.work_done_progress.end(token, types.WorkDoneProgressEnd(message=message or None))
        except Exception as exc:
            log.info("progress %s failed: %s", kind, exc)
            return None
        return token
