"""Process groups: a child started in a group of its own, and the group stopped with it, so
stopping a command also stops what it started (``setsid``/``killpg``; a new process group and
``taskkill /T`` on Windows). Choices are made by what the running Python offers, as in
``sidecar.host``.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
from typing import Any


def has_process_groups() -> bool:
    return hasattr(os, "killpg") and hasattr(os, "setsid")


def new_group_options() -> dict[str, Any]:
    """Popen / create_subprocess_exec options that start the child in a group of its own,
    so stopping it also stops what it started."""
    if has_process_groups():
        return {"start_new_session": True}
    flag = getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)
    return {"creationflags": flag} if flag else {}


def signal_group(pid: int, hard: bool) -> None:
    """Ask (``hard=False``) or force (``hard=True``) the group led by ``pid`` to stop.

    Without process groups the whole tree goes through ``taskkill /T`` (Windows), else only
    the child itself can be reached.
    """
    if has_process_groups():
        sig = getattr(signal, "SIGKILL", signal.SIGTERM) if hard else signal.SIGTERM
        try:
            os.killpg(pid, sig)
        except (ProcessLookupError, PermissionError):
            pass
        return
    taskkill = shutil.which("taskkill")
    if taskkill is not None:
        args = [taskkill, "/T", "/PID", str(pid)] + (["/F"] if hard else [])
        try:
            subprocess.run(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=5, check=False)
            return
        except (OSError, subprocess.TimeoutExpired):
            pass
    try:
        os.kill(pid, signal.SIGTERM)  # TerminateProcess on Windows
    except (ProcessLookupError, PermissionError, OSError):
        pass
