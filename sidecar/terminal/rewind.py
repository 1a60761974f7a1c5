"""``/rewind`` and ``/fork`` in the terminal chat.

``/rewind`` lists the session's checkpoints (one per prompt, 1 the oldest) with the files each
prompt's turn changed and the shell commands it ran; ``/rewind N [both|conversation|code]``
goes back to just before prompt N (default both). A code restore is previewed first (nothing
changes): what happens to each file, its diff, the shell commands whose changes stay and the
files someone else changed since, then asked y/n (with such files: leave them alone or
overwrite them). After a conversation rewind the rewound prompt is offered again as the next
input's text (readline), or printed where there is no line editor. ``/fork [N]`` opens a new
session continuing a copy of the conversation, before prompt N or all of it, and the chat
goes on in it.
"""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from sidecar.contract import methods as m
from sidecar.terminal.diff import compact_diff
from sidecar.terminal.style import tokens_short

if TYPE_CHECKING:
    from sidecar.terminal.client import SidecarClient
    from sidecar.terminal.line_input import LineReader
    from sidecar.terminal.screen import Screen
    from sidecar.terminal.updates import UpdatePrinter


class Chat(Protocol):
    """What a rewind uses of the chat (``sidecar.terminal.chat.Chat``)."""

    client: SidecarClient
    screen: Screen
    printer: UpdatePrinter
    reader: LineReader
    next_input: str  # the text the next input line starts with

    async def read_line(self, prompt: str, initial: str = "") -> str | None: ...

RESTORES = ("both", "conversation", "code")
RESTORE_WORDS = {"both": "code and conversation", "conversation": "conversation", "code": "code"}
DIFF_LINES = 30  # at most this many lines of each file's diff in a preview
PROMPT_CHARS = 70
# What each action of a rewound file reads as, before (preview) and after (done).
PREVIEW_WORDS = {"restore": "restore", "delete": "delete", "unchanged": "unchanged", "conflict": "conflict"}
PREVIEW_NOTES = {"delete": "  (created after this point)", "unchanged": "  (already as it was)",
                 "conflict": "  (changed by someone else since; left alone unless you overwrite it)"}
DONE_WORDS = {"restore": "restored", "delete": "deleted", "unchanged": "already as it was",
              "conflict": "left alone (changed since)"}
USAGE = {"rewind": "/rewind [N [both|conversation|code]]", "fork": "/fork [N]"}


def first_line(text: Any, limit: int = PROMPT_CHARS) -> str:
    line = next((ln.strip() for ln in str(text or "").splitlines() if ln.strip()), "")
    if not line:
        return "(empty prompt)"
    return line if len(line) <= limit else line[: limit - 3] + "..."


def when(at: Any) -> str:
    """``14:03`` today, ``2026-11-02 14:03`` another day, in local time."""
    try:
        moment = datetime.datetime.fromisoformat(str(at).replace("Z", "+00:00")).astimezone()
    except ValueError:
        return str(at or "")
    if moment.date() == datetime.datetime.now().astimezone().date():
        return moment.strftime("%H:%M")
    return moment.strftime("%Y-%m-%d %H:%M")


def shown_path(path: Any, cwd: Path) -> str:
    text = str(path or "?")
    try:
        return str(Path(text).relative_to(cwd.resolve()))
    except ValueError:
        return text


def checkpoint_lines(checkpoints: list[dict[str, Any]], cwd: Path) -> list[tuple[str, str]]:
    """The numbered list, each line with its colour: the prompt, when and the gauge before it,
    then the files its turn changed and the shell commands it ran."""
    lines: list[tuple[str, str]] = []
    for number, checkpoint in enumerate(checkpoints, 1):
        used = checkpoint.get("used")
        gauge = f" · ctx {tokens_short(used)}" if isinstance(used, (int, float)) else ""
        lines.append((f"  {number:>2}. {first_line(checkpoint.get('prompt'))}", ""))
        lines.append((f"      {when(checkpoint.get('at'))}{gauge}", "grey"))
        files = [f for f in checkpoint.get("files") or [] if isinstance(f, dict)]
        if files:
            names = [shown_path(f.get("path"), cwd) + (" (created)" if f.get("created") else "") for f in files]
            lines.append(("      files: " + ", ".join(names), "cyan"))
        for command in checkpoint.get("commands") or []:
            lines.append((f"      $ {command}  (shell: a rewind does not undo it)", "yellow"))
    return lines


