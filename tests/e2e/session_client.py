"""A pytest-lsp client wired to the real sidecar and the in-process fake LLM server."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any, Callable

from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.e2e.conftest import KEY_ENV, client_capabilities, raw_json

os.environ.setdefault(KEY_ENV, "test-key")
SERVER = [sys.executable, "-m", "sidecar", "serve", "--stdio"]


def settings_for(provider: str, url: str, store: Path, **extra: Any) -> dict[str, Any]:
    """Settings for the fake at ``url``: ``openai`` speaks the Responses API there,
    ``openai-compatible`` Chat Completions."""
    base = {
        "anthropic": {"provider": "anthropic", "model": "claude-sonnet-5-5", "baseUrl": url},
        "openai": {"provider": "openai", "model": "gpt-4o", "baseUrl": url + "/v1"},
        "openai-compatible": {"provider": "openai-compatible", "model": "gpt-4o",
                              "baseUrl": url + "/v1"},
    }[provider]
    return {**base, "apiKeyEnv": KEY_ENV, "storageDir": str(store),
            "retry": {"maxRetries": 2, "baseDelayMs": 10, "maxDelayMs": 50}, **extra}


class Recorder:
    """Collects what the server sends and answers its requests."""

    def __init__(self, client: LanguageClient) -> None:
        self.updates: list[dict[str, Any]] = []
        self.edits: list[Any] = []
        self.status: list[dict[str, Any]] = []
        self.permission_answer: Callable[[dict[str, Any]], Any] = lambda p: {
            "outcome": {"outcome": "selected", "optionId": "allow_once"}}
        self.permission_requests: list[dict[str, Any]] = []
        self.update_event = asyncio.Event()
        # False: like an editor that keeps an applied edit in an unsaved buffer.
        self.saves_edits = True

        @client.feature("session/update")
        def on_update(params: Any) -> None:
            self.updates.append(params["update"])
            self.update_event.set()

        @client.feature("sidecar/didChangeStatus")
        def on_status(params: Any) -> None:
            self.status.append(params)

        @client.feature("session/request_permission")
        async def on_permission(params: Any) -> Any:
            self.permission_requests.append(params)
            answer = self.permission_answer(params)
            if asyncio.iscoroutine(answer):
                answer = await answer
            return answer

        @client.feature(types.WORKSPACE_APPLY_EDIT)
        def on_edit(params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
            self.edits.append(params)
            for change in params.edit.document_changes or [] if self.saves_edits else []:
                if isinstance(change, types.TextDocumentEdit):
                    path = Path(change.text_document.uri.removeprefix("file://"))
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_text(change.edits[0].new_text)
            return types.ApplyWorkspaceEditResult(applied=True)

    def reset(self) -> None:
        self.updates.clear()
        self.edits.clear()
        self.status.clear()
        self.permission_requests.clear()
        self.saves_edits = True
        self.permission_answer = lambda p: {"outcome": {"outcome": "selected", "optionId": "allow_once"}}

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [u for u in self.updates if u.get("sessionUpdate") == kind]

    def text(self) -> str:
        return "".join(u["content"]["text"] for u in self.of("agent_message_chunk"))

    async def wait_for(self, pred: Callable[[], bool], timeout: float = 10) -> None:
        deadline = asyncio.get_running_loop().time() + timeout
        while not pred():
            self.update_event.clear()
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                raise TimeoutError("condition not met")
            try:
                await asyncio.wait_for(self.update_event.wait(), min(left, 0.2))
            except asyncio.TimeoutError:
                pass


async def initialize(client: LanguageClient, settings: dict[str, Any], root: Path | None = None,
                     permission: bool = True, trusted: bool | None = None) -> Recorder:
    """``trusted``: the editor's verdict on the workspace (absent when None)."""
    raw_json(client)
    rec = Recorder(client)
    options: dict[str, Any] = {"settings": settings}
    if trusted is not None:
        options["workspaceTrusted"] = trusted
    await client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities(permission),
        root_uri=root.as_uri() if root else None,
        initialization_options=options,
    ))
    return rec


