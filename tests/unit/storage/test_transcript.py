"""Our own transcripts: the Claude Code shape on disk and a lossless round trip."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from sidecar.core.conversation.messages import (
    SYNTHETIC_MODEL,
    Block,
    Message,
    Usage,
    tool_result_block,
    user_text,
)
from sidecar.storage.claude_code import api_calls
from sidecar.storage.paths import sanitize_cwd, transcript_path
from sidecar.storage.transcript import TranscriptWriter
from sidecar.storage.transcript_loader import load_transcript

CWD = "/home/dev/my project.v2"
SID = "0b7c6a7e-1111-4222-8333-944455556666"


def assistant_message(content: list[Block], **kw: Any) -> Message:
    return Message(kind="assistant", content=content, **kw)


def _conversation() -> list[Message]:
    call = {"type": "tool_use", "id": "toolu_01", "name": "Read", "input": {"path": "a.py"}}
    return [
        user_text("fix the bug", extra={"promptId": "p1", "nested": {"a": [1, 2]}}),
        user_text("<system-reminder>x</system-reminder>", is_meta=True),
        assistant_message(
            [{"type": "thinking", "thinking": "hm", "signature": "sig"}],
            message_id="msg_A", model="claude-sonnet-4-5", usage=Usage(3, 100, 2000, 8),
        ),
        assistant_message(
            [call], message_id="msg_A", model="claude-sonnet-4-5",
            usage=Usage(3, 100, 2000, 276), stop_reason="tool_use",
        ),
        Message(kind="user", content=[tool_result_block("toolu_01", "1\tprint(1)")]),
        assistant_message(
            [{"type": "text", "text": "API Error: overloaded"}],
            model=SYNTHETIC_MODEL, is_api_error=True, message_id="e1",
        ),
        Message(
            kind="system", subtype="compact_boundary",
            content=[{"type": "text", "text": "Conversation compacted"}],
            extra={"compactMetadata": {"trigger": "manual", "preTokens": 142431}},
        ),
        user_text("This session is being continued ...", is_compact_summary=True),
        Message(kind="attachment", content=[], attachment={"type": "file", "filename": "a.py"}),
        Message(
            kind="hook_result", content=[{"type": "text", "text": "hook said hi"}],
            attachment={"type": "hook_additional_context"}, is_virtual=True,
        ),
        Message(kind="system", subtype="local_command", content=[{"type": "text", "text": "/model"}]),
        assistant_message(
            [{"type": "text", "text": "done"}], message_id="msg_B", model="claude-sonnet-4-5",
            usage=Usage(1, 0, 2500, 40), stop_reason="end_turn",
        ),
    ]


def test_path_sanitizes_cwd_like_claude_code(tmp_path: Path) -> None:
    assert sanitize_cwd("/home/dev/my project.v2") == "-home-dev-my-project-v2"
    assert sanitize_cwd("C:\\Users\\é") == "C--Users--"
    long = sanitize_cwd("/" + "a" * 300)
    assert len(long) == 200 + 1 + 12 and long != sanitize_cwd("/" + "a" * 301)
    assert transcript_path(tmp_path, CWD, SID) == (
        tmp_path / "projects" / "-home-dev-my-project-v2" / f"{SID}.jsonl"
    )


def test_round_trip(tmp_path: Path) -> None:
    messages = _conversation()
    with TranscriptWriter(tmp_path) as writer:
        for message in messages:
            writer.append(message, SID, CWD, git_branch="main")
        writer.append_state(SID, CWD, model="claude-sonnet-4-5", provider="anthropic",
                            title="Fix the bug", used=2540, size=200_000)
        path = writer.path_for(SID, CWD)
    loaded = load_transcript(path)
    assert loaded.torn_lines == 0 and loaded.warnings == []
    assert (loaded.session_id, loaded.cwd, loaded.title) == (SID, CWD, "Fix the bug")
    assert (loaded.model, loaded.provider, loaded.used, loaded.size) == (
        "claude-sonnet-4-5", "anthropic", 2540, 200_000)
    assert len(loaded.messages) == len(messages)
    for original, back in zip(messages, loaded.messages):
        assert back.kind == original.kind
        assert back.uuid == original.uuid
        assert back.content == original.content
        assert back.timestamp == original.timestamp
        assert back.message_id == original.message_id
        assert back.model == original.model
        assert back.stop_reason == original.stop_reason
        assert (back.is_meta, back.is_virtual, back.is_compact_summary, back.is_api_error) == (
            original.is_meta, original.is_virtual, original.is_compact_summary,
            original.is_api_error)
        assert back.subtype == original.subtype
        assert back.attachment == original.attachment
        extra = {k: v for k, v in back.extra.items() if k != "logicalParentUuid"}
        assert extra == original.extra
    # The split response carries its final usage on both entries; the error has none.
    assert loaded.messages[2].usage == loaded.messages[3].usage == Usage(3, 100, 2000, 276)
    assert loaded.messages[5].usage is None
    calls = api_calls(loaded.messages)
    assert [(c.message_id, c.first_index, c.context_tokens) for c in calls] == [
        ("msg_A", 2, 3 + 100 + 2000 + 276), ("msg_B", 11, 1 + 2500 + 40)]


def test_records_have_claude_code_shape_and_chain(tmp_path: Path) -> None:
    messages = _conversation()
    writer = TranscriptWriter(tmp_path)
    for message in messages:
        writer.append(message, SID, CWD)
    writer.close()
    lines = writer.path_for(SID, CWD).read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    for record in records:
        for key in ("parentUuid", "isSidechain", "userType", "cwd", "sessionId", "version",
                    "type", "uuid", "timestamp"):
            assert key in record
        assert record["isSidechain"] is False and record["userType"] == "external"
    assert records[0]["parentUuid"] is None
    assert records[1]["parentUuid"] == records[0]["uuid"]
    assistant = records[3]["message"]
    assert {"id", "type", "role", "model", "content", "stop_reason", "usage"} <= set(assistant)
    assert assistant["type"] == "message" and assistant["usage"]["output_tokens"] == 276
    boundary = records[6]
    assert boundary["type"] == "system" and boundary["subtype"] == "compact_boundary"
    assert boundary["content"] == "Conversation compacted"
    assert boundary["parentUuid"] is None
    assert boundary["logicalParentUuid"] == records[5]["uuid"]
    assert boundary["compactMetadata"] == {"trigger": "manual", "preTokens": 142431}
    summary = records[7]
    assert summary["parentUuid"] == boundary["uuid"]
    assert summary["isCompactSummary"] is True and summary["isVisibleInTranscriptOnly"] is True
    assert records[5]["isApiErrorMessage"] is True
    assert records[8]["type"] == "attachment" and records[8]["attachment"]["type"] == "file"
    assert records[0]["message"]["role"] == "user"


def test_explicit_parent_wins(tmp_path: Path) -> None:
    writer = TranscriptWriter(tmp_path)
    first = writer.append(user_text("a"), SID, CWD)
    writer.append(user_text("b"), SID, CWD)
    third = writer.append(user_text("c", parent_uuid=first["uuid"]), SID, CWD)
    writer.close()
    assert third["parentUuid"] == first["uuid"]


def test_each_record_is_one_line_written_at_once(tmp_path: Path) -> None:
    writer = TranscriptWriter(tmp_path, fsync=True)
    writer.append(user_text("line one\nstill one record"), SID, CWD)
    path = writer.path_for(SID, CWD)
    # Written through, not buffered: visible to a reader before close.
    assert path.read_bytes().count(b"\n") == 1
    writer.close()
    assert os.stat(path).st_mode & 0o777 == 0o600


def test_reopened_transcript_continues_the_chain(tmp_path: Path) -> None:
    writer = TranscriptWriter(tmp_path)
    last = writer.append(user_text("a"), SID, CWD)
    writer.append_state(SID, CWD, model=None, provider=None, title=None, used=None, size=None)
    writer.close()
    again = TranscriptWriter(tmp_path)
    record = again.append(user_text("b"), SID, CWD)
    again.close()
    assert record["parentUuid"] == last["uuid"]


def test_torn_last_line_is_skipped_then_sealed(tmp_path: Path) -> None:
    writer = TranscriptWriter(tmp_path)
    for text in ("one", "two", "three"):
        writer.append(user_text(text), SID, CWD)
    writer.close()
    path = writer.path_for(SID, CWD)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) - 40])  # a crash in the middle of the last write
    loaded = load_transcript(path)
    assert [m.text() for m in loaded.messages] == ["one", "two"]
    assert loaded.torn_lines == 1 and "torn last line" in loaded.warnings[0]
    # Appending after the crash must not glue the new record onto the fragment.
    again = TranscriptWriter(tmp_path)
    record = again.append(user_text("four"), SID, CWD)
    again.close()
    reloaded = load_transcript(path)
    assert [m.text() for m in reloaded.messages] == ["one", "two", "four"]
    assert reloaded.torn_lines == 1 and "unparseable line 3" in reloaded.warnings[0]
    assert record["parentUuid"] == loaded.messages[-1].uuid


def test_api_keys_never_reach_the_transcript(tmp_path: Path) -> None:
    key = "sk-ant-api03-" + "x" * 40
    writer = TranscriptWriter(tmp_path)
    writer.append(user_text(f"my key is {key}, and task-abc stays"), SID, CWD)
    writer.close()
    text = writer.path_for(SID, CWD).read_text(encoding="utf-8")
    assert key not in text and "[REDACTED_API_KEY]" in text and "task-abc stays" in text


def test_unknown_types_and_sidechains_are_ignored(tmp_path: Path) -> None:
    path = tmp_path / "mixed.jsonl"
    lines = [
        {"type": "permission-mode", "mode": "plan"},
        {"type": "user", "uuid": "u1", "parentUuid": None, "sessionId": "s", "cwd": "/w",
         "timestamp": "2026-01-01T00:00:00.000Z", "message": {"role": "user", "content": "hi"}},
        {"type": "progress", "uuid": "p1", "parentUuid": "u1", "data": {"type": "hook_progress"}},
        {"type": "user", "uuid": "side", "parentUuid": None, "isSidechain": True,
         "message": {"role": "user", "content": "sub task"}},
        {"type": "brand-new-kind", "uuid": "n1", "parentUuid": "p1"},
        {"type": "assistant", "uuid": "a1", "parentUuid": "n1",
         "timestamp": "2026-01-01T00:00:05.000Z",
         "message": {"id": "m1", "model": "claude-x", "content": "hello",
                     "usage": {"input_tokens": 0, "output_tokens": 0}}},
        [1, 2, 3],
    ]
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    loaded = load_transcript(path)
    assert [m.uuid for m in loaded.messages] == ["u1", "a1"]
    assert [m.uuid for m in loaded.sidechain_messages] == ["side"]
    assert loaded.messages[0].content == [{"type": "text", "text": "hi"}]
    assert loaded.messages[1].parent_uuid == "u1"  # through progress and the unknown record
    assert loaded.messages[1].usage is None  # all-zero usage is no usage
    assert (loaded.created_at, loaded.updated_at) == (
        "2026-01-01T00:00:00.000Z", "2026-01-01T00:00:05.000Z")
    assert loaded.title == "hi" and loaded.provider == "anthropic"
