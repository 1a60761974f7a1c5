"""Command line: serve (LSP over stdio, or ACP), chat, demo, replay, fake-llm, --version.

Imports stay inside each command so ``serve`` starts without loading what it does not use.
"""

from __future__ import annotations

import argparse
import sys

from sidecar import PROTOCOL_VERSION, __version__


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="context-sidecar",
        description="Keeps long LLM coding sessions inside the model's context window.",
    )
    p.add_argument("--version", action="store_true", help="print the version and protocol, then exit")
    sub = p.add_subparsers(dest="command")

    serve = sub.add_parser("serve", help="speak the sidecar protocol over stdio (what editors start)")
    serve.add_argument("--stdio", action="store_true", help="accepted for vscode-languageclient; stdio is the default")
    serve.add_argument("--acp", action="store_true", help="speak ACP v1 (newline-delimited JSON) instead of LSP framing")
    serve.add_argument("--log-file", help="also write logs here (default: the storage directory)")
    serve.add_argument("--log-level", default="INFO")

    chat = sub.add_parser("chat", help="a terminal client: chat with the sidecar")
    chat.add_argument("--cwd", default=None, help="workspace folder (default: the current directory)")
    chat.add_argument("--model", default=None)
    chat.add_argument("--provider", default=None)
    chat.add_argument("--resume", default=None, metavar="SESSION_ID")

    demo = sub.add_parser("demo", help="an offline scripted session against the built-in fake LLM server")
    demo.add_argument("--turns", type=int, default=40)
    demo.add_argument("--fast", action="store_true", help="no pauses between steps")

    replay = sub.add_parser("replay", help="drive the engine with a recorded session and report")
    replay.add_argument("path", nargs="?", help="a Claude Code JSONL file or a folder of them")
    replay.add_argument("--chart", default=None, help="write an SVG chart of the context here")
    replay.add_argument("--json", action="store_true", help="print the report as JSON")

    fake = sub.add_parser("fake-llm", help="run the fake Anthropic/OpenAI server on 127.0.0.1 "
                          "(also --replies FILE, --cache-min-tokens N, --ignore-stdin, --lenient)")
    fake.add_argument("--port", type=int, default=0)
    fake.add_argument("--context-window", type=int, default=None)
    return p


def main(argv: list[str] | None = None) -> int:
    args, rest = _parser().parse_known_args(argv)
    if args.version:
        print(f"context-sidecar {__version__} (protocol {PROTOCOL_VERSION})")
        return 0
    if args.command == "serve":
        from sidecar.credentials import take_environment

        # Before anything else: keys must be out of the environment block before any
        # command the model runs could read it.
        take_environment()
        if args.acp:
            from sidecar.acp.server import serve_acp

            return serve_acp(log_file=args.log_file, log_level=args.log_level)
        from sidecar.lsp.server import serve

        return serve(log_file=args.log_file, log_level=args.log_level)
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
