"""The context report (``sidecar/context``, ``/context``): what fills a session's window,
counted exactly where the provider can, with what the workspace contributes or withholds."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Mapping, cast

from sidecar.contract.params import SessionParams
from sidecar.contract.results import ContextView, SkillInfo
from sidecar.core.conversation.normalize import normalize_for_api
from sidecar.core.ports import McpServers, WorkspaceWatcher
from sidecar.core.secrets.redacting import redacting_errors
from sidecar.core.workspace.editor_context import editor_context_view

if TYPE_CHECKING:
    from sidecar.core.models.session_models import SessionModels
    from sidecar.core.session import Session
    from sidecar.core.stores import Stores
    from sidecar.core.workspace.trust import TrustBook

log = logging.getLogger(__name__)


@redacting_errors
class ContextReport:
    def __init__(self, *, get: Callable[[str], Session], trust: TrustBook,
                 watchers: Mapping[str, WorkspaceWatcher], stores: Stores,
                 models: SessionModels, mcp: McpServers,
                 ready: Callable[[], Awaitable[None]]) -> None:
        self._get = get
        self._trust = trust
        self._watchers = watchers
        self._stores = stores
        self._models = models
        self._mcp = mcp
        self._ready = ready

    async def context_view(self, p: SessionParams) -> ContextView:
        """``sidecar/context``."""
        return await self.view(self._get(p.session_id))

    async def view(self, session: Session) -> ContextView:
        from sidecar.core.accounting.context_view import withheld_view

        trust, skipped, withheld = await asyncio.to_thread(
            withheld_view, self._trust, session.settings, session.info.cwd)
        prefix: dict[str, Any] = {"parts": session.prefix_parts(), "memoryFiles": []}
        if session.prefix_view is not None:
            prefix["memoryFiles"] = session.prefix_view.memory_files()
        messages = [m.to_json() for m in normalize_for_api(session.transcript.since_boundary(),
                                                           session.offering.names())]
        watcher = self._watchers.get(session.info.cwd)
        return cast(ContextView, {
            "gauge": session.gauge(bump=False),
            "exact": await self._exact_count(session),
            "watcher": watcher.mode if watcher is not None else "off",
            "prefix": prefix,
            "fileReadState": session.file_state.snapshot(),
            "messages": messages,
            "storage": self._stores.view(session.id),
            "lastCompaction": session.transcript.last_compaction(),
            "editorContext": editor_context_view(session),
            "modelStatus": self._models.status(session).to_json(self._models.today()),
            "skills": await self.skills(session),
            "mcpServers": self._mcp.statuses(session),
            "skippedHookFiles": skipped,
            "workspaceTrust": {"trusted": trust.trusted, "source": trust.source,
                               "withheld": withheld},
            "memory": await _memory(session),
            "serverTools": [{"tool": o.tool, "offered": o.offered, "reason": o.reason}
                            for o in session.requests.server_tools()],
        })

    async def skills(self, session: Session) -> list[SkillInfo]:
        """The workspace's and the user's skills, and whether this session loaded each."""
        from sidecar.core.workspace.skills import discover_skills, invoked_skill_names

        skills = await asyncio.to_thread(discover_skills, Path(session.info.cwd), Path.home())
        invoked = set(invoked_skill_names(session.transcript.records))
        return [{"name": s.name, "description": s.description, "source": s.source,
                 "invoked": s.name in invoked} for s in skills]

    async def _exact_count(self, session: Session) -> dict[str, Any] | None:
        """The next request counted exactly: the provider's count-tokens endpoint where it
        has one, else tiktoken over the request's text; None when neither is available."""
        await self._ready()
        # Labelled a count: it is no turn of the conversation, so the prefix rules of the
        # conversation's own requests do not apply to it.
        request = session.requests.build(call="count")
        try:
            counted = await asyncio.wait_for(session.provider().count_tokens(request), 10)
            if counted is not None:
                return {"tokens": int(counted), "source": "count_tokens"}
        except Exception as exc:  # no key, provider down: the estimate stands
            log.info("count_tokens unavailable: %s", exc)
        from sidecar.core.accounting.tokens import load_encoding

        enc = load_encoding(session.info.model)
        if enc is None:
            return None
        text = json.dumps([b for b in request.system]) + json.dumps(
            [s.__dict__ for s in request.tools]) + json.dumps([m.to_json() for m in request.messages])
        return {"tokens": len(enc.encode_ordinary(text)), "source": f"tiktoken:{enc.name}"}


async def _memory(session: Session) -> dict[str, Any] | None:
    """The memory tool's folder and files, when the session has the tool."""
    for tool in session.tools:
        listed = getattr(tool, "folder_listing", None)
        if callable(listed):
            return cast(dict[str, Any], await asyncio.to_thread(
                listed, session.settings, session.info.cwd))
    return None
