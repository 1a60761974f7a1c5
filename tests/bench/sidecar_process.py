"""Starting the real sidecar process for a benchmark, with a private config and store.

The client side is the e2e suite's pytest-lsp client, so benchmarks measure the same
process and wire the e2e tests exercise.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.e2e.conftest import KEY_ENV, client_capabilities, raw_json
from tests.e2e.session_client import settings_for

# BENCH_SIDECAR_COMMAND swaps the interpreter/entry point, e.g. to compare a patched
# build against the checkout. WARNING keeps the sidecar's per-request INFO lines
# (forwarded from its stderr) out of the printed figures.
SERVER = [*os.environ.get("BENCH_SIDECAR_COMMAND", f"{sys.executable} -m sidecar").split(),
          "serve", "--log-level", "WARNING"]


class Inbox:
    """Every ``session/update`` the client received, with its arrival time (perf_counter,
    the same clock the in-process fake LLM server's send times use)."""

    def __init__(self, client: LanguageClient) -> None:
        self.updates: list[dict[str, Any]] = []
        self.times: list[float] = []

        @client.feature("session/update")
        def on_update(params: Any) -> None:
            self.times.append(time.perf_counter())
            self.updates.append(params["update"])

        @client.feature("sidecar/didChangeStatus")
        def on_status(params: Any) -> None:
            pass

    def clear(self) -> None:
        self.updates.clear()
        self.times.clear()

    def of(self, kind: str) -> list[tuple[float, dict[str, Any]]]:
        return [(t, u) for t, u in zip(self.times, self.updates) if u.get("sessionUpdate") == kind]


def sidecar_env(tmp: Path) -> dict[str, str]:
    """The environment of a benchmark sidecar: nothing read from or written to $HOME."""
    env = dict(os.environ)
    env[KEY_ENV] = "bench-key"
    env["XDG_CONFIG_HOME"] = str(tmp / "config")
    env["XDG_DATA_HOME"] = str(tmp / "data")
    env["CONTEXT_SIDECAR_LOG_FILE"] = str(tmp / "sidecar.log")
    env.pop("CONTEXT_SIDECAR_SETTINGS", None)
    return env


async def open_sidecar(tmp: Path, llm_url: str, **settings: Any) -> tuple[LanguageClient, Inbox]:
    store = tmp / "store"
    store.mkdir(parents=True, exist_ok=True)
    from pytest_lsp.client import make_test_lsp_client

    client = make_test_lsp_client()
    await client.start_io(*SERVER, env=sidecar_env(tmp))
    raw_json(client)
    inbox = Inbox(client)
    await client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities(permission=True),
        initialization_options={"settings": settings_for("anthropic", llm_url, store, **settings)},
    ))
    return client, inbox


def server_pid(client: LanguageClient) -> int:
    process = getattr(client, "_server", None)
    if process is None:
        raise RuntimeError("the sidecar process is not running")
    return int(process.pid)


def rss_mb(pid: int) -> float:
    """Resident set size from /proc (Linux); the peak is VmHWM, not asked for here."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for pid {pid}")


def quiet_fake_disconnects() -> None:
    """The SDK drops keep-alive connections at exit; the fake's thread would print each
    reset as a traceback. Other errors still print."""
    from sidecar.fake_llm import transport

    original = transport.HTTPServer.handle_error

    def handle_error(server: Any, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            return
        original(server, request, client_address)

    transport.HTTPServer.handle_error = handle_error  # type: ignore[method-assign]
