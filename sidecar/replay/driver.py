"""Driving the real engine with a recorded session.

The session service, session and context manager are the production ones; only the
editor (records what it is told), the tools (return the recorded outputs), the prefix
(sized like the recording's hidden prefix) and the model (the fake server playing the
recorded answers) stand in.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import tempfile
import time
from pathlib import Path

from sidecar.composition import default_adapters
from sidecar.core.server_tool_offers import no_server_tools
from sidecar.contract.decoding import decode
from sidecar.contract.errors import SidecarError
from sidecar.contract.params import NewSessionParams, PromptParams
from sidecar.core.compaction.turn_clearing import rereads_after_clearing
from sidecar.core.conversation.messages import Block, Usage
from sidecar.core.ports import Tool, tool_specs
from sidecar.core.service import SessionService
from sidecar.core.session import Session
from sidecar.core.settings import Retry, Settings
from sidecar.fake_llm import FakeLLMServer
from sidecar.core.subagents.definitions import AgentDefinition
from sidecar.core.subagents.runner import subagent_tools, system_prompt
from sidecar.replay.billing import Billed, SubagentBill, billed_of, output_weight, price_scale
from sidecar.replay.editor import ReplayEditor
from sidecar.replay.padding import ReplayPrefix, filler_text, plan_padding, wire_tools
from sidecar.replay.player import ScriptPlayer
from sidecar.replay.result import SessionResult, TierEvent
from sidecar.replay.script import ReplayScript, Turn, build_script, first_call_payload
from sidecar.replay.subagents import (
    Companions,
    agent_file,
    agent_prompt,
    agent_types,
    main_transcript_of,
    recorded_companions,
)
from sidecar.replay.tools import ReplayTask, ReplayTool, replay_tools
from sidecar.storage.transcript_loader import load_transcript

KEY_ENV = "CONTEXT_SIDECAR_REPLAY_KEY"
WINDOW = 200_000
DEFAULT_MODEL = Settings().model  # for recordings that name no model
# Recorded turns run to hundreds of calls; the engine's own cap must not cut them short.
MAX_TURN_REQUESTS = 10_000


log = logging.getLogger(__name__)


def replay_settings(model: str, base_url: str, storage: Path) -> Settings:
    """The user's settings (file and environment layers) over the seed's defaults, on a
    200K window, pointed at the fake server."""
    from sidecar.core.settings import resolve_settings

    base, warnings = resolve_settings(None)
    for warning in warnings:
        log.warning("%s", warning)
    return dataclasses.replace(
        base,
        provider="anthropic",
        model=model,
        baseUrl=base_url,
        apiKeyEnv=KEY_ENV,
        storageDir=str(storage),
        contextWindow=WINDOW,
        maxTurnRequests=MAX_TURN_REQUESTS,
        retry=Retry(maxRetries=1, baseDelayMs=10, maxDelayMs=50, timeoutSeconds=120),
    )


def _prompt_blocks(turn: Turn) -> list[Block]:
    """A turn as ``session/prompt`` content (ACP image form for recorded images)."""
    if turn.action == "compact":
        return [{"type": "text", "text": f"/compact {turn.instructions or ''}".strip()}]
    if turn.action == "clear":
        return [{"type": "text", "text": "/clear"}]
    out: list[Block] = []
    for block in turn.blocks:
        if block.get("type") == "image":
            source = block.get("source") or {}
            if source.get("type") == "base64":
                out.append(
                    {
                        "type": "image",
                        "mimeType": source.get("media_type"),
                        "data": source.get("data"),
                    }
                )
        elif block.get("text"):
            out.append({"type": "text", "text": str(block["text"])})
    return out or [{"type": "text", "text": "Continue."}]


def _write_agents(home: Path, companions: Companions, tools: list[Tool], work: Path,
                  user_context: str) -> None:
    """The recording's agent types as the user's own agent definitions, each padded to the
    recorded subagent's hidden prompt as the main prefix is to the recording's."""
    folder = home / ".claude" / "agents"
    folder.mkdir(parents=True, exist_ok=True)
    for index, (name, agents) in enumerate(agent_types(companions).items()):
        used = list(dict.fromkeys(t for a in agents for t in a.tool_names))
        first = agents[0]
        definition = AgentDefinition(name=name, description="", source="user", tools=tuple(used),
                                     prompt=agent_prompt(name))
        hidden = plan_padding(
            first.calls[0].usage.prompt_tokens if first.calls else 0,
            first_call_payload(first.first_call_messages, first.tool_names),
            [{"type": "text", "text": system_prompt(definition, str(work))}],
            wire_tools(tool_specs(subagent_tools(tools, definition))),
            user_context,
        )
        text = agent_file(first, used, filler_text(hidden.filler))
        (folder / f"replay-{index}.md").write_text(text, encoding="utf-8")


async def replay_script(
    script: ReplayScript, *, path: str, model: str, cwd: str | None, server: FakeLLMServer,
    companions: Companions | None = None,
) -> SessionResult:
    started = time.perf_counter()
    companions = companions or Companions()
    result = SessionResult(file=path, model=model, out_weight=output_weight(model))
    editor = ReplayEditor()
    with tempfile.TemporaryDirectory(prefix="sidecar-replay-") as tmp:
        storage = Path(tmp)
        settings = replay_settings(model, server.url, storage)
        work = cwd if cwd and Path(cwd).is_absolute() else str(storage / "workspace")
        sessions: list[Session] = []

        async def settle() -> None:
            if sessions and sessions[0].tiers is not None:
                await sessions[0].tiers.memory.wait(timeout=60)

        async def before_tool(tool_call_id: str) -> None:
            await settle()
            player.elapse(tool_call_id)

        results = dict(script.tool_results)
        names = dict.fromkeys(script.tool_names)
        for agent in companions.subagents.values():
            results.update(agent.tool_results)
            names.update(dict.fromkeys(agent.tool_names))
        tools = replay_tools(list(names), results, before_tool, set(companions.subagents))
        base = ReplayPrefix(Path(work), settings)
        recorded_first = script.calls[0].usage.prompt_tokens if script.calls else 0
        hidden = plan_padding(
            recorded_first,
            first_call_payload(script.first_call_messages, script.tool_names),
            base.system_blocks(),
            wire_tools(tool_specs(tools)),
            base.user_context_text(),
        )
        prefix = ReplayPrefix(Path(work), settings, hidden.filler)
        home = storage / "home"
        _write_agents(home, companions, tools, Path(work), base.user_context_text())
        player = ScriptPlayer(script, server, prefix, companions.subagents.values())
        server.reset()
        server.responder = player

        def where() -> dict[str, int]:
            return {"turn": player.turn, "request": player.main_served}

        # The recording's tools are its whole tool set (Claude Code's web tools among them,
        # as its own): no provider tool is added beside them.
        adapters = dataclasses.replace(default_adapters(), tools=lambda s: tools,
                                       prefix=lambda cwd, s: prefix, watcher=None,
                                       home=lambda: home, server_tools=no_server_tools)
        # No prompt history: a replay is not something the user typed.
        service = SessionService(editor, settings, adapters=adapters, environ={
            KEY_ENV: "replay", "CLAUDE_CODE_SKIP_PROMPT_HISTORY": "1"})
        # Each context-management event also says where in the recording it fired.
        service.tier_observers.append(
            lambda event: event.update(where(), used=sessions[0].ledger.used()))
        opened = service.new_session(NewSessionParams(cwd=work, model=model, provider="anthropic"))
        session = service.get(opened["sessionId"])
        sessions.append(session)
        session.clock = player.clock
        unplayed = 0
        for index, turn in enumerate(script.turns):
            editor.turn = index
            player.start_turn(index)
            try:
                # Decoded as the wire's would be: a recorded block the protocol refuses is
                # that turn's error, as it would be for a client.
                await service.prompt(decode(PromptParams, {"sessionId": session.id,
                                                           "prompt": _prompt_blocks(turn)}))
            except SidecarError as exc:
                result.errors.append({"turn": index, "code": exc.code, "message": exc.message})
            unplayed += player.leftover()
            await settle()  # a session-memory update the turn's last answer started
        await service.shutdown()
        # Close the SDK's connections while their event loop still runs.
        close = getattr(session.provider(), "aclose", None)
        if close is not None:
            await close()
        result.turns = len(script.turns)
        _collect(result, script, session, server, player, editor)
        _collect_subagents(result, companions, server, player)
        result.hidden = hidden.to_json()
        result.script = {
            "responses": script.responses + sum(len(p.agent.responses) for p in player.plays),
            "played": player.played,
            "unplayed": unplayed + sum(len(p.agent.responses) - p.position for p in player.plays),
            "endOfScriptReplies": player.fallbacks,
            "unansweredPrompts": script.unanswered_prompts,
            "missingToolResults": sum(t.missing for t in tools
                                      if isinstance(t, (ReplayTool, ReplayTask))),
            "unmatchedSidechains": companions.unmatched,
        }
    server.responder = None
    result.seconds = time.perf_counter() - started
    return result


def _collect(
    result: SessionResult,
    script: ReplayScript,
    session: Session,
    server: FakeLLMServer,
    player: ScriptPlayer,
    editor: ReplayEditor,
) -> None:
    result.checked = server.checker.checked
    result.refused = server.checker.refused
    result.violations = [str(v) for v in server.violations]
    th = session.thresholds
    result.thresholds = {
        "size": th.size,
        "effectiveWindow": th.effective_window,
        "autoCompactAt": th.auto_compact_at,
        "warningAt": th.warning_at,
        "errorAt": th.error_at,
        "blockingAt": th.blocking_at,
    }
    # The recording may start warm: its first call read a prefix an earlier session had
    # cached (Claude Code's system prompt and tools). The replay starts with a cold fake;
    # ours gets the same warm start, as much of its first write counted as read as the
    # recording read, so the ratio compares the sessions, not the caches before them.
    warm = script.calls[0].usage.cache_read_input_tokens if script.calls else 0
    result.recorded_warm_tokens = warm
    # Both sides get the same answers, so their output is billed alike: the larger of the
    # recording's count and the fake's count of the answer's content. The recording counts
    # thinking its transcript does not show; some recordings logged only the first count
    # of a stream (a handful of tokens for a long answer).
    recorded_output = {c.message_id: c.usage.output_tokens for c in script.calls}
    alike: dict[str, int] = {}
    for request in list(server.requests):
        kind = player.kinds.get(id(request))
        usage = Usage.from_json(request.usage) if request.usage else None
        if kind is None or usage is None:
            result.rejected_requests += 1
            continue
        if kind[0] == "summary":
            result.ours_summary.add(usage)
            continue
        if kind[0] == "subagent":
            continue  # see _collect_subagents
        if warm and not result.ours_series:
            moved = min(warm, usage.cache_creation_input_tokens)
            usage = dataclasses.replace(
                usage, cache_creation_input_tokens=usage.cache_creation_input_tokens - moved,
                cache_read_input_tokens=usage.cache_read_input_tokens + moved)
            result.warm_start_tokens = moved
        answered = player.answered.get(id(request))
        if answered is not None and answered in recorded_output:
            if answered not in alike:
                alike[answered] = max(recorded_output[answered], usage.output_tokens)
                result.output_raised_recorded += alike[answered] - recorded_output[answered]
            result.output_raised_ours += alike[answered] - usage.output_tokens
            usage = dataclasses.replace(usage, output_tokens=alike[answered])
        result.ours_main.add(usage)
        result.ours_series.append(usage.prompt_tokens)
        if usage.prompt_tokens >= th.blocking_at:
            result.past_blocking += 1
    result.recorded = billed_of([
        dataclasses.replace(c.usage, output_tokens=alike.get(c.message_id, c.usage.output_tokens))
        for c in script.calls])
    result.recorded_series = [c.usage.prompt_tokens for c in script.calls]
    events = session.tiers.events if session.tiers is not None else []
    for event in events:
        tier = str(event.get("tier"))
        result.events.append(
            TierEvent(
                tier=tier,
                turn=int(event.get("turn", -1)),
                request=int(event.get("request", 0)),
                used=int(event.get("used", 0)),
                kind=event.get("kind"),
                trigger=event.get("trigger"),
                tokens_before=event.get("tokensBefore"),
                tokens_after=event.get("tokensAfter"),
                cleared=event.get("cleared"),
            )
        )
    result.compaction_points = [e.request for e in result.events if e.is_compaction]
    result.rereads = rereads_after_clearing(session.transcript.records)
    for level in ("warning", "error", "blocking"):
        point = editor.first_level(level)
        if point is not None:
            result.levels[level] = {"turn": point.turn, "used": point.used}


def _collect_subagents(result: SessionResult, companions: Companions, server: FakeLLMServer,
                       player: ScriptPlayer) -> None:
    """Both sides' subagent calls, by model, and the recording's compaction calls. Each
    subagent gets the warm start and the output billed alike as the main conversation."""
    result.recorded_compactions = billed_of([c.usage for c in companions.compaction_calls])
    result.subagent_runs = len(companions.subagents)
    recorded_output = {c.message_id: c.usage.output_tokens
                       for a in companions.subagents.values() for c in a.calls}
    alike: dict[str, int] = {}
    for request in list(server.requests):
        play = player.play_of.get(id(request))
        usage = Usage.from_json(request.usage) if request.usage else None
        if play is None or usage is None:
            continue
        warm = play.agent.calls[0].usage.cache_read_input_tokens if play.agent.calls else 0
        if warm and play.first_request == id(request):
            moved = min(warm, usage.cache_creation_input_tokens)
            usage = dataclasses.replace(
                usage, cache_creation_input_tokens=usage.cache_creation_input_tokens - moved,
                cache_read_input_tokens=usage.cache_read_input_tokens + moved)
        answered = player.answered.get(id(request))
        if answered in recorded_output:
            alike[answered] = max(alike.get(answered, 0), recorded_output[answered],
                                  usage.output_tokens)
            usage = dataclasses.replace(usage, output_tokens=alike[answered])
        _bill_for(result, play.agent.model).ours.add(usage)
    for agent in companions.subagents.values():
        bill = _bill_for(result, agent.model)
        for call in agent.calls:
            bill.recorded.add(dataclasses.replace(
                call.usage, output_tokens=alike.get(call.message_id, call.usage.output_tokens)))


def _bill_for(result: SessionResult, model: str | None) -> SubagentBill:
    key = model or result.model
    bill = result.subagents.get(key)
    if bill is None:
        bill = SubagentBill(key, price_scale(key, result.model), output_weight(key),
                            Billed(), Billed())
        result.subagents[key] = bill
    return bill


def replay_file(path: Path, server: FakeLLMServer) -> SessionResult:
    """Replay one transcript file (a subagent-only file or one without turns is skipped)."""
    loaded = load_transcript(path)
    model = loaded.model or DEFAULT_MODEL
    if loaded.is_subagent:
        main = main_transcript_of(path, loaded.session_id)
        return SessionResult(
            file=str(path), model=model, out_weight=output_weight(model),
            within=str(main) if main is not None else None,
            skipped=None if main is not None else "subagent transcript, its main one not beside it",
        )
    if loaded.format == "unsupported":
        return SessionResult(
            file=str(path),
            model=model,
            out_weight=output_weight(model),
            skipped="; ".join(loaded.warnings) or "unsupported format",
        )
    script = build_script(loaded.messages)
    if not script.turns:
        return SessionResult(
            file=str(path),
            model=model,
            out_weight=output_weight(model),
            skipped="no recorded turns",
        )
    return asyncio.run(replay_script(script, path=str(path), model=model, cwd=loaded.cwd,
                                     server=server, companions=recorded_companions(loaded)))
