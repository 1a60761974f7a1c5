"""Checkpoint records read back into checkpoints, the file plan of a rewind (what is restored,
deleted, left alone), and the confinement of both to the session's folder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sidecar.core.checkpoints.ports import MemoryFileHistory, content_id
from sidecar.core.checkpoints.records import (
    backup_record,
    checkpoint_record,
    checkpoints_of,
    rewind_record,
    shell_record,
    write_record,
)
from sidecar.core.checkpoints.rewind import apply, plan_files, write_whole_file
from sidecar.core.conversation.messages import Message
from sidecar.storage.file_history import FileHistoryStore
from sidecar.storage.transcript import TranscriptWriter
from sidecar.storage.transcript_loader import load_transcript


def user(text: str) -> Message:
    return Message(kind="user", content=[{"type": "text", "text": text}])


def test_records_give_each_checkpoint_its_files_and_commands() -> None:
    records = [checkpoint_record("c1", "first", 100), user("first"),
               backup_record("c1", "/ws/a.py", "b" * 64), write_record("c1", "/ws/a.py", "x" * 64),
               backup_record("c1", "/ws/new.py", None), write_record("c1", "/ws/new.py", "y" * 64),
               backup_record("c1", "/ws/a.py", "z" * 64),  # a second backup of one turn: ignored
               shell_record("c1", "make"),
               checkpoint_record("c2", "second", 250), user("second"),
               backup_record("nope", "/ws/b.py", None)]  # of no checkpoint here: ignored
    first, second = checkpoints_of(records)
    assert (first.index, first.used, second.index, second.used) == (0, 100, 8, 250)
    assert first.to_json()["files"] == [{"path": "/ws/a.py", "created": False},
                                        {"path": "/ws/new.py", "created": True}]
    assert first.files["/ws/a.py"].blob == "b" * 64 and first.files["/ws/a.py"].last == "x" * 64
    assert first.commands == ["make"] and second.to_json()["files"] == []


def plan_of(tmp_path: Path, history: MemoryFileHistory, before: dict[str, bytes | None],
            after: dict[str, bytes | None]) -> list[Message]:
    """Records of one turn that changed ``before`` into ``after`` (None: absent)."""
    records = [checkpoint_record("c1", "change them", 10)]
    for name, old in before.items():
        path = str(tmp_path / name)
        records.append(backup_record("c1", path, history.put(old) if old is not None else None))
        new = after[name]
        records.append(write_record("c1", path, content_id(new) if new is not None else None))
    return records


def test_the_plan_restores_deletes_and_leaves_alone_what_someone_else_changed(
        tmp_path: Path) -> None:
    history = MemoryFileHistory()
    records = plan_of(tmp_path, history, {"a.py": b"A0", "new.py": None, "b.py": b"B0",
                                          "same.py": b"S0"},
                      {"a.py": b"A1", "new.py": b"N1", "b.py": b"B1", "same.py": b"S1"})
    (tmp_path / "a.py").write_bytes(b"A1")
    (tmp_path / "new.py").write_bytes(b"N1")
    (tmp_path / "b.py").write_bytes(b"B1 and the user's line")  # changed since
    (tmp_path / "same.py").write_bytes(b"S0")  # already back
    plans = plan_files(checkpoints_of(records), tmp_path, force=False)
    assert {p.path.name: p.action for p in plans} == {
        "a.py": "restore", "new.py": "delete", "b.py": "conflict", "same.py": "unchanged"}
    apply(plans, history)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.py", "b.py", "same.py"]
    assert (tmp_path / "a.py").read_bytes() == b"A0"
    assert (tmp_path / "b.py").read_bytes() == b"B1 and the user's line"
    forced = plan_files(checkpoints_of(records), tmp_path, force=True)
    assert {p.path.name: p.action for p in forced}["b.py"] == "restore"


def test_a_transcript_cannot_make_a_rewind_touch_files_outside_the_folder(tmp_path: Path) -> None:
    """A transcript is a file like any other: one naming ~/.bashrc or a path through a
    symlink out of the folder gets those files reported, never written or deleted."""
    workspace = tmp_path / "ws"
    workspace.mkdir()
    outside = tmp_path / "outside.txt"
    outside.write_bytes(b"keep me")
    (workspace / "link").symlink_to(tmp_path)
    history = MemoryFileHistory()
    records = [checkpoint_record("c1", "p", 1),
               backup_record("c1", str(outside), None), write_record("c1", str(outside), None),
               backup_record("c1", str(workspace / "link" / "outside.txt"), None),
               backup_record("c1", "relative.txt", None)]
    plans = plan_files(checkpoints_of(records), workspace, force=True)
    assert [p.action for p in plans] == ["conflict", "conflict", "conflict"]
    apply(plans, history)
    assert outside.read_bytes() == b"keep me"


def test_kept_contents_are_stored_once_and_only_by_their_own_id(tmp_path: Path) -> None:
    store = FileHistoryStore(tmp_path / "store", "/ws")
    first = store.put(b"same content")
    assert store.put(b"same content") == first == content_id(b"same content")
    assert len(list(store.root.rglob("*"))) == 2  # one folder, one file
    assert store.get(first) == b"same content"
    for forged in ("../../../etc/passwd", "a" * 63, first.upper()):
        with pytest.raises(KeyError):
            store.get(forged)


def test_a_whole_file_write_keeps_the_permissions_and_leaves_no_temporary(tmp_path: Path) -> None:
    script = tmp_path / "run.sh"
    script.write_bytes(b"#!/bin/sh\n")
    script.chmod(0o755)
    write_whole_file(script, b"#!/bin/sh\necho restored\n")
    assert script.read_bytes().endswith(b"restored\n") and script.stat().st_mode & 0o777 == 0o755
    assert [p.name for p in tmp_path.iterdir()] == ["run.sh"]


def test_a_loaded_transcript_follows_the_rewind_branch(tmp_path: Path) -> None:
    writer = TranscriptWriter(tmp_path)
    kept, gone = user("kept"), user("abandoned")
    for message in (kept, gone):
        writer.append(message, "s1", "/ws")
    writer.append(rewind_record("c2", "conversation", kept.uuid), "s1", "/ws")
    writer.append(user("after"), "s1", "/ws")
    writer.append(rewind_record("c1", "both", None), "s1", "/ws")  # back before everything
    writer.append(user("fresh"), "s1", "/ws")
    writer.close()
    path = writer.path_for("s1", "/ws")
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    markers = [line for line in lines if line.get("subtype") == "rewind"]
    assert [m["parentUuid"] for m in markers] == [kept.uuid, None]
    assert lines[3]["parentUuid"] == markers[0]["uuid"]  # the branch goes on from the marker
    loaded = load_transcript(path)
    assert [m.text() for m in loaded.messages if m.kind == "user"] == ["fresh"]
    half = tmp_path / "half.jsonl"
    half.write_text("\n".join(path.read_text().splitlines()[:4]) + "\n")
    assert [m.text() for m in load_transcript(half).messages if m.kind == "user"] == ["kept", "after"]


def test_a_rewind_removes_the_copies_an_interrupted_one_left(tmp_path: Path) -> None:
    """A kill between writing a file's new copy and renaming it over the file leaves the copy
    beside it; the next rewind of that file removes it."""
    history = MemoryFileHistory()
    records = plan_of(tmp_path, history, {"a.py": b"A0"}, {"a.py": b"A1"})
    (tmp_path / "a.py").write_bytes(b"A1")
    (tmp_path / ".a.py.rewind-0badc0de").write_bytes(b"A")
    apply(plan_files(checkpoints_of(records), tmp_path, force=False), history)
    assert [p.name for p in tmp_path.iterdir()] == ["a.py"]
