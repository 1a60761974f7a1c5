"""Compaction storms through the real process: a 60K window and results that refill it.

A model that reads a file again whenever its content is not in the conversation used to
run one auto-compaction per request until ``maxTurnRequests``. These tests hold the three
guards: a result too large for the room left is saved to disk with a preview, a compaction
that leaves no real room counts as a failure, and a turn that keeps refilling stops.
"""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from typing import Any, Callable

import pytest
from pygls.exceptions import JsonRpcException

from sidecar.fake_llm import Reply, default_reply
from tests.e2e.session_client import (
    call,
    initialize,
    prompt,
    settings_for,
    start_client,
    stop_client,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")

# A 60K window: effective 40,000, auto-compact at 27,000, blocking at 37,000.
SMALL = {"contextWindow": 60_000}
SAVED = re.compile(r"Full output saved to: (/[^\s\"\\]+)")


def module_text(name: str, lines: int, marker_line: int) -> str:
    out = []
    for i in range(1, lines + 1):
        if i == marker_line:
            out.append(f"MARKER = '{name}-middle-{i}'\n")
        else:
            out.append(f"def {name}_handler_{i}(request):  return request.value * {i % 97}\n")
    return "".join(out)


def write_module(workspace: Path, name: str, lines: int) -> str:
    (workspace / f"{name}.py").write_text(module_text(name, lines, lines // 2))
    return f"{name}-middle-{lines // 2}"


async def start(llm: Any, tmp_path: Path, workspace: Path, **settings: Any) -> Any:
    client = await start_client()
    client.rec = await initialize(client, settings_for("anthropic", llm.url, tmp_path / "store", **settings))
    res = await call(client, "session/new", {"cwd": str(workspace)})
    client.sid = res["sessionId"]
    return client


def shown_messages(client: Any) -> list[str]:
    return [m["message"] if isinstance(m, dict) else m.message for m in client.messages]


def main_requests(llm: Any) -> list[Any]:
    return [r for r in llm.requests if r.call not in ("summary", "memory") and r.status == 200]


def completed_auto(client: Any) -> list[dict[str, Any]]:
    return [u for u in client.rec.of("compaction_update")
            if u["status"] == "completed" and u["trigger"] == "auto"]


def rereading_model(files: dict[str, str], on_summary: Callable[[Any], Reply] | None = None) -> Any:
    """Reads each file (name -> a marker from its middle) whenever the marker is not in the
    conversation; a saved output is read back in a slice around the middle."""
    ids = itertools.count()

    def respond(req: Any) -> Reply:
        if req.call in ("summary", "memory"):
            return on_summary(req) if on_summary and req.call == "summary" else default_reply(req)
        text = json.dumps(req.body["messages"])
        for name, marker in files.items():
            if marker in text:
                continue
            last = json.dumps(req.body["messages"][-1])
            saved = SAVED.search(last)
            if saved:
                middle = int(marker.rsplit("-", 1)[1])
                return Reply.tool_use("Read", {"file_path": saved.group(1), "offset": middle - 20,
                                               "limit": 40}, id=f"toolu_s{next(ids)}",
                                      text="Reading the saved output around the middle.")
            return Reply.tool_use("Read", {"file_path": f"{name}.py"}, id=f"toolu_r{next(ids)}",
                                  text=f"Reading {name}.py.")
        return Reply.text("I have read everything: the modules define request handlers.")

    return respond


async def test_a_result_too_large_for_the_room_left_is_saved_with_a_preview(
        llm: Any, tmp_path: Path, workspace: Path) -> None:
    # About 95 KB: Read returns it whole (under its own cap), ~25K tokens in a 27K budget.
    marker = write_module(workspace, "bigmod", 1_400)
    llm.responder = rereading_model({"bigmod": marker})
    client = await start(llm, tmp_path, workspace, **SMALL)
    try:
        res = await prompt(client, client.sid, "read bigmod.py and tell me what it defines")
        assert res["stopReason"] == "end_turn"
        assert len(main_requests(llm)) <= 4
        assert not client.rec.of("compaction_update")
        sent = json.dumps(llm.requests[-1].body["messages"])
        saved = SAVED.search(sent)
        assert saved is not None and "Preview" in sent
        path = Path(saved.group(1))
        # Next to the transcript, whole, and read back through the Read tool.
        assert path.parent.parent.name == client.sid and path.parent.name == "tool-results"
        assert marker in path.read_text() and len(path.read_text()) > 80_000
        assert "toolu_s" in sent and marker in sent
        # The preview is the head of the output, cut at a line end.
        first = next(b for m in llm.requests[-1].body["messages"] if m["role"] == "user"
                     for b in m["content"] if isinstance(b, dict) and b.get("type") == "tool_result")
        body = first["content"] if isinstance(first["content"], str) else first["content"][0]["text"]
        assert len(body) < 3_000 and "bigmod_handler_1(" in body
    finally:
        await stop_client(client)


async def test_a_turn_that_keeps_refilling_stops_with_a_clear_message(
        sidecars: Any, llm: Any, workspace: Path) -> None:
    # Ten files of ~3K tokens: each fits the room left, together they overflow the budget,
    # and the model wants all of them in view at once.
    files = {f"part{i}": write_module(workspace, f"part{i}", 200) for i in range(10)}
    llm.responder = rereading_model(files)
    client = await sidecars.session(workspace, **SMALL, sessionMemory={"enabled": False})
    res = await prompt(client, client.sid, "read every part and keep them all in view")
    assert res["stopReason"] == "max_turn_requests"
    assert len(completed_auto(client)) <= 3
    assert len(main_requests(llm)) < 40
    shown = [m for m in shown_messages(client) if "refills" in m]
    assert shown and "/clear" in shown[0] and "window" in shown[0]
    assert "refills" in client.rec.text()


async def test_a_compaction_without_real_headroom_counts_as_a_failure(
        sidecars: Any, llm: Any, workspace: Path) -> None:
    files = {f"part{i}": write_module(workspace, f"part{i}", 200) for i in range(10)}
    # A summarizer that keeps almost everything: each compaction shrinks the context a
    # little but leaves it near the auto-compact point.
    filler = " ".join(f"detail{i}" for i in range(6_000))

    def long_summary(req: Any) -> Reply:
        return Reply.text(f"<summary>{filler}</summary>")

    llm.responder = rereading_model(files, on_summary=long_summary)
    client = await sidecars.session(workspace, **SMALL, sessionMemory={"enabled": False})
    try:
        await prompt(client, client.sid, "read every part and keep them all in view")
    except JsonRpcException as err:
        assert err.code == -33003  # blocked once compaction can no longer help
    gauge = await call(client, "sidecar/gauge", {"sessionId": client.sid})
    assert gauge["autoCompact"]["circuitBreaker"] == "open"
    assert gauge["autoCompact"]["consecutiveFailures"] == 3
    assert len(main_requests(llm)) < 40
    done = completed_auto(client)
    # Committed, since they shrank the context, but not reported as a plain success.
    assert done and all(u.get("error") for u in done)
    assert all(u["tokensAfter"] < u["tokensBefore"] for u in done)


async def test_a_long_turn_of_new_reads_compacts_as_often_as_it_needs_and_finishes(
        llm: Any, tmp_path: Path, workspace: Path) -> None:
    """Thirty files of ~3K tokens read one after another in one turn (no clearing, so only
    compactions make room): the 60K window needs a compaction every few reads, more than
    ``autoCompact.maxPerTurn``, yet each asks for something new, so the turn gets somewhere
    and is not stopped as refilling."""
    names = [f"chapter{i:02d}" for i in range(30)]
    for name in names:
        write_module(workspace, name, 200)
    calls = itertools.count()

    def respond(req: Any) -> Reply:
        if req.call in ("summary", "memory"):
            return default_reply(req)
        n = next(calls)
        if n < len(names):
            return Reply.tool_use("Read", {"file_path": f"{names[n]}.py"}, id=f"toolu_c{n}",
                                  text=f"Reading {names[n]}.py.")
        return Reply.text("All thirty chapters read.")

    llm.responder = respond
    client = await start(llm, tmp_path, workspace, **SMALL,
                         microcompact={"stepClearing": {"enabled": False}})
    try:
        res = await prompt(client, client.sid, "read chapter00.py to chapter29.py in order")
        assert res["stopReason"] == "end_turn"
        assert len(completed_auto(client)) > 3  # more than maxPerTurn, each after new work
        assert len(main_requests(llm)) == len(names) + 1
    finally:
        await stop_client(client)
