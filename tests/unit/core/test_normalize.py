"""Normalization rules and tool_use/tool_result pairing repair."""

from __future__ import annotations

from collections import defaultdict

import pytest

from sidecar.core.conversation.messages import (
    MISSING_TOOL_RESULT,
    NO_CONTENT,
    SYNTHETIC_MODEL,
    ApiMessage,
    Message,
)
from sidecar.core.conversation.normalize import (
    MEDIA_REMOVED,
    ORPHAN_REMOVED,
    ensure_tool_result_pairing,
    model_slice,
    normalize_for_api,
)
from tests.unit.core.core_builders import (
    assistant,
    corpus_lines,
    corpus_messages,
    message_from_line,
    result,
    text,
    tool_use,
    user,
)


def assert_well_formed(api: list[ApiMessage]) -> None:
    """What every provider demands: user first, strict alternation, each tool_use answered
    exactly once in the very next message, and no tool_result without its tool_use."""
    assert api, "normalization produced nothing"
    assert api[0].role == "user"
    for prev, nxt in zip(api, api[1:]):
        assert prev.role != nxt.role, f"two {prev.role} messages in a row"
    for i, m in enumerate(api):
        assert m.content, f"message {i} is empty"
        uses = [b["id"] for b in m.content if b.get("type") == "tool_use"]
        if m.role == "assistant":
            assert not any(b.get("type") == "tool_result" for b in m.content)
            if uses:
                assert i + 1 < len(api), "a tool_use at the very end has no result"
                answered = [b["tool_use_id"] for b in api[i + 1].content
                            if b.get("type") == "tool_result"]
                assert sorted(answered) == sorted(uses)
        else:
            results = [b["tool_use_id"] for b in m.content if b.get("type") == "tool_result"]
            if results:
                asked = [b["id"] for b in api[i - 1].content if b.get("type") == "tool_use"]
                assert sorted(results) == sorted(asked)
                # Results come first in a user message; the API rejects text before them.
                n = len(results)
                assert all(b.get("type") == "tool_result" for b in m.content[:n])


def texts(message: ApiMessage) -> list[str]:
    return [b["text"] for b in message.content if b.get("type") == "text"]


def all_text(api: list[ApiMessage]) -> str:
    return "\n".join(t for m in api for t in texts(m))


# --------------------------------------------------------------------------- attachments


def attachment(body: str) -> Message:
    return Message(kind="attachment", content=[], attachment={"type": "reminder", "text": body})


def test_attachment_bubbles_up_to_just_after_the_nearest_assistant() -> None:
    api = normalize_for_api([
        user(text("first")),
        assistant(text("answer")),
        user(text("second")),
        attachment("ATTACHED"),
    ])
    assert_well_formed(api)
    assert [m.role for m in api] == ["user", "assistant", "user"]
    last = texts(api[-1])
    # The attachment now precedes the typed prompt it followed in the record list.
    assert "ATTACHED" in last[0] and "<system-reminder>" in last[0]
    assert last[1] == "second"


def test_attachment_stops_after_a_tool_result_user_and_results_stay_first() -> None:
    api = normalize_for_api([
        user(text("go")),
        assistant(tool_use("t1")),
        user(result("t1")),
        user(text("typed while busy")),
        attachment("ATTACHED"),
    ])
    assert_well_formed(api)
    merged = api[-1].content
    assert merged[0]["type"] == "tool_result"
    assert "ATTACHED" in merged[1]["text"]
    assert merged[2]["text"] == "typed while busy"


def test_attachment_without_an_earlier_stop_goes_to_the_top() -> None:
    api = normalize_for_api([user(text("hello")), attachment("TOP")])
    assert len(api) == 1
    assert "TOP" in texts(api[0])[0]
    assert texts(api[0])[-1] == "hello"


def test_attachment_with_content_blocks_is_rendered_from_them() -> None:
    att = Message(kind="attachment", content=[text("file body")], attachment={"type": "file"})
    api = normalize_for_api([user(text("q")), assistant(text("a")), att, user(text("next"))])
    body = texts(api[-1])[0]
    assert body.startswith("<system-reminder>") and "file body" in body


# --------------------------------------------------------------------------- filtering


