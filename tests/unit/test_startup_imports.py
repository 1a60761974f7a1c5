"""What ``serve`` loads before the editor has its first answer.

The first interpreter only hands its environment over and replaces itself, so whatever it
loads is loaded twice on every start; the second loads what answering ``initialize`` needs,
and the engine, the log file and the contract's shapes just after. A module that creeps
into either set makes every editor wait for it: bench_startup shows the cost, these tests
show which module it is.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def loaded_by(script: str, env: dict[str, str] | None = None) -> set[str]:
    proc = subprocess.run([sys.executable, "-c", script + "\nimport json, sys\n"
                           "print(json.dumps(sorted(sys.modules)))"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr[-4000:]
    return set(json.loads(proc.stdout.strip().splitlines()[-1]))


def test_the_interpreter_that_hands_the_environment_over_loads_next_to_nothing() -> None:
    bare = loaded_by("pass")
    handing_over = loaded_by("import sidecar.cli, sidecar.credentials") - bare
    # The handover's own modules, and nothing of the standard library beyond what a bare
    # interpreter has: no logging, re, argparse, typing, pathlib.
    assert {m for m in handing_over if not m.startswith("sidecar")} == set()
    assert {m for m in handing_over if m.startswith("sidecar")} <= {
        "sidecar", "sidecar.cli", "sidecar.credentials", "sidecar.host", "sidecar.core",
        "sidecar.core.secrets", "sidecar.core.secrets.handoff"}, handing_over


def test_answering_initialize_loads_no_engine_log_file_or_sdk() -> None:
    script = ("import os\n"
              "os.environ['CONTEXT_SIDECAR_KEEP_ENVIRONMENT'] = '1'\n"
              "from sidecar.credentials import take_environment\n"
              "take_environment([])\n"
              "from sidecar.lsp.server import build_server\n"
              "from sidecar.logs import setup_logging\n"
              "setup_logging(None, 'WARNING')\n"
              "build_server()\n")
    loaded = loaded_by(script)
    assert "sidecar.lsp.server" in loaded and "pygls" in loaded
    deferred = ("sidecar.core.service", "sidecar.composition", "sidecar.routes", "sidecar.providers",
                "sidecar.mcp", "sidecar.tools", "sidecar.storage", "sidecar.contract.updates",
                "sidecar.contract.results", "platformdirs", "logging.handlers", "argparse",
                "anthropic", "openai", "mcp", "watchfiles", "tiktoken")
    early = sorted(m for m in loaded if any(m == d or m.startswith(d + ".") for d in deferred))
    assert early == []


def test_what_is_logged_before_the_file_opens_is_written_to_it(tmp_path: Path) -> None:
    log = tmp_path / "logs" / "sidecar.log"
    script = ("import logging\n"
              "from sidecar.logs import open_log_file, setup_logging\n"
              f"setup_logging({str(log)!r}, 'INFO')\n"
              "logging.getLogger('early').info('before the file opened')\n"
              "logging.getLogger('early').debug('below the level')\n"
              f"import os; assert not os.path.exists({str(log)!r})\n"
              "open_log_file()\n"
              "logging.getLogger('late').warning('after it opened')\n"
              "open_log_file()\n")
    loaded_by(script)
    lines = log.read_text().splitlines()
    assert [line.split(" ", 2)[2] for line in lines] == [
        "INFO early: before the file opened", "WARNING late: after it opened"]


def test_a_sidecar_that_ends_before_initialize_still_writes_its_log(tmp_path: Path) -> None:
    log = tmp_path / "sidecar.log"
    script = ("import logging\n"
              "from sidecar.logs import setup_logging\n"
              f"setup_logging({str(log)!r}, 'INFO')\n"
              "logging.getLogger('early').warning('ended before any answer')\n")
    loaded_by(script)
    assert "WARNING early: ended before any answer" in log.read_text()


def test_serve_options_read_without_argparse_as_argparse_reads_them() -> None:
    from sidecar.cli import _parser, _read_serve

    for words in ([], ["--stdio"], ["--acp"], ["--log-level", "DEBUG"], ["--log-level=WARNING"],
                  ["--stdio", "--log-file", "/tmp/x.log", "--acp", "--log-level", "ERROR"]):
        fast = _read_serve(words)
        namespace = vars(_parser("serve").parse_args(["serve", *words]))
        assert fast is not None, words
        assert fast == {k: v for k, v in namespace.items() if k not in ("command", "version")}, words
    # What the table cannot read goes to argparse, which explains or tolerates it.
    for words in (["--help"], ["--log-level"], ["--acp=yes"], ["--unknown"], ["--log-file", "--acp"]):
        assert _read_serve(words) is None, words
