"""Starts ``python -m sidecar serve`` as a child and speaks the wire protocol to it.

Shared by ``chat`` and ``demo``: the handshake (with the protocol version check), session
creation or resumption, prompts, cancel, and a clean shutdown.
"""

from __future__ import annotations

import asyncio
import collections
import os
import sys
from pathlib import Path
from typing import Any, Awaitable, Callable, Mapping

from sidecar import PROTOCOL_VERSION, __version__
from sidecar.contract import methods as m
from sidecar.core.permissions.choice import PermissionChoice
from sidecar.terminal.jsonrpc import JsonRpcConnection, RpcError
from sidecar.terminal.updates import UpdatePrinter

# Answers a permission request with the option picked (and, with a rejection, what the user
# said about why), or None for "cancelled".
PermissionAsker = Callable[[dict[str, Any]], Awaitable[PermissionChoice | None]]
Notice = Callable[[str, str], None]  # (level, text)


class ProtocolMismatch(Exception):
    pass


def protocol_major(value: Any) -> int | None:
    """1, "1", "1.2" -> 1; anything else -> None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        head = value.split(".", 1)[0].strip()
        return int(head) if head.isdigit() else None
    return None


class SidecarClient:
    def __init__(self, cwd: Path, printer: UpdatePrinter, ask_permission: PermissionAsker,
                 *, notice: Notice | None = None, env: Mapping[str, str] | None = None,
                 settings: dict[str, Any] | None = None, command: list[str] | None = None) -> None:
        self.cwd = cwd
        self.printer = printer
        self.ask_permission = ask_permission
        self.notice = notice or (lambda level, text: printer.screen.line(f"{level}: {text}"))
        self.env = dict(env) if env is not None else None
        self.settings = settings
        self.command = command or [sys.executable, "-m", "sidecar", "serve"]
        self.process: asyncio.subprocess.Process | None = None
        self.rpc: JsonRpcConnection | None = None
        self.session_id: str | None = None
        self.model: str | None = None
        self.provider: str | None = None
        self.server_info: dict[str, Any] = {}
        self.stderr_tail: collections.deque[str] = collections.deque(maxlen=40)
        self._stderr_task: asyncio.Task[None] | None = None

    # ----- process and handshake ----------------------------------------------------

    async def start(self) -> None:
        # A session of its own keeps the terminal's Ctrl-C away from the sidecar: the
        # client turns it into session/cancel instead.
        kwargs: dict[str, Any] = {"start_new_session": True} if os.name == "posix" else {}
        self.process = await asyncio.create_subprocess_exec(
            *self.command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, env=self.env, limit=2**24, **kwargs,
        )
        assert self.process.stdin and self.process.stdout and self.process.stderr
        reader = self.process.stdout
        writer = self.process.stdin
        self._stderr_task = asyncio.ensure_future(self._drain_stderr(self.process.stderr))
        self.rpc = JsonRpcConnection(reader, writer)  # type: ignore[arg-type]
        self.rpc.on_notification(m.SESSION_UPDATE, self._on_update)
        self.rpc.on_notification("window/showMessage", self._on_show_message)
        self.rpc.on_request(m.SESSION_REQUEST_PERMISSION, self._on_permission)
        self.rpc.start()

    async def _drain_stderr(self, stream: asyncio.StreamReader) -> None:
        # The sidecar logs to stderr; keep the tail to explain a crash, show nothing else.
        while True:
            line = await stream.readline()
            if not line:
                return
            self.stderr_tail.append(line.decode("utf-8", "replace").rstrip())

    async def initialize(self) -> dict[str, Any]:
        rpc = self._rpc()
        options: dict[str, Any] = {"editorInfo": {"name": "context-sidecar terminal", "version": __version__}}
        if self.settings is not None:
            options["settings"] = self.settings
        uri = self.cwd.resolve().as_uri()
        result = await rpc.request("initialize", {
            "processId": os.getpid(),
            "clientInfo": {"name": "context-sidecar terminal", "version": __version__},
            "rootUri": uri,
            "workspaceFolders": [{"uri": uri, "name": self.cwd.name or str(self.cwd)}],
            "initializationOptions": options,
            "capabilities": {"experimental": {"contextSidecar": {
                "protocolVersion": PROTOCOL_VERSION, "permissionRequests": True, "compactionUpdates": True,
            }}},
        })
        result = result if isinstance(result, dict) else {}
        self.server_info = result.get("serverInfo") or {}
        caps = ((result.get("capabilities") or {}).get("experimental") or {}).get("contextSidecar")
        theirs = protocol_major(caps.get("protocolVersion")) if isinstance(caps, dict) else None
        if theirs != PROTOCOL_VERSION:
            name = self.server_info.get("name", "the server")
            said = "no context-sidecar protocol version" if theirs is None else f"protocol version {theirs}"
            raise ProtocolMismatch(
                f"{name} speaks {said}; this client speaks protocol version {PROTOCOL_VERSION}. "
                "Install matching versions of the client and the sidecar.")
        rpc.notify("initialized", {})
        return result

    def _rpc(self) -> JsonRpcConnection:
        if self.rpc is None:
            raise RpcError("the sidecar is not running")
        return self.rpc

    # ----- sessions -----------------------------------------------------------------

    def _take_session(self, result: Any) -> dict[str, Any]:
        result = result if isinstance(result, dict) else {}
        self.session_id = result.get("sessionId")
        self.model = result.get("model")
        self.provider = result.get("provider")
        self.printer.take_gauge(result.get("gauge"))
        modes = result.get("modes")
        if isinstance(modes, dict) and isinstance(modes.get("currentModeId"), str):
            self.printer.permission_mode = modes["currentModeId"]
        return result

    async def new_session(self, model: str | None = None, provider: str | None = None) -> dict[str, Any]:
        params: dict[str, Any] = {"cwd": str(self.cwd.resolve())}
        if model:
            params["model"] = model
        if provider:
            params["provider"] = provider
        return self._take_session(await self._rpc().request(m.SESSION_NEW, params))

    async def load_session(self, session_id: str) -> dict[str, Any]:
        # Its history is replayed before the answer: the updates are this session's from now on.
        self.session_id = session_id
        result = self._take_session(await self._rpc().request(m.SESSION_LOAD, {"sessionId": session_id}))
        self.printer.end_message()
        return result

    async def prompt(self, text: str) -> dict[str, Any]:
        try:
            result = await self._rpc().request(m.SESSION_PROMPT, {
                "sessionId": self.session_id, "prompt": [{"type": "text", "text": text}]})
        finally:
            self.printer.end_message()
            self.printer.screen.clear_status()
        result = result if isinstance(result, dict) else {}
        self.printer.take_gauge(result.get("gauge"))
        return result

    def cancel(self) -> None:
        if self.session_id is not None and self.rpc is not None and not self.rpc.closed.is_set():
            self.rpc.notify(m.SESSION_CANCEL, {"sessionId": self.session_id})

    async def request(self, method: str, params: Any) -> Any:
        return await self._rpc().request(method, params)

    # ----- server to client ---------------------------------------------------------

    def _on_update(self, params: Any) -> None:
        if isinstance(params, dict) and self.session_id and params.get("sessionId") not in (None, self.session_id):
            return
        self.printer.handle(params)

    def _on_show_message(self, params: Any) -> None:
        if not isinstance(params, dict):
            return
        kind = params.get("type")
        level = {1: "error", 2: "warning", 3: "info", 4: "log"}.get(kind, "info") \
            if isinstance(kind, int) else "info"
        if level != "log":
            self.notice(level, str(params.get("message", "")))

    async def _on_permission(self, params: Any) -> dict[str, Any]:
        params = params if isinstance(params, dict) else {}
        self.printer.end_message()
        self.printer.screen.clear_status()
        answer = await self.ask_permission(params)
        if answer is None:
            return {"outcome": {"outcome": "cancelled"}}
        outcome: dict[str, Any] = {"outcome": "selected", "optionId": answer.option_id}
        if answer.reason:
            outcome["_meta"] = {"sidecar": {"reason": answer.reason}}
        return {"outcome": outcome}

    # ----- shutdown -----------------------------------------------------------------

    async def stop(self, timeout: float = 5.0) -> int | None:
        """shutdown + exit, then wait; the child is killed only if it does not leave."""
        proc = self.process
        if proc is None:
            return None
        rpc = self.rpc
        if rpc is not None and not rpc.closed.is_set() and proc.returncode is None:
            try:
                await asyncio.wait_for(rpc.request("shutdown", None), timeout)
                rpc.notify("exit", None)
            except (RpcError, asyncio.TimeoutError, ConnectionError):
                pass
        if proc.stdin is not None and not proc.stdin.is_closing():
            proc.stdin.close()  # end of input also tells the server's reader to stop
        try:
            await asyncio.wait_for(proc.wait(), timeout)
        except asyncio.TimeoutError:
            proc.kill()
            await proc.wait()
        if rpc is not None:
            await rpc.close()
        if self._stderr_task is not None:
            try:
                await asyncio.wait_for(self._stderr_task, 1)
            except (asyncio.TimeoutError, Exception):
                self._stderr_task.cancel()
        return proc.returncode

    def crash_report(self) -> str:
        code = self.process.returncode if self.process else None
        tail = "\n".join(list(self.stderr_tail)[-15:])
        return f"the sidecar exited (code {code})" + (f"; its last log lines:\n{tail}" if tail else "")