def preview_lines(result: dict[str, Any], cwd: Path) -> tuple[list[tuple[str, str]], int]:
    """What a rewind would do (a ``preview: true`` answer): each file's action and diff, then
    the shell commands whose changes stay; and how many files someone else changed since."""
    lines: list[tuple[str, str]] = []
    files = [f for f in result.get("files") or [] if isinstance(f, dict)]
    conflicts = sum(1 for f in files if f.get("action") == "conflict")
    if not files:
        lines.append(("  no file to restore: no edit of the model's since this point", "grey"))
    for f in files:
        action = str(f.get("action"))
        path = shown_path(f.get("path"), cwd)
        colour = "red" if action == "conflict" else "grey" if action == "unchanged" else ""
        lines.append((f"  {PREVIEW_WORDS.get(action, action):<9} {path}{PREVIEW_NOTES.get(action, '')}", colour))
        if action in ("restore", "delete", "conflict"):
            old, new = f.get("oldText"), f.get("newText")
            diff = compact_diff(old if isinstance(old, str) else None, new if isinstance(new, str) else "",
                                path, DIFF_LINES)
            for line in diff:
                header = line.startswith(("---", "+++", "@@"))
                lines.append(("    " + line, "grey" if header else "green" if line.startswith("+")
                              else "red" if line.startswith("-") else ""))
    for command in result.get("commands") or []:
        lines.append((f"  $ {command}  (shell: what it changed is not undone)", "yellow"))
    return lines, conflicts


def done_lines(result: dict[str, Any], cwd: Path) -> list[tuple[str, str]]:
    """What a rewind did, one line per file, then the shell commands it could not undo."""
    lines: list[tuple[str, str]] = []
    for f in result.get("files") or []:
        if isinstance(f, dict):
            action = str(f.get("action"))
            colour = "red" if action == "conflict" else "grey" if action == "unchanged" else "green"
            lines.append((f"  {DONE_WORDS.get(action, action)}: {shown_path(f.get('path'), cwd)}", colour))
    if result.get("restore") in ("both", "code") and not result.get("files"):
        lines.append(("  no file to restore", "grey"))
    if result.get("restore") in ("both", "code"):
        for command in result.get("commands") or []:
            lines.append((f"  not undone: $ {command}", "yellow"))
    return lines


