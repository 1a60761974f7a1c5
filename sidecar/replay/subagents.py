"""A recording's subagents and compaction calls, found so the replay runs them as subagents
and both bills count them.

Claude Code keeps a subagent's conversation as a sidechain: inline in the main file in 1.0.x
(``isSidechain`` records whose chain starts at a root with no parent), in a file of its own
from 2.x (``<session>/subagents/agent-<id>.jsonl``, every record carrying ``agentId``); the
calls that wrote its compaction summaries are such files too (``agent-acompact-<id>``). A
sidechain belongs to the Task call whose prompt is its first message. Files of one session
are found in its ``subagents`` folder or beside it (a folder of copied transcripts).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from sidecar.core.conversation.messages import Message
from sidecar.core.subagents.definitions import GENERAL_PURPOSE
from sidecar.core.subagents.ports import TASK_TOOL
from sidecar.replay.script import RecordedResult, ScriptedResponse, build_script
from sidecar.storage.claude_code import ApiCall, api_calls
from sidecar.storage.transcript_loader import LoadedTranscript, load_transcript

COMPACTION_AGENT_PREFIX = "acompact"


@dataclass
class RecordedSubagent:
    """One Task call's recorded subagent: what it was asked, and its side of the recording."""

    tool_use_id: str  # the main conversation's Task call
    agent_type: str
    prompt: str
    model: str | None
    responses: list[ScriptedResponse]
    calls: list[ApiCall]
    tool_results: dict[str, RecordedResult]
    tool_names: list[str]
    first_call_messages: list[Message]

    @property
    def tool_use_ids(self) -> set[str]:
        return {str(b.get("id")) for r in self.responses for b in r.tool_uses}


@dataclass
class Companions:
    """The subagents of a recording, by Task call, and its compaction calls."""

    subagents: dict[str, RecordedSubagent] = field(default_factory=dict)
    compaction_calls: list[ApiCall] = field(default_factory=list)
    unmatched: int = 0  # sidechains no Task call of the main conversation asked for


@dataclass(frozen=True)
class _Identity:
    session_id: str
    agent_id: str | None


def _identity(path: Path, lines: int = 50) -> _Identity | None:
    """The session (and agent) of a ``.jsonl`` transcript, from the first of its first
    lines that names one (snapshots and summaries name none)."""
    try:
        with path.open("rb") as handle:
            for _ in range(lines):
                line = handle.readline(1 << 22)
                if not line:
                    return None
                try:
                    record = json.loads(line)
                except ValueError:
                    continue
                session = record.get("sessionId") if isinstance(record, dict) else None
                if isinstance(session, str) and session:
                    agent = record.get("agentId")
                    return _Identity(session, agent if isinstance(agent, str) and agent else None)
    except OSError:
        return None
    return None


def companion_files(path: Path, session_id: str | None) -> list[tuple[Path, str]]:
    """``(file, agentId)`` of the subagent and compaction files of session ``session_id``:
    in ``<dir>/<session>/subagents/`` as Claude Code keeps them, or beside ``path``."""
    if not session_id:
        return []
    candidates = sorted((path.parent / session_id / "subagents").glob("*.jsonl"))
    candidates += sorted(p for p in path.parent.glob("*.jsonl") if p != path)
    found: dict[Path, str] = {}
    for candidate in candidates:
        who = _identity(candidate, lines=1)  # a subagent file names both on its first line
        if who is not None and who.session_id == session_id and who.agent_id:
            found.setdefault(candidate, who.agent_id)
    return list(found.items())


def inline_chains(messages: Iterable[Message]) -> list[list[Message]]:
    """Inline sidechain records split into their chains (a root has no parent in the file)."""
    chains: list[list[Message]] = []
    chain_of: dict[str, int] = {}
    for message in messages:
        index = chain_of.get(message.parent_uuid or "")
        if index is None:
            index = len(chains)
            chains.append([])
        chains[index].append(message)
        chain_of[message.uuid] = index
    return chains


def _prompt_of(chain: list[Message]) -> str:
    first = next((m for m in chain if m.kind == "user" and not m.is_meta), None)
    return first.text().strip() if first is not None else ""


