"""The fake LLM server as its own process, for Node and Neovim tests.

``python -m sidecar.fake_llm --port N --context-window W`` prints exactly one line,
``FAKE_LLM_URL=http://127.0.0.1:PORT``, and serves until SIGTERM, SIGINT or end of stdin.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
from typing import Any

from .server import DEFAULT_CONTEXT_WINDOW, FakeLLMServer


def main(argv: list[str] | None = None) -> int:
    """Run the fake as its own process for Node and Neovim tests.

    Prints exactly one line, ``FAKE_LLM_URL=http://127.0.0.1:PORT``, then serves until
    SIGTERM, SIGINT or end of stdin (unless ``--ignore-stdin``).
    """
    parser = argparse.ArgumentParser(prog="python -m sidecar.fake_llm")
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0 = ephemeral)")
    parser.add_argument("--context-window", type=int, default=DEFAULT_CONTEXT_WINDOW)
    parser.add_argument("--cache-min-tokens", type=int, default=0)
    parser.add_argument("--replies", help="JSON file with a list of replies to queue at start")
    parser.add_argument("--lenient", action="store_true",
                        help="accept bodies the real APIs refuse (tests of the refusal path only)")
    parser.add_argument("--ignore-stdin", action="store_true", help="do not stop at end of stdin")
    args = parser.parse_args(argv)

    server = FakeLLMServer(
        context_window=args.context_window, port=args.port, cache_min_tokens=args.cache_min_tokens,
        strict=not args.lenient,
    )
    if args.replies:
        with open(args.replies, encoding="utf-8") as handle:
            loaded = json.load(handle)
        server.queue_many(loaded["replies"] if isinstance(loaded, dict) else loaded)
    done = threading.Event()

    def on_signal(_signum: int, _frame: Any) -> None:
        done.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    server.start()
    sys.stdout.write(f"FAKE_LLM_URL={server.url}\n")
    sys.stdout.flush()

    if not args.ignore_stdin:

        def watch_stdin() -> None:
            try:
                while os.read(sys.stdin.fileno(), 65536):
                    pass
            except (OSError, ValueError):
                pass
            done.set()

        threading.Thread(target=watch_stdin, name="fake-llm-stdin", daemon=True).start()
    try:
        while not done.wait(0.5):
            pass
    finally:
        server.stop()
    return 0
