"""How the API keys leave the process's own environment block at start.

Holding a key (kept in memory, removed from ``os.environ``, redacted, left out of every
child's environment) is ``sidecar.core.secrets.held_keys``'s part.

Holding is not enough on its own: ``/proc/<pid>/environ`` (and ``ps eww`` on macOS) shows the
environment block the process was *started* with, which ``unsetenv`` never touches, and a
shell command the user approved can read it (``cat /proc/$PPID/environ``). So ``serve``
starts by replacing itself (``execve``: same pid, same stdio) with an environment block
that holds only variables that never carry secrets and that the interpreter reads while it
starts (PATH, HOME, locale, PYTHON*, ...); every other variable travels through an
inherited pipe and is put back into ``os.environ`` before any sidecar code runs.

Why this and not ``prctl(PR_SET_DUMPABLE, 0)``: that only hides ``/proc/<pid>/environ``
from processes without CAP_SYS_PTRACE, so it protects nothing when the editor runs as
root (containers, dev VMs, this project's own CI), it is Linux-only, and it also blocks
debuggers and core dumps. The re-exec works for root, on macOS too, and does not need to
know in advance which variable holds the key: ``apiKeyEnv`` arrives from the editor after
start, when the block can no longer be changed, and the pipe has already moved every
variable that is not known to be harmless. Windows has no in-place exec (its ``execve``
starts a new process, cutting the editor's pipes) and no ``/proc``; there the key is only
removed from ``os.environ`` and from children's environments.
"""

from __future__ import annotations

import os
import sys

from sidecar import host
from sidecar.core.secrets.handoff import HANDOFF_ENV

# The first interpreter only hands its environment over and replaces itself, so this module
# loads nothing at import that the handover does not need (no logging, json or re): every
# module it loads is loaded twice on each start.

# What stays visible in the started process's environment block: what the interpreter and
# the C library read before any sidecar code runs, and nothing that carries credentials.
VISIBLE_VARIABLES = (
    "PATH", "HOME", "USER", "LOGNAME", "SHELL", "PWD", "TERM", "TZ", "LANG", "LANGUAGE",
    "LC_*", "TMPDIR", "TEMP", "TMP", "PYTHON*", "VIRTUAL_ENV", "CONDA_PREFIX", "SYSTEMROOT",
)

handoff_state = "not attempted"  # for the log and the tests: how the environment was received


_VISIBLE_NAMES = frozenset(p for p in VISIBLE_VARIABLES if not p.endswith("*"))
_VISIBLE_PREFIXES = tuple(p[:-1] for p in VISIBLE_VARIABLES if p.endswith("*"))


def is_visible(name: str) -> bool:
    return name != HANDOFF_ENV and (name in _VISIBLE_NAMES or name.startswith(_VISIBLE_PREFIXES))


def _warn(message: str, *args: object) -> None:
    import logging

    logging.getLogger(__name__).warning(message, *args)


# ----- start: move the environment out of the process's block ------------------------------


def take_environment(argv: list[str] | None = None) -> None:
    """Run first thing in ``serve``: receive the environment if this is the re-executed
    sidecar, else re-execute with only harmless variables visible (never returns then).
    Either way the default key variables are held in memory afterwards."""
    global handoff_state
    fd_text = os.environ.pop(HANDOFF_ENV, None)
    if fd_text is not None:
        handoff_state = _receive(fd_text)
    elif os.environ.get("CONTEXT_SIDECAR_KEEP_ENVIRONMENT"):
        handoff_state = "kept (CONTEXT_SIDECAR_KEEP_ENVIRONMENT)"
    elif not host.can_replace_process():
        handoff_state = "not available on this platform"
    else:
        handoff_state = _reexec(argv if argv is not None else list(getattr(sys, "orig_argv", [])))
    # Only the interpreter that goes on loads the keys' keepers: the one that re-executes
    # never gets here, and starts its successor sooner for it.
    from sidecar.core.secrets.held_keys import DEFAULT_KEY_VARIABLES, SDK_CREDENTIALS, hold
    from sidecar.core.secrets.redaction import register_secret

    for name in DEFAULT_KEY_VARIABLES:
        hold(name)
    for name in SDK_CREDENTIALS:
        register_secret(os.environ.get(name), name)


def _reexec(argv: list[str]) -> str:
    moved = {k: v for k, v in os.environ.items() if not is_visible(k)}
    if not moved:
        return "nothing to hide"
    if not argv or not sys.executable:
        return "not possible: the command line is unknown"
    import json

    payload = json.dumps(moved).encode("utf-8")
    read_end, write_end = os.pipe()
    try:
        if not host.write_all_now(write_end, payload):
            os.close(read_end)
            _warn("environment too large to hand over (%d bytes); key variables stay "
                        "in this process's environment block", len(payload))
            return "too large"
    finally:
        os.close(write_end)
    os.set_inheritable(read_end, True)
    env = {k: v for k, v in os.environ.items() if is_visible(k)}
    env[HANDOFF_ENV] = str(read_end)
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    try:
        os.execve(sys.executable, argv, env)
    except OSError as exc:  # the interpreter vanished or is not executable: go on as we are
        os.close(read_end)
        _warn("could not restart with a clean environment: %s", exc)
        return f"failed: {exc}"
    raise AssertionError("execve returned")  # pragma: no cover


def _receive(fd_text: str) -> str:
    import json

    try:
        fd = int(fd_text)
        chunks = []
        while chunk := os.read(fd, 65_536):
            chunks.append(chunk)
        os.close(fd)
        moved = json.loads(b"".join(chunks))
    except (ValueError, OSError) as exc:
        _warn("could not receive the environment: %s", exc)
        return f"receive failed: {exc}"
    if not isinstance(moved, dict):
        return "receive failed: not an object"
    for name, value in moved.items():
        if isinstance(name, str) and isinstance(value, str):
            os.environ[name] = value
    return "received"
