"""``context-sidecar chat``: a line-oriented terminal client of the sidecar.

Slash commands the server announces (``available_commands_update``) are sent as prompt
text; /help, /sessions, /new, /exit, /model without a name (a numbered list of the
models to pick from), /rewind and /fork (sidecar/terminal/rewind.py) are answered here. The prompt shows the
permission mode when it is not ``default``; a permission request for an edit shows its diff.
After a rejection it asks why; what the user types goes with the answer, and the model reads it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import signal
import sys
from pathlib import Path
from typing import Any

from sidecar import __version__
from sidecar.contract import methods as m
from sidecar.core.conversation.messages import json_object
from sidecar.core.models.listing import choice_details
from sidecar.core.permissions.choice import PermissionChoice
from sidecar.terminal.client import ProtocolMismatch, SidecarClient
from sidecar.terminal.diff import compact_diff
from sidecar.terminal.jsonrpc import RpcError
from sidecar.terminal.line_input import LineReader
from sidecar.terminal.markdown import terminal_width
from sidecar.terminal.rewind import Rewinder
from sidecar.terminal.screen import Screen
from sidecar.terminal.style import gauge_label, tokens_short
from sidecar.terminal.updates import UpdatePrinter

LOCAL_COMMANDS = [
    ("help", "List the commands"),
    ("sessions", "List the saved sessions of this folder (resume one with chat --resume ID)"),
    ("new", "Start a new session in this folder, on the model in use"),
    ("rewind", "List the checkpoints; /rewind N [both|conversation|code] goes back to before prompt N"),
    ("fork", "Go on in a copy of this session: /fork N from before prompt N, /fork all of it"),
    ("exit", "Leave (Ctrl-D does the same)"),
]
# The key that picks each option a permission request may offer, and its label when the
# option's own name is too long for the prompt line.
OPTION_KEYS = {"allow_once": "y", "accept_edits": "y", "allow_always": "a", "allow_turn": "t",
               "default": "d", "reject_once": "n", "reject_always": "r"}
SHORT_LABELS = {"allow_always": "always", "reject_always": "never"}
WORDS = {"yes": "y", "always": "a", "no": "n"}
# Asked after a rejection (an edit or a command; leaving plan mode), by whether it is the plan.
REASON_PROMPTS = {False: "  Why? (Enter to skip): ", True: "  What should change in the plan? (Enter to skip): "}
DIFF_LINES = 40  # at most this many lines of an edit's diff before the question
PLAN_LINES = 30
TRUST_CHECK_SECONDS = 15  # the /context answer counts the next request, which can take a while


def trust_line(view: Any) -> str | None:
    """The one line said at start of a folder the sidecar does not trust and holds things back
    from (a ``sidecar/context`` answer's ``workspaceTrust``); None when there is nothing to say."""
    trust = view.get("workspaceTrust") if isinstance(view, dict) else None
    if not isinstance(trust, dict) or trust.get("trusted") is not False:
        return None
    withheld = [w for w in trust.get("withheld") or [] if isinstance(w, str) and w]
    if not withheld:
        return None
    return ("This folder is not trusted, so these are not applied: " + "; ".join(withheld)
            + ". Type /trust to trust this folder.")


def print_error(screen: Screen, exc: RpcError | Exception) -> None:
    style = screen.style
    message = exc.message if isinstance(exc, RpcError) else str(exc)
    screen.line(style.paint("error: ", "red bold") + message)
    fix = exc.fix if isinstance(exc, RpcError) else None
    if fix:
        screen.line(style.paint("  fix: ", "yellow") + fix)


def joined_to_fit(items: list[str], width: int, separator: str = " · ") -> list[str]:
    """``items`` joined by ``separator`` into lines of at most ``width`` characters, broken
    between items (an item longer than a line gets one of its own), never inside a word."""
    lines: list[str] = []
    for item in items:
        if lines and len(lines[-1]) + len(separator) + len(item) <= width:
            lines[-1] += separator + item
        else:
            lines.append(item)
    return lines


class ChatState:
    """What Ctrl-C needs to know: is a turn or a permission question running?"""

    def __init__(self) -> None:
        self.turn: asyncio.Future[Any] | None = None
        self.cancel_sent = False
        self.permission: asyncio.Future[str | None] | None = None
        self.permission_interrupted = False
        self.prompt_text = ""


class Chat:
    def __init__(self, cwd: Path) -> None:
        self.screen = Screen()
        self.reader = LineReader()
        self.prompt_style = dataclasses.replace(self.screen.style, readline_safe=self.reader.interactive)
        self.printer = UpdatePrinter(self.screen)
        self.state = ChatState()
        self.client = SidecarClient(cwd, self.printer, self.ask_permission)
        self.rewinder = Rewinder(self)
        # The next prompt's text to start from (a rewound prompt), where the line editor can.
        self.next_input = ""

    # ----- permission -----------------------------------------------------------------

    async def ask_permission(self, params: dict[str, Any]) -> PermissionChoice | None:
        style = self.screen.style
        tool = json_object(params.get("toolCall"))
        options = [o for o in params.get("options") or [] if isinstance(o, dict)]
        keys = {OPTION_KEYS[str(o.get("optionId"))]: str(o.get("optionId")) for o in options
                if o.get("optionId") in OPTION_KEYS}
        title = tool.get("title") or "a tool"
        raw = json_object(tool.get("rawInput"))
        command = raw.get("command")
        # The tool's title as it is (a command, a description, or a question already); the
        # choices below ask the question.
        self.screen.line(style.paint("permission: ", "yellow bold") + str(title))
        if isinstance(command, str) and command != title:
            self.screen.line(style.paint(f"  $ {command}", "grey"))
        self._show_content(tool.get("content"))
        question = ", ".join(f"[{OPTION_KEYS[str(o.get('optionId'))]}] "
                             f"{SHORT_LABELS.get(str(o.get('optionId')), str(o.get('name', '')).lower())}"
                             for o in options if o.get("optionId") in OPTION_KEYS)
        kinds = {str(o.get("optionId")): str(o.get("kind", "")) for o in options}
        for _ in range(3):
            line = await self._ask_line(f"  {question} > ")
            if line is None:
                if self.state.permission_interrupted:
                    self.screen.line(style.paint("  permission cancelled", "yellow"))
                return None
            word = line.strip().lower()
            choice = keys.get(WORDS.get(word, word))
            if choice is None:
                self.screen.line(f"  answer {', '.join(keys)}")
            elif kinds.get(choice, "").startswith("reject"):
                return PermissionChoice(choice, await self._ask_reason(tool.get("kind") == "switch_mode"))
            else:
                return PermissionChoice(choice)
        return PermissionChoice("reject_once")

    async def _ask_reason(self, plan: bool) -> str | None:
        """What to tell the model about a rejection; Enter alone (or Ctrl-C, or the end of
        input) rejects without a reason."""
        line = await self._ask_line(REASON_PROMPTS[plan])
        return (line or "").strip() or None

    async def _ask_line(self, prompt: str) -> str | None:
        """A line for a permission question; None when Ctrl-C withdrew it or input ended."""
        loop = asyncio.get_running_loop()
        self.state.permission = loop.create_future()
        self.state.permission_interrupted = False
        line_task = asyncio.ensure_future(self.read_line(prompt))
        done, _ = await asyncio.wait({line_task, self.state.permission}, return_when=asyncio.FIRST_COMPLETED)
        interrupted = self.state.permission in done
        self.state.permission = None
        if interrupted:
            line_task.cancel()
            self.state.permission_interrupted = True
            return None
        return line_task.result()

    def _show_content(self, content: Any) -> None:
        """An edit's diff, compactly, or the text a question shows (a plan)."""
        style = self.screen.style
        for item in content if isinstance(content, list) else []:
            if not isinstance(item, dict):
                continue
            if item.get("type") == "diff":
                old, new = item.get("oldText"), item.get("newText")
                lines = compact_diff(old if isinstance(old, str) else None, str(new or ""),
                                     str(item.get("path", "")), DIFF_LINES)
                for line in lines:
                    colour = "green" if line.startswith("+") else "red" if line.startswith("-") else "grey"
                    self.screen.line(style.paint("  " + line, colour))
            elif item.get("type") == "content":
                inner = item.get("content")
                text = str(inner.get("text", "")) if isinstance(inner, dict) else ""
                shown = text.splitlines()
                for line in shown[:PLAN_LINES]:
                    self.screen.line("  " + line)
                if len(shown) > PLAN_LINES:
                    self.screen.line(style.paint(f"  ... {len(shown) - PLAN_LINES} more lines", "grey"))

    async def read_line(self, prompt: str, initial: str = "") -> str | None:
        line = await self.reader.readline(prompt, initial)
        if line is None:
            self.screen.at_line_start = False  # the prompt is still on the line
            self.screen.end_line()
            return None
        if not self.reader.interactive:
            self.screen.write(line + "\n")  # piped input is not echoed; keep the log readable
        self.screen.at_line_start = True
        return line

    # ----- Ctrl-C -------------------------------------------------------------------

    def on_interrupt(self) -> None:
        style = self.screen.style
        if self.state.permission is not None and not self.state.permission.done():
            self.state.permission.set_result(None)
        turn = self.state.turn
        if turn is not None and not turn.done():
            if not self.state.cancel_sent:
                self.state.cancel_sent = True
                self.client.cancel()
                self.screen.line(style.paint("^C cancelling the turn (press again to quit)", "yellow"))
            else:
                self.screen.line(style.paint("^C quitting", "yellow"))
                turn.cancel()
            return
        self.screen.line(style.paint("(Ctrl-D or /exit leaves)", "grey"))
        sys.stdout.write(self.state.prompt_text)
        sys.stdout.flush()

    # ----- the conversation ---------------------------------------------------------

    def prompt_text(self) -> str:
        mode = self.printer.permission_mode
        shown = f" {mode}" if mode and mode != "default" else ""
        return gauge_label(self.printer.gauge, self.prompt_style) + shown + "> "

    async def local_command(self, text: str) -> bool | None:
        """True: handled; None: leave; False: not a local command."""
        name = text[1:].split(" ", 1)[0].lower()
        style = self.screen.style
        if name in ("exit", "quit"):
            return None
        if name == "help":
            for cmd in self.printer.commands:
                self.screen.line(f"  /{cmd.get('name')}  " + style.paint(str(cmd.get("description", "")), "grey"))
            for cmd_name, description in LOCAL_COMMANDS:
                self.screen.line(f"  /{cmd_name}  " + style.paint(description, "grey"))
            self.screen.line(style.paint("  Ctrl-C cancels a running turn; Ctrl-D exits.", "grey"))
            return True
        if name == "model" and text.strip().lower() == "/model":
            await self.pick_model()
            return True
        if name == "new":
            await self.new_session()
            return True
        if name in ("rewind", "fork"):
            await self.rewinder.command(text)
            return True
        if name == "sessions":
            result = await self.client.request(m.SESSION_LIST, {"cwd": str(self.client.cwd.resolve())})
            sessions = result.get("sessions", []) if isinstance(result, dict) else []
            if not sessions:
                self.screen.line("  no saved sessions for this folder")
            for s in sessions[:20]:
                mark = "*" if s.get("sessionId") == self.client.session_id else " "
                used = f"{tokens_short(s.get('used'))}/{tokens_short(s.get('size'))}" if s.get("size") else ""
                self.screen.line(f" {mark}{s.get('sessionId')}  {s.get('updatedAt', '')[:19]}  "
                                 f"{used:>12}  {s.get('title') or ''}")
            return True
        return False

    def current_model(self) -> tuple[str | None, str | None]:
        """The model and provider in use (a /model NAME since start shows in the gauge)."""
        gauge = self.printer.gauge if isinstance(self.printer.gauge, dict) else {}
        return (gauge.get("model") or self.client.model, gauge.get("provider") or self.client.provider)

    async def pick_model(self) -> None:
        """``/model`` alone: the models the provider lists, numbered; one is picked by its
        number or its name (Enter keeps the model in use)."""
        style = self.screen.style
        listing = await self.client.request(m.MODELS, {"sessionId": self.client.session_id})
        listing = listing if isinstance(listing, dict) else {}
        models = [c for c in listing.get("models") or [] if isinstance(c, dict) and c.get("id")]
        current = str(listing.get("current") or "")
        where = "the provider's list" if listing.get("source") == "provider" else "the catalog"
        self.screen.line(style.paint(f"  models ({where}):", "grey"))
        for number, choice in enumerate(models, 1):
            self.screen.line(f"  {number:>2}. {choice['id']}"
                             + style.paint(choice_details(choice, current), "grey"))  # type: ignore[arg-type]
        line = await self.read_line(f"  model (number or name, Enter keeps {current}) > ")
        word = (line or "").strip()
        if not word:
            return
        if word.isdigit():
            if not 1 <= int(word) <= len(models):
                self.screen.line(f"  no model {word}: pick 1 to {len(models)}")
                return
            word = str(models[int(word) - 1]["id"])
        if word == current:
            return
        result = await self.client.request(m.SESSION_SET_MODEL,
                                           {"sessionId": self.client.session_id, "model": word})
        self.client.model = word
        self.printer.take_gauge(result.get("gauge") if isinstance(result, dict) else None)
        self.screen.line(f"  model: {word}")

    async def new_session(self) -> None:
        """``/new``: a new session in this folder on the model in use; the one before is
        closed (its transcript stays, ``chat --resume ID`` opens it again)."""
        before = self.client.session_id
        model, provider = self.current_model()
        await self.client.new_session(model, provider)
        if before and before != self.client.session_id:
            try:
                await self.client.request(m.SESSION_CLOSE, {"sessionId": before})
            except RpcError:
                pass
        self.screen.line(self.screen.style.paint(
            f"new session {self.client.session_id} · {self.client.model}", "grey"))

    async def run_turn(self, text: str) -> bool:
        """Run one prompt; False when the sidecar is gone."""
        self.state.cancel_sent = False
        self.state.turn = asyncio.ensure_future(self.client.prompt(text))
        try:
            result = await self.state.turn
        except asyncio.CancelledError:
            return False
        except RpcError as exc:
            if exc.code is None:
                print_error(self.screen, RuntimeError(self.client.crash_report()))
                return False
            print_error(self.screen, exc)
            return True
        finally:
            self.state.turn = None
        stop = result.get("stopReason")
        if stop and stop != "end_turn":
            self.screen.line(self.screen.style.paint(f"({stop.replace('_', ' ')})", "grey"))
        return True

    async def start(self, model: str | None, provider: str | None, resume: str | None) -> int:
        style = self.screen.style
        try:
            await self.client.start()
            await self.client.initialize()
            if resume:
                await self.client.load_session(resume)
            else:
                await self.client.new_session(model, provider)
        except ProtocolMismatch as exc:
            print_error(self.screen, exc)
            return 2
        except RpcError as exc:
            if exc.code is None:
                print_error(self.screen, RuntimeError(self.client.crash_report()))
            else:
                print_error(self.screen, exc)
            return 1
        await self.show_trust()
        mode = self.printer.permission_mode
        width = terminal_width(sys.stdout)
        known = [str(x) for x in (self.client.provider, self.client.model) if x]
        for items in ([f"context-sidecar {__version__}", *known,
                       f"session {self.client.session_id}", *([f"mode {mode}"] if mode else [])],
                      ["/help lists commands", "/mode and /plan set the permission mode",
                       "Ctrl-C cancels a turn", "Ctrl-D exits"]):
            for line in joined_to_fit(items, width):
                self.screen.line(style.paint(line, "grey"))
        return 0

    async def show_trust(self) -> None:
        """Says once, at start, what an untrusted folder does not get and how to trust it."""
        try:
            view = await asyncio.wait_for(
                self.client.request(m.CONTEXT, {"sessionId": self.client.session_id}), TRUST_CHECK_SECONDS)
        except (RpcError, asyncio.TimeoutError):  # the chat works without it
            return
        line = trust_line(view)
        if line:
            self.screen.line(self.screen.style.paint(line, "yellow"))

    async def loop(self) -> int:
        while True:
            self.state.prompt_text = self.prompt_text()
            initial, self.next_input = self.next_input, ""
            line = await self.read_line(self.state.prompt_text, initial)
            if line is None:
                return 0
            text = line.strip()
            if not text:
                continue
            if text.startswith("/"):
                try:
                    handled = await self.local_command(text)
                except RpcError as exc:
                    print_error(self.screen, exc)
                    continue
                if handled is None:
                    return 0
                if handled:
                    continue
            if not await self.run_turn(text):
                return 1


async def _chat(cwd: Path, model: str | None, provider: str | None, resume: str | None) -> int:
    chat = Chat(cwd)
    loop = asyncio.get_running_loop()
    try:
        loop.add_signal_handler(signal.SIGINT, chat.on_interrupt)
    except (NotImplementedError, RuntimeError):  # not on this platform: Ctrl-C stops the client
        pass
    try:
        code = await chat.start(model, provider, resume)
        if code == 0:
            code = await chat.loop()
        return code
    finally:
        await chat.client.stop()


def run_chat(cwd: str | None = None, model: str | None = None, provider: str | None = None,
             resume: str | None = None) -> int:
    folder = Path(cwd or os.getcwd()).expanduser()
    if not folder.is_dir():
        print(f"error: {folder} is not a folder", file=sys.stderr)
        return 2
    try:
        return asyncio.run(_chat(folder, model, provider, resume))
    except KeyboardInterrupt:
        return 130
