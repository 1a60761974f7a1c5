"""A session's records and the views derived from them: what the model sees since the last
boundary, which results are cleared, how many compactions of each tier; and how records
reach the store (a compaction's records in one write)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sidecar.core.conversation.messages import CLEARED_TOOL_RESULT, Message
from sidecar.core.conversation.transcript import Transcript
from tests.unit.core.core_builders import assistant, result, text, tool_use, user
from tests.unit.core.engine_builders import build_engine, tool_turns


@dataclass
class RecordingStore:
    """A TranscriptStore that keeps each write as it was made."""

    writes: list[list[Message]] = field(default_factory=list)
    states: list[dict[str, Any]] = field(default_factory=list)

    def path_for(self, session_id: str, cwd: str) -> Path:
        return Path(cwd) / f"{session_id}.jsonl"

    def results_dir(self, session_id: str, cwd: str) -> Path:
        return Path(cwd) / session_id / "tool-results"

    def save_result(self, session_id: str, cwd: str, tool_use_id: str, text: str) -> Path:
        raise OSError("this store keeps no tool results")

    def prepare(self, session_id: str, cwd: str) -> None:
        pass

    def append(self, message: Message, session_id: str, cwd: str) -> None:
        self.writes.append([message])

    def append_many(self, messages: list[Message], session_id: str, cwd: str) -> None:
        self.writes.append(list(messages))

    def append_state(self, session_id: str, cwd: str, **state: Any) -> None:
        self.states.append(state)

    def close_session(self, session_id: str, cwd: str) -> None:
        pass

    def close(self) -> None:
        pass


def boundary(trigger: str, tier: str | None = None) -> Message:
    meta: dict[str, Any] = {"trigger": trigger}
    if tier is not None:
        meta["tier"] = tier
    return Message(kind="system", subtype="compact_boundary", content=[text("b")],
                   extra={"compactMetadata": meta})


def clearing(ids: list[str], trigger: str = "time_based") -> Message:
    return Message(kind="system", subtype="microcompact_boundary", content=[text("cleared")],
                   extra={"microcompactMetadata": {"trigger": trigger, "compactedToolIds": ids}})


def test_each_add_is_one_write_and_several_records_are_one() -> None:
    store = RecordingStore()
    transcript = Transcript("s1", "/w", store)
    first, second, third = user(text("a")), user(text("b")), user(text("c"))

    transcript.add(first)
    transcript.add(second, third)
    transcript.add()

    assert store.writes == [[first], [second, third]]
    assert transcript.records == [first, second, third]
    assert transcript.path() == Path("/w/s1.jsonl")


def test_restore_takes_records_without_writing_them() -> None:
    store = RecordingStore()
    transcript = Transcript("s1", "/w", store)
    transcript.restore([user(text("old"))])
    assert store.writes == [] and len(transcript.records) == 1
    assert Transcript("s2", "/w", None).path() is None


def test_the_model_sees_records_from_the_last_boundary_with_cleared_results_replaced() -> None:
    transcript = Transcript("s1", "/w", None)
    old = [user(text("before")), assistant(tool_use("t0")), user(result("t0", "old"))]
    recent = [user(text("after")), assistant(tool_use("t1"), mid="m1"),
              user(result("t1", "one")), assistant(tool_use("t2"), mid="m2"),
              user(result("t2", "two"))]
    transcript.restore([*old, clearing(["t0"]), boundary("auto", "full"), *recent,
                        clearing(["t1"])])

    view = transcript.model_view()
    assert view[0].subtype == "compact_boundary" and view[1].text() == "after"
    contents = {b["tool_use_id"]: b["content"] for m in view for b in m.tool_results()}
    assert contents == {"t1": CLEARED_TOOL_RESULT, "t2": "two"}
    # A clearing from before the boundary no longer applies; the records keep the text.
    assert transcript.cleared_ids() == {"t1"}
    assert transcript.records[7].tool_results()[0]["content"] == "one"


def test_clearings_of_the_withdrawn_cache_edits_clear_nothing() -> None:
    transcript = Transcript("s1", "/w", None)
    transcript.restore([assistant(tool_use("t1")), user(result("t1", "kept")),
                        clearing(["t1"], trigger="cache_edits")])
    assert transcript.cleared_ids() == set()
    assert transcript.model_view()[1].tool_results()[0]["content"] == "kept"


def test_compactions_count_tiers_and_not_clears() -> None:
    transcript = Transcript("s1", "/w", None)
    transcript.restore([boundary("auto", "full"), boundary("manual", "full"),
                        boundary("auto", "session_memory"), boundary("clear"),
                        boundary("auto"), boundary("auto", "bogus")])
    # A boundary without a tier is an older full compaction; an unknown tier is not counted.
    assert transcript.compactions() == {"full": 3, "session_memory": 1}
    assert transcript.since_boundary() == [transcript.records[-1]]


async def test_a_compaction_reaches_the_store_as_one_write(tmp_path: Path) -> None:
    engine = build_engine(tmp_path)
    store = RecordingStore()
    engine.session.transcript.store = store
    await tool_turns(engine, 2)

    await engine.compact()

    compaction = store.writes[-1]
    assert [m.kind for m in compaction][:2] == ["system", "user"]
    assert compaction[0].subtype == "compact_boundary" and compaction[1].is_compact_summary
    assert all(len(w) == 1 for w in store.writes[:-1])  # everything else is record by record
    assert engine.session.transcript.records[-len(compaction):] == compaction
    assert store.states  # the gauge's state is written at the end of each turn