async def call(client: LanguageClient, method: str, params: Any) -> Any:
    return await client.protocol.send_request_async(method, params)


async def prompt(client: LanguageClient, session_id: str, text: str) -> Any:
    return await call(client, "session/prompt", {"sessionId": session_id,
                                                 "prompt": [{"type": "text", "text": text}]})


def trust_folder(home: Path, folder: Path) -> None:
    """Claude Code's trust dialog accepted for ``folder``, as ``~/.claude.json`` keeps it (the
    workspace's own hooks run only then)."""
    home.mkdir(parents=True, exist_ok=True)
    (home / ".claude.json").write_text(json.dumps(
        {"projects": {str(folder): {"hasTrustDialogAccepted": True}}}))


async def start_client(env: dict[str, str] | None = None) -> LanguageClient:
    from pytest_lsp.client import make_test_lsp_client

    client = make_test_lsp_client()
    await client.start_io(*SERVER, env=env)
    return client


async def stop_client(client: LanguageClient) -> None:
    try:
        await asyncio.wait_for(client.shutdown_session(), 10)
    except Exception:
        pass
    await client.stop()


class SidecarPool:
    """Sidecar processes a module's tests share, one per provider and settings: each start
    costs about two seconds of CPU (mostly imports), so tests that would start the same
    process each take it from here instead. Each test still gets a fresh recorder and a new
    session in its own workspace (``session``), closed when the test ends (``release``) so
    that nothing of it runs on into the next test. A process keeps its own store, as
    ``client.store``; tests that change what the whole process holds keep their own."""

    def __init__(self, url: str, tmp_path_factory: Any) -> None:
        self.url = url
        self.tmp_path_factory = tmp_path_factory
        self.clients: dict[str, LanguageClient] = {}
        self.opened: list[tuple[LanguageClient, str]] = []

    async def client(self, provider: str = "anthropic", **extra: Any) -> LanguageClient:
        """The process for these settings, started on first use, its recorder reset."""
        key = json.dumps([provider, extra], sort_keys=True)
        client = self.clients.get(key)
        if client is None:
            store = self.tmp_path_factory.mktemp("store")
            client = await start_client()
            client.store = store  # type: ignore[attr-defined]
            client.rec = await initialize(  # type: ignore[attr-defined]
                client, settings_for(provider, self.url, store, **extra))
            self.clients[key] = client
        client.rec.reset()  # type: ignore[attr-defined]
        client.messages.clear()
        client.log_messages.clear()
        return client

    async def session(self, workspace: Path, provider: str = "anthropic",
                      **extra: Any) -> LanguageClient:
        """The shared process with a new session in ``workspace``, as ``client.sid``."""
        client = await self.client(provider, **extra)
        client.sid = (await call(client, "session/new",  # type: ignore[attr-defined]
                                 {"cwd": str(workspace)}))["sessionId"]
        self.opened.append((client, client.sid))  # type: ignore[attr-defined]
        return client

    def opens(self, client: LanguageClient, session_id: str) -> None:
        """A session the test loaded or forked itself, to close with the others."""
        self.opened.append((client, session_id))

    async def release(self) -> None:
        """Close the sessions the test opened (one it closed itself is already gone)."""
        opened, self.opened = self.opened, []
        for client, session_id in opened:
            try:
                await asyncio.wait_for(call(client, "session/close", {"sessionId": session_id}), 20)
            except Exception:
                pass

    async def stop(self) -> None:
        for client in self.clients.values():
            await stop_client(client)
        self.clients.clear()


def sent_conversation(request: Any) -> list[dict[str, Any]]:
    """What a recorded model call carried as its conversation, on any wire: the Messages
    and Chat Completions ``messages``, or the Responses API's ``input`` items."""
    body = request.body
    if "input" in body:
        value = body["input"]
        return [{"role": "user", "content": value}] if isinstance(value, str) else list(value)
    return list(body.get("messages") or [])
