"""Command line: serve (LSP over stdio, or ACP), chat, demo, replay, fake-llm, --version.

Imports stay inside each command so ``serve`` starts without loading what it does not use.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # not typing's: the first interpreter of `serve` loads this module

if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable


# serve's options: (name, takes a value, default, help). The editor starts ``serve`` and waits
# for its first answer, so its command line is read from this table without argparse (whose
# formatters and gettext lookups cost milliseconds); anything else goes to argparse.
SERVE_OPTIONS: tuple[tuple[str, bool, str | None, str | None], ...] = (
    ("--stdio", False, None, "accepted for vscode-languageclient; stdio is the default"),
    ("--acp", False, None, "speak ACP v1 (newline-delimited JSON) instead of LSP framing"),
    ("--log-file", True, None, "also write logs here (default: the storage directory)"),
    ("--log-level", True, "INFO", None),
)


def _serve(p: argparse.ArgumentParser) -> None:
    for name, takes_value, default, summary in SERVE_OPTIONS:
        if takes_value:
            p.add_argument(name, default=default, help=summary)
        else:
            p.add_argument(name, action="store_true", help=summary)


def _text(value: str | bool | None) -> str | None:
    return value if isinstance(value, str) else None


def _read_serve(words: list[str]) -> dict[str, str | bool | None] | None:
    """``serve``'s options as argparse would read them, or None when the words hold anything
    the table does not know (help, a typo, a missing value): argparse then says what."""
    options = {name: takes_value for name, takes_value, _, _ in SERVE_OPTIONS}
    read: dict[str, str | bool | None] = {
        name[2:].replace("-", "_"): (default if takes_value else False)
        for name, takes_value, default, _ in SERVE_OPTIONS}
    i = 0
    while i < len(words):
        name, has_value, value = words[i].partition("=")
        if name not in options or has_value and not options[name]:
            return None
        if options[name] and not has_value:
            if i + 1 >= len(words) or words[i + 1].startswith("-"):
                return None
            value = words[i + 1]
            i += 1
        read[name[2:].replace("-", "_")] = value if options[name] else True
        i += 1
    return read


def _chat(p: argparse.ArgumentParser) -> None:
    p.add_argument("--cwd", default=None, help="workspace folder (default: the current directory)")
    p.add_argument("--model", default=None)
    p.add_argument("--provider", default=None)
    p.add_argument("--resume", default=None, metavar="SESSION_ID")


def _demo(p: argparse.ArgumentParser) -> None:
    p.add_argument("--turns", type=int, default=40)
    p.add_argument("--fast", action="store_true", help="no pauses between steps")


def _replay(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", nargs="?", help="a Claude Code JSONL file or a folder of them")
    p.add_argument("--chart", default=None, help="write an SVG chart of the context here")
    p.add_argument("--json", action="store_true", help="print the report as JSON")


def _fake_llm(p: argparse.ArgumentParser) -> None:
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--context-window", type=int, default=None)


COMMANDS: dict[str, tuple[str, Callable[[argparse.ArgumentParser], None]]] = {
    "serve": ("speak the sidecar protocol over stdio (what editors start)", _serve),
    "chat": ("a terminal client: chat with the sidecar", _chat),
    "demo": ("an offline scripted session against the built-in fake LLM server", _demo),
    "replay": ("drive the engine with a recorded session and report", _replay),
    "fake-llm": ("run the fake Anthropic/OpenAI server on 127.0.0.1 "
                 "(also --replies FILE, --cache-min-tokens N, --ignore-stdin, --lenient)", _fake_llm),
}


def _parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole parser, or, when the command line names a command, the parser of that
    command alone: every subparser costs a formatter and gettext's file lookups, which an
    editor starting ``serve`` would wait for."""
    import argparse

    p = argparse.ArgumentParser(
        prog="context-sidecar",
        description="Keeps long LLM coding sessions inside the model's context window.",
    )
    p.add_argument("--version", action="store_true", help="print the version and protocol, then exit")
    sub = p.add_subparsers(dest="command")
    for name, (summary, add_arguments) in COMMANDS.items():
        if command in (None, name) or command not in COMMANDS:
            add_arguments(sub.add_parser(name, help=summary))
    return p


def _run_serve(acp: bool, log_file: str | None, log_level: str) -> int:
    if acp:
        from sidecar.acp.server import serve_acp

        return serve_acp(log_file=log_file, log_level=log_level)
    from sidecar.lsp.server import serve

    return serve(log_file=log_file, log_level=log_level)


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    if words[:1] == ["serve"]:
        from sidecar.credentials import take_environment

        # Before anything else, the argument parser included: keys must be out of the
        # environment block before any command the model runs could read it, and the first
        # interpreter, which only hands its environment over, should load next to nothing.
        take_environment()
        options = _read_serve(words[1:])
        if options is not None:
            return _run_serve(acp=bool(options["acp"]), log_file=_text(options["log_file"]),
                              log_level=_text(options["log_level"]) or "INFO")
    args, rest = _parser(words[0] if words else None).parse_known_args(argv)
    if args.version:
        from sidecar import PROTOCOL_VERSION, __version__

        print(f"context-sidecar {__version__} (protocol {PROTOCOL_VERSION})")
        return 0
    if args.command == "serve":
        return _run_serve(acp=args.acp, log_file=args.log_file, log_level=args.log_level)
    if args.command == "fake-llm":
        from sidecar.fake_llm import main as fake_main

        fake_args = ["--port", str(args.port), *rest]
        if args.context_window:
            fake_args += ["--context-window", str(args.context_window)]
        return int(fake_main(fake_args) or 0)
    if args.command == "chat":
        from sidecar.terminal.chat import run_chat

        return run_chat(cwd=args.cwd, model=args.model, provider=args.provider, resume=args.resume)
    if args.command == "demo":
        from sidecar.terminal.demo import run_demo

        return run_demo(turns=args.turns, fast=args.fast)
    if args.command == "replay":
        from sidecar.replay.report import run_replay

        return run_replay(args.path, chart=args.chart, as_json=args.json)
    _parser().print_help(sys.stderr)
    return 2
