"""A JSON-RPC client over LSP framing that keeps every byte the sidecar writes.

pytest-lsp parses messages as they arrive; a sweep for leaked secrets needs the bytes
themselves: stdout (every response and notification) and stderr, exactly as written.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

SERVER = [sys.executable, "-m", "sidecar", "serve", "--stdio"]


class RpcFailed(Exception):
    def __init__(self, error: dict[str, Any]) -> None:
        super().__init__(error.get("message"))
        self.code = error.get("code")
        self.message = error.get("message", "")
        self.data = error.get("data")


class RawClient:
    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.stdout = bytearray()
        self.stderr = bytearray()
        self.messages: list[dict[str, Any]] = []
        self.requests_from_server: dict[str, Callable[[Any], Any]] = {}
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future[Any]] = {}
        self._tasks = [asyncio.ensure_future(self._read()), asyncio.ensure_future(self._drain_stderr())]

    @classmethod
    async def start(cls, env: dict[str, str], cwd: Path | None = None) -> RawClient:
        proc = await asyncio.create_subprocess_exec(
            *SERVER, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, env=env, cwd=cwd)
        return cls(proc)

    def notifications(self, method: str) -> list[Any]:
        return [m.get("params") for m in self.messages if m.get("method") == method and "id" not in m]

    def updates(self, kind: str) -> list[dict[str, Any]]:
        return [p["update"] for p in self.notifications("session/update")
                if p["update"].get("sessionUpdate") == kind]

    def _send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    async def request(self, method: str, params: Any = None, timeout: float = 60) -> Any:
        msg_id = next(self._ids)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[msg_id] = future
        self._send({"id": msg_id, "method": method, "params": params})
        return await asyncio.wait_for(future, timeout)

    def notify(self, method: str, params: Any = None) -> None:
        self._send({"method": method, "params": params})

    async def _read(self) -> None:
        assert self.proc.stdout is not None
        reader = self.proc.stdout
        while True:
            length = None
            while True:
                line = await reader.readline()
                if not line:
                    return
                self.stdout += line
                if not line.strip():
                    break
                name, _, value = line.decode("ascii", "replace").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            if length is None:
                continue
            body = await reader.readexactly(length)
            self.stdout += body
            message = json.loads(body)
            self.messages.append(message)
            if "method" in message and "id" in message:
                handler = self.requests_from_server.get(message["method"], lambda p: None)
                self._send({"id": message["id"], "result": handler(message.get("params"))})
            elif "id" in message and message["id"] in self._pending:
                future = self._pending.pop(message["id"])
                if "error" in message:
                    future.set_exception(RpcFailed(message["error"]))
                else:
                    future.set_result(message.get("result"))

    async def _drain_stderr(self) -> None:
        assert self.proc.stderr is not None
        while chunk := await self.proc.stderr.read(65536):
            self.stderr += chunk

    async def stop(self) -> None:
        try:
            await self.request("shutdown", None, timeout=20)
            self.notify("exit")
            await asyncio.wait_for(self.proc.wait(), 20)
        except (asyncio.TimeoutError, RpcFailed, ConnectionError):
            if self.proc.returncode is None:
                self.proc.kill()
                await self.proc.wait()
        await asyncio.gather(*self._tasks, return_exceptions=True)


def initialize_params(settings: dict[str, Any], root: Path) -> dict[str, Any]:
    return {
        "processId": None,
        "rootUri": root.as_uri(),
        "capabilities": {"experimental": {"contextSidecar": {"protocolVersion": 1,
                                                             "permissionRequests": True}}},
        "initializationOptions": {"settings": settings},
    }
