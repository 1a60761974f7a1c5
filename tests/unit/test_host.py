"""The core runs where POSIX-only calls do not exist.

A child interpreter hides ``fcntl`` (``sys.modules["fcntl"] = None`` makes every import of
it fail), removes ``os.killpg``, ``os.setsid`` and ``os.fork``, and provides a stand-in
``msvcrt`` whose ``locking`` refuses a second lock as Windows does (within the process;
the standard library is imported first, as it picks its own platform by that module). It then
imports the sidecar and drives a whole turn against the fake LLM server: a session, Read,
Write, Glob and a Bash command stopped by its timeout, prompt history written under the
lock and read back, shutdown. This proves the Windows paths are taken and work here; it
does not prove Windows itself (no Windows machine runs this suite).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

DRIVER = r"""
import errno, json, os, sys, types
# The standard library picks its own platform by trying msvcrt: let it see Linux first.
import asyncio, subprocess

sys.modules["fcntl"] = None
for name in ("killpg", "setsid", "fork"):
    if hasattr(os, name):
        delattr(os, name)

calls = []
held = set()
msvcrt = types.ModuleType("msvcrt")
msvcrt.LK_NBLCK, msvcrt.LK_UNLCK = 2, 0
def locking(fd, mode, nbytes):
    key = os.fstat(fd).st_ino
    calls.append(mode)
    if mode == msvcrt.LK_NBLCK:
        if key in held:
            raise OSError(errno.EACCES, "locked")
        held.add(key)
    else:
        held.discard(key)
msvcrt.locking = locking
sys.modules["msvcrt"] = msvcrt

from pathlib import Path
from sidecar import host
from sidecar.composition import default_adapters
from sidecar.core import process_groups
from sidecar.contract.params import HistoryListParams, NewSessionParams, PromptParams
from sidecar.core.service import SessionService
from sidecar.core.settings import Settings
from sidecar.credentials import take_environment
import sidecar.credentials as credentials
from sidecar.fake_llm import FakeLLMServer, Reply
from sidecar.core.permissions.choice import PermissionChoice

take_environment()  # must not try to re-exec without fork
ws = Path(sys.argv[1])
(ws / "a.txt").write_text("alpha\n")

class Editor:
    def __init__(self): self.updates = []; self.messages = []
    def session_update(self, sid, update): self.updates.append(update)
    def status(self, kind, busy, message): pass
    def show_message(self, level, text): self.messages.append((level, text))
    async def request_permission(self, sid, tool_call, options): return PermissionChoice("allow_once")
    async def apply_edit(self, path, text, label, exists): return None
    def buffer_text(self, path): return None
    async def progress(self, *a, **k): return None

async def main():
    srv = FakeLLMServer().start()
    try:
        srv.queue(Reply(content=[
            {"type": "tool_use", "id": "r", "name": "Read", "input": {"file_path": "a.txt"}},
            {"type": "tool_use", "id": "w", "name": "Write", "input": {"file_path": "b.txt", "content": "beta\n"}},
            {"type": "tool_use", "id": "g", "name": "Glob", "input": {"pattern": "*.txt"}},
            {"type": "tool_use", "id": "b", "name": "Bash", "input": {"command": "echo started; sleep 3", "timeout": 700}},
        ]))
        srv.queue(Reply.text("done"))
        settings = Settings(provider="anthropic", model="claude-sonnet-5-5", baseUrl=srv.url,
                            apiKeyEnv="PORTABLE_KEY", storageDir=str(ws.parent / "store"))
        editor = Editor()
        svc = SessionService(editor, settings, adapters=default_adapters(), environ={"PORTABLE_KEY": "portable-key-1",
                                                        "CONTEXT_SIDECAR_NO_WATCH": "1"})
        sid = svc.new_session(NewSessionParams(cwd=str(ws)))["sessionId"]
        result = await svc.prompt(PromptParams(session_id=sid, prompt=[{"type": "text", "text": "go"}]))
        svc.stores.history().flush()
        listed = await svc.prompt_history.history_list(HistoryListParams())
        await svc.shutdown()
        done = {u["toolCallId"]: u for u in editor.updates
                if u.get("sessionUpdate") == "tool_call_update" and u.get("status") in ("completed", "failed")}
        print(json.dumps({
            "stop": result["stopReason"],
            "results": {k: [u["status"], json.dumps(u.get("content"))] for k, u in done.items()},
            "b": (ws / "b.txt").read_text(),
            "history": [e["display"] for e in listed["entries"]],
            "lock_calls": calls,
            "groups": process_groups.has_process_groups(),
            "handoff": credentials.handoff_state,
            "messages": editor.messages,
        }))
    finally:
        srv.stop()

asyncio.run(main())
"""


def test_core_runs_with_posix_calls_hidden(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    proc = subprocess.run([sys.executable, "-c", DRIVER, str(ws)], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-4000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["stop"] == "end_turn"
    assert not out["groups"] and out["handoff"] == "not available on this platform"
    results = out["results"]
    assert results["r"][0] == "completed" and "alpha" in results["r"][1]
    assert results["w"][0] == "completed" and out["b"] == "beta\n"
    assert results["g"][0] == "completed" and "b.txt" in results["g"][1]
    # The command was stopped by its timeout without process groups (plain kill).
    assert results["b"][0] == "failed" and "timed out" in results["b"][1]
    assert out["history"] == ["go"]
    # Every history flush took and released the msvcrt lock.
    assert out["lock_calls"] and out["lock_calls"].count(2) == out["lock_calls"].count(0)
    assert not [m for level, m in out["messages"] if level == "error"]
