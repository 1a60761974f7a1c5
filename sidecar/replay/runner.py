"""Replaying many files: one fake server per process, files spread over the cores.

Each file runs in its own event loop against the process's fake server (reset between
files). With more than one file and more than one core, worker processes (spawned, so no
server thread is forked) take the largest files first.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from sidecar.fake_llm import FakeLLMServer
from sidecar.replay.driver import replay_file
from sidecar.replay.result import SessionResult

_server: FakeLLMServer | None = None


def _quiet() -> None:
    # Warnings the engine logs (a compaction that did not shrink enough, ...) are in the
    # report already; on the terminal they would interleave with the table.
    logging.getLogger("sidecar").setLevel(logging.ERROR)


def process_server() -> FakeLLMServer:
    global _server
    if _server is None:
        _server = FakeLLMServer().start()
    return _server


def replay_one(path: str) -> SessionResult:
    _quiet()
    try:
        return replay_file(Path(path), process_server())
    except Exception as exc:  # one broken file must not lose the others' results
        logging.getLogger(__name__).exception("replay of %s failed", path)
        return SessionResult(
            file=path,
            model="",
            out_weight=5.0,
            skipped=f"replay failed: {type(exc).__name__}: {exc}",
        )


def default_workers(count: int) -> int:
    return max(1, min(count, os.cpu_count() or 1, 4))


def replay_paths(
    paths: list[Path],
    workers: int | None = None,
    progress: Callable[[SessionResult], None] | None = None,
) -> list[SessionResult]:
    """Results in the order of ``paths``."""
    names = [str(p) for p in paths]
    workers = default_workers(len(names)) if workers is None else workers
    results: dict[str, SessionResult] = {}
    if workers <= 1 or len(names) <= 1:
        for name in names:
            results[name] = replay_one(name)
            if progress:
                progress(results[name])
        return [results[n] for n in names]
    largest_first = sorted(names, key=lambda n: os.path.getsize(n), reverse=True)
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures = {pool.submit(replay_one, name): name for name in largest_first}
        for future in as_completed(futures):
            result = future.result()
            results[futures[future]] = result
            if progress:
                progress(result)
    return [results[n] for n in names]


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)