def test_virtual_records_are_dropped() -> None:
    api = normalize_for_api([
        user(text("real")),
        assistant(text("virtual answer"), is_virtual=True),
        user(text("display only"), is_virtual=True),
        assistant(text("answer")),
    ])
    assert_well_formed(api)
    assert "virtual answer" not in all_text(api)
    assert "display only" not in all_text(api)
    assert [texts(m) for m in api] == [["real"], ["answer"]]


def test_progress_system_and_synthetic_errors_are_filtered() -> None:
    api = normalize_for_api([
        user(text("q")),
        Message(kind="progress", content=[text("PROGRESS")]),
        Message(kind="system", content=[text("HOOK CHATTER")], subtype="stop_hook_summary"),
        Message(kind="system", content=[text("INFO")], subtype="informational"),
        assistant(text("API Error: overloaded"), model=SYNTHETIC_MODEL, is_api_error=True),
        assistant(text("SYNTHETIC"), model=SYNTHETIC_MODEL),
        user(text("retry")),
        assistant(text("done")),
    ])
    assert_well_formed(api)
    joined = all_text(api)
    for dropped in ("PROGRESS", "HOOK CHATTER", "INFO", "overloaded", "SYNTHETIC"):
        assert dropped not in joined
    assert texts(api[0]) == ["q", "retry"]


def test_local_command_system_record_becomes_user_text_merged_with_neighbour() -> None:
    api = normalize_for_api([
        user(text("run it")),
        assistant(text("ok")),
        Message(kind="system", subtype="local_command",
                content=[text("<local-command-stdout>3 files</local-command-stdout>")]),
        user(text("now what?")),
    ])
    assert_well_formed(api)
    assert [m.role for m in api] == ["user", "assistant", "user"]
    assert "<local-command-stdout>3 files" in texts(api[-1])[0]
    assert texts(api[-1])[-1] == "now what?"


def test_model_slice_starts_at_the_last_compact_boundary() -> None:
    boundary1 = Message(kind="system", subtype="compact_boundary", content=[text("c1")])
    boundary2 = Message(kind="system", subtype="compact_boundary", content=[text("c2")])
    records = [
        user(text("ancient")), assistant(text("ancient answer")), boundary1,
        user(text("summary one"), is_compact_summary=True), assistant(text("old answer")),
        boundary2,
        user(text("summary two"), is_compact_summary=True), user(text("new prompt")),
    ]
    sliced = model_slice(records)
    assert sliced[0] is boundary2 and len(sliced) == 3
    api = normalize_for_api(records)
    joined = all_text(api)
    assert "ancient" not in joined and "old answer" not in joined and "summary one" not in joined
    assert len(api) == 1 and texts(api[0]) == ["summary two", "new prompt"]
    assert model_slice(records[:2]) == records[:2]


# --------------------------------------------------------------------------- media


