"""The real sidecar process driven with raw bytes, for input no well-behaved client sends.

A thread reads everything the sidecar writes (LSP frames or ACP lines) into one list;
tests wait on it with a deadline. Nothing here parses leniently: a message the sidecar
frames wrongly fails the read and with it the test.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any, Callable

from tests.acp_conformance import Conformance

MISSING: Any = object()


def frame(payload: Any, length: int | str | None = None, header: bytes = b"Content-Length",
          eol: bytes = b"\r\n") -> bytes:
    body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    size = str(len(body) if length is None else length).encode()
    return header + b": " + size + eol + eol + body


def request(rid: Any, method: str, params: Any = MISSING) -> dict[str, Any]:
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
    if params is not MISSING:
        message["params"] = params
    return message


def notification(method: str, params: Any = MISSING) -> dict[str, Any]:
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if params is not MISSING:
        message["params"] = params
    return message


def sidecar_env(tmp: Path, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update({"CONTEXT_SIDECAR_NO_WATCH": "1", "CONTEXT_SIDECAR_LOG_FILE": str(tmp / "sidecar.log"),
                "XDG_CONFIG_HOME": str(tmp / "config"), "XDG_DATA_HOME": str(tmp / "data")})
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2]) + os.pathsep + env.get("PYTHONPATH", "")
    env.update(extra)
    return env


class RawPeer:
    """One sidecar process; ``received`` holds every message it wrote, in order."""

    def __init__(self, tmp: Path, acp: bool = False, env: dict[str, str] | None = None) -> None:
        tmp.mkdir(parents=True, exist_ok=True)
        self.acp = acp
        self.tmp = tmp
        self.stderr_path = tmp / "stderr.log"
        argv = [sys.executable, "-m", "sidecar", "serve"] + (["--acp"] if acp else [])
        self._stderr = open(self.stderr_path, "wb")
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self._stderr, env=env or sidecar_env(tmp))
        self.received: list[dict[str, Any]] = []
        # Over ACP every message the sidecar writes is judged by the official schema.
        self.conformance = Conformance() if acp else None
        # Answers by id (and those with id null), so a long fuzz run does not rescan it all.
        self._answers: dict[str, list[dict[str, Any]]] = {}
        self.null_answers: list[dict[str, Any]] = []
        self.read_error: str | None = None
        self._cond = threading.Condition()
        self._closed = False
        threading.Thread(target=self._read_all, daemon=True).start()

    # ----- reading ----------------------------------------------------------------------

    def _read_all(self) -> None:
        assert self.proc.stdout is not None
        try:
            while True:
                message = _read_line(self.proc.stdout) if self.acp else _read_frame(self.proc.stdout)
                if message is None:
                    break
                if self.conformance is not None:
                    self.conformance.agent(message)
                with self._cond:
                    self.received.append(message)
                    if "method" not in message:
                        if message.get("id") is None:
                            self.null_answers.append(message)
                        else:
                            self._answers.setdefault(_key(message["id"]), []).append(message)
                    self._cond.notify_all()
        except Exception as exc:  # a malformed message from the sidecar is a finding
            self.read_error = f"{type(exc).__name__}: {exc}"
        finally:
            with self._cond:
                self._closed = True
                self._cond.notify_all()

    def wait_for(self, pred: Callable[[list[dict[str, Any]]], Any], timeout: float = 10) -> Any:
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                found = pred(self.received)
                if found:
                    return found
                left = deadline - time.monotonic()
                if left <= 0 or self._closed:
                    raise TimeoutError(f"not seen within {timeout}s; closed={self._closed} "
                                       f"read_error={self.read_error} last={self.received[-3:]}")
                self._cond.wait(left)

    def answers(self, rid: Any) -> list[dict[str, Any]]:
        with self._cond:
            return list(self._answers.get(_key(rid), []))

    def answer(self, rid: Any, timeout: float = 10) -> dict[str, Any]:
        key = _key(rid)
        return self.wait_for(lambda _: (self._answers.get(key) or [None])[0], timeout)

    def requests_from_server(self, method: str) -> list[dict[str, Any]]:
        with self._cond:
            return [m for m in self.received if m.get("method") == method and "id" in m]

    # ----- writing ----------------------------------------------------------------------

    def write(self, data: bytes) -> None:
        if self.conformance is not None:
            for line in data.split(b"\n"):
                try:
                    self.conformance.client(json.loads(line))
                except (ValueError, RecursionError):
                    pass  # not a message, or not one whole: nothing to answer by method
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, message: Any) -> None:
        if self.acp:
            self.write(json.dumps(message).encode() + b"\n")
        else:
            self.write(frame(message))

    def call(self, rid: Any, method: str, params: Any = MISSING, timeout: float = 10) -> dict[str, Any]:
        self.send(request(rid, method, params))
        return self.answer(rid, timeout)

    def initialize(self, settings: dict[str, Any] | None = None) -> dict[str, Any]:
        if self.acp:
            answer = self.call("init", "initialize", {"protocolVersion": 1, "clientCapabilities": {}})
        else:
            options = {"settings": settings or {"storageDir": str(self.tmp / "store")}}
            answer = self.call("init", "initialize", {"capabilities": {}, "initializationOptions": options})
            self.send(notification("initialized", {}))
        assert "result" in answer, answer
        return answer["result"]

    # ----- ending -----------------------------------------------------------------------

    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self) -> int | None:
        if self.proc.poll() is None:
            try:
                assert self.proc.stdin is not None
                self.proc.stdin.close()
                self.proc.wait(10)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        self._stderr.close()
        if self.conformance is not None and self.conformance.violations:
            raise AssertionError("the sidecar wrote ACP messages the official schema refuses:\n"
                                 + "\n".join(self.conformance.violations[:10]))
        return self.proc.returncode

    def log_text(self) -> str:
        parts = [self.stderr_path.read_text(errors="replace")]
        log = self.tmp / "sidecar.log"
        if log.exists():
            parts.append(log.read_text(errors="replace"))
        return "\n".join(parts)


def _key(rid: Any) -> str:
    # JSON text keeps 1 and "1" (and 1 and True) apart, as ids must be.
    return json.dumps(rid, sort_keys=True)


def _read_frame(stream: IO[bytes]) -> dict[str, Any] | None:
    length: int | None = None
    while True:
        line = stream.readline()
        if not line:
            return None
        if line == b"\r\n":
            break
        if not line.endswith(b"\r\n"):
            raise ValueError(f"header line without CRLF: {line[:80]!r}")
        name, _, value = line.decode("ascii").partition(":")
        if name == "Content-Length":
            length = int(value.strip())
    if length is None:
        raise ValueError("a frame without Content-Length")
    body = stream.read(length)
    if len(body) != length:
        return None
    message = json.loads(body)
    if not isinstance(message, dict):
        raise ValueError(f"not an object: {body[:80]!r}")
    return message


def _read_line(stream: IO[bytes]) -> dict[str, Any] | None:
    line = stream.readline()
    if not line:
        return None
    message = json.loads(line)
    if not isinstance(message, dict):
        raise ValueError(f"not an object: {line[:80]!r}")
    return message
