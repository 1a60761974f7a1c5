"""The command line: version, and the fake LLM server as its own process."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request

from sidecar import PROTOCOL_VERSION, __version__


def test_version() -> None:
    out = subprocess.run([sys.executable, "-m", "sidecar", "--version"], capture_output=True,
                         text=True, check=True).stdout
    assert out.strip() == f"context-sidecar {__version__} (protocol {PROTOCOL_VERSION})"


def test_fake_llm_command_serves_until_stdin_closes() -> None:
    proc = subprocess.Popen([sys.executable, "-m", "sidecar", "fake-llm", "--port", "0"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdin is not None
    try:
        line = proc.stdout.readline().strip()
        assert line.startswith("FAKE_LLM_URL=http://127.0.0.1:")
        url = line.split("=", 1)[1]
        body = json.dumps({"replies": [{"content": [{"type": "text", "text": "scripted"}]}]}).encode()
        urllib.request.urlopen(urllib.request.Request(url + "/_fake/replies", data=body,
                                                      headers={"content-type": "application/json"}), timeout=10)
        with urllib.request.urlopen(url + "/_fake/requests", timeout=10) as resp:
            assert json.loads(resp.read()) is not None
        proc.stdin.close()
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
