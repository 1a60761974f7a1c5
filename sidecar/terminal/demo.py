"""``context-sidecar demo``: an offline, keyless session that shows the context tiers firing.

The built-in fake LLM server runs in this process with a scripted agent as its responder;
the real sidecar runs as a child, driven by the same client code as ``chat``. The window
is small (60K) so session memory, auto-compaction and full compaction all happen within a
few dozen turns.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sidecar.core.conversation.messages import json_object
from sidecar.core.permissions.choice import PermissionChoice
from sidecar.fake_llm import FakeLLMServer
from sidecar.terminal.chat import print_error
from sidecar.terminal.client import ProtocolMismatch, SidecarClient
from sidecar.terminal.demo_agent import DemoAgent, ForkedCall
from sidecar.terminal.demo_workspace import create_workspace
from sidecar.terminal.jsonrpc import RpcError
from sidecar.terminal.screen import Screen
from sidecar.terminal.style import gauge_bar, tokens_short
from sidecar.terminal.updates import UpdatePrinter, tier_name

KEY_ENV = "CONTEXT_SIDECAR_DEMO_KEY"
CONTEXT_WINDOW = 60_000
# Environment switches that would change what the demo shows; the child does not inherit them.
_DROPPED_ENV = ("CONTEXT_SIDECAR_SETTINGS", "DISABLE_AUTO_COMPACT", "DISABLE_COMPACT",
                "DISABLE_CLAUDE_CODE_SM_COMPACT", "ENABLE_CLAUDE_CODE_SM_COMPACT",
                "CLAUDE_CODE_MAX_OUTPUT_TOKENS")


def demo_settings(base_url: str, storage: Path) -> dict[str, Any]:
    return {
        "provider": "anthropic",
        "model": "claude-sonnet-5-5",
        "baseUrl": base_url,
        "apiKeyEnv": KEY_ENV,
        "contextWindow": CONTEXT_WINDOW,
        "storageDir": str(storage),
        # Scaled to the small window, so the gauge's levels still mean something.
        "warningBufferTokens": 8000,
        "errorBufferTokens": 4000,
        # Notes from 8,000 tokens and every 4,000 after (30 % and 15 % of the 27,000-token
        # auto-compact point), so the demo shows several updates before each compaction.
        "sessionMemory": {"initTokens": 8000, "updateTokens": 4000, "startPercent": 30,
                          "updatePercent": 15, "minTokens": 4000, "maxTokens": 12000},
        # The seed's numbers are sized for a 200K window; these keep the same proportions,
        # with the trigger low enough to fire between compactions.
        "apiContextManagement": {"triggerTokens": 22000, "keepTokens": 16000},
        # Our own summarizer, so the manual /compact shows its prompt-too-long retry (the
        # provider's compaction has its own tests).
        "compactionBackend": "local",
        "postCompact": {"maxFiles": 3, "totalTokens": 12000, "perFileTokens": 3000},
        "retry": {"maxRetries": 2, "baseDelayMs": 50, "maxDelayMs": 200},
    }


def demo_env(root: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _DROPPED_ENV}
    env[KEY_ENV] = "demo-key-for-the-fake-server"
    env["XDG_CONFIG_HOME"] = str(root / "config")  # no user settings file changes the demo
    env["CONTEXT_SIDECAR_LOG_FILE"] = str(root / "sidecar.log")
    env["CLAUDE_CODE_SKIP_PROMPT_HISTORY"] = "1"
    return env


@dataclass
class DemoRun:
    root: Path
    workspace: Path
    storage: Path
    srv: FakeLLMServer
    agent: DemoAgent
    screen: Screen
    printer: UpdatePrinter
    client: SidecarClient
    fast: bool
    turns_done: int = 0
    errors: int = 0
    loop: asyncio.AbstractEventLoop | None = None

    async def pause(self, seconds: float) -> None:
        if not self.fast:
            await asyncio.sleep(seconds)

    # ----- what happens during a turn ---------------------------------------------------

    async def allow(self, params: dict[str, Any]) -> PermissionChoice:
        tool = json_object(params.get("toolCall"))
        raw = json_object(tool.get("rawInput"))
        what = raw.get("command") or tool.get("title") or "a tool"
        style = self.screen.style
        self.screen.line(style.paint("  permission: ", "yellow") + f"{what} -> " +
                         style.paint("allow_always", "bold") + style.paint(" (the demo answers for you)", "grey"))
        return PermissionChoice("allow_always")

    def forked(self, call: ForkedCall) -> None:
        """Called on the fake server's thread; printing happens on the event loop."""
        if call.kind != "memory":
            return
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self._memory_line, call)

    def _memory_line(self, call: ForkedCall) -> None:
        style = self.screen.style
        self.screen.line(style.paint(
            f"  session memory: notes updated (#{self.agent.memory_updates}) from a "
            f"{call.input_tokens:,}-token request", "blue"))

    async def turn(self, i: int, total: int) -> bool:
        style = self.screen.style
        g = self.printer.gauge or {}
        text = self.agent.user_prompt(i, total, int(g.get("used") or 0),
                                      int(g.get("autoCompactAt") or 0) // 2)
        self.screen.line(style.paint(f"── turn {i + 1}/{total} " + "─" * 40, "grey")
                         if style.unicode else f"-- turn {i + 1}/{total} " + "-" * 40)
        self.screen.line(style.paint("you> ", "bold") + text)
        await self.pause(0.3)
        try:
            await self.client.prompt(text)
        except RpcError as exc:
            if exc.code is None:
                print_error(self.screen, RuntimeError(self.client.crash_report()))
                return False
            self.errors += 1
            print_error(self.screen, exc)
        self.turns_done += 1
        g = self.printer.gauge or {}
        self.screen.line(f"  ctx {gauge_bar(g, style)} {tokens_short(g.get('used'))}/"
                         f"{tokens_short(g.get('size'))} {round(g.get('percentUsed') or 0)}% "
                         + style.paint(str(g.get("level", "?")), "grey")
                         + style.paint(f"  (auto-compact at {tokens_short(g.get('autoCompactAt'))})", "grey"))
        await self.pause(0.5)
        return True


def _transcript(storage: Path, session_id: str | None) -> Path | None:
    if not session_id:
        return None
    found = sorted(storage.glob(f"projects/*/{session_id}.jsonl"))
    return found[0] if found else None


def summary_rows(run: DemoRun, elapsed: float) -> list[tuple[str, str]]:
    reqs = [r for r in run.srv.requests if r.path == "/v1/messages"]
    usage = [r.usage or {} for r in reqs]
    forked_marks = ("<summary>",)
    main = [r for r in reqs if not any(m in r.last_user_text for m in forked_marks)]
    done = [e for e in run.printer.compactions if e.status == "completed"]
    by_tier = Counter(f"{tier_name(e.tier)} ({e.trigger})" for e in done)
    failed = [e for e in run.printer.compactions if e.status == "failed"]
    applied = sum(len(r.applied_edits) for r in reqs)
    refused = sum(1 for r in reqs if r.fault == "prompt_too_long")
    g = run.printer.gauge or {}
    memory = run.storage / "session-memory" / f"{run.client.session_id}.md"
    rows = [
        ("turns", f"{run.turns_done}" + (f" ({run.errors} answered with an error)" if run.errors else "")),
        ("model requests", f"{len(reqs)}: {len(main)} conversation, {run.agent.memory_updates} session-memory "
                           f"updates, {run.agent.summaries} compaction summaries"),
        ("peak context", f"{run.printer.peak_used:,} tokens by the gauge; largest request "
                         f"{max((r.input_tokens for r in reqs), default=0):,} tokens (window {CONTEXT_WINDOW:,})"),
        ("compactions", ", ".join(f"{k}: {v}" for k, v in sorted(by_tier.items())) or "none"),
    ]
    for e in done:
        rows.append(("", f"{tier_name(e.tier)} ({e.trigger}): {e.tokens_before:,} -> {e.tokens_after:,} tokens"))
    if failed:
        rows.append(("failed compactions", "; ".join(f"{e.trigger}: {e.error}" for e in failed)))
    rows += [
        ("API context edits", f"{applied} applied by the server" if applied else "none (trigger not reached)"),
        ("prompt too long", f"{refused} summary request(s) refused; retried with the oldest rounds dropped"
                            if refused else "no refusals"),
        ("requests checked", checked_row(run.srv)),
        ("cache read tokens", f"{sum(int(u.get('cache_read_input_tokens') or 0) for u in usage):,} total"),
        ("cache write tokens", f"{sum(int(u.get('cache_creation_input_tokens') or 0) for u in usage):,} total"),
        ("uncached input", f"{sum(int(u.get('input_tokens') or 0) for u in usage):,} total; output "
                           f"{sum(int(u.get('output_tokens') or 0) for u in usage):,}"),
        ("final context", f"{int(g.get('used') or 0):,} / {int(g.get('size') or 0):,} tokens ({g.get('level', '?')})"),
        ("files edited", ", ".join(dict.fromkeys(run.agent.files_edited)) or "none"),
        ("transcript", str(_transcript(run.storage, run.client.session_id) or "(not written)")),
        ("session memory", str(memory) if memory.is_file() else "(no notes written)"),
        ("workspace", str(run.workspace)),
        ("time", f"{elapsed:.1f} s"),
    ]
    return rows


def checked_row(srv: FakeLLMServer) -> str:
    """What the fake's validator and invariant checker made of every request."""
    found = srv.violations
    text = (f"{srv.checker.checked} validated against the SDK request types and the API rules; "
            f"{srv.checker.refused} refused; {len(found)} invariant violations")
    return text + "".join(f"\n    {v}" for v in found[:5])


def print_table(screen: Screen, rows: list[tuple[str, str]]) -> None:
    width = max(len(k) for k, _ in rows)
    style = screen.style
    screen.line()
    screen.line(style.paint("demo summary", "bold"))
    for key, value in rows:
        screen.line(f"  {style.paint(key.ljust(width), 'cyan')}  {value}")


async def _demo(turns: int, fast: bool) -> int:
    started = time.monotonic()
    # Kept after the run on purpose: the summary points at the transcript inside it.
    root = Path(tempfile.mkdtemp(prefix="context-sidecar-demo-"))
    workspace = root / "inventory-service"
    storage = root / "store"
    todos = create_workspace(workspace)
    screen = Screen()
    style = screen.style
    srv = FakeLLMServer(context_window=CONTEXT_WINDOW).start()
    agent = DemoAgent(workspace, todos, fast=fast)
    srv.responder = agent.respond
    printer = UpdatePrinter(screen)
    run = DemoRun(root, workspace, storage, srv, agent, screen, printer,
                  client=None, fast=fast)  # type: ignore[arg-type]
    run.loop = asyncio.get_running_loop()
    agent.on_forked = run.forked
    run.client = SidecarClient(workspace, printer, run.allow, env=demo_env(root),
                               settings=demo_settings(srv.url, storage))
    screen.line(style.paint("context-sidecar demo", "bold") + " · offline, scripted model on " + srv.url)
    screen.line(f"  workspace {workspace}")
    screen.line(f"  window {CONTEXT_WINDOW:,} tokens; session memory from 8,000, updates every 4,000")
    code = 0
    try:
        await run.client.start()
        await run.client.initialize()
        await run.client.new_session()
        for i in range(turns):
            if not await run.turn(i, turns):
                code = 1
                break
    except ProtocolMismatch as exc:
        print_error(screen, exc)
        code = 2
    except RpcError as exc:
        print_error(screen, exc if exc.code is not None else RuntimeError(run.client.crash_report()))
        code = 1
    finally:
        # The fake server goes first: it closes its keep-alive sockets cleanly instead of
        # having them reset under it when the sidecar exits.
        srv.stop()
        await run.client.stop()
    print_table(screen, summary_rows(run, time.monotonic() - started))
    if code == 0 and srv.violations:
        code = 1  # a request the real API would refuse, or a broken invariant, fails the demo
    if code != 0:
        screen.line(f"  sidecar log: {root / 'sidecar.log'}")
    return code


def run_demo(turns: int = 40, fast: bool = False) -> int:
    if turns < 1:
        print("error: --turns must be at least 1", file=sys.stderr)
        return 2
    try:
        return asyncio.run(_demo(turns, fast))
    except KeyboardInterrupt:
        return 130

