"""What the sidecar needs from the host operating system, with a path for each platform.

Everything POSIX-only lives here: advisory file locks (``fcntl.flock``; ``msvcrt.locking``
on Windows), process groups and their signals (``setsid``/``killpg``; a new process group
and ``taskkill /T`` on Windows), the shell that runs commands, and the pipe that hands the
environment to a re-executed sidecar. Choices are made by what the running Python offers
(an importable module, an ``os`` function), not by the platform's name, so a test can hide
a POSIX call and watch the other path run.
"""

from __future__ import annotations

import errno
import logging
import os
import shutil
import signal
import subprocess
import time
from types import ModuleType
from typing import Any

log = logging.getLogger(__name__)


def _optional(name: str) -> ModuleType | None:
    try:
        return __import__(name)
    except ImportError:
        return None


# ----- file locks ------------------------------------------------------------------------


class LockTimeout(OSError):
    pass


def lock_exclusive(fd: int, timeout: float, what: str = "lock file") -> None:
    """Take an exclusive lock on ``fd`` within ``timeout`` seconds, or raise LockTimeout.

    The kernel drops the lock when the process dies, so a crash never leaves it held.
    Without either locking module (an unusual Python), only this process's own lock
    applies; the caller still serializes its own threads.
    """
    deadline = time.monotonic() + timeout
    fcntl = _optional("fcntl")
    msvcrt = None if fcntl is not None else _optional("msvcrt")
    if fcntl is None and msvcrt is None:
        _warn_once("no file locking module; history writes are serialized within this process only")
        return
    while True:
        try:
            if fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            else:
                assert msvcrt is not None
                # msvcrt locks a byte range from the current position: always byte 0.
                os.lseek(fd, 0, os.SEEK_SET)
                msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            return
        except OSError as exc:
            if exc.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK, errno.EDEADLK):
                raise
            if time.monotonic() >= deadline:
                raise LockTimeout(errno.EAGAIN, f"{what} busy for {timeout:g}s") from None
            time.sleep(0.005)


def unlock(fd: int) -> None:
    fcntl = _optional("fcntl")
    if fcntl is not None:
        fcntl.flock(fd, fcntl.LOCK_UN)
        return
    msvcrt = _optional("msvcrt")
    if msvcrt is not None:
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)


# ----- process groups ----------------------------------------------------------------------


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


def shell_command(command: str) -> list[str]:
    """argv that runs ``command`` in the user's kind of shell: bash where there is one (Git
    for Windows ships it too), else the platform's own."""
    bash = shutil.which("bash")
    if bash is not None:
        return [bash, "-c", command]
    if os.path.exists("/bin/sh"):
        return ["/bin/sh", "-c", command]
    return [os.environ.get("COMSPEC", "cmd.exe"), "/d", "/s", "/c", command]


# ----- pipes -------------------------------------------------------------------------------

_F_SETPIPE_SZ = 1031  # Linux; not exported by the fcntl module


def write_all_now(fd: int, data: bytes) -> bool:
    """Write all of ``data`` into the pipe ``fd`` without ever blocking; False when it does
    not fit (no reader is there yet to make room)."""
    fcntl = _optional("fcntl")
    if fcntl is not None and len(data) > 65_536:
        try:
            fcntl.fcntl(fd, _F_SETPIPE_SZ, len(data))
        except OSError:
            pass
    os.set_blocking(fd, False)
    view = memoryview(data)
    try:
        while view:
            written = os.write(fd, view)
            view = view[written:]
    except BlockingIOError:
        return False
    return True


def can_replace_process() -> bool:
    """Whether ``execve`` replaces this process in place (same pid, same stdio). Windows
    emulates it by starting a new process, which would cut the editor's pipes."""
    return hasattr(os, "fork") and hasattr(os, "execve")


_warned: set[str] = set()


def _warn_once(message: str) -> None:
    if message not in _warned:
        _warned.add(message)
        log.warning(message)
