"""The two clients, each driven through one workload against its own fake LLM server.

Claude Code: the pinned npm binary, headless, one process per user turn (``claude -p``
first, ``claude --continue -p`` after), scratch HOME, its permissions opened with
``--allowedTools``. The sidecar: the real process over stdio, one process and one session
for all turns, edits applied by writing the file as an editor would, permission requests
allowed once. Everything not named here is each client's default.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from lsprotocol import types
from pytest_lsp import LanguageClient

from sidecar.fake_llm import FakeLLMServer
from tests import claude_code
from tests.bench.peer.agent import ScriptedAgent
from tests.bench.peer.measure import COUNT_PATH, Figures, figures_of
from tests.bench.peer.workloads import Workload
from tests.bench.sidecar_process import SERVER, Inbox, sidecar_env
from tests.e2e.conftest import KEY_ENV, client_capabilities, raw_json
from tests.e2e.session_client import call, prompt, stop_client

SONNET = "claude-sonnet-4-6"
TURN_TIMEOUT_S = 300.0
# After a turn the sidecar may still be updating its session notes in the background. A
# user takes at least seconds to type the next prompt (and the break workload's pause
# comes after the turn), so the driver waits for the fake to be idle this long before the
# next turn, and before ending the run (those calls are billed too). Claude Code needs no
# wait: its process has exited when the turn returns.
SETTLE_QUIET_S = 1.0
SETTLE_MAX_S = 60.0


def model_for(window: int) -> str:
    """The same model for both clients; the 1M window is Sonnet 4.6 with its long-context
    beta, which both clients spell with the ``[1m]`` suffix."""
    return f"{SONNET}[1m]" if window >= 1_000_000 else SONNET


def claude_env(window: int) -> dict[str, str]:
    """Below the model's own 200K, Claude Code is told the window by this variable."""
    return {"CLAUDE_CODE_AUTO_COMPACT_WINDOW": str(window)} if window < 200_000 else {}


@dataclass
class RunOutcome:
    client: str  # "claude-code" or "sidecar"
    workload: str
    window: int
    turns: int
    turns_done: int = 0
    error: str | None = None
    wall_s: float = 0.0
    figures: Figures = field(default_factory=Figures)
    agent: dict[str, Any] = field(default_factory=dict)
    # The sidecar's own compaction_update notifications: completed per tier, and failures.
    tiers: dict[str, int] = field(default_factory=dict)
    failed_compactions: int = 0

    @property
    def finished(self) -> bool:
        return self.error is None and self.turns_done == self.turns

    def to_json(self) -> dict[str, Any]:
        return {"client": self.client, "workload": self.workload, "window": self.window,
                "turns": self.turns, "turnsDone": self.turns_done, "finished": self.finished,
                "error": self.error, "wallSeconds": round(self.wall_s, 1),
                "figures": self.figures.to_json(), "agent": self.agent, "tiers": self.tiers,
                "failedCompactions": self.failed_compactions}


def _finish(outcome: RunOutcome, srv: FakeLLMServer, agent: ScriptedAgent,
            started: float) -> RunOutcome:
    outcome.wall_s = time.perf_counter() - started
    outcome.figures = figures_of(srv)
    outcome.agent = agent.stats.to_json()
    # A turn counts as done when its prompt returned cleanly and the agent gave the turn's
    # closing answer (every step got its result or was skipped after re-issues).
    outcome.turns_done = min(outcome.turns_done, len(agent.stats.finished_turns))
    return outcome


# ------------------------------------------------------------------ Claude Code

def run_claude_code(binary: Path, workload: Workload, window: int, ws: Path, tmp: Path,
                    srv: FakeLLMServer, agent: ScriptedAgent) -> RunOutcome:
    home = tmp / "home"
    home.mkdir()
    outcome = RunOutcome("claude-code", workload.name, window, len(workload.turns))
    started = time.perf_counter()
    for i, turn in enumerate(workload.turns):
        if i in workload.breaks:
            srv.advance_clock(workload.breaks[i])
        agent.start_turn(i)
        args = [*(["--continue"] if i else []), "-p", turn.prompt,
                "--allowedTools", workload.claude_tools, "--model", model_for(window)]
        try:
            done = claude_code.run(binary, args, cwd=ws, home=home, base_url=srv.url,
                                   extra_env=claude_env(window), timeout=TURN_TIMEOUT_S)
        except Exception as exc:  # noqa: BLE001 - a timeout or crash ends this run only
            outcome.error = f"turn {i}: {type(exc).__name__}: {exc}"
            break
        if done.returncode != 0 or done.result.get("is_error"):
            detail = done.result.get("result") or done.result or done.stderr[-400:]
            outcome.error = f"turn {i}: exit {done.returncode}: {str(detail)[:400]}"
            break
        outcome.turns_done += 1
    return _finish(outcome, srv, agent, started)


