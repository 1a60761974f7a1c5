"""What the sidecar needs from the host operating system, with a path for each platform.

POSIX-only calls live here: advisory file locks (``fcntl.flock``; ``msvcrt.locking`` on
Windows), the shell that runs commands, and the pipe that hands the environment to a
re-executed sidecar. Choices are made by what the running Python offers
(an importable module, an ``os`` function), not by the platform's name, so a test can hide
a POSIX call and watch the other path run. Process groups, which the engine uses too, are
``sidecar.core.process_groups``.
"""

from __future__ import annotations

import errno
import os
import time
from types import ModuleType

# logging and shutil are imported where used: the first interpreter of ``serve``, which only
# hands its environment over and replaces itself, loads this module and should load little.


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


def shell_command(command: str) -> list[str]:
    """argv that runs ``command`` in the user's kind of shell: bash where there is one (Git
    for Windows ships it too), else the platform's own."""
    import shutil

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
        import logging

        logging.getLogger(__name__).warning(message)
