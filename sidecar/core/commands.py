"""The slash commands the server answers, in one list: a new command is one handler and one
``SlashCommand`` entry in ``COMMANDS``.

A text prompt starting with ``/NAME`` runs NAME's handler instead of a model turn (an
unknown name goes to the model as it is). The same list is what ``available_commands_update``
announces, and where ACP finds each command's input hint.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Protocol, cast

from sidecar.contract.errors import InvalidParams
from sidecar.contract.results import Compacted, StopReason
from sidecar.contract.updates import Command, CompactionTrigger, agent_message_chunk
from sidecar.core.accounting.context_view import render_context
from sidecar.core.conversation.messages import new_uuid
from sidecar.core.permissions.modes import MODES
from sidecar.core.session import Session

if TYPE_CHECKING:
    from sidecar.core.accounting.context_report import ContextReport
    from sidecar.core.checkpoints.room import Checkpoints
    from sidecar.core.models.session_models import SessionModels
    from sidecar.core.ports import McpServers
    from sidecar.core.workspace.start_hooks import StartHooks
    from sidecar.core.workspace.trust import TrustBook


class CommandHost(Protocol):
    """What a command may use of the session service."""

    trust: TrustBook
    mcp: McpServers
    models: SessionModels
    report: ContextReport
    start_hooks: StartHooks
    checkpoints: Checkpoints

    async def _compact(self, session: Session, instructions: str | None, *,
                       trigger: CompactionTrigger,
                       work_done_token: str | int | None = None) -> Compacted: ...


# A command's handler: the service, the session, and the text after the name (stripped).
Handler = Callable[[CommandHost, Session, str], Awaitable[StopReason]]


@dataclass(frozen=True)
class SlashCommand:
    name: str  # typed as /name
    description: str  # what the clients show
    input_hint: str | None  # what the argument is, for clients that show it (ACP)
    handler: Handler


def _say(session: Session, text: str) -> StopReason:
    session.update(agent_message_chunk(text, new_uuid()))
    return "end_turn"


async def _compact(host: CommandHost, session: Session, arg: str) -> StopReason:
    await host._compact(session, arg or None, trigger="manual")
    return "end_turn"


async def _context(host: CommandHost, session: Session, arg: str) -> StopReason:
    view = await host.report.view(session)
    return _say(session, render_context(cast(dict[str, Any], view)))


async def _clear(host: CommandHost, session: Session, arg: str) -> StopReason:
    session.clear()
    await session.resources.aclose()  # a fresh conversation has no background shells
    await host.start_hooks.run(session, "clear")
    session.update(agent_message_chunk("Context cleared.", new_uuid()))
    session.send_usage_update()
    return "end_turn"


async def _model(host: CommandHost, session: Session, arg: str) -> StopReason:
    if not arg:  # which models there are, and the one in use
        from sidecar.core.models.listing import render_model_list

        return _say(session, render_model_list(await host.models.fresh_choices(session)))
    host.models.switch(session, arg, None)
    return _say(session, f"Model set to {arg}.")


async def _plan(host: CommandHost, session: Session, arg: str) -> StopReason:
    if arg not in ("", "off"):
        raise InvalidParams("/plan takes no argument but off")
    session.permissions.choose("default" if arg == "off" else "plan")
    return _say(session, _mode_sentence(session))


async def _mode(host: CommandHost, session: Session, arg: str) -> StopReason:
    if not arg:  # which modes there are, and the one in force
        lines = [f"- {m['id']}{' (current)' if m['id'] == session.permissions.mode else ''}: "
                 f"{m['description']}" for m in MODES]
        return _say(session, "Permission modes (/mode NAME):\n" + "\n".join(lines))
    session.permissions.choose(arg)
    return _say(session, _mode_sentence(session))


async def _skills(host: CommandHost, session: Session, arg: str) -> StopReason:
    from sidecar.core.workspace.skills import render_skills

    skills = await host.report.skills(session)
    return _say(session, render_skills(skills))


async def _mcp(host: CommandHost, session: Session, arg: str) -> StopReason:
    text = await host.mcp.command(session, arg) if arg else host.mcp.render(session)
    return _say(session, text)


def _checkpoint_at(session: Session, number: str) -> tuple[str, str]:
    """The id and prompt of the checkpoint ``number`` names (1: the oldest)."""
    from sidecar.core.checkpoints.records import checkpoints_of

    found = checkpoints_of(session.transcript.records)
    if not number.isdigit() or not 1 <= int(number) <= len(found):
        raise InvalidParams(f"No checkpoint {number}: /rewind lists the {len(found)} there are")
    state = found[int(number) - 1]
    return state.checkpoint_id, state.prompt


async def _rewind(host: CommandHost, session: Session, arg: str) -> StopReason:
    from sidecar.contract.params import RewindParams
    from sidecar.core.checkpoints.records import checkpoints_of
    from sidecar.core.checkpoints.text import render_checkpoints, render_rewound

    words = arg.split()
    if not words:
        return _say(session, render_checkpoints(checkpoints_of(session.transcript.records),
                                                session.info.cwd))
    restore = words[1] if len(words) > 1 else "both"
    if restore not in ("both", "conversation", "code") or words[2:] not in ([], ["force"]):
        raise InvalidParams("Use /rewind N [both|conversation|code] [force]")
    checkpoint, _ = _checkpoint_at(session, words[0])
    done = await host.checkpoints.rewind_now(session, RewindParams(
        session_id=session.id, checkpoint_id=checkpoint, restore=restore,
        force=words[2:] == ["force"]))
    return _say(session, render_rewound(done, session.info.cwd))


async def _fork(host: CommandHost, session: Session, arg: str) -> StopReason:
    from sidecar.contract.params import ForkParams

    checkpoint = _checkpoint_at(session, arg)[0] if arg else None
    opened = await host.checkpoints.fork_now(session, ForkParams(
        session_id=session.id, checkpoint_id=checkpoint))
    where = "before that prompt" if checkpoint else "with all of this conversation"
    return _say(session, f"Forked into a new session {where}: {opened['sessionId']}")


async def _trust(host: CommandHost, session: Session, arg: str) -> StopReason:
    from sidecar.core.workspace.trust import trust_folder

    await trust_folder(host.trust, session.info.cwd)
    return _say(session,
                f"{session.info.cwd} is trusted from now on: its hooks run and its MCP servers "
                "may be approved; sessions opened from now on start with them.")


COMMANDS: list[SlashCommand] = [
    SlashCommand("compact", "Summarize the conversation to free context (optional instructions)",
                 "optional instructions for the summary", _compact),
    SlashCommand("context", "Show what fills the context window", None, _context),
    SlashCommand("clear", "Start over with an empty context (the transcript is kept)", None, _clear),
    SlashCommand("model", "Switch the model: /model NAME (/model alone lists them)",
                 "model name", _model),
    SlashCommand("plan", "Enter plan mode (read-only until the plan is approved); /plan off leaves it",
                 None, _plan),
    SlashCommand("mode", "Set the permission mode: /mode default|acceptEdits|plan|bypassPermissions",
                 None, _mode),
    SlashCommand("skills", "List the skills the model can load", None, _skills),
    SlashCommand("mcp", "Show the MCP servers, their status and tools", None, _mcp),
    SlashCommand("trust", "Trust this folder: its hooks, MCP servers and settings may apply",
                 None, _trust),
    SlashCommand("rewind", "Go back to before a prompt: code, conversation or both "
                 "(/rewind alone lists the checkpoints)", "N [both|conversation|code]", _rewind),
    SlashCommand("fork", "Continue in a new session from here, or from before prompt N",
                 "optional checkpoint number", _fork),
]
_BY_NAME = {c.name: c for c in COMMANDS}


def announced() -> list[Command]:
    """The commands as ``available_commands_update`` lists them."""
    return [{"name": c.name, "description": c.description} for c in COMMANDS]


def input_hint(name: str) -> str | None:
    command = _BY_NAME.get(name)
    return command.input_hint if command is not None else None


async def run_command(host: CommandHost, session: Session, text: str) -> StopReason | None:
    """Answer ``text`` (a prompt starting with "/") if it names a command; None if not."""
    name, _, arg = text[1:].partition(" ")
    command = _BY_NAME.get(name)
    return await command.handler(host, session, arg.strip()) if command is not None else None


def _mode_sentence(session: Session) -> str:
    """What a mode change says: the mode now in force."""
    if session.permissions.mode == "plan":
        where = session.permissions.plan_file()
        plan = f" The plan goes to {where}." if where is not None else ""
        return f"Plan mode: read-only until you approve the plan (/plan off leaves it).{plan}"
    name = next(m["name"] for m in MODES if m["id"] == session.permissions.mode)
    return f"Mode set to {name} ({session.permissions.mode})."
