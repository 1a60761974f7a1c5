"""An ACP client (the agent-client-protocol SDK's) that records what the sidecar sends.

Every ``session/update`` is kept twice: raw, as it crossed the wire (an observer on the
connection), and as the SDK parsed it. An update the SDK's schema rejects never reaches
``session_update``, so comparing the two catches payloads that stray from ACP.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator, Callable

from acp import PROTOCOL_VERSION, spawn_agent_process
from acp.connection import StreamDirection, StreamEvent
from acp.schema import (
    AllowedOutcome,
    ClientCapabilities,
    DeniedOutcome,
    FileSystemCapabilities,
    Implementation,
    InitializeResponse,
    ReadTextFileResponse,
    RequestPermissionResponse,
    WriteTextFileResponse,
)

from tests.acp_conformance import Conformance

KEY_ENV = "FAKE_LLM_KEY"
AGENT = [sys.executable, "-m", "sidecar", "serve", "--acp"]


def acp_env(store: Path, fake_url: str, log: Path,
            settings: dict[str, Any] | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env[KEY_ENV] = "test"
    env["CONTEXT_SIDECAR_LOG_FILE"] = str(log)
    env["XDG_CONFIG_HOME"] = str(store.parent / "config")  # no user settings file leaks in
    env["CONTEXT_SIDECAR_SETTINGS"] = json.dumps({
        "provider": "anthropic", "model": "claude-sonnet-5-5", "baseUrl": fake_url,
        "apiKeyEnv": KEY_ENV, "storageDir": str(store),
        "retry": {"maxRetries": 1, "baseDelayMs": 10, "maxDelayMs": 50},
        **(settings or {}),
    })
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    return env


class RecordingClient:
    """The client half: answers permission and file requests, records updates."""

    def __init__(self) -> None:
        self.typed: list[tuple[str, Any]] = []
        self.raw: list[dict[str, Any]] = []  # params of every session/update, wire order
        self.wire: list[dict[str, Any]] = []  # every incoming message, wire order
        self.outgoing: list[dict[str, Any]] = []
        self.permission_requests: list[Any] = []
        self.permission_answer: str = "allow_once"  # an optionId, or "cancelled"
        self.writes: list[tuple[str, str]] = []
        self.reads: list[str] = []
        self.buffers: dict[str, str] = {}  # what the "editor" holds, unsaved
        self.changed = asyncio.Event()
        self.mcp: list[dict[str, Any]] = []  # _sidecar/mcpStatus, for a client that asks
        # Every message the agent sends, judged by the official schema.
        self.conformance = Conformance()

    # --- the SDK's Client interface ---

    async def request_permission(self, options: list[Any], session_id: str, tool_call: Any,
                                 **kwargs: Any) -> RequestPermissionResponse:
        self.permission_requests.append({"sessionId": session_id, "toolCall": tool_call, "options": options})
        if self.permission_answer == "cancelled":
            return RequestPermissionResponse(outcome=DeniedOutcome(outcome="cancelled"))
        return RequestPermissionResponse(outcome=AllowedOutcome(outcome="selected", option_id=self.permission_answer))

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        self.typed.append((session_id, update))

    async def write_text_file(self, content: str, path: str, session_id: str, **kwargs: Any) -> WriteTextFileResponse:
        self.writes.append((path, content))
        self.buffers[path] = content
        return WriteTextFileResponse()

    async def read_text_file(self, path: str, session_id: str, limit: int | None = None, line: int | None = None,
                             **kwargs: Any) -> ReadTextFileResponse:
        self.reads.append(path)
        if path in self.buffers:
            return ReadTextFileResponse(content=self.buffers[path])
        return ReadTextFileResponse(content=Path(path).read_text())

    # --- the wire ---

    def observe(self, event: StreamEvent) -> None:
        message = event.message
        if event.direction is StreamDirection.OUTGOING:
            self.conformance.client(message)
            self.outgoing.append(message)
            return
        self.conformance.agent(message)
        self.wire.append(message)
        if message.get("method") == "session/update":
            self.raw.append(message["params"])
        elif message.get("method") == "_sidecar/mcpStatus":
            self.mcp.append(message["params"])
        self.changed.set()

    def updates(self, session_id: str, kind: str | None = None) -> list[dict[str, Any]]:
        return [p["update"] for p in self.raw if p["sessionId"] == session_id
                and (kind is None or p["update"].get("sessionUpdate") == kind)]

    def mcp_status(self, session_id: str) -> list[list[dict[str, Any]]]:
        """Each ``_sidecar/mcpStatus`` server list sent for the session."""
        return [p["servers"] for p in self.mcp if p["sessionId"] == session_id]

    def typed_for(self, session_id: str) -> list[Any]:
        return [u for sid, u in self.typed if sid == session_id]

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 10.0) -> Any:
        async def loop() -> Any:
            while True:
                value = predicate()
                if value:
                    return value
                self.changed.clear()
                await self.changed.wait()

        return await asyncio.wait_for(loop(), timeout)

    def outgoing_id(self, method: str) -> Any:
        """The id of the last request of ``method`` this client sent."""
        return next(m["id"] for m in reversed(self.outgoing) if m.get("method") == method and "id" in m)


@asynccontextmanager
async def acp_agent(store: Path, fake_url: str, log: Path, *, meta: dict[str, Any] | None = None,
                    settings: dict[str, Any] | None = None,
                    ) -> AsyncIterator[tuple[Any, RecordingClient, InitializeResponse]]:
    """A sidecar started with ``serve --acp``, initialized; yields (connection, client, init answer).
    ``settings`` are laid over the defaults above."""
    client = RecordingClient()
    if (meta or {}).get("compactionUpdates"):  # the draft kind, for a client that opts in
        client.conformance = Conformance(drafts=frozenset({"compaction_update"}))
    stderr = open(log.with_suffix(".stderr"), "wb")  # noqa: SIM115 - closed below
    try:
        async with spawn_agent_process(client, *AGENT, env=acp_env(store, fake_url, log, settings),
                                       transport_kwargs={"stderr": stderr.fileno()},
                                       observers=[client.observe]) as (conn, _process):
            caps = ClientCapabilities(fs=FileSystemCapabilities(read_text_file=True, write_text_file=True),
                                      field_meta={"sidecar": meta} if meta else None)
            init = await asyncio.wait_for(conn.initialize(
                protocol_version=PROTOCOL_VERSION, client_capabilities=caps,
                client_info=Implementation(name="acp-test", title="ACP test", version="1")), 30)
            yield conn, client, init
        assert not client.conformance.violations, (
            "the agent sent messages the official ACP schema refuses:\n"
            + "\n".join(client.conformance.violations[:10]))
    finally:
        stderr.close()