def image() -> dict:
    return {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AAAA"}}


@pytest.mark.parametrize("error", [
    "API Error: 400 image exceeds 5 MB maximum",
    "Image was too large. Double press esc to go back and try again with a smaller image.",
    "This model does not support image input",
])
def test_media_that_caused_a_too_large_error_is_stripped(error: str) -> None:
    api = normalize_for_api([
        user(text("before"), image()),  # an earlier, successful turn keeps its image
        assistant(text("seen")),
        user(text("look at this"), image()),
        assistant(text(error), model=SYNTHETIC_MODEL, is_api_error=True),
        user(text("try again without it")),
    ])
    assert_well_formed(api)
    assert api[0].content[1]["type"] == "image"
    failed_turn = api[-1].content
    assert not any(b["type"] == "image" for b in failed_turn)
    assert any(b["type"] == "text" and b["text"].startswith(MEDIA_REMOVED) for b in failed_turn)
    assert error not in all_text(api)


def test_media_inside_a_tool_result_is_replaced_so_pairing_survives() -> None:
    api = normalize_for_api([
        user(text("screenshot please")),
        assistant(tool_use("t1", name="Screenshot")),
        user(result("t1", [image()])),
        assistant(text("Request too large: image exceeds the limit"), model=SYNTHETIC_MODEL,
                  is_api_error=True),
    ])
    assert_well_formed(api)
    res = api[2].content[0]
    assert res["type"] == "tool_result" and res["content"] == [{"type": "text", "text": MEDIA_REMOVED}]


def test_media_is_kept_when_the_error_is_about_something_else() -> None:
    api = normalize_for_api([
        user(text("look"), image()),
        assistant(text("API Error: 529 overloaded"), model=SYNTHETIC_MODEL, is_api_error=True),
    ])
    assert api[0].content[1]["type"] == "image"


# --------------------------------------------------------------------------- merging


def test_consecutive_users_merge_with_tool_results_hoisted_first() -> None:
    api = normalize_for_api([
        user(text("go")),
        assistant(tool_use("t1")),
        user(text("a note typed meanwhile")),
        user(result("t1", "file body")),
        user(text("and another")),
    ])
    assert_well_formed(api)
    assert len(api) == 3
    merged = api[2].content
    assert merged[0] == result("t1", "file body")
    # Text blocks stay as they were sent: no newline is added to the earlier one.
    assert [b["text"] for b in merged[1:]] == ["a note typed meanwhile", "and another"]


def test_parallel_tool_calls_of_one_response_merge_across_interleaved_results() -> None:
    api = normalize_for_api([
        user(text("read both")),
        assistant(tool_use("t1"), mid="msg_X"),
        user(result("t1", "one")),
        assistant(tool_use("t2"), mid="msg_X"),
        user(result("t2", "two")),
    ])
    assert_well_formed(api)
    assert [m.role for m in api] == ["user", "assistant", "user"]
    assert [b["id"] for b in api[1].content] == ["t1", "t2"]
    assert [b["tool_use_id"] for b in api[2].content] == ["t1", "t2"]


def test_results_in_completion_order_are_put_in_call_order() -> None:
    api = normalize_for_api([
        user(text("three things")),
        assistant(text("on it"), mid="msg_X"),
        assistant(tool_use("bash", name="Bash", command="ls"), mid="msg_X"),
        assistant(tool_use("readA"), mid="msg_X"),
        assistant(tool_use("readB"), mid="msg_X"),
        user(result("bash")),
        user(result("readB")),
        user(result("readA")),
    ])
    assert_well_formed(api)
    assert len(api) == 3
    assert [b["tool_use_id"] for b in api[2].content] == ["bash", "readA", "readB"]


def test_records_of_different_responses_do_not_merge() -> None:
    api = normalize_for_api([
        user(text("q")),
        assistant(tool_use("t1"), mid="msg_X"),
        user(result("t1")),
        assistant(tool_use("t2"), mid="msg_Y"),
        user(result("t2")),
    ])
    assert_well_formed(api)
    assert len(api) == 5


def test_same_id_merge_does_not_jump_over_a_typed_user_prompt() -> None:
    api = normalize_for_api([
        user(text("q")),
        assistant(tool_use("t1"), mid="msg_X"),
        user(result("t1"), text("the user typed this")),
        assistant(text("later"), mid="msg_X"),
    ])
    assert_well_formed(api)
    assert [m.role for m in api] == ["user", "assistant", "user", "assistant"]


# --------------------------------------------------------------------------- tool references


def tool_reference(name: str) -> dict:
    return {"type": "tool_reference", "tool_name": name}


def test_tool_references_to_unavailable_tools_are_stripped() -> None:
    records = [
        user(text("find tools")),
        assistant(tool_use("t1", name="ToolSearch", query="db")),
        user(result("t1", [tool_reference("GoneTool"), tool_reference("KeptTool")]),
             tool_reference("GoneTool")),
    ]
    api = normalize_for_api(records, available_tools={"KeptTool", "ToolSearch"})
    assert_well_formed(api)
    res = api[2].content[0]
    assert res["content"] == [tool_reference("KeptTool")]
    assert tool_reference("GoneTool") not in api[2].content
    # Without tool search every reference goes; the result itself survives for pairing.
    api = normalize_for_api(records, available_tools=None)
    assert_well_formed(api)
    assert api[2].content[0]["content"] == []


# --------------------------------------------------------------------------- post passes


def thinking(value: str) -> dict:
    return {"type": "thinking", "thinking": value, "signature": "sig"}


def test_trailing_thinking_is_stripped_from_the_final_assistant_only() -> None:
    api = normalize_for_api([
        user(text("q")),
        assistant(thinking("early"), text("mid answer"), thinking("late"), mid="A"),
        user(text("more")),
        assistant(thinking("plan"), mid="B"),
        assistant(text("final"), mid="B"),
        assistant(thinking("afterthought"), mid="B"),
    ])
    assert_well_formed(api)
    # An earlier assistant keeps its trailing thinking (signed blocks must stay intact).
    assert [b["type"] for b in api[1].content] == ["thinking", "text", "thinking"]
    assert [b["type"] for b in api[-1].content] == ["thinking", "text"]


def test_trailing_whitespace_is_trimmed_from_the_final_assistant_only() -> None:
    # A request ending on an answer (a server-side compaction of a finished turn) must not
    # end in whitespace: the Messages API refuses it as a prefill would be.
    api = normalize_for_api([
        user(text("q")),
        assistant(text("first answer.  "), mid="A"),
        user(text("more")),
        assistant(text("A long answer. "), mid="B"),
    ])
    assert_well_formed(api)
    assert api[1].content == [text("first answer.  ")]
    assert api[-1].content == [text("A long answer.")]


def test_thinking_only_response_is_dropped() -> None:
    api = normalize_for_api([
        user(text("q")),
        assistant(thinking("hmm"), mid="A"),
        user(text("hello?")),
    ])
    assert_well_formed(api)
    assert len(api) == 1 and texts(api[0]) == ["q", "hello?"]


def test_whitespace_only_assistant_is_dropped_and_users_remerge() -> None:
    api = normalize_for_api([
        user(text("a")),
        assistant(text("  \n\t"), mid="A"),
        user(text("b")),
        assistant(text("real"), mid="B"),
    ])
    assert_well_formed(api)
    assert [texts(m) for m in api] == [["a", "b"], ["real"]]


def test_conversation_starting_with_an_assistant_gets_a_user_first() -> None:
    api = normalize_for_api([assistant(text("resumed mid-way"))])
    assert [m.role for m in api] == ["user", "assistant"]
    assert texts(api[0]) == [NO_CONTENT]


# --------------------------------------------------------------------------- pairing repair


def test_missing_result_gets_a_synthetic_error_result() -> None:
    api = normalize_for_api([
        user(text("q")),
        assistant(tool_use("t1"), tool_use("t2"), mid="A"),
        user(result("t1", "one")),
        assistant(text("continuing"), mid="B"),
    ])
    assert_well_formed(api)
    results = {b["tool_use_id"]: b for b in api[2].content}
    assert results["t1"]["content"] == "one" and not results["t1"].get("is_error")
    assert results["t2"] == {"type": "tool_result", "tool_use_id": "t2",
                             "content": MISSING_TOOL_RESULT, "is_error": True}


def test_tool_use_at_the_end_gets_a_synthetic_user() -> None:
    api = normalize_for_api([user(text("q")), assistant(text("let me look"), tool_use("t1"))])
    assert_well_formed(api)
    assert api[-1].role == "user"
    assert api[-1].content == [{"type": "tool_result", "tool_use_id": "t1",
                                "content": MISSING_TOOL_RESULT, "is_error": True}]


def test_orphan_and_duplicate_results_are_removed() -> None:
    api = normalize_for_api([
        user(text("q")),
        assistant(tool_use("t1")),
        user(result("t1", "first"), result("ghost"), result("t1", "second copy")),
        assistant(text("ok")),
    ])
    assert_well_formed(api)
    assert api[2].content == [result("t1", "first")]


def test_results_at_the_start_of_a_resumed_conversation_are_removed() -> None:
    api = normalize_for_api([user(result("gone")), assistant(text("hi"))])
    assert_well_formed(api)
    assert texts(api[0]) == [ORPHAN_REMOVED]
    api = normalize_for_api([user(result("gone"), text("keep me")), assistant(text("hi"))])
    assert api[0].content == [text("keep me")]


def test_duplicate_tool_use_ids_across_the_conversation_are_removed() -> None:
    api = normalize_for_api([
        user(text("q")),
        assistant(tool_use("t1"), mid="A"),
        user(result("t1", "first")),
        assistant(text("again?"), tool_use("t1"), mid="B"),
        user(result("t1", "replayed")),
        assistant(text("done"), mid="C"),
    ])
    assert_well_formed(api)
    assert [b["type"] for b in api[3].content] == ["text"]
    assert "replayed" not in str(api[4].content)
    assert api[4].content == [text(NO_CONTENT)]


def test_assistant_left_with_only_duplicates_keeps_a_placeholder() -> None:
    fixed = ensure_tool_result_pairing([
        ApiMessage("user", [text("q")]),
        ApiMessage("assistant", [tool_use("t1")]),
        ApiMessage("user", [result("t1")]),
        ApiMessage("assistant", [tool_use("t1")]),
    ])
    assert_well_formed(fixed)
    assert fixed[-1].content == [text(NO_CONTENT)]


def test_pairing_is_idempotent_on_well_formed_input() -> None:
    good = [
        ApiMessage("user", [text("q")]),
        ApiMessage("assistant", [tool_use("a"), tool_use("b")]),
        ApiMessage("user", [result("a"), result("b"), text("note")]),
        ApiMessage("assistant", [text("done")]),
    ]
    assert ensure_tool_result_pairing(good) == good
    assert ensure_tool_result_pairing(ensure_tool_result_pairing(good)) == good


def test_input_records_are_not_mutated() -> None:
    records = [
        user(text("q")),
        assistant(tool_use("t1"), mid="X"),
        user(text("note")),
        user(result("t1", [image()])),
        assistant(text("image too large"), model=SYNTHETIC_MODEL, is_api_error=True),
    ]
    before = [(m.kind, repr(m.content)) for m in records]
    normalize_for_api(records)
    assert [(m.kind, repr(m.content)) for m in records] == before


# --------------------------------------------------------------------------- real transcripts


def response_groups(records: list[Message]) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = defaultdict(list)
    for m in records:
        if m.kind == "assistant" and m.message_id:
            groups[m.message_id] += [b["id"] for b in m.tool_uses()]
    return {k: v for k, v in groups.items() if v}


def assert_responses_kept_whole(api: list[ApiMessage], records: list[Message]) -> None:
    """Every tool call of one API response sits in one assistant message."""
    where: dict[str, int] = {}
    for i, m in enumerate(api):
        for b in m.content:
            if b.get("type") == "tool_use":
                where[b["id"]] = i
    for mid, ids in response_groups(model_slice(records)).items():
        assert len({where[t] for t in ids}) == 1, f"response {mid} was split"


def test_spotter_parallel_calls_with_results_in_completion_order() -> None:
    lines = corpus_lines("spotter-3.jsonl")
    records = [m for m in (message_from_line(r) for r in lines[:69]) if m is not None]
    api = normalize_for_api(records)
    assert_well_formed(api)
    assert_responses_kept_whole(api, records)
    by_id = {b["id"]: i for i, m in enumerate(api) for b in m.content if b.get("type") == "tool_use"}
    # Bash, Read, Read in one response; the file holds their results as Bash, second Read,
    # first Read. The API message lists them in call order.
    calls = ["toolu_01AV9xzKULhMuNRnPtoS6PHE", "toolu_01Eh1BcVaWiY5tdgmLnAEoXk",
             "toolu_013mN18mfzQb2vrc2SQJJfur"]
    i = by_id[calls[0]]
    assert [b["id"] for b in api[i].content if b["type"] == "tool_use"] == calls
    assert [b["tool_use_id"] for b in api[i + 1].content] == calls
    # The same response interleaved with its results: [A(X,1) U(1) A(X,2) U(2) A(X,3) U(3)].
    interleaved = ["toolu_01XNwwueA7zMRBX2kTFWy5HV", "toolu_01EaXG6Ejh3ZHazonqJs1DMo",
                   "toolu_01QKgHsyMTCzfusHirKBAZNC"]
    j = by_id[interleaved[0]]
    assert [b["id"] for b in api[j].content if b["type"] == "tool_use"] == interleaved
    assert [b["tool_use_id"] for b in api[j + 1].content] == interleaved
    assert api[j + 1].content[1]["content"] == next(
        b for m in records for b in m.content if b.get("tool_use_id") == interleaved[1]
    )["content"]


@pytest.mark.parametrize("name", ["spotter-3.jsonl", "spotter-6.jsonl", "templar-2.jsonl",
                                  "attio-2.jsonl", "dmux-1.jsonl"])
def test_whole_real_transcripts_normalize_to_valid_requests(name: str) -> None:
    records = corpus_messages(name)
    api = normalize_for_api(records)
    assert_well_formed(api)
    assert_responses_kept_whole(api, records)
    # The corpus has no lost results, so the repair must not invent any.
    assert MISSING_TOOL_RESULT not in str([m.content for m in api])
    boundaries = [i for i, m in enumerate(records) if m.subtype == "compact_boundary"]
    if boundaries:
        before = records[: boundaries[-1]]
        api_before = normalize_for_api(before)
        assert_well_formed(api_before)
        assert_responses_kept_whole(api_before, before)