def _task_calls(loaded: LoadedTranscript) -> list[tuple[str, str, str]]:
    """``(tool_use_id, subagent_type, prompt)`` of every Task call in the main conversation."""
    out: list[tuple[str, str, str]] = []
    for message in loaded.messages:
        if message.kind != "assistant":
            continue
        for block in message.content:
            if block.get("type") == "tool_use" and block.get("name") == TASK_TOOL:
                given = block.get("input")
                args = given if isinstance(given, dict) else {}
                out.append((str(block.get("id")),
                            str(args.get("subagent_type") or GENERAL_PURPOSE),
                            str(args.get("prompt") or "").strip()))
    return out


def _subagent(tool_use_id: str, agent_type: str, chain: list[Message]) -> RecordedSubagent:
    script = build_script(chain)
    calls = api_calls(chain)
    return RecordedSubagent(
        tool_use_id=tool_use_id, agent_type=agent_type, prompt=_prompt_of(chain),
        model=next((c.model for c in calls if c.model), None),
        responses=[r for turn in script.turns for r in turn.responses], calls=calls,
        tool_results=script.tool_results, tool_names=script.tool_names,
        first_call_messages=script.first_call_messages)


def recorded_companions(loaded: LoadedTranscript) -> Companions:
    """The recording's subagents (inline and in files) matched to its Task calls, and its
    compaction calls."""
    found = Companions()
    chains = inline_chains(loaded.sidechain_messages)
    for file, agent_id in companion_files(loaded.path, loaded.session_id):
        companion = load_transcript(file)
        if agent_id.startswith(COMPACTION_AGENT_PREFIX):
            found.compaction_calls += api_calls(companion.messages)
        else:
            chains.append(companion.messages)
    unclaimed = [c for c in chains if c]
    for tool_use_id, agent_type, prompt in _task_calls(loaded):
        chain = next((c for c in unclaimed if prompt and _prompt_of(c) == prompt), None)
        if chain is None:
            continue  # the recording kept no transcript of it: its result is replayed
        unclaimed.remove(chain)
        found.subagents[tool_use_id] = _subagent(tool_use_id, agent_type, chain)
    found.unmatched = len(unclaimed)
    return found


def main_transcript_of(path: Path, session_id: str | None) -> Path | None:
    """For a subagent file: the main transcript of its session beside it, if any."""
    if not session_id:
        return None
    layout = path.parent.parent.parent / f"{session_id}.jsonl"  # <session>/subagents/agent-x
    if path.parent.name == "subagents" and layout.is_file():
        return layout
    for candidate in sorted(path.parent.glob("*.jsonl")):
        who = _identity(candidate) if candidate != path else None
        if who is not None and who.session_id == session_id and who.agent_id is None:
            return candidate
    return None


REPLAY_AGENT_PROMPT = "You replay a recorded subagent of type {name}."


def agent_prompt(agent_type: str, filler: str = "") -> str:
    """The system prompt of a replayed agent type, ``filler`` standing for the rest of the
    recording's."""
    return REPLAY_AGENT_PROMPT.format(name=agent_type) + (f"\n\n{filler}" if filler else "")


def agent_file(agent: RecordedSubagent, tools: list[str], filler: str) -> str:
    """A definition in Claude Code's layout for the recording's agent type: the tools its
    recorded runs used, the model they ran on, a body sized like the recording's hidden
    subagent prompt."""
    head = ["---", f"name: {agent.agent_type}",
            f"description: {REPLAY_AGENT_PROMPT.format(name=agent.agent_type)}",
            f"tools: {', '.join(tools) or 'Read'}"]
    if agent.model:
        head.append(f"model: {agent.model}")
    return "\n".join([*head, "---", agent_prompt(agent.agent_type, filler), ""])


def agent_types(companions: Companions) -> dict[str, list[RecordedSubagent]]:
    """The recorded subagents by agent type, in the order of their Task calls."""
    out: dict[str, list[RecordedSubagent]] = {}
    for agent in companions.subagents.values():
        out.setdefault(agent.agent_type, []).append(agent)
    return out
