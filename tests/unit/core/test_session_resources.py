"""What a session's tools keep between calls (its background shells): one of each kind, made
on first use, closed when the session closes, is deleted, is cleared, or the sidecar shuts
down."""

from __future__ import annotations

from pathlib import Path

import pytest

from sidecar.contract.params import SessionParams
from sidecar.core.session_resources import SessionResources
from sidecar.core.turns.tool_context import SessionToolContext
from tests.unit.core.engine_builders import build_engine


class Kept:
    def __init__(self) -> None:
        self.closings = 0

    async def aclose(self) -> None:
        self.closings += 1


class Broken:
    async def aclose(self) -> None:
        raise OSError("cannot close")


async def test_one_of_each_kind_closed_together_and_made_anew() -> None:
    resources = SessionResources()
    kept = resources.get(Kept)
    assert resources.get(Kept) is kept
    resources.get(Broken)
    await resources.aclose()  # one failing does not keep the others open, nor raise
    assert kept.closings == 1
    again = resources.get(Kept)
    assert again is not kept
    await resources.aclose()
    assert (kept.closings, again.closings) == (1, 1)


async def test_tools_reach_the_sessions_resources(tmp_path: Path) -> None:
    engine = build_engine(tmp_path)
    kept = SessionToolContext(engine.session).resource(Kept)
    assert engine.session.resources.get(Kept) is kept
    assert SessionToolContext(engine.session).resource(Kept) is kept


@pytest.mark.parametrize("end", ["close", "delete", "clear", "shutdown"])
async def test_what_ends_a_sessions_conversation_closes_its_resources(tmp_path: Path, end: str) -> None:
    engine = build_engine(tmp_path)
    kept = SessionToolContext(engine.session).resource(Kept)
    params = SessionParams(session_id=engine.session.id)
    if end == "close":
        await engine.service.close_session(params)
    elif end == "delete":
        await engine.service.delete_session(params)
    elif end == "clear":
        result = await engine.prompt("/clear")
        assert result["stopReason"] == "end_turn"
        assert engine.service.get(engine.session.id) is engine.session  # still open
    else:
        await engine.service.shutdown()
    assert kept.closings == 1


async def test_other_commands_keep_the_resources(tmp_path: Path) -> None:
    engine = build_engine(tmp_path)
    kept = SessionToolContext(engine.session).resource(Kept)
    await engine.prompt("/context")
    assert kept.closings == 0
    await engine.service.shutdown()
