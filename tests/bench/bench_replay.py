"""Replay of the recorded corpus through the engine (``sidecar.replay``), timed.

A thin wrapper: the replay report itself prints the figures; this adds the wall time and
skips cleanly when the corpus or the replay module is absent.

Run: python tests/bench/bench_replay.py [corpus dir]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench.figures import CORPUS_DIR, header  # noqa: E402


def main(argv: list[str]) -> int:
    root = Path(argv[1]) if len(argv) > 1 else CORPUS_DIR
    header("bench_replay: the recorded corpus replayed through the engine")
    if not root.is_dir():
        print(f"   corpus not found at {root}; skipped")
        return 0
    try:
        from sidecar.replay.report import run_replay
    except ImportError as exc:
        print(f"   sidecar.replay.report is not available ({exc}); skipped")
        return 0
    from tests.bench.sidecar_process import quiet_fake_disconnects

    quiet_fake_disconnects()  # the replay's in-process fake would print each dropped socket
    started = time.perf_counter()
    status = run_replay(str(root), chart=None, as_json=False)
    print(f"   replay of {root} finished with status {status} in"
          f" {time.perf_counter() - started:.1f} s")
    return int(status or 0)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