# ------------------------------------------------------------------ the sidecar

# Settings over the defaults for every sidecar run (``--sidecar-settings``), for A/B runs.
SIDECAR_OVERRIDES: dict[str, Any] = {}


def sidecar_settings(workload: Workload, window: int, url: str, store: Path) -> dict[str, Any]:
    """Only what the run needs: provider, model, endpoint, window, the Bash allow-list."""
    return {"provider": "anthropic", "model": model_for(window), "baseUrl": url,
            "apiKeyEnv": KEY_ENV, "storageDir": str(store), "contextWindow": window,
            "tools": {"allow": list(workload.shell_allow)}, **SIDECAR_OVERRIDES}


def _editor_handlers(client: LanguageClient) -> None:
    """Answer what the sidecar asks of its editor: apply edits, allow tool calls."""

    @client.feature(types.WORKSPACE_APPLY_EDIT)
    def on_edit(params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
        # The sidecar sends each edit as the file's whole new text.
        for change in params.edit.document_changes or []:
            if isinstance(change, types.TextDocumentEdit):
                edit = change.edits[0]
                if not isinstance(edit, types.TextEdit):
                    return types.ApplyWorkspaceEditResult(applied=False)
                path = Path(unquote(urlparse(change.text_document.uri).path))
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(edit.new_text)
        return types.ApplyWorkspaceEditResult(applied=True)

    @client.feature("session/request_permission")
    def on_permission(params: Any) -> Any:
        return {"outcome": {"outcome": "selected", "optionId": "allow_once"}}


async def _open(tmp: Path, settings: dict[str, Any]) -> tuple[LanguageClient, Inbox]:
    from pytest_lsp.client import make_test_lsp_client

    client = make_test_lsp_client()
    await client.start_io(*SERVER, env=sidecar_env(tmp))
    raw_json(client)
    inbox = Inbox(client)
    _editor_handlers(client)
    await client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities(permission=True),
        initialization_options={"settings": settings}))
    return client, inbox


async def _settle(srv: FakeLLMServer) -> None:
    """Wait until no request is in flight and none has arrived for SETTLE_QUIET_S."""
    deadline = time.monotonic() + SETTLE_MAX_S
    seen, quiet_since = -1, time.monotonic()
    while time.monotonic() < deadline:
        requests = list(srv.requests)
        busy = any(r.usage is None and r.status == 200 and r.path != COUNT_PATH
                   for r in requests)
        if len(requests) != seen or busy:
            seen, quiet_since = len(requests), time.monotonic()
        elif time.monotonic() - quiet_since >= SETTLE_QUIET_S:
            return
        await asyncio.sleep(0.2)


async def _drive_sidecar(workload: Workload, window: int, ws: Path, tmp: Path,
                         srv: FakeLLMServer, agent: ScriptedAgent, outcome: RunOutcome) -> None:
    store = tmp / "store"
    store.mkdir()
    client, inbox = await _open(tmp, sidecar_settings(workload, window, srv.url, store))
    try:
        sid = (await call(client, "session/new", {"cwd": str(ws)}))["sessionId"]
        for i, turn in enumerate(workload.turns):
            if i in workload.breaks:
                srv.advance_clock(workload.breaks[i])
            agent.start_turn(i)
            try:
                answer = await asyncio.wait_for(prompt(client, sid, turn.prompt), TURN_TIMEOUT_S)
            except Exception as exc:  # noqa: BLE001 - an RPC error or timeout ends this run
                outcome.error = f"turn {i}: {type(exc).__name__}: {str(exc)[:400]}"
                break
            stop = answer.get("stopReason") if isinstance(answer, dict) else None
            if stop != "end_turn":
                outcome.error = f"turn {i}: stopReason {stop!r}"
                break
            outcome.turns_done += 1
            await _settle(srv)
    finally:
        _count_tiers(inbox, outcome)
        await stop_client(client)


def _count_tiers(inbox: Inbox, outcome: RunOutcome) -> None:
    for update in inbox.updates:
        if update.get("sessionUpdate") != "compaction_update":
            continue
        if update.get("status") == "completed":
            tier = str(update.get("tier"))
            outcome.tiers[tier] = outcome.tiers.get(tier, 0) + 1
        elif update.get("status") == "failed":
            outcome.failed_compactions += 1


def run_sidecar(workload: Workload, window: int, ws: Path, tmp: Path, srv: FakeLLMServer,
                agent: ScriptedAgent) -> RunOutcome:
    outcome = RunOutcome("sidecar", workload.name, window, len(workload.turns))
    started = time.perf_counter()
    try:
        asyncio.run(_drive_sidecar(workload, window, ws, tmp, srv, agent, outcome))
    except Exception as exc:  # noqa: BLE001 - a crash of this run is reported, not raised
        outcome.error = outcome.error or f"{type(exc).__name__}: {exc}"
    return _finish(outcome, srv, agent, started)