class Rewinder:
    """The two commands for one chat: its client, screen and line reader."""

    def __init__(self, chat: Chat) -> None:
        self.chat = chat

    @property
    def cwd(self) -> Path:
        return self.chat.client.cwd

    def say(self, lines: list[tuple[str, str]]) -> None:
        style = self.chat.screen.style
        for text, colour in lines:
            self.chat.screen.line(style.paint(text, colour) if colour else text)

    async def checkpoints(self) -> list[dict[str, Any]]:
        result = await self.chat.client.request(m.CHECKPOINTS, {"sessionId": self.chat.client.session_id})
        listed = result.get("checkpoints") if isinstance(result, dict) else None
        return [c for c in listed or [] if isinstance(c, dict) and c.get("checkpointId")]

    async def command(self, text: str) -> None:
        words = text.split()
        name = words[0][1:].lower()
        args = words[1:]
        restore = args[1].lower() if len(args) > 1 else "both"
        if (args and not args[0].isdigit()) or len(args) > (1 if name == "fork" else 2) \
                or restore not in RESTORES:
            self.chat.screen.line(f"  usage: {USAGE[name]}")
            return
        checkpoints = await self.checkpoints()
        number = int(args[0]) if args else None
        if number is not None and not 1 <= number <= len(checkpoints):
            self.chat.screen.line(f"  no checkpoint {number}: " + (
                f"pick 1 to {len(checkpoints)} (/rewind lists them)" if checkpoints else "none yet"))
            return
        checkpoint = checkpoints[number - 1] if number is not None else None
        if name == "fork":
            await self.fork(checkpoint, number)
        elif checkpoint is None or number is None:
            self.list(checkpoints)
        else:
            await self.rewind(checkpoint, number, restore)

    def list(self, checkpoints: list[dict[str, Any]]) -> None:
        style = self.chat.screen.style
        if not checkpoints:
            self.chat.screen.line("  no checkpoints yet: each prompt sent makes one")
            return
        self.chat.screen.line(style.paint("  checkpoints, 1 the oldest:", "grey"))
        self.say(checkpoint_lines(checkpoints, self.cwd))
        self.chat.screen.line(style.paint(
            "  /rewind N [both|conversation|code]: back to just before prompt N", "grey"))
        self.chat.screen.line(style.paint("  /fork N: go on in a copy from there", "grey"))

    async def rewind(self, checkpoint: dict[str, Any], number: int, restore: str) -> None:
        client = self.chat.client
        params: dict[str, Any] = {"sessionId": client.session_id, "checkpointId": checkpoint["checkpointId"],
                                  "restore": restore}
        style = self.chat.screen.style
        if restore in ("both", "code"):
            preview = await client.request(m.REWIND, {**params, "preview": True})
            preview = preview if isinstance(preview, dict) else {}
            self.chat.screen.line(style.paint(
                f"  rewind to before prompt {number} ({RESTORE_WORDS[restore]}): "
                f"{first_line(checkpoint.get('prompt'))}", "bold"))
            self.chat.screen.line(style.paint("  nothing has changed yet; this is what the rewind would do:", "grey"))
            lines, conflicts = preview_lines(preview, self.cwd)
            self.say(lines)
            force = await self.confirm(conflicts)
            if force is None:
                self.chat.screen.line("  rewind cancelled; nothing changed")
                return
            if force:
                params["force"] = True
        result = await client.request(m.REWIND, params)
        result = result if isinstance(result, dict) else {}
        self.chat.printer.take_gauge(result.get("gauge"))
        self.chat.screen.line(style.paint(f"  rewound to before prompt {number} ({RESTORE_WORDS[restore]})",
                                          "magenta"))
        self.say(done_lines(result, self.cwd))
        prompt = result.get("prompt")
        if result.get("conversation"):
            self.chat.screen.line(style.paint(
                f"  the conversation is back before prompt {number}; its prompt is yours to send again", "grey"))
            if isinstance(prompt, str) and prompt:
                self.offer(prompt)

    async def confirm(self, conflicts: int) -> bool | None:
        """y: go (False: without force); f: go and overwrite the files changed since (True);
        anything else, Ctrl-C or the end of input: None."""
        if conflicts:
            question = (f"  rewind? [y] yes, leave the {conflicts} changed file{'s' if conflicts > 1 else ''} "
                        "alone, [f] yes and overwrite them too, [n] no > ")
        else:
            question = "  rewind? [y] yes, [n] no > "
        line = await self.chat.read_line(question)
        word = (line or "").strip().lower()
        if word in ("y", "yes"):
            return False
        if conflicts and word in ("f", "force"):
            return True
        return None

    def offer(self, prompt: str) -> None:
        """The prompt as the next input's text where readline can put it there (one line);
        else printed."""
        if self.chat.reader.can_prefill and "\n" not in prompt.strip():
            self.chat.next_input = prompt
            return
        self.chat.screen.line("  the prompt: " + prompt)

    async def fork(self, checkpoint: dict[str, Any] | None, number: int | None) -> None:
        client = self.chat.client
        before = client.session_id
        params: dict[str, Any] = {"sessionId": before}
        if checkpoint is not None:
            params["checkpointId"] = checkpoint["checkpointId"]
        result = await client.request(m.FORK, params)
        new_id = result.get("sessionId") if isinstance(result, dict) else None
        if not isinstance(new_id, str):
            self.chat.screen.line("  the fork did not say its session")
            return
        style = self.chat.screen.style
        where = f"before prompt {number}" if number is not None else "with all of the conversation"
        self.chat.screen.line(style.paint(f"  forked {where}; the conversation so far:", "grey"))
        await client.load_session(new_id)  # replays the copy's history here
        if before and before != new_id:
            try:
                await client.request(m.SESSION_CLOSE, {"sessionId": before})
            except Exception:  # the parent stays on disk either way
                pass
        self.chat.screen.line(style.paint(
            f"  now in the fork: session {new_id} (the one before: chat --resume {before})", "magenta"))
        prompt = checkpoint.get("prompt") if checkpoint is not None else None
        if isinstance(prompt, str) and prompt:
            self.offer(prompt)
