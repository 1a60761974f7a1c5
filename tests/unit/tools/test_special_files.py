"""FIFOs, sockets and symlinks out of the workspace: every file tool refuses them, quickly.

Before, a Read or Write of a FIFO blocked the server's event loop until something opened
the other end. A blocked loop cannot run a timeout, so a watchdog thread opens both ends
of every FIFO after UNBLOCK_AFTER seconds; the test then fails on the time it took.
"""

from __future__ import annotations

import asyncio
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sidecar.core.ports import ToolOutcome
from sidecar.tools.base import BaseTool
from sidecar.tools.read import ReadTool
from sidecar.tools.search import GlobTool, GrepTool, LSTool
from sidecar.tools.write_edit import EditTool, MultiEditTool, WriteTool
from tests.fifo_release import release_later

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")

HANG_LIMIT = 5.0  # a refused call takes milliseconds; a blocked one never returns
UNBLOCK_AFTER = 3.0


async def run(tool: BaseTool, args: dict[str, Any], ctx: Any) -> ToolOutcome:
    return await asyncio.wait_for(tool.run(args, ctx), HANG_LIMIT)


@pytest.fixture
def fifo(ws: Path) -> Iterator[Path]:
    path = ws / "pipe.txt"
    os.mkfifo(path)
    stop = release_later(path, UNBLOCK_AFTER)
    yield path
    stop.set()


@pytest.fixture
def sock(ws: Path) -> Iterator[Path]:
    path = ws / "sock.txt"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    yield path
    server.close()


@pytest.mark.parametrize("special", ["fifo", "sock"])
async def test_read_write_edit_refuse_special_files(
    request: pytest.FixtureRequest, special: str, ctx: Any
) -> None:
    path: Path = request.getfixturevalue(special)
    kind = "FIFO" if special == "fifo" else "socket"
    started = time.monotonic()
    outcomes = [
        await run(ReadTool(), {"file_path": path.name}, ctx),
        await run(WriteTool(), {"file_path": path.name, "content": "x"}, ctx),
        await run(EditTool(), {"file_path": path.name, "old_string": "a", "new_string": "b"}, ctx),
        await run(MultiEditTool(), {"file_path": path.name,
                                    "edits": [{"old_string": "a", "new_string": "b"}]}, ctx),
        await run(GrepTool(), {"pattern": "x", "path": path.name}, ctx),
        await run(LSTool(), {"path": path.name}, ctx),
    ]
    assert time.monotonic() - started < UNBLOCK_AFTER
    for outcome in outcomes:
        assert outcome.is_error
        assert kind in outcome.text() and "not a regular file" in outcome.text(), outcome.text()
    assert ctx.edits == []  # nothing reached the editor


async def test_searches_and_listings_leave_special_files_out(
    ws: Path, fifo: Path, sock: Path, ctx: Any
) -> None:
    (ws / "plain.txt").write_text("needle\n")
    globbed = await run(GlobTool(), {"pattern": "*.txt"}, ctx)
    assert globbed.text() == str(ws / "plain.txt")
    grepped = await run(GrepTool(), {"pattern": "needle"}, ctx)
    assert not grepped.is_error and str(ws / "plain.txt") in grepped.text()
    assert fifo.name not in grepped.text()
    listed = await run(LSTool(), {}, ctx)
    assert "plain.txt" in listed.text()
    assert fifo.name not in listed.text() and sock.name not in listed.text()


async def test_a_fifo_swapped_in_after_the_check_does_not_block(
    ws: Path, ctx: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The type is checked on the opened descriptor too, not only by the first stat."""
    from sidecar.tools import documents

    target = ws / "swap.txt"
    target.write_text("plain\n")
    real_to_thread = asyncio.to_thread

    async def swap_then_read(fn: Any, *args: Any) -> Any:
        target.unlink()
        os.mkfifo(target)
        return await real_to_thread(fn, *args)

    stop = release_later(target, UNBLOCK_AFTER)
    monkeypatch.setattr(documents.asyncio, "to_thread", swap_then_read)
    started = time.monotonic()
    outcome = await run(ReadTool(), {"file_path": "swap.txt"}, ctx)
    stop.set()
    assert time.monotonic() - started < UNBLOCK_AFTER
    assert outcome.is_error and "FIFO" in outcome.text()


async def test_fallback_write_refuses_a_fifo(ws: Path, fifo: Path) -> None:
    """The session's own write (editors without applyEdit) never opens a FIFO."""
    from sidecar.tools.base import ToolError
    from sidecar.tools.documents import write_text

    started = time.monotonic()
    with pytest.raises(ToolError, match="FIFO"):
        await asyncio.wait_for(asyncio.to_thread(write_text, fifo, "x"), HANG_LIMIT)
    assert time.monotonic() - started < UNBLOCK_AFTER


async def test_symlinks_out_of_the_workspace(ws: Path, tmp_path: Path, ctx: Any) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("secret\n")
    (ws / "dangling").symlink_to(outside / "not-yet.txt")  # target does not exist yet
    (ws / "out.txt").symlink_to(outside / "secret.txt")
    (ws / "outdir").symlink_to(outside)
    (ws / "inside.txt").write_text("inside\n")
    (ws / "in-link.txt").symlink_to(ws / "inside.txt")

    write = await run(WriteTool(), {"file_path": "dangling", "content": "x"}, ctx)
    assert write.is_error and "outside the workspace" in write.text()
    assert not (outside / "not-yet.txt").exists()
    create = await run(EditTool(), {"file_path": "outdir/new.txt", "old_string": "", "new_string": "x"}, ctx)
    assert create.is_error and not (outside / "new.txt").exists()
    listed = await run(LSTool(), {}, ctx)
    assert "in-link.txt" in listed.text() and "inside.txt" in listed.text()
    assert "out.txt" not in listed.text() and "dangling" not in listed.text()
    grepped = await run(GrepTool(), {"pattern": "secret|inside", "output_mode": "content"}, ctx)
    assert "secret" not in grepped.text() and "inside" in grepped.text()

